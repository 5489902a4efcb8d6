// A static tree of bounding boxes (bvh.c): built once over a list of
// items, queried with a box, read only while it is queried (so several
// workers may query it at once). A chain files its segments in one (in the
// chain's order, which keeps a polyline's neighbours together), and the
// world files its chains in another (split by space).
#ifndef LEDGE_BVH_H
#define LEDGE_BVH_H

#include "core.h"

#include "ledge/collision.h"

/// Items per leaf at most.
#define LEDGE__BVH_LEAF 4

/// A node: a leaf holds order[first .. first + count), an inner node
/// (count 0) its two children at nodes[first] and nodes[first + 1].
typedef struct ledge__bvh_node {
    ledge_aabb box;
    int first, count;
} ledge__bvh_node;

/// The tree, and the room it was made with.
typedef struct ledge__bvh {
    ledge__bvh_node *nodes;
    int *order;        ///< The items in leaf order.
    ledge_aabb *boxes; ///< Each item's box (by item).
    float *keys;       ///< Scratch of a split by space.
    int *scratch;      ///< Scratch of a split by space.
    int count;         ///< Items filed.
    int node_count;
    int cap; ///< Items the arrays hold.
} ledge__bvh;

/// Room for `items` items (nothing changes, false, when an allocation
/// fails; the caller logs).
bool ledge__bvh_reserve(ledge__bvh *tree, int items);

/// Frees the tree's arrays.
void ledge__bvh_free(ledge__bvh *tree);

/// Files items 0 .. count - 1 (count within the reserved room) with their
/// boxes (copied). `by_space`: every node splits its items in two halves
/// along the longer side of their centres' bounds (ties by item); else the
/// items keep their order and every node splits it in the middle, so that
/// a query meets the items in increasing order. Allocates nothing.
void ledge__bvh_build(ledge__bvh *tree, const ledge_aabb *boxes, int count, bool by_space);

/// A walk of the items whose boxes meet a box (touching counts).
typedef struct ledge__bvh_iter {
    const ledge__bvh *tree;
    ledge_aabb box;
    int stack[64];
    int top;
    int at, end; ///< The leaf being read: order[at .. end).
} ledge__bvh_iter;

/// Starts a walk of `tree` for `box`.
void ledge__bvh_begin(ledge__bvh_iter *it, const ledge__bvh *tree, ledge_aabb box);

/// The next item whose box meets the walk's box, or -1 at the end.
int ledge__bvh_next(ledge__bvh_iter *it);

/// Whether two boxes meet (closed: touching counts).
static inline bool ledge__aabb_meet(ledge_aabb a, ledge_aabb b) {
    return a.lower.x <= b.upper.x && b.lower.x <= a.upper.x && a.lower.y <= b.upper.y &&
           b.lower.y <= a.upper.y;
}

/// The smallest box holding both.
static inline ledge_aabb ledge__aabb_union(ledge_aabb a, ledge_aabb b) {
    ledge_aabb r = {{{minf(a.lower.x, b.lower.x), minf(a.lower.y, b.lower.y)}},
                    {{maxf(a.upper.x, b.upper.x), maxf(a.upper.y, b.upper.y)}}};
    return r;
}

#endif // LEDGE_BVH_H
