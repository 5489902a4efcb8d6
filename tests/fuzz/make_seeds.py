#!/usr/bin/env python3
"""Writes the seed corpus of the fuzz harnesses (tests/fuzz/corpus/<harness>/).

Each seed is a hand-made input in the harness's byte format (see the
decoders in fuzz_common.h and each harness's header comment), so that the
fuzzer starts from the interesting cases (overlap, containment, touching,
every tile, both loaders, a world with bodies of every shape that steps)
instead of having to find them. Run it from anywhere; it rewrites the
directory. The seeds are small and kept in the repository.
"""
import json
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def f(x):  # a grid float (fuzz_common.h: rd_float, tag < 0xFD)
    return bytes([0]) + struct.pack("<h", round(x * 512))


def raw(x):  # raw float bits (tag 0xFF)
    return bytes([0xFF]) + struct.pack("<f", x)


def vec(x, y):
    return f(x) + f(y)


def circle(cx, cy, r):
    return bytes([0]) + vec(cx, cy) + f(r)


def box(cx, cy, hx, hy):
    return bytes([1]) + vec(cx, cy) + vec(hx, hy)


def polygon(pts):
    return bytes([2, len(pts)]) + b"".join(vec(x, y) for x, y in pts)


TRI = [(-0.5, -0.4), (0.5, -0.4), (0.0, 0.6)]
HEX = [(0.5, 0), (0.25, 0.43), (-0.25, 0.43), (-0.5, 0), (-0.25, -0.43), (0.25, -0.43)]
SHAPES = [circle(0, 0, 0.5), box(0, 0, 0.5, 0.25), polygon(TRI), polygon(HEX)]


def collide_seeds():
    out = {}
    # op 0: collide pairs, overlapping, touching, contained.
    for i, a in enumerate(SHAPES):
        for j, b in enumerate(SHAPES):
            out[f"collide_{i}{j}"] = (
                bytes([0]) + a + b + vec(0, 0) + vec(0.3, 0.2) + bytes([0])
                + bytes([0]) + a + b + vec(1, 1) + vec(1, 2) + bytes([0]))
    out["contained"] = bytes([0]) + box(0, 0, 4, 4) + circle(0, 0, 0.5) + vec(0, 0) + vec(1, 1)
    out["invalid"] = bytes([0]) + circle(0, 0, -1) + polygon([(0, 0), (1, 1), (2, 2)]) + vec(0, 0) * 2
    out["nan"] = bytes([0, 0]) + raw(float("nan")) + f(0) + f(1) + SHAPES[1] + vec(0, 0) * 2
    # op 1: rays; op 2: sweeps; op 3: closed-form sweeps.
    out["ray"] = bytes([1]) + SHAPES[3] + vec(0, 0) + vec(-3, 0.1) + vec(6, 0)
    out["ray_inside"] = bytes([1]) + SHAPES[0] + vec(0, 0) + vec(0.1, 0) + vec(2, 1)
    out["sweep"] = bytes([2]) + SHAPES[1] + SHAPES[2] + vec(0, 0) + vec(4, 0) + vec(3, 0.2) + vec(-2, 0)
    out["sweep_circles"] = bytes([3]) + vec(0, 0) + vec(3, 0) + vec(2, 0) + vec(0, 0) + bytes([1]) + f(0.5) + f(0.5)
    out["sweep_boxes"] = bytes([3]) + vec(0, 0) + vec(3, 1) + vec(2, 0) + vec(0, -1) + bytes([0]) + vec(0.5, 0.5) + vec(0.5, 0.5)
    # op 4: decomposition of an L and a comb.
    ell = [(0, 0), (3, 0), (3, 1), (1, 1), (1, 3), (0, 3)]
    out["decompose_L"] = bytes([4, len(ell)]) + b"".join(vec(x, y) for x, y in ell) + bytes([16])
    comb = [(0, 0), (6, 0), (6, 3), (5, 3), (5, 1), (4, 1), (4, 3), (3, 3), (3, 1), (2, 1), (2, 3), (0, 3)]
    out["decompose_comb"] = bytes([4, len(comb)]) + b"".join(vec(x, y) for x, y in comb) + bytes([20])
    # op 5: a shape against every tile.
    seed = b""
    for t in range(34):
        seed += bytes([5, t]) + vec(0, 0) + f(1) + bytes([t % 16]) + SHAPES[t % 4] + vec(0.5, 0.8) + vec(0.3, 0.3)
    out["tiles"] = seed
    # op 0xF8: chain segments with neighbours (a direction byte >= 0x40 then
    # its vector, or < 0x40 for none), every shape, overlapping the segment,
    # at its ends, behind it, sweeping and casting across it.
    def seg(p, q, before, after, shape, off, move):
        d = lambda v: bytes([0]) if v is None else bytes([0x80]) + vec(*v)
        return bytes([0xF8]) + vec(*p) + vec(*q) + d(before) + d(after) + shape + vec(*off) + vec(*move)
    seed = b""
    turns = [None, (1, 0), (1, 1), (1, -1), (0, 1), (0, -1)]
    for k, shape in enumerate(SHAPES):
        for t, before in enumerate(turns):
            after = turns[(t + k) % len(turns)]
            seed += seg((2, 0), (0, 0), before, after, shape, (1 + 0.25 * t, 0.3), (0.5, -1))
            seed += seg((2, 0), (0, 0), before, after, shape, (2.2, 0.2), (-3, -0.5))
            seed += seg((2, 0), (0, 0), before, after, shape, (-0.1, 0.35), (1, 0))
    out["segments"] = seed
    return out


