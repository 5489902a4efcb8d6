// The broad phase's second half (broad.c): the candidate pairs from the
// loose grid the first half filed (broad_file.h), searched again after
// wakes, and the pairs of bodies pushed beyond the margin.
#ifndef LEDGE_BROAD_H
#define LEDGE_BROAD_H

#include "broad_file.h"
#include "broad_tiles.h"

/// The broad phase, second half (broad.c): lists the candidate body pairs
/// and the bodies near non-empty tiles, for the relaxation passes.
void ledge__broad_pairs(ledge_world *world);

/// A sleeper woken after ledge__broad_pairs (sleep.c): the blocks of the
/// search whose bodies it is within reach of are marked to search again.
void ledge__broad_woken(ledge_world *world, int slot);

/// The output of the blocks of a pair search made again, in one list:
/// block b's pairs start at start[stride * b] and end where the next
/// block's start (the last block's at `end`).
typedef struct ledge__fresh_list {
    const ledge__pair *pairs;
    const int *start;
    int stride, end;
} ledge__fresh_list;

/// A list of pairs made of `blocks` segments (segment b at start[b], the
/// last ending at *count) rebuilt in place: the segments with again[b]
/// set are replaced by block b's fresh pairs, the others keep theirs, in
/// block order (broad.c; growing the list, false and logged when it
/// cannot). `to` (room for `blocks`) gets the new starts.
bool ledge__splice_blocks(ledge__pair **list, int *count, int *cap, const int *start,
                          const uint8_t *again, const ledge__fresh_list *fresh, int blocks,
                          int *to);

/// ledge__broad_pairs again after wakes (ledge__broad_woken): the marked
/// blocks are searched again, the lists come out as a whole search would
/// give them.
void ledge__broad_pairs_again(ledge_world *world);

/// After a relaxation pass, on the calling thread: the pairs that the
/// bodies ledge__moved_far marked now make and that the broad phase could
/// not list (their boxes were not within the margin at the anchors) are
/// appended to the candidate pairs, each once per substep, so the next
/// pass projects them (broad.c). With `search` false (the last pass) the
/// marks are only cleared. Returns the pairs added.
int ledge__far_pairs(ledge_world *world, bool search);

#endif // LEDGE_BROAD_H
