// The character table (characters.h): the state ledge keeps for each
// character, indexed by body handle, read by the step's stages (the ground
// state of events) and written by the character calls (character.c).
#include "characters.h"
#include "slots.h"

#include <string.h>

void ledge__characters_free(ledge_world *w) {
    ledge__characters *t = w->characters;
    if (t == NULL) return;
    ledge__free(t->c);
    ledge__free(t->list);
    ledge__free(t->first);
    ledge__free(t->order);
    ledge__free(t);
    w->characters = NULL;
}

static bool same_id(ledge_body_id a, ledge_body_id b) {
    return a.index1 == b.index1 && a.generation == b.generation && a.world == b.world;
}

// The character of living body slot i, or NULL. The table is indexed by
// the bodies' handles (an id's index1 - 1), which stay put when the world
// reorders its slots (world.c), so the table never needs remapping.
ledge__character *ledge__character_at(const ledge_world *w, int i) {
    const ledge__characters *t = w->characters;
    if (t == NULL || i < 0 || w->handle[i] >= t->cap) return NULL;
    ledge__character *c = &t->c[w->handle[i]];
    return c->id.index1 != 0 && same_id(c->id, ledge__body_id(w, i)) && w->alive[i] ? c : NULL;
}

// The character named by id, or NULL (logged as `fn` refusing it).
ledge__character *ledge__character_find(const ledge_world *w, ledge_body_id id, const char *fn) {
    int i = ledge__world_slot(w, id, fn);
    if (i < 0) return NULL;
    ledge__character *c = ledge__character_at(w, i);
    if (c == NULL) {
        LEDGE_ERROR("%s: body {%u, %u} is not a character (ledge_character_create)", fn, id.index1,
                    id.generation);
    }
    return c;
}

bool ledge__characters_reserve(ledge_world *w, int handles, const char *fn) {
    return handles <= 0 || ledge__characters_reserve_handle(w, handles - 1, fn);
}

// Room for handle i; all arrays allocated before the old ones are released.
bool ledge__characters_reserve_handle(ledge_world *w, int i, const char *fn) {
    ledge__characters *t = w->characters;
    if (t == NULL) {
        t = ledge__alloc(sizeof *t);
        if (t == NULL) {
            LEDGE_ERROR("%s: allocation of the character table failed", fn);
            return false;
        }
        memset(t, 0, sizeof *t);
        w->characters = t;
    }
    if (i < t->cap) return true;
    int cap = 2 * (i + 1) > 16 ? 2 * (i + 1) : 16;
    ledge__character *c = ledge__alloc(sizeof *c * (size_t)cap);
    int *list = ledge__alloc(sizeof *list * (size_t)cap);
    if (c == NULL || list == NULL) {
        ledge__free(c);
        ledge__free(list);
        LEDGE_ERROR("%s: allocation of the character table for %d bodies failed", fn, cap);
        return false;
    }
    memset(c, 0, sizeof *c * (size_t)cap);
    if (t->cap > 0) {
        memcpy(c, t->c, sizeof *c * (size_t)t->cap);
        memcpy(list, t->list, sizeof *list * (size_t)t->count);
    }
    ledge__free(t->c);
    ledge__free(t->list);
    t->c = c;
    t->list = list;
    t->cap = cap;
    return true;
}

bool ledge__character_ground(const ledge_world *w, int i, ledge_ground *g) {
    const ledge__character *c = ledge__character_at(w, i);
    if (c == NULL) return false;
    const ledge_character_state *s = &c->state;
    memset(g, 0, sizeof *g);
    g->on_ground = s->on_floor;
    g->on_ceiling = s->on_ceiling;
    g->on_wall_left = s->on_wall && s->wall_side < 0;
    g->on_wall_right = s->on_wall && s->wall_side > 0;
    g->ground_normal = s->floor_normal;
    g->wall_normal = s->wall_normal;
    g->ground_body = s->floor_body;
    g->ground_cell_x = s->floor_cell_x;
    g->ground_cell_y = s->floor_cell_y;
    return true;
}

float ledge__character_push_mass(const ledge_world *w, int i, const ledge_character_def *d) {
    if (d->push_mass > 0.0f) return d->push_mass;
    float a = ledge_shape_area(ledge__shape_of(w, i));
    return a > LEDGE_MIN_MASS ? a : LEDGE_MIN_MASS;
}