LEVEL = """\
; a small level with every kind of tile
#..................#
#..F7.....}{.......#
#..LJ..............#
#.......f1....pq...#
#.......PQ.........#
#....<d....b>......#
#...(##)...jl..["]_#
#..Z..N....DB......#
#.\\............./..#
####################
"""


def tilemap_seeds():
    out = {}
    rows = [r for r in LEVEL.splitlines() if r and not r.startswith(";")]
    header = bytes([20 - 1 + 40 * 0, len(rows) - 1, 0, 0, 0, 1])  # ascii
    ops = b""
    for x in range(0, 20, 3):  # set, point, region, ray, collide, edge
        ops += bytes([0, x, 5, x % 34]) + bytes([1, x, 3, 128, 128])
    ops += bytes([2]) + vec(0, 0) + vec(10, 5) + bytes([64])
    ops += bytes([3]) + vec(1.5, 8.5) + vec(15, -7)
    ops += bytes([4]) + circle(0, 0, 0.4) + vec(5.5, 1.2) + bytes([16])
    ops += bytes([4]) + polygon(HEX) + vec(9.5, 2.4) + bytes([16])
    ops += bytes([5, 3, 2, 2, 5, 0, 0, 8])
    out["ascii_level"] = header + LEVEL.encode() + b"\0" + ops
    out["ascii_bad_glyph"] = header + b"#x#\n" + b"\0" + ops
    # N's level string: 4 x 3, column by column.
    out["n_level"] = bytes([3, 2, 0, 8, 252, 0]) + b"111 101 121 131" + b"\0" + ops
    out["n_short"] = bytes([3, 2, 1, 0, 0, 0]) + b"11" + b"\0" + ops
    out["half_size"] = bytes([7, 7, 1, 4, 4, 1]) + b"\n".join([b"#.#.#.#." for _ in range(8)]) + b"\0" + ops
    return out


def world_header(w=20, h=12, cell=0):
    # width, height, tile size, gravity, iterations, substeps, cell size, capacity
    # (cell 0x10: the input makes joints, 0x08: chains, 0x18: both;
    # fuzz_world.c)
    return bytes([w - 4, h - 4, 0, 0, 3, 0, cell, 0])


