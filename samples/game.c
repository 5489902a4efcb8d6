// The sample game (see game.h).
#include "game.h"

#include <math.h>
#include <string.h>
#include <time.h>

// 96 x 18, y up: the first line is the top row. Floor top at y = 4, from
// left to right: a 45 degree hill, a 22.5 degree hill, the bowl (rows 1..3,
// concave corners) that holds the pile under the moving platform, the
// one-way platform (row 5, made one-way in game_create), a 67.5 degree
// slope up to a raised floor under a ceiling of every ceiling tile, a 45
// degree descent, a half-tile step, a convex hump, a thin half-tile wall,
// and the goal.
const char *const game_level =
    "##############################################################################################"
    "##\n"
    "#F............................................................................................"
    "7#\n"
    "#............................................................................................."
    ".#\n"
    "#............................................................................................."
    ".#\n"
    "#............................................................................................."
    ".#\n"
    "#............................................................................................."
    ".#\n"
    "#............................................................................................."
    ".#\n"
    "#............................................................................................."
    ".#\n"
    "#..................................................Q##########P..............................."
    ".#\n"
    "#..................................................1{}\"p`['qZNf.............................."
    "..#\n"
    "#............................................................................................."
    ".#\n"
    "#............................................................................................."
    ".#\n"
    "#........./"
    "##\\........................######....j##############\\...............................#\n"
    "#......../"
    "####\\.<d##b>..........................D###############\\.....__....()....]............#\n"
    "########################..........############################################################"
    "##\n"
    "########################..........############################################################"
    "##\n"
    "########################L........J############################################################"
    "##\n"
    "##############################################################################################"
    "##\n";

#define PLATFORM_HX     1.5f
#define PLATFORM_HY     0.25f
#define PLATFORM_MID    29.0f // its centre swings 3.5 m each way over the bowl (x 24..34)
#define PLATFORM_SWING  3.5f
#define PLATFORM_PERIOD 5.0f // seconds
#define PI_F            3.14159265f

static vec2s v2(float x, float y) {
    vec2s o = {{x, y}};
    return o;
}

