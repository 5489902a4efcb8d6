// Ray casts through a tilemap (tilemap_ray.c): the world's queries' form,
// with a rule for one-way cells.
#ifndef LEDGE_TILEMAP_RAY_H
#define LEDGE_TILEMAP_RAY_H

#include "ledge/tilemap.h"

/// ledge_tilemap_raycast with a rule for one-way cells, `one_way` a
/// ledge_query_one_way (query.h): ALWAYS is ledge_tilemap_raycast; NEVER
/// passes one-way cells; AS_BODIES hits a one-way cell only where the
/// segment enters its solid through a surface whose normal is within 60
/// degrees of the cell's direction, not from a one-way cell of the same
/// direction across a side both cover, and, for a segment starting inside
/// it, only when backing the origin up by `reach` along the segment finds
/// such an entry (the hit is then at fraction 0 with that surface's
/// normal). No checks (the caller's).
bool ledge__tilemap_raycast_one_way(const ledge_tilemap *map, vec2s origin, vec2s translation,
                                    int one_way, float reach, ledge_ray_hit *out);

#endif // LEDGE_TILEMAP_RAY_H
