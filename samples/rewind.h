// Rewinding the sample game (game.c): a ring of the last REWIND_FRAMES
// frames, each a world snapshot (include/ledge/snapshot.h) and a copy of
// the game's own state (the player's velocity, the bodies it tracks, the
// autopilot's progress). Hold a key to go back one frame per frame; let go
// and the game plays on from there, the newer frames forgotten. Shared by
// the SDL window (platformer.c) and the web page (web/web_game.c).
#ifndef LEDGE_SAMPLE_REWIND_H
#define LEDGE_SAMPLE_REWIND_H

#include "game.h"

#define REWIND_FRAMES 600 // 10 s at 60 Hz

typedef struct rewind_frame {
    unsigned char *bytes; ///< The world's snapshot (grown as needed).
    size_t size, cap;
    game state; ///< The game's own state then (its world pointer is not used).
} rewind_frame;

typedef struct rewind_ring {
    rewind_frame *frames; ///< REWIND_FRAMES of them.
    int newest;           ///< Index of the newest frame kept.
    int count;            ///< Frames kept (the newest is the game's present).
} rewind_ring;

/// An empty ring; false when memory is short.
bool rewind_init(rewind_ring *r);

/// Keeps the game's present frame (call after each game_update); the
/// oldest is dropped once REWIND_FRAMES are kept. False (nothing kept)
/// when memory is short.
bool rewind_push(rewind_ring *r, const game *g);

/// One frame back: the game and its world become the frame before the
/// present, which is forgotten. False when no older frame is kept.
bool rewind_back(rewind_ring *r, game *g);

/// Forgets every frame (after a restart).
void rewind_clear(rewind_ring *r);

void rewind_free(rewind_ring *r);

#endif
