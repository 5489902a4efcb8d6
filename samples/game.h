// The sample game shared by the headless demo (demo.c), the SDL2 window
// (platformer.c) and the test that checks the demo's run (tests/test_demo.c):
// one level that uses every tile group, a one-way platform, a moving
// platform over a bowl holding a pile of boxes and balls, a few bullets,
// and a player moved by the character idiom of docs/character.md.
//
// The game owns its world and steps it at a fixed rate (GAME_DT); drawing
// and input are the caller's business. game_autopilot is the scripted
// player the headless demo uses: it reads the game's state, never the
// clock, so the run is the same on every machine.
#ifndef LEDGE_SAMPLE_GAME_H
#define LEDGE_SAMPLE_GAME_H

#include <ledge/ledge.h>

#define GAME_DT         (1.0f / 60.0f) // fixed step (s)
#define GAME_GRAVITY    (-20.0f)       // m/s^2
#define GAME_RUN        6.0f           // running speed (m/s)
#define GAME_JUMP       10.0f          // take-off speed (m/s): a 2.5 m jump
#define GAME_PLAYER_HX  0.3f           // player half extents (m)
#define GAME_PLAYER_HY  0.45f
#define GAME_MAX_BODIES 256   // boxes, balls and bullets the game keeps track of
#define GAME_GOAL_X     90.0f // the player has won past this x

/// One frame of input.
typedef struct game_input {
    float run; ///< -1 (left) .. 1 (right)
    bool jump; ///< jump now (when on the ground)
    bool drop; ///< drop through the one-way platform stood on
} game_input;

/// Where the autopilot is along the level (also printed by the demo).
typedef enum game_phase {
    PHASE_RUN,           // running right, jumping at walls
    PHASE_WAIT_PLATFORM, // at the bowl's edge, waiting for the moving platform
    PHASE_RIDE,          // on the moving platform
    PHASE_ONE_WAY_UP,    // jumping up through the one-way platform
    PHASE_ONE_WAY_STAND, // standing on it
    PHASE_ONE_WAY_DROP,  // dropping through it
    PHASE_GOAL,          // past GAME_GOAL_X
} game_phase;

/// What happened to the player in one frame.
typedef struct game_player_state {
    vec2s position;
    vec2s velocity;
    bool on_ground;
    bool on_wall;
    bool on_ceiling;
    bool on_platform; // standing on the moving platform
    bool on_one_way;  // standing on the one-way platform
} game_player_state;

typedef struct game {
    ledge_world *world;
    ledge_body_id player;
    ledge_body_id platform;                // kinematic, moves over the bowl
    ledge_body_id bodies[GAME_MAX_BODIES]; // the pile and the bullets
    int body_count;
    int bullet_count;
    vec2s velocity;         // the player's velocity, as its character state keeps it
    ledge_move_result move; // the player's last move
    game_player_state state;
    game_phase phase;
    bool platform_done;  // autopilot progress: rode the platform,
    bool one_way_done;   // went up through the one-way platform and down,
    bool bonked;         // hit the ceiling on purpose
    int frame;           // frames stepped since game_create
    int phase_frames;    // frames spent in the current phase
    double step_seconds; // wall-clock time spent in ledge_world_step (the demo's ms/step)
} game;

/// The level, its platforms, the pile and the player; false (logged by the
/// library) if the world could not be made.
bool game_create(game *g);
/// game_create with another friction law (tests/bench_models.c measures
/// the bowl under both).
bool game_create_with(game *g, ledge_friction_law law);
/// game_create from a def whose friction law and workers are kept (the
/// level sets gravity, map size and capacity; tests/test_workers.c runs
/// the level on several workers).
bool game_create_from(game *g, ledge_world_def wd);
void game_destroy(game *g);

/// One fixed frame: the player's move, the platform, the scripted bullets,
/// then ledge_world_step(GAME_DT).
void game_update(game *g, const game_input *in);

/// game_update in two halves, for a caller that steps the world itself
/// (the testbed's scene, samples/scenes/level.c): what comes before
/// ledge_world_step(g->world, GAME_DT), and what comes after it.
void game_before_step(game *g, const game_input *in);
void game_after_step(game *g);

/// The scripted player's input for this frame (see the file comment).
game_input game_autopilot(game *g);

/// Drops a box (or a ball) at `at` (the SDL sample's mouse); false when
/// GAME_MAX_BODIES are out or `at` is inside a wall.
bool game_spawn(game *g, vec2s at, bool ball);

/// The one-way platform's cells: x in [GAME_ONE_WAY_X0, GAME_ONE_WAY_X1], row GAME_ONE_WAY_Y.
#define GAME_ONE_WAY_X0 38
#define GAME_ONE_WAY_X1 43
#define GAME_ONE_WAY_Y  5

/// The level as ledge's ASCII form (docs/tilemap.md), GAME_WIDTH x GAME_HEIGHT.
#define GAME_WIDTH  96
#define GAME_HEIGHT 18
extern const char *const game_level;

#endif