def joint(type_, a=None, b=None, point=(100, 200), length=32, more=0, extra=b""):
    # op 10: type, which (bit 0: body a, bit 1: body b), the bodies' picks,
    # anchor a (or a point on the map), anchor b, length (/32), more, extra
    which = (1 if a is not None else 0) | (2 if b is not None else 0)
    out = bytes([10, type_, which])
    if a is not None:
        out += bytes([a])
    if b is not None or a is None:
        out += bytes([b if b is not None else 0])
    out += bytes([0, 0, 0])
    if a is None:
        out += bytes(point)
    return out + bytes([0, 0, 0, length, more]) + extra


def create(kind, px, py, vx=0, vy=0, type_=2):
    shape = SHAPES[kind % 4]
    return (bytes([0, type_]) + shape + bytes([px, py, vx & 0xFF, vy & 0xFF, 0])
            + bytes([100, 25, 0, 0, 0x81]))


def world_seeds():
    out = {}
    body = b""
    for k in range(12):
        body += create(k, 30 + 17 * k % 200, 120 + 9 * k, (k * 5) % 17 - 8, 0, 2 if k % 5 else 1)
    steps = bytes([5, 0]) * 30
    tiles = b"".join(bytes([3, x, 2, x % 34]) for x in range(1, 19))
    churn = b"".join(bytes([2, k]) + create(k + 1, 90, 200) + bytes([5, 0]) for k in range(6))
    setters = (bytes([4, 1, 0]) + vec(5, 5) + bytes([4, 2, 1]) + vec(3, 0)
               + bytes([4, 3, 2]) + vec(0, 4) + bytes([4, 4, 3]) + vec(-1, 0))
    floor = b"".join(bytes([6, k, 5 + k, 0, 100]) for k in range(8))
    stale = bytes([2, 0, 2, 0, 4, 0, 0]) + vec(1, 1) + bytes([7]) + vec(1, 1) + vec(2, 2) + bytes([0xF5, 3, 1])
    out["bodies_step"] = world_header() + tiles + body + steps
    out["churn"] = world_header() + body + steps + churn + steps
    out["setters"] = world_header() + body + setters + steps
    out["floor"] = world_header() + body + floor + steps + floor
    out["stale_ids"] = world_header() + body + stale + steps + stale
    out["odd_dt"] = world_header(8, 8) + body + bytes([5, 3, 5, 4, 5, 5, 5, 6, 5, 7, 5, 8, 5, 9])
    # Chains (cell byte 0x08; ops 10..13 after the materials' op 9, or
    # 12..15 with joints too). Op 10: head = count - 2 | loop << 4 |
    # kinematic << 5, the points, a velocity, a filter (bit 6: a material
    # follows, op 9's four bytes): a hill, a kinematic platform, an icy
    # rock, a belt; then changes (op 11: pick, what, a vector, for what 4 a
    # material), resting bodies (op 12) and queries (op 13).
    def chain_op(head, pts, velocity=(0, 0), filt=0x81, material=b"", first=10):
        return (bytes([first, head]) + bytes(pts) + bytes([velocity[0] & 0xFF, velocity[1] & 0xFF, filt])
                + material)
    def mat(f, b, speed, mix):
        return bytes([f, b, (speed + 120) & 0xFF, mix])
    hill = chain_op(4, [240, 40, 170, 40, 140, 90, 110, 90, 80, 40, 10, 40])
    platform = chain_op(0x20 | 1, [200, 150, 170, 160, 140, 150], (8, 0))
    rock = chain_op(0x10 | 3, [60, 150, 80, 150, 90, 170, 70, 185, 50, 170], filt=0xC1,
                 material=mat(0, 0, 0, 1))
    belt = chain_op(1, [120, 120, 90, 110, 60, 120], filt=0xC1, material=mat(2, 1, 32, 1))
    moving_belt = chain_op(0x20, [230, 100, 200, 100], (-6, 0), filt=0xC1, material=mat(3, 0, -24, 2))
    changes = (bytes([11, 1, 2]) + vec(1, 0) + bytes([11, 0, 5]) + vec(0, 0)
               + bytes([11, 1, 3]) + vec(9, 8) + bytes([11, 2, 4]) + vec(0, 0) + mat(4, 4, 16, 0)
               + bytes([11, 0, 4]) + vec(0, 0) + bytes([0, 0, 120, 0xF5]))  # a mix that is none
    rest = b"".join(bytes([12, k, 4 + 2 * k, 6, 80]) for k in range(6))
    queries = b"".join(bytes([13]) + vec(3 + k, 9) + vec(0.5, -8) for k in range(6))
    chains = world_header(cell=0x08)
    out["chains"] = chains + hill + platform + rock + belt + moving_belt + body + steps + changes + steps
    out["chain_rest"] = chains + body + rest + steps + rest
    out["chain_queries"] = chains + hill + rock + queries + steps + queries
    out["chain_churn"] = (chains + hill + bytes([11, 0, 0]) + vec(0, 0) + platform
                          + rock + steps + bytes([11, 1, 0]) + vec(0, 0) + hill + steps)
    # Chains and joints together: the chains' ops are 12..15.
    out["chains_joints"] = (world_header(cell=0x18) + chain_op(4, [240, 40, 170, 40, 140, 90, 110, 90, 80, 40, 10, 40], first=12)
                            + body + joint(1, None, 0, (100, 230), 40) + steps
                            + bytes([13, 0, 4]) + vec(0, 0) + mat(1, 0, 16, 1) + steps)
    # Joints: a chain of ropes from a point, then one of each type between
    # bodies, steps, calls on them (op 11) and a body destroyed under them.
    chain = joint(1, None, 0, (100, 230), 40) + b"".join(joint(1, k, k + 1, length=40) for k in range(6))
    kinds = (joint(0, 7, 8) + joint(2, 8, 9, more=4 | 8, extra=bytes([16, 20]))
             + joint(3, 9, 10) + joint(4, 10, 11, more=32 | 64, extra=bytes([0xF0, 0x10, 20, 40]))
             + joint(5, 11, 0, more=128, extra=vec(2, 8) + vec(6, 8) + bytes([64, 0])))
    calls = b"".join(bytes([11, k, 0, 0, 40, 40, 0, k]) for k in range(8))
    out["joints_chain"] = world_header(cell=0x10) + body + chain + steps
    out["joints_kinds"] = world_header(cell=0x10) + body + kinds + steps + calls + steps
    out["joints_destroyed"] = (world_header(cell=0x10) + body + chain + kinds + steps
                               + bytes([2, 3, 2, 8]) + steps)
    # Materials (op 9: what, friction, bounce, speed, mix bytes, then the
    # tile, cell or body): belt cells both ways, an icy run, a bouncy pad,
    # a tile id's belt, a belt body, a cell taken away, the check of all.
    def material(what, f, b, speed, mix, *rest):
        return bytes([9, what, f, b, (speed + 120) & 0xFF, mix] + list(rest))
    mats = b"".join(material(1, 2, 0, 32, 1, x, 0) for x in range(2, 8))
    mats += b"".join(material(1, 2, 0, -48, 1, x, 0) for x in range(8, 14))
    mats += b"".join(material(1, 0, 0, 0, 1, x, 0) for x in range(14, 16))
    mats += material(1, 4, 3, 0, 1, 16, 0) + material(0, 3, 0, 16, 2, 1)
    mats += material(3, 2, 0, 24, 0, 1, 1) + material(2, 0, 0, 0, 0, 5, 0) + material(4, 0, 0, 0, 0, 0x40)
    out["materials"] = world_header() + body + mats + steps + mats[:6] + steps
    return out
    return out


