// A static tree of bounding boxes (bvh.h): ranges of items split in two,
// each node's box the union of its items', walked with a fixed stack.
//
// Why a tree and not a grid: a chain's segments come in every length (a
// long straight run of one segment beside a curve of a hundred), which a
// grid files either into many cells each or into cells too coarse for the
// curve; a tree over the chain's own order keeps each node's segments
// neighbours along the polyline, so its boxes are tight, and a query costs
// the depth plus what it finds, whatever the chain's length.
#include "bvh.h"

#include <string.h>

bool ledge__bvh_reserve(ledge__bvh *t, int items) {
    if (items <= t->cap) return true;
    if (items > (1 << 26)) return false;
    size_t n = (size_t)items;
    ledge__bvh_node *nodes = ledge__alloc(sizeof *nodes * 2 * n);
    int *order = ledge__alloc(sizeof *order * n);
    ledge_aabb *boxes = ledge__alloc(sizeof *boxes * n);
    float *keys = ledge__alloc(sizeof *keys * n);
    int *scratch = ledge__alloc(sizeof *scratch * n);
    if (nodes == NULL || order == NULL || boxes == NULL || keys == NULL || scratch == NULL) {
        ledge__free(nodes);
        ledge__free(order);
        ledge__free(boxes);
        ledge__free(keys);
        ledge__free(scratch);
        return false;
    }
    ledge__bvh_free(t);
    t->nodes = nodes;
    t->order = order;
    t->boxes = boxes;
    t->keys = keys;
    t->scratch = scratch;
    t->cap = items;
    return true;
}

void ledge__bvh_free(ledge__bvh *t) {
    ledge__free(t->nodes);
    ledge__free(t->order);
    ledge__free(t->boxes);
    ledge__free(t->keys);
    ledge__free(t->scratch);
    memset(t, 0, sizeof *t);
}

// Sorts order[lo .. hi) by keys[item], ties by item (a merge sort through
// the scratch: stable, and the same order whatever the input's).
static void sort_range(ledge__bvh *t, int lo, int hi) {
    if (hi - lo < 2) return;
    int mid = lo + (hi - lo) / 2;
    sort_range(t, lo, mid);
    sort_range(t, mid, hi);
    int i = lo, j = mid, k = lo;
    while (i < mid || j < hi) {
        bool left = j == hi;
        if (!left && i < mid) {
            int a = t->order[i], b = t->order[j];
            float ka = t->keys[a], kb = t->keys[b];
            left = ka < kb || (ka == kb && a < b);
        }
        t->scratch[k++] = left ? t->order[i++] : t->order[j++];
    }
    memcpy(t->order + lo, t->scratch + lo, sizeof *t->order * (size_t)(hi - lo));
}

// The items order[lo .. hi) sorted along the longer side of their centres'
// bounds.
static void split_by_space(ledge__bvh *t, int lo, int hi) {
    vec2s c0 = v2(INFINITY, INFINITY), c1 = v2(-INFINITY, -INFINITY);
    for (int k = lo; k < hi; ++k) {
        ledge_aabb b = t->boxes[t->order[k]];
        vec2s c = v2(0.5f * (b.lower.x + b.upper.x), 0.5f * (b.lower.y + b.upper.y));
        c0 = v2(minf(c0.x, c.x), minf(c0.y, c.y));
        c1 = v2(maxf(c1.x, c.x), maxf(c1.y, c.y));
    }
    int axis = c1.x - c0.x >= c1.y - c0.y ? 0 : 1;
    for (int k = lo; k < hi; ++k) {
        ledge_aabb b = t->boxes[t->order[k]];
        t->keys[t->order[k]] = 0.5f * (b.lower.raw[axis] + b.upper.raw[axis]);
    }
    sort_range(t, lo, hi);
}

// Node `at` over order[lo .. hi); returns its box.
static ledge_aabb build_node(ledge__bvh *t, int at, int lo, int hi, bool by_space) {
    ledge__bvh_node *n = &t->nodes[at];
    if (hi - lo <= LEDGE__BVH_LEAF) {
        ledge_aabb box = t->boxes[t->order[lo]];
        for (int k = lo + 1; k < hi; ++k) box = ledge__aabb_union(box, t->boxes[t->order[k]]);
        n->box = box;
        n->first = lo;
        n->count = hi - lo;
        return box;
    }
    if (by_space) split_by_space(t, lo, hi);
    int mid = lo + (hi - lo) / 2, child = t->node_count;
    t->node_count += 2;
    n->first = child;
    n->count = 0;
    ledge_aabb a = build_node(t, child, lo, mid, by_space);
    ledge_aabb b = build_node(t, child + 1, mid, hi, by_space);
    t->nodes[at].box = ledge__aabb_union(a, b);
    return t->nodes[at].box;
}

void ledge__bvh_build(ledge__bvh *t, const ledge_aabb *boxes, int count, bool by_space) {
    LEDGE_ASSERT(count <= t->cap);
    t->count = count;
    t->node_count = 0;
    if (count <= 0) return;
    for (int k = 0; k < count; ++k) {
        t->order[k] = k;
        t->boxes[k] = boxes[k];
    }
    t->node_count = 1;
    build_node(t, 0, 0, count, by_space);
}

void ledge__bvh_begin(ledge__bvh_iter *it, const ledge__bvh *t, ledge_aabb box) {
    it->tree = t;
    it->box = box;
    it->top = 0;
    it->at = it->end = 0;
    if (t->node_count > 0) it->stack[it->top++] = 0;
}

int ledge__bvh_next(ledge__bvh_iter *it) {
    const ledge__bvh *t = it->tree;
    for (;;) {
        while (it->at < it->end) {
            int item = t->order[it->at++];
            if (ledge__aabb_meet(t->boxes[item], it->box)) return item;
        }
        if (it->top == 0) return -1;
        const ledge__bvh_node *n = &t->nodes[it->stack[--it->top]];
        if (!ledge__aabb_meet(n->box, it->box)) continue;
        if (n->count > 0) {
            it->at = n->first;
            it->end = n->first + n->count;
        } else if (it->top + 2 <= (int)(sizeof it->stack / sizeof it->stack[0])) {
            it->stack[it->top++] = n->first + 1; // the right child after the left
            it->stack[it->top++] = n->first;
        }
    }
}