static double now_seconds(void) {
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static vec2s platform_target(int frame) {
    float t = (float)frame * GAME_DT;
    return v2(PLATFORM_MID - PLATFORM_SWING * cosf(2.0f * PI_F * t / PLATFORM_PERIOD),
              4.0f - PLATFORM_HY);
}

static ledge_body_id add_body(game *g, const ledge_body_def *def) {
    if (g->body_count >= GAME_MAX_BODIES) return (ledge_body_id){0};
    ledge_body_id id = ledge_body_create(g->world, def);
    if (ledge_body_is_valid(g->world, id)) g->bodies[g->body_count++] = id;
    return id;
}

static ledge_body_def pile_def(vec2s at, bool ball) {
    ledge_body_def d = ledge_default_body_def();
    d.position = at;
    d.shape =
        ball ? ledge_make_circle(v2(0, 0), 0.25f) : ledge_make_box(v2(0, 0), v2(0.24f, 0.24f));
    d.friction = ball ? 0.2f : 0.5f;
    d.bounce = 0.1f;
    return d;
}

// 4 rows of boxes and balls, alternating, inside the bowl (x 24..34, y
// 1..4); the bottom row keeps clear of the concave corners.
static void add_pile(game *g) {
    for (int row = 0; row < 4; ++row) {
        for (int col = 0; col < 9; ++col) {
            if (row == 0 && (col == 0 || col == 8)) continue;
            float stagger = row % 2 ? 0.45f : 0.0f; // so that they settle as a heap, not towers
            ledge_body_def d =
                pile_def(v2(24.6f + stagger + 1.0f * (float)col, 1.35f + 0.6f * (float)row),
                         (row + col) % 2 == 0);
            add_body(g, &d);
        }
    }
}

bool game_create(game *g) {
    return game_create_with(g, LEDGE_FRICTION_N);
}

bool game_create_with(game *g, ledge_friction_law law) {
    ledge_world_def wd = ledge_default_world_def();
    wd.friction_law = law;
    return game_create_from(g, wd);
}

bool game_create_from(game *g, ledge_world_def wd) {
    memset(g, 0, sizeof *g);
    wd.gravity = v2(0, GAME_GRAVITY);
    wd.map_width = GAME_WIDTH;
    wd.map_height = GAME_HEIGHT;
    wd.body_capacity = GAME_MAX_BODIES + 2;
    g->world = ledge_world_create(&wd);
    if (!g->world) return false;
    ledge_tilemap *map = ledge_world_tilemap(g->world);
    if (!ledge_tilemap_load_ascii(map, game_level)) {
        game_destroy(g);
        return false;
    }
    for (int x = GAME_ONE_WAY_X0; x <= GAME_ONE_WAY_X1; ++x)
        ledge_tilemap_set_one_way(map, x, GAME_ONE_WAY_Y, LEDGE_ONE_WAY_UP);

    ledge_body_def pd = ledge_default_body_def();
    pd.type = LEDGE_BODY_KINEMATIC;
    pd.shape = ledge_make_box(v2(0, 0), v2(PLATFORM_HX, PLATFORM_HY));
    pd.position = platform_target(0);
    g->platform = ledge_body_create(g->world, &pd);

    // The player is a character (docs/character.md): a kinematic body that
    // ledge_character_move moves and the step carries on the platform; the
    // pile feels it as a moving wall.
    ledge_body_def cd = ledge_default_body_def();
    cd.type = LEDGE_BODY_KINEMATIC;
    cd.shape = ledge_make_box(v2(0, 0), v2(GAME_PLAYER_HX, GAME_PLAYER_HY));
    cd.position = v2(3.0f, 4.0f + GAME_PLAYER_HY + 0.01f);
    g->player = ledge_body_create(g->world, &cd);
    add_pile(g);
    return ledge_character_create(g->world, g->player, NULL);
}

void game_destroy(game *g) {
    ledge_world_destroy(g->world);
    g->world = NULL;
}

// Three bullets down into the pile, two seconds in (the player is on the
// hills then, far from their path).
static void fire_bullets(game *g) {
    if (g->frame != 120 && g->frame != 140 && g->frame != 160) return;
    ledge_body_def d = ledge_default_body_def();
    d.shape = ledge_make_circle(v2(0, 0), 0.12f);
    d.position = v2(27.0f + 1.5f * (float)(g->bullet_count), 12.0f);
    d.velocity = v2(2.0f, -30.0f);
    d.bullet = true;
    d.density = 5.0f;
    d.bounce = 0.2f;
    if (ledge_body_is_valid(g->world, add_body(g, &d))) ++g->bullet_count;
}

// The floor the player's last move stood on, or NULL.
static const ledge_move_hit *ground_hit(const game *g) {
    const ledge_move_result *r = &g->move;
    return r->on_ground && r->ground_hit >= 0 ? &r->hits[r->ground_hit] : NULL;
}

static bool on_body(const game *g, ledge_body_id body) {
    const ledge_move_hit *h = ground_hit(g);
    return h && h->kind == LEDGE_HIT_BODY && LEDGE_ID_EQUALS(h->body, body);
}

static bool on_one_way_cells(const game *g) {
    const ledge_move_hit *h = ground_hit(g);
    return h && h->kind == LEDGE_HIT_TILE && h->cell_x >= GAME_ONE_WAY_X0 &&
           h->cell_x <= GAME_ONE_WAY_X1 && h->cell_y == GAME_ONE_WAY_Y;
}

// The character idiom of docs/character.md: the velocity ledge kept,
// gravity, a jump from the ground (or just off it: coyote time), the move;
// the step then carries the player on the platform.
static void move_player(game *g, const game_input *in) {
    ledge_character_state st;
    ledge_character_get_state(g->world, g->player, &st);
    vec2s vel = v2(in->run * GAME_RUN, st.velocity.y + GAME_GRAVITY * GAME_DT);
    if (in->jump && st.time_since_floor < 0.1f) vel.y = GAME_JUMP;
    if (in->drop && st.on_floor) ledge_body_drop_through(g->world, g->player);
    if (!ledge_character_move(g->world, g->player, vel, GAME_DT, &st)) return;
    g->velocity = st.velocity;
    g->move = st.last_move;
}

static void update_state(game *g) {
    game_player_state *s = &g->state;
    s->position = ledge_body_position(g->world, g->player);
    s->velocity = g->velocity;
    s->on_ground = g->move.on_ground;
    s->on_wall = g->move.on_wall;
    s->on_ceiling = g->move.on_ceiling;
    s->on_platform = on_body(g, g->platform);
    s->on_one_way = on_one_way_cells(g);
}

void game_before_step(game *g, const game_input *in) {
    // The platform is driven by position; the step carries a player
    // standing on it by the same displacement.
    ledge_body_set_target(g->world, g->platform, platform_target(g->frame + 1), GAME_DT);
    move_player(g, in);
    fire_bullets(g);
}

void game_after_step(game *g) {
    ++g->frame;
    ++g->phase_frames;
    update_state(g);
}

void game_update(game *g, const game_input *in) {
    game_before_step(g, in);
    double t0 = now_seconds();
    ledge_world_step(g->world, GAME_DT);
    g->step_seconds += now_seconds() - t0;
    game_after_step(g);
}

static void set_phase(game *g, game_phase p) {
    g->phase = p;
    g->phase_frames = 0;
}

// Running right: the bowl, the one-way platform and the ceiling each have
// their own move; a wall met on the ground is jumped over.
static game_input autopilot_run(game *g) {
    const game_player_state *s = &g->state;
    game_input in = {1.0f, false, false};
    float x = s->position.x;
    if (!g->platform_done && x >= 23.2f) {
        set_phase(g, PHASE_WAIT_PLATFORM);
        in.run = 0.0f;
    } else if (!g->one_way_done && x >= 40.0f) {
        set_phase(g, PHASE_ONE_WAY_UP);
        in.run = 0.0f;
        in.jump = true;
    } else if (!g->bonked && x >= 54.3f && s->on_ground) {
        in.jump = true; // under the half tile of the ceiling
    } else if (x >= GAME_GOAL_X) {
        set_phase(g, PHASE_GOAL);
        in.run = 0.0f;
    }
    if (s->on_ground && s->on_wall) in.jump = true;
    if (s->on_ceiling && x >= 54.0f && x <= 56.0f) g->bonked = true;
    return in;
}

// Wait at the bowl's edge until the platform is at its left end, walk
// onto it, stand near its right end while it crosses, walk off.
static game_input autopilot_platform(game *g) {
    const game_player_state *s = &g->state;
    vec2s p = ledge_body_position(g->world, g->platform);
    game_input in = {0.0f, false, false};
    if (g->phase == PHASE_WAIT_PLATFORM) {
        if (p.x - PLATFORM_HX <= 24.05f) set_phase(g, PHASE_RIDE);
        return in;
    }
    if (s->position.x < p.x + 0.9f) in.run = 1.0f;
    if (s->on_platform && p.x >= PLATFORM_MID + PLATFORM_SWING - 0.1f) {
        g->platform_done = true;
        set_phase(g, PHASE_RUN);
        in.run = 1.0f;
    }
    return in;
}

// Up through the one-way platform, stand half a second, drop through.
static game_input autopilot_one_way(game *g) {
    const game_player_state *s = &g->state;
    game_input in = {0.0f, false, false};
    if (g->phase == PHASE_ONE_WAY_UP && s->on_one_way) set_phase(g, PHASE_ONE_WAY_STAND);
    if (g->phase == PHASE_ONE_WAY_STAND && g->phase_frames >= 30) {
        in.drop = true;
        set_phase(g, PHASE_ONE_WAY_DROP);
    } else if (g->phase == PHASE_ONE_WAY_DROP && s->on_ground && !s->on_one_way &&
               g->phase_frames > 1) {
        g->one_way_done = true;
        set_phase(g, PHASE_RUN);
        in.run = 1.0f;
    }
    return in;
}

game_input game_autopilot(game *g) {
    switch (g->phase) {
    case PHASE_RUN:
        return autopilot_run(g);
    case PHASE_WAIT_PLATFORM:
    case PHASE_RIDE:
        return autopilot_platform(g);
    case PHASE_ONE_WAY_UP:
    case PHASE_ONE_WAY_STAND:
    case PHASE_ONE_WAY_DROP:
        return autopilot_one_way(g);
    case PHASE_GOAL:
        break;
    }
    game_input none = {0.0f, false, false};
    return none;
}

bool game_spawn(game *g, vec2s at, bool ball) {
    if (g->body_count >= GAME_MAX_BODIES) return false;
    if (ledge_tilemap_query_point(ledge_world_tilemap(g->world), at, NULL)) return false;
    ledge_body_def d = pile_def(at, ball);
    return ledge_body_is_valid(g->world, add_body(g, &d));
}