# LDtk projects (fuzz_ldtk.c): a flags byte (the def), then the JSON. Small
# projects of 8 x 6 cells (the harness compares its two tilemap loaders on
# such a map) with every layer kind, tileset tags and custom data, entities
# with every field type, several levels, worlds and a separate level file.
def ldtk_json(obj):
    return json.dumps(obj, separators=(",", ":")).encode()


def ldtk_layer(kind, name, w, h, **extra):
    layer = {"__identifier": name, "__type": kind, "__gridSize": 16, "__cWid": w, "__cHei": h,
             "__pxTotalOffsetX": 0, "__pxTotalOffsetY": 0, "layerDefUid": 1,
             "__tilesetDefUid": 10 if kind != "Entities" else None, "intGridCsv": [],
             "autoLayerTiles": [], "gridTiles": [], "entityInstances": []}
    layer.update(extra)
    return layer


def ldtk_field(name, kind, value):
    return {"__identifier": name, "__type": kind, "__value": value}


def ldtk_entity(name, x, y, w=16, h=16, pivot=(0, 0), fields=(), iid=None):
    return {"__identifier": name, "iid": iid or name.lower(), "px": [x, y],
            "__grid": [x // 16, y // 16], "__pivot": list(pivot), "width": w, "height": h,
            "fieldInstances": list(fields)}


def ldtk_level(name, x, y, w, h, layers, fields=()):
    return {"identifier": name, "iid": "iid-" + name, "worldX": x, "worldY": y, "pxWid": w * 16,
            "pxHei": h * 16, "layerInstances": layers, "fieldInstances": list(fields)}


def ldtk_project(levels, layout="Free", **extra):
    names = ["full", "slope45_up_left", "slope45_up_right", "half_top_one_way", "ladder",
             "_22DEG_BIG_NN", None, "concave_up_right"]
    values = [{"value": k + 1, "identifier": n} for k, n in enumerate(names)]
    tags = [{"enumValueId": "slope67_small_up_right", "tileIds": [1, 2]},
            {"enumValueId": "Water", "tileIds": [3]}]
    custom = [{"tileId": 4, "data": "ledge_tile=half_bottom\none_way=up\nfriction=0.2"},
              {"tileId": 5, "data": "{\"ledge_tile\":\"convex_up_left\",\"bounce\":0.5}"},
              {"tileId": 6, "data": "FULL"},
              {"tileId": 7, "data": "ledge_tile=full\nsurface_speed=2\nfriction_mix=max"}]
    proj = {"jsonVersion": "1.5.3", "defaultGridSize": 16, "worldLayout": layout,
            "defs": {"layers": [{"__type": "IntGrid", "identifier": "Collisions", "uid": 1,
                                 "intGridValues": values}],
                     "tilesets": [{"identifier": "shapes", "uid": 10, "tileGridSize": 16,
                                   "enumTags": tags, "customData": custom}]},
            "levels": levels}
    proj.update(extra)
    return proj


def ldtk_seeds():
    csv = [0] * 48
    for x in range(8):
        csv[40 + x] = 1
    csv[33], csv[34], csv[20], csv[21], csv[30], csv[39] = 2, 3, 4, 4, 6, 8
    tiles = [{"px": [16 * k, 0], "t": k + 1, "f": k % 4} for k in range(7)]
    fields = [ldtk_field("hp", "Int", 3), ldtk_field("speed", "Float", 1.5),
              ldtk_field("alive", "Bool", True), ldtk_field("name", "String", "Bob"),
              ldtk_field("note", "Multilines", "a\nb"),
              ldtk_field("item", "LocalEnum.Item", "Sword"), ldtk_field("tint", "Color", "#FF8000"),
              ldtk_field("spawn", "Point", {"cx": 2, "cy": 3}),
              ldtk_field("target", "EntityRef", {"entityIid": "crate", "layerIid": "l",
                                                 "levelIid": "v", "worldIid": "w"}),
              ldtk_field("file", "FilePath", "a.png"),
              ldtk_field("icon", "Tile", {"tilesetUid": 10, "x": 0, "y": 0, "w": 16, "h": 16}),
              ldtk_field("hps", "Array<Int>", [1, 2, None]), ldtk_field("future", "Vector", [1])]
    ents = [ldtk_entity("Player", 24, 80, pivot=(0.5, 1), fields=fields),
            ldtk_entity("Crate", 48, 64, fields=[ldtk_field("body", "LocalEnum.Body", "dynamic")]),
            ldtk_entity("Ball", 88, 40, pivot=(0.5, 0.5),
                        fields=[ldtk_field("shape", "String", "circle"),
                                ldtk_field("bounce", "Float", 0.5)]),
            ldtk_entity("Bridge", 64, 48, 48, 8,
                        fields=[ldtk_field("surface_speed", "Float", -1.5),
                                ldtk_field("friction_mix", "LocalEnum.Mix", "Min"),
                                ldtk_field("material", "String", "ice")]),
            ldtk_entity("Pit", 0, 72, 32, 8, fields=[ldtk_field("sensor", "Bool", True)]),
            ldtk_entity("Lift", 16, 16, 32, 8,
                        fields=[ldtk_field("path", "Array<Point>",
                                           [{"cx": 1, "cy": 3}, {"cx": 5, "cy": 3}]),
                                ldtk_field("speed", "Float", 2), ldtk_field("loop", "Bool", True)])]
    one = ldtk_level("A", 0, 0, 8, 6, [
        ldtk_layer("Entities", "Entities", 8, 6, entityInstances=ents),
        ldtk_layer("Tiles", "Art", 8, 6, gridTiles=tiles),
        ldtk_layer("IntGrid", "Collisions", 8, 6, intGridCsv=csv,
                   autoLayerTiles=[{"px": [112, 16], "t": 4, "f": 2}])],
        [ldtk_field("music", "String", "calm"), ldtk_field("start", "Point", {"cx": 1, "cy": 1})])
    small = [1] * 8
    b = ldtk_level("B", 128, -32, 4, 2, [ldtk_layer("IntGrid", "Collisions", 4, 2,
                                                    intGridCsv=small)])
    c = ldtk_level("C", -64, 96, 4, 2, [ldtk_layer("IntGrid", "Collisions", 4, 2,
                                                   intGridCsv=[0, 0, 5, 0, 7, 7, 1, 1])])
    external = dict(one, layerInstances=None, externalRelPath="rooms/A.ldtkl")
    out = {}
    out["one_level"] = bytes([0]) + ldtk_json(ldtk_project([one]))
    out["one_level_y_down_tables"] = bytes([1 | 32]) + ldtk_json(ldtk_project([one]))
    out["free_levels"] = bytes([2 | 32]) + ldtk_json(ldtk_project([one, b, c]))
    out["level_b"] = bytes([8]) + ldtk_json(ldtk_project([one, b, c]))
    out["linear_levels"] = bytes([2 | 32]) + ldtk_json(ldtk_project([one, b, c], "LinearVertical"))
    out["worlds"] = bytes([2 | 4]) + ldtk_json(ldtk_project(
        [], worlds=[{"identifier": "W", "iid": "w", "worldLayout": "GridVania",
                     "levels": [b, one]}]))
    # The harness resolves every separate level file to the input itself: a
    # root that is a project and a level at once.
    out["separate_level"] = bytes([64 | 16]) + ldtk_json(ldtk_project(
        [external], layerInstances=one["layerInstances"], fieldInstances=[]))
    out["level_file"] = bytes([0]) + ldtk_json(one)
    out["not_json"] = bytes([0]) + b'{"jsonVersion":"1.5.3","defs":{"layers":[],'
    return out


def main():
    for name, seeds in (("collide", collide_seeds()), ("tilemap", tilemap_seeds()),
                        ("world", world_seeds()), ("ldtk", ldtk_seeds())):
        d = os.path.join(HERE, "corpus", name)
        os.makedirs(d, exist_ok=True)
        for old in os.listdir(d):
            if old.startswith("seed_"):
                os.remove(os.path.join(d, old))
        for key, data in seeds.items():
            with open(os.path.join(d, "seed_" + key), "wb") as fh:
                fh.write(data)


if __name__ == "__main__":
    main()
