// The testbed's rewind (hold R): a ring of the last REWIND_FRAMES steps of
// the running scene, each its world's snapshot (include/ledge/snapshot.h),
// the scene's own state and its frame number, within REWIND_BYTES of
// snapshots in all. Going back one frame restores the world in place and
// the scene's state with it; stepping on from there pushes again, the
// newer frames forgotten. A scene that makes its world anew (the rain's
// sizes) starts the ring anew.
#ifndef LEDGE_SAMPLE_REWIND_H
#define LEDGE_SAMPLE_REWIND_H

#include "scene.h"

#define REWIND_FRAMES 600                   // 10 s at 60 Hz
#define REWIND_BYTES  (64u * 1024u * 1024u) // at most this much kept

typedef struct rewind_frame {
    unsigned char *bytes; ///< The world's snapshot (grown as needed).
    size_t size, cap;
    void *state; ///< The scene's state then (scene_def.state_size bytes).
    int frame;   ///< The scene's frame then.
} rewind_frame;

typedef struct rewind_ring {
    rewind_frame *frames;     ///< REWIND_FRAMES of them, made at the first push.
    int newest;               ///< The newest frame kept (the scene's present).
    int count;                ///< Frames kept.
    const ledge_world *world; ///< The world they are of.
} rewind_ring;

/// Keeps the scene's present frame (after each step); the oldest goes once
/// REWIND_FRAMES, or REWIND_BYTES, are kept. False (nothing kept, the ring
/// emptied) when memory is short or the world refuses.
bool rewind_push(rewind_ring *r, const scene *s);

/// One frame back: the scene's world, state and frame become the frame
/// before the present, which is forgotten. False when no older frame is
/// kept.
bool rewind_back(rewind_ring *r, scene *s);

/// Forgets every frame (a restart, another scene).
void rewind_clear(rewind_ring *r);

/// Frees the ring's memory.
void rewind_free(rewind_ring *r);

#endif
