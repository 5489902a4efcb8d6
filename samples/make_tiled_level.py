#!/usr/bin/env python3
"""Writes the Tiled sample level: samples/level.tmj, its tileset
samples/ledge_tiles.tsj and the tileset image samples/ledge_tiles.png.

Run it from anywhere (python3 only, no other dependency); the outputs are
committed, so the build never runs it. The tile art is drawn from the tile
geometry of the tile definitions of docs/tilemap.md in Tiled's frame (y down), which is the
frame the `ledge_tile` property names (docs/tiled.md).
"""
import json
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
PX = 32  # tile side in pixels
COLUMNS = 6

NAMES = ["EMPTY", "FULL",
         "45DEG_PN", "45DEG_NN", "45DEG_NP", "45DEG_PP",
         "CONCAVE_PN", "CONCAVE_NN", "CONCAVE_NP", "CONCAVE_PP",
         "CONVEX_PN", "CONVEX_NN", "CONVEX_NP", "CONVEX_PP",
         "22DEG_SMALL_PN", "22DEG_SMALL_NN", "22DEG_SMALL_NP", "22DEG_SMALL_PP",
         "22DEG_BIG_PN", "22DEG_BIG_NN", "22DEG_BIG_NP", "22DEG_BIG_PP",
         "67DEG_SMALL_PN", "67DEG_SMALL_NN", "67DEG_SMALL_NP", "67DEG_SMALL_PP",
         "67DEG_BIG_PN", "67DEG_BIG_NN", "67DEG_BIG_NP", "67DEG_BIG_PP",
         "HALF_D", "HALF_R", "HALF_U", "HALF_L"]
ID = {n: i for i, n in enumerate(NAMES)}
DECORATION = 34  # a tile without ledge_tile: drawn, never collides
TILECOUNT = 36

SIGNS = [(1, -1), (-1, -1), (-1, 1), (1, 1)]  # PN, NN, NP, PP
HALF_NORMALS = [(0, -1), (-1, 0), (0, 1), (1, 0)]  # D, R, U, L


def solid(tile, x, y):
    """Whether point (x, y) of a unit cell (0..1, y down) is solid."""
    c, w = 0.5, 0.5
    if tile == 0:
        return False
    if tile == 1:
        return True
    if tile >= 30:
        nx, ny = HALF_NORMALS[tile - 30]
        return (x - c) * nx + (y - c) * ny <= 0
    sx, sy = SIGNS[(tile - 2) % 4]
    group = (tile - 2) // 4
    P = (c + sx * w, c - sy * w)
    Q = (c - sx * w, c + sy * w)
    R = (c - sx * w, c - sy * w)
    F = (c + sx * w, c + sy * w)

    def below(anchor, nx, ny):
        return (x - anchor[0]) * nx + (y - anchor[1]) * ny <= 0

    if group == 0:  # 45
        return below((c, c), sx, sy)
    if group == 1:  # concave
        return (x - F[0]) ** 2 + (y - F[1]) ** 2 >= (2 * w) ** 2
    if group == 2:  # convex
        return (x - R[0]) ** 2 + (y - R[1]) ** 2 <= (2 * w) ** 2
    if group == 3:  # 22 small
        return below(P, sx, 2 * sy)
    if group == 4:  # 22 big
        return below(Q, sx, 2 * sy)
    if group == 5:  # 67 small
        return below(Q, 2 * sx, sy)
    return below(P, 2 * sx, sy)  # 67 big


COLOURS = {0: (90, 90, 90), 1: (120, 120, 140), 2: (70, 150, 90), 3: (200, 120, 60),
           4: (200, 170, 60), 5: (60, 120, 190), 6: (90, 170, 200), 7: (160, 80, 170),
           8: (190, 100, 200), 9: (170, 170, 170)}


def group_of(tile):
    if tile <= 1:
        return tile
    if tile >= 30:
        return 9
    return 2 + (tile - 2) // 4


def tile_pixel(tile, px, py):
    if tile == DECORATION:  # a small flower
        dx, dy = px - 16, py - 20
        if dx * dx + dy * dy < 30:
            return (230, 80, 120, 255)
        return (60, 160, 60, 255) if px == 16 and py > 20 else (0, 0, 0, 0)
    if tile >= LEDGE_TILES:
        return (0, 0, 0, 0)
    x, y = (px + 0.5) / PX, (py + 0.5) / PX
    if not solid(tile, x, y):
        return (0, 0, 0, 0)
    r, g, b = COLOURS[group_of(tile)]
    return (r, g, b, 255)


LEDGE_TILES = 34


def write_png(path, width, height, pixel):
    rows = b""
    for y in range(height):
        rows += b"\0" + b"".join(struct.pack("4B", *pixel(x, y)) for x in range(width))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    png = b"\x89PNG\r\n\x1a\n"
    png += chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(rows, 9))
    png += chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(png)


def tileset_image():
    rows = (TILECOUNT + COLUMNS - 1) // COLUMNS

    def pixel(x, y):
        tile = (y // PX) * COLUMNS + x // PX
        return tile_pixel(tile, x % PX, y % PX) if tile < TILECOUNT else (0, 0, 0, 0)

    write_png(os.path.join(HERE, "ledge_tiles.png"), COLUMNS * PX, rows * PX, pixel)
    return COLUMNS * PX, rows * PX


def tileset(width, height):
    tiles = [{"id": i, "properties": [{"name": "ledge_tile", "type": "string", "value": n}]}
             for i, n in enumerate(NAMES) if i > 0]
    return {"type": "tileset", "version": "1.10", "tiledversion": "1.10.2",
            "name": "ledge_tiles", "tilewidth": PX, "tileheight": PX, "tilecount": TILECOUNT,
            "columns": COLUMNS, "margin": 0, "spacing": 0, "image": "ledge_tiles.png",
            "imagewidth": width, "imageheight": height, "tiles": tiles}


# The level in Tiled's frame (row 0 at the top). Legend (ids name the tile
# as seen in Tiled, y down):
#   # FULL   . empty   / 45 up-right ramp (45DEG_NN)   \ 45 down ramp
#   s S 22 degree ramp up (small, big NN)   Z z 22 degree ramp down (big, small PN)
#   G g 67 degree steep ramp up (big below, small above, NN)
#   c concave corner pipe (CONCAVE_PN)   o O round hill top (CONVEX_NN, _PN)
#   _ half tile, bottom half (HALF_D)   - half tile, top half (HALF_U)
#   n p ceiling corners (45DEG_PP at the left, 45DEG_NP at the right)
LEVEL = [
    "########################################",
    "#p....................................n#",
    "#......................................#",
    "#......................................#",
    "#......................................#",
    "#.........------.......................#",
    "#......................................#",
    "#...........................----.......#",
    "#......................................#",
    "#.....--...............................#",
    "#......................................#",
    "#..........................oO..........#",
    "#..........................##..........#",
    "#...............sS#####Zz..##.........g#",
    "#............../#########\\.##.........G#",
    "#............./###########\\##........g##",
    "#c__........./###############........G##",
    "#############################________###",
    "########################################",
    "########################################",
]

FLIP_H, FLIP_V, FLIP_D = 0x80000000, 0x40000000, 0x20000000
# Glyph -> gid. Some tiles are written as flipped copies of others, as a
# level artist would: the loader must give the same ledge tiles.
GLYPHS = {
    ".": 0, "#": 1 + ID["FULL"],
    "/": 1 + ID["45DEG_NN"], "\\": (1 + ID["45DEG_NN"]) | FLIP_H,
    "s": 1 + ID["22DEG_SMALL_NN"], "S": 1 + ID["22DEG_BIG_NN"],
    "Z": (1 + ID["22DEG_BIG_NN"]) | FLIP_H, "z": (1 + ID["22DEG_SMALL_NN"]) | FLIP_H,
    "G": 1 + ID["67DEG_BIG_NN"], "g": (1 + ID["22DEG_SMALL_NN"]) | FLIP_D,
    "c": 1 + ID["CONCAVE_PN"], "o": 1 + ID["CONVEX_NN"], "O": 1 + ID["CONVEX_PN"],
    "_": 1 + ID["HALF_D"], "-": (1 + ID["HALF_D"]) | FLIP_V,
    "p": (1 + ID["45DEG_NN"]) | FLIP_H | FLIP_V, "n": (1 + ID["45DEG_NN"]) | FLIP_V,
}


def prop(name, kind, value):
    return {"name": name, "type": kind, "value": value}


def obj(oid, name, x, y, w=0, h=0, props=(), **extra):
    o = {"id": oid, "name": name, "type": "", "x": x, "y": y, "width": w, "height": h,
         "rotation": 0, "visible": True}
    if props:
        o["properties"] = list(props)
    o.update(extra)
    return o


def objects():
    dyn = prop("body", "string", "dynamic")
    return [
        obj(1, "spawn", 3 * PX, 16 * PX, point=True),
        obj(2, "crate", 5 * PX, 14 * PX, PX, PX, [dyn, prop("friction", "float", 0.3)]),
        obj(3, "small_crate", 8 * PX, 4 * PX, 24, 24, [dyn]),
        obj(4, "ball", 20 * PX, 6 * PX, 24, 24,
            [dyn, prop("bounce", "float", 0.5)], ellipse=True),
        obj(5, "pebble", 31 * PX, 5 * PX, 16, 16, [dyn], ellipse=True),
        obj(6, "lift", 17 * PX, 10 * PX, 2 * PX, 16,
            [prop("body", "string", "kinematic"), prop("velocity_x", "float", 1.0)]),
        obj(7, "bridge", 30 * PX, 13 * PX, 3 * PX, 8, [prop("one_way", "bool", True)]),
        obj(8, "pit", 29 * PX, 16 * PX, 8 * PX, 16, [prop("body", "string", "sensor")]),
        obj(9, "rock", 3 * PX, 10 * PX, props=[],
            polygon=[{"x": 0, "y": 0}, {"x": 64, "y": 0}, {"x": 64, "y": 32},
                     {"x": 32, "y": 32}, {"x": 32, "y": 64}, {"x": 0, "y": 64}]),
        obj(10, "wedge", 11 * PX, 15 * PX, props=[dyn],
            polygon=[{"x": 0, "y": 0}, {"x": 32, "y": 32}, {"x": -32, "y": 32}]),
    ]


def level():
    height, width = len(LEVEL), len(LEVEL[0])
    assert all(len(r) == width for r in LEVEL)
    data = [GLYPHS[ch] for row in LEVEL for ch in row]
    decor = [0] * (width * height)
    for col in (4, 9, 21):  # flowers on empty cells just above the floor
        decor[16 * width + col] = 1 + DECORATION
    layer = {"type": "tilelayer", "id": 1, "name": "ground", "x": 0, "y": 0,
             "width": width, "height": height, "opacity": 1, "visible": True, "data": data}
    decoration = dict(layer, id=2, name="decoration", data=decor)
    things = {"type": "objectgroup", "id": 3, "name": "things", "x": 0, "y": 0,
              "opacity": 1, "visible": True, "draworder": "topdown", "objects": objects()}
    return {"type": "map", "version": "1.10", "tiledversion": "1.10.2",
            "orientation": "orthogonal", "renderorder": "right-down", "infinite": False,
            "width": width, "height": height, "tilewidth": PX, "tileheight": PX,
            "compressionlevel": -1, "nextlayerid": 4, "nextobjectid": 11,
            "tilesets": [{"firstgid": 1, "source": "ledge_tiles.tsj"}],
            "layers": [layer, decoration, things]}


def main():
    w, h = tileset_image()
    with open(os.path.join(HERE, "ledge_tiles.tsj"), "w") as f:
        json.dump(tileset(w, h), f, indent=1)
        f.write("\n")
    with open(os.path.join(HERE, "level.tmj"), "w") as f:
        json.dump(level(), f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
