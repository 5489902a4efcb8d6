#!/usr/bin/env python3
"""Writes the LDtk sample project samples/level.ldtk (LDtk 1.5 format).

Run it from anywhere (python3 only, no other dependency); the output is
committed, so the build never runs it. It uses the tileset image that
samples/make_tiled_level.py draws (samples/ledge_tiles.png: tile k is
ledge tile k as drawn in an editor whose y axis points down, 34 a flower).

    make_ldtk_level.py                 write samples/level.ldtk
    make_ldtk_level.py --schema FILE   also check it against LDtk's
                                       JSON_SCHEMA.json (required fields,
                                       types, enums; no jsonschema needed)

Two levels side by side on a Free world map. What docs/ldtk.md describes:
- an IntGrid layer "Collisions" whose values are named with ledge's
  vocabulary (full, slope45_up_left, slope22_small_up_left, half_bottom,
  one_way, half_top_one_way, concave_up_right, convex_up_left, ...);
- a Tiles layer "Shapes" drawn with the tileset, whose tiles carry enum tags
  (the enum "LedgeTile": tile names, and "Flower", which is the game's) and
  one custom data line (`one_way=up` on the bottom half tile); the steep
  wall of the second level is drawn with X-flipped tiles;
- an entity layer: crates and a ball (the `body` field, an enum), a
  one-way bridge, a spike pit (a sensor), two moving platforms (a `path` of
  points, `speed`, `loop`), and the game's own entities (the player's
  start, coins with a value, a key, a door that refers to it, a sign);
- level fields (`music`, `dark`).
"""
import argparse
import json
import os
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
PX = 32  # cell side in pixels: the tileset's tiles
NS = uuid.UUID("6f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9")  # deterministic iids


def iid(name):
    return str(uuid.uuid5(NS, name))


# --- the vocabulary (include/ledge/ldtk.h, ledge_ldtk_tile_from_name) -------

GROUPS = ["slope45", "concave", "convex", "slope22_small", "slope22_big", "slope67_small",
          "slope67_big"]
FACINGS = ["up_right", "up_left", "down_left", "down_right"]  # PN, NN, NP, PP as drawn
HALVES = ["half_bottom", "half_right", "half_top", "half_left"]  # HALF_D, R, U, L


def friendly_name(tile):
    if tile == 1:
        return "full"
    if tile >= 30:
        return HALVES[tile - 30]
    return GROUPS[(tile - 2) // 4] + "_" + FACINGS[(tile - 2) % 4]


TILE = {friendly_name(t): t for t in range(1, 34)}
FLOWER = 34  # the tileset's decoration tile
TILESET_CELLS = 36  # 6 x 6

# --- the levels, as drawn (row 0 at the top) ---------------------------------
# IntGrid glyphs: value identifiers of the "Collisions" layer.
INTGRID = {
    "#": "full", "/": "slope45_up_left", "\\": "slope45_up_right",
    "s": "slope22_small_up_left", "S": "slope22_big_up_left",
    "Z": "slope22_big_up_right", "z": "slope22_small_up_right",
    "_": "half_bottom", "=": "one_way", "-": "half_top_one_way",
    "c": "concave_up_right", "o": "convex_up_left", "O": "convex_up_right",
}
INTGRID_VALUES = ["full", "slope45_up_left", "slope45_up_right", "slope22_small_up_left",
                  "slope22_big_up_left", "slope22_big_up_right", "slope22_small_up_right",
                  "half_bottom", "one_way", "half_top_one_way", "concave_up_right",
                  "convex_up_left", "convex_up_right"]
INTGRID_COLORS = ["#6A6A80", "#46965A", "#46965A", "#C8783C", "#C8783C", "#C8783C", "#C8783C",
                  "#AAAAAA", "#D8B03C", "#D8B03C", "#5AAAC8", "#A050AA", "#A050AA"]
# Tiles-layer glyphs: (tile id in the tileset, flip bits).
TILES = {
    "g": (TILE["slope67_small_up_right"], 1),  # X-flipped: slope67_small_up_left
    "G": (TILE["slope67_big_up_right"], 1),    # X-flipped: slope67_big_up_left
    "h": (TILE["half_bottom"], 0),             # custom data: one_way=up
    "*": (FLOWER, 0),
}

MEADOW = [
    "#" * 30,
    "#" + "." * 29,
    "#" + "." * 29,
    "#" + "." * 10 + "---" + "." * 16,
    "#" + "." * 29,
    "#" + "." * 4 + "===" + "." * 22,
    "#" + "." * 29,
    "#" + "." * 29,
    "#" + "." * 29,
    "#" + "." * 12 + "oO" + "." * 15,
    "#" + "." * 10 + "sS##Zz" + "." * 13,
    "#" + "." * 9 + "/" + "#" * 6 + "\\" + "." * 12,
    "#c....*.." + "/" + "#" * 8 + "\\" + "__" + "." * 7 + "*.",
    "#" * 30,
    "#" * 30,
]
CAVE = [
    "#" * 20,
    "#" + "." * 18 + "#",
    "#" + "." * 18 + "#",
    "#####" + "." * 9 + "######",
    "#" + "." * 18 + "#",
    "#" + "." * 10 + "hhh" + "." * 5 + "#",
    "#" + "." * 18 + "#",
    "#" + "." * 17 + "g#",
    "#" + "." * 17 + "G#",
    "." * 17 + "g##",
    "." * 17 + "G##",
    "." * 16 + "/###",
    "." * 9 + "*" + "." * 5 + "/####",
    "#" * 20,
    "#" * 20,
]

# --- definitions ---------------------------------------------------------------

UID_ENTITIES, UID_SHAPES, UID_COLLISIONS = 100, 101, 102
UID_TILESET, UID_ENUM_TILE, UID_ENUM_BODY = 200, 201, 202


def field_def(uid, identifier, ftype, type_name, is_array=False, can_be_null=False,
              default=None, display="ValueOnly"):
    return {
        "identifier": identifier, "doc": None, "__type": type_name, "uid": uid, "type": ftype,
        "isArray": is_array, "canBeNull": can_be_null, "arrayMinLength": None,
        "arrayMaxLength": None, "editorDisplayMode": display, "editorDisplayScale": 1,
        "editorDisplayPos": "Above", "editorLinkStyle": "StraightArrow",
        "editorDisplayColor": None, "editorAlwaysShow": False, "editorShowInWorld": True,
        "editorCutLongValues": True, "editorTextSuffix": None, "editorTextPrefix": None,
        "useForSmartColor": False, "exportToToc": False, "searchable": False, "min": None,
        "max": None, "regex": None, "acceptFileTypes": None, "defaultOverride": default,
        "textLanguageMode": None, "symmetricalRef": False, "autoChainRef": False,
        "allowOutOfLevelRef": True, "allowedRefs": "OnlySame", "allowedRefsEntityUid": None,
        "allowedRefTags": [], "tilesetUid": None,
    }


# Each entity definition: identifier, size, colour, pivot, its fields
# (identifier, LDtk type, __type, is_array, default value or None).
BODY_ENUM = "LocalEnum.Body"
ENTITIES = [
    ("Player", 24, 32, "#63C74D", (0.5, 1), []),
    ("Crate", 32, 32, "#B86F50", (0, 0),
     [("body", "F_Enum(%d)" % UID_ENUM_BODY, BODY_ENUM, False, "dynamic"),
      ("friction", "F_Float", "Float", False, 0.3)]),
    ("Ball", 24, 24, "#FEAE34", (0.5, 0.5),
     [("body", "F_Enum(%d)" % UID_ENUM_BODY, BODY_ENUM, False, "dynamic"),
      ("shape", "F_String", "String", False, "circle"),
      ("bounce", "F_Float", "Float", False, 0.5)]),
    ("Bridge", 96, 8, "#C28569", (0, 0), [("one_way", "F_Bool", "Bool", False, True)]),
    ("Spikes", 64, 16, "#E43B44", (0, 1), [("sensor", "F_Bool", "Bool", False, True)]),
    ("Platform", 64, 16, "#5A6988", (0, 0),
     [("path", "F_Point", "Array<Point>", True, None),
      ("speed", "F_Float", "Float", False, 2.0),
      ("loop", "F_Bool", "Bool", False, False)]),
    ("Coin", 16, 16, "#FFE762", (0.5, 0.5), [("value", "F_Int", "Int", False, 1)]),
    ("Key", 16, 16, "#FFE762", (0.5, 0.5), []),
    ("Door", 16, 64, "#8B9BB4", (0, 0), [("key", "F_EntityRef", "EntityRef", False, None)]),
    ("Sign", 32, 32, "#C0CBDC", (0.5, 1), [("text", "F_Text", "Multilines", False, None)]),
]


def default_override(ftype, value):
    if value is None:
        return None
    if ftype.startswith("F_Enum") or ftype == "F_String":
        return {"id": "V_String", "params": [value]}
    if ftype == "F_Bool":
        return {"id": "V_Bool", "params": [value]}
    if ftype == "F_Int":
        return {"id": "V_Int", "params": [value]}
    return {"id": "V_Float", "params": [value]}


def entity_defs():
    defs, uid = [], 300
    for name, w, h, colour, pivot, fields in ENTITIES:
        fds = []
        for fname, ftype, tname, is_array, default in fields:
            uid += 1
            display = "PointPath" if fname == "path" else (
                "RefLinkBetweenCenters" if ftype == "F_EntityRef" else "ValueOnly")
            fds.append(field_def(uid, fname, ftype, tname, is_array, ftype == "F_EntityRef" or
                                 ftype == "F_Text", default_override(ftype, default), display))
        uid += 1
        defs.append({
            "identifier": name, "uid": uid, "tags": [], "exportToToc": False,
            "allowOutOfBounds": False, "doc": None, "width": w, "height": h,
            "resizableX": name in ("Bridge", "Spikes", "Platform"), "resizableY": False,
            "minWidth": None, "maxWidth": None, "minHeight": None, "maxHeight": None,
            "keepAspectRatio": False, "tileOpacity": 1, "fillOpacity": 0.5, "lineOpacity": 1,
            "hollow": False, "color": colour,
            "renderMode": "Ellipse" if name in ("Ball", "Coin") else "Rectangle",
            "showName": True, "tilesetId": None, "tileRenderMode": "FitInside",
            "tileRect": None, "uiTileRect": None, "nineSliceBorders": [], "maxCount": 0,
            "limitScope": "PerLevel", "limitBehavior": "MoveLastOne", "pivotX": pivot[0],
            "pivotY": pivot[1], "fieldDefs": fds,
        })
    return defs


def layer_def(kind, identifier, uid, tileset=None, values=()):
    return {
        "__type": kind, "identifier": identifier, "type": kind, "uid": uid, "doc": None,
        "uiColor": None, "gridSize": PX, "guideGridWid": 0, "guideGridHei": 0,
        "displayOpacity": 1, "inactiveOpacity": 0.6, "hideInList": False,
        "hideFieldsWhenInactive": True, "canSelectWhenInactive": True,
        "renderInWorldView": True, "pxOffsetX": 0, "pxOffsetY": 0, "parallaxFactorX": 0,
        "parallaxFactorY": 0, "parallaxScaling": True, "requiredTags": [], "excludedTags": [],
        "autoTilesKilledByOtherLayerUid": None, "uiFilterTags": [], "useAsyncRender": False,
        "intGridValues": list(values), "intGridValuesGroups": [], "autoRuleGroups": [],
        "autoSourceLayerDefUid": None, "tilesetDefUid": tileset, "tilePivotX": 0,
        "tilePivotY": 0, "biomeFieldUid": None,
    }


def tile_enum_values():
    return [friendly_name(t) for t in range(1, 34)] + ["Flower"]


def defs():
    values = [{"value": k + 1, "identifier": n, "color": INTGRID_COLORS[k], "tile": None,
               "groupUid": 0} for k, n in enumerate(INTGRID_VALUES)]
    tags = [{"enumValueId": n, "tileIds": [TILE[n]] if n in TILE else [FLOWER]}
            for n in tile_enum_values()]
    tileset = {
        "__cWid": 6, "__cHei": 6, "identifier": "ledge_tiles", "uid": UID_TILESET,
        "relPath": "ledge_tiles.png", "embedAtlas": None, "pxWid": 6 * PX, "pxHei": 6 * PX,
        "tileGridSize": PX, "spacing": 0, "padding": 0, "tags": [],
        "tagsSourceEnumUid": UID_ENUM_TILE, "enumTags": tags,
        "customData": [{"tileId": TILE["half_bottom"], "data": "one_way=up"}],
        "savedSelections": [], "cachedPixelData": None,
    }

    def enum(uid, name, ids):
        return {"identifier": name, "uid": uid,
                "values": [{"id": v, "tileRect": None, "color": 0} for v in ids],
                "iconTilesetUid": None, "externalRelPath": None, "externalFileChecksum": None,
                "tags": []}

    return {
        "layers": [layer_def("Entities", "Entities", UID_ENTITIES),
                   layer_def("Tiles", "Shapes", UID_SHAPES, UID_TILESET),
                   layer_def("IntGrid", "Collisions", UID_COLLISIONS, None, values)],
        "entities": entity_defs(),
        "tilesets": [tileset],
        "enums": [enum(UID_ENUM_TILE, "LedgeTile", tile_enum_values()),
                  enum(UID_ENUM_BODY, "Body",
                       ["static", "kinematic", "dynamic", "sensor", "none"])],
        "externalEnums": [],
        "levelFields": [field_def(400, "music", "F_String", "String"),
                        field_def(401, "dark", "F_Bool", "Bool")],
    }


# --- instances -----------------------------------------------------------------

def field(identifier, tname, value):
    if value is None:
        real = []
    elif tname == "Array<Point>":
        real = [{"id": "V_String", "params": ["%d,%d" % (p["cx"], p["cy"])]} for p in value]
    elif tname == "EntityRef":
        real = [{"id": "V_String", "params": [value["entityIid"]]}]
    elif tname == "Int":
        real = [{"id": "V_Int", "params": [value]}]
    elif tname == "Float":
        real = [{"id": "V_Float", "params": [value]}]
    elif tname == "Bool":
        real = [{"id": "V_Bool", "params": [value]}]
    else:
        real = [{"id": "V_String", "params": [value]}]
    return {"__identifier": identifier, "__type": tname, "__value": value, "__tile": None,
            "defUid": 0, "realEditorValues": real}


ENTITY_DEFS = {e["identifier"]: e for e in entity_defs()}


def entity(name, key, cx, cy, level, values=None, w=None, h=None):
    """Entity `name` whose pivot sits in cell (cx, cy) (at the cell's top-left
    for pivot (0, 0), at its bottom centre for (0.5, 1), at its centre for
    (0.5, 0.5))."""
    d = ENTITY_DEFS[name]
    w = w or d["width"]
    h = h or d["height"]
    pivot = (d["pivotX"], d["pivotY"])
    x = cx * PX + int(pivot[0] * PX)
    y = cy * PX + int(pivot[1] * PX)
    values = values or {}
    fields = []
    for fd in d["fieldDefs"]:
        default = fd["defaultOverride"]["params"][0] if fd["defaultOverride"] else None
        if fd["isArray"] and default is None:
            default = []
        fi = field(fd["identifier"], fd["__type"], values.get(fd["identifier"], default))
        fi["defUid"] = fd["uid"]
        fields.append(fi)
    return {
        "__identifier": name, "__grid": [x // PX, y // PX], "__pivot": list(pivot),
        "__tags": [], "__tile": None, "__smartColor": d["color"], "iid": iid(key),
        "width": w, "height": h, "defUid": d["uid"], "px": [x, y], "fieldInstances": fields,
        "__worldX": level[0] + x, "__worldY": level[1] + y,
    }


def ref(key, level_key):
    return {"entityIid": iid(key), "layerIid": iid(level_key + ":Entities"),
            "levelIid": iid(level_key), "worldIid": iid("world")}


def points(*cells):
    return [{"cx": cx, "cy": cy} for cx, cy in cells]


def meadow_entities(at):
    return [
        entity("Player", "player", 3, 12, at),
        entity("Crate", "crate1", 5, 12, at),
        entity("Crate", "crate2", 7, 12, at),
        entity("Crate", "crate3", 5, 4, at),
        entity("Ball", "ball", 14, 6, at),
        entity("Bridge", "bridge", 21, 10, at),
        entity("Spikes", "spikes", 26, 12, at, w=64),
        entity("Platform", "loop", 22, 7, at,
               {"path": points((27, 7), (27, 4), (22, 4)), "speed": 1.5, "loop": True}),
        entity("Coin", "coin1", 12, 2, at, {"value": 5}),
        entity("Coin", "coin2", 18, 7, at),
        entity("Coin", "coin3", 6, 3, at),
        entity("Sign", "sign", 9, 12, at, {"text": "Welcome to ledge!\nThe cave is east."}),
    ]


def cave_entities(at):
    return [
        entity("Platform", "lift", 6, 12, at, {"path": points((6, 3)), "speed": 2.0}),
        entity("Key", "key", 2, 2, at),
        entity("Door", "door", 3, 10, at, {"key": ref("key", "Cave")}, h=96),
        entity("Coin", "coin4", 15, 4, at, {"value": 10}),
        entity("Crate", "crate4", 12, 4, at),
    ]


def level(key, uid, rows, at, entities, fields):
    h, w = len(rows), len(rows[0])
    assert all(len(r) == w for r in rows), key
    csv, tiles = [], []
    for cy, row in enumerate(rows):
        for cx, ch in enumerate(row):
            csv.append(INTGRID_VALUES.index(INTGRID[ch]) + 1 if ch in INTGRID else 0)
            if ch in TILES:
                t, f = TILES[ch]
                tiles.append({"px": [cx * PX, cy * PX], "src": [t % 6 * PX, t // 6 * PX],
                              "f": f, "t": t, "d": [cy * w + cx], "a": 1})

    def layer(kind, name, uid_def, **extra):
        li = {
            "__identifier": name, "__type": kind, "__cWid": w, "__cHei": h, "__gridSize": PX,
            "__opacity": 1, "__pxTotalOffsetX": 0, "__pxTotalOffsetY": 0,
            "__tilesetDefUid": None, "__tilesetRelPath": None, "iid": iid(key + ":" + name),
            "levelId": uid, "layerDefUid": uid_def, "pxOffsetX": 0, "pxOffsetY": 0,
            "visible": True, "optionalRules": [], "intGridCsv": [], "autoLayerTiles": [],
            "seed": 1000 + uid_def, "overrideTilesetUid": None, "gridTiles": [],
            "entityInstances": [],
        }
        li.update(extra)
        return li

    return {
        "identifier": key, "iid": iid(key), "uid": uid, "worldX": at[0], "worldY": at[1],
        "worldDepth": 0, "pxWid": w * PX, "pxHei": h * PX, "__bgColor": "#40465B",
        "bgColor": None, "useAutoIdentifier": False, "bgRelPath": None, "bgPos": None,
        "bgPivotX": 0.5, "bgPivotY": 0.5, "__smartColor": "#ADADB5", "__bgPos": None,
        "externalRelPath": None, "fieldInstances": fields, "__neighbours": [],
        "layerInstances": [
            layer("Entities", "Entities", UID_ENTITIES, entityInstances=entities),
            layer("Tiles", "Shapes", UID_SHAPES, __tilesetDefUid=UID_TILESET,
                  __tilesetRelPath="ledge_tiles.png", gridTiles=tiles),
            layer("IntGrid", "Collisions", UID_COLLISIONS, intGridCsv=csv),
        ],
    }


def project():
    meadow_at, cave_at = (0, 0), (len(MEADOW[0]) * PX, 0)
    levels = [
        level("Meadow", 0, MEADOW, meadow_at, meadow_entities(meadow_at),
              [field("music", "String", "meadow"), field("dark", "Bool", False)]),
        level("Cave", 1, CAVE, cave_at, cave_entities(cave_at),
              [field("music", "String", "cave"), field("dark", "Bool", True)]),
    ]
    levels[0]["__neighbours"] = [{"levelIid": iid("Cave"), "dir": "e"}]
    levels[1]["__neighbours"] = [{"levelIid": iid("Meadow"), "dir": "w"}]
    for k, lv in enumerate(levels):  # level field definitions' uids
        lv["fieldInstances"][0]["defUid"], lv["fieldInstances"][1]["defUid"] = 400, 401
    return {
        "__header__": {"fileType": "LDtk Project JSON", "app": "LDtk",
                       "doc": "https://ldtk.io/json",
                       "schema": "https://ldtk.io/files/JSON_SCHEMA.json",
                       "appAuthor": "Sebastien 'deepnight' Benard", "appVersion": "1.5.3",
                       "url": "https://ldtk.io"},
        "iid": iid("project"), "jsonVersion": "1.5.3", "appBuildId": 473702, "nextUid": 500,
        "identifierStyle": "Free", "toc": [], "worldLayout": "Free", "worldGridWidth": 256,
        "worldGridHeight": 256, "defaultLevelWidth": 640, "defaultLevelHeight": 480,
        "defaultPivotX": 0, "defaultPivotY": 0, "defaultGridSize": PX,
        "defaultEntityWidth": PX, "defaultEntityHeight": PX, "bgColor": "#2A2D3A",
        "defaultLevelBgColor": "#40465B", "minifyJson": False, "externalLevels": False,
        "exportTiled": False, "simplifiedExport": False, "imageExportMode": "None",
        "exportLevelBg": True, "pngFilePattern": None, "backupOnSave": False,
        "backupLimit": 10, "backupRelPath": None, "levelNamePattern": "Level_%idx",
        "tutorialDesc": "ledge's sample level: IntGrid values and tileset enum tags name "
                        "tile shapes, entity fields make bodies (docs/ldtk.md).",
        "customCommands": [], "flags": ["UseMultilinesType"], "defs": defs(),
        "levels": levels, "worlds": [], "dummyWorldIid": iid("world"),
    }


# --- a schema check without jsonschema -------------------------------------------

def check(value, schema, root, path, problems):
    if "$ref" in schema:
        node = root
        for part in schema["$ref"].lstrip("#/").split("/"):
            node = node[part]
        schema = node
    types = schema.get("type")
    if types is not None:
        types = types if isinstance(types, list) else [types]
        kinds = {"null": value is None, "boolean": isinstance(value, bool),
                 "integer": isinstance(value, int) and not isinstance(value, bool),
                 "number": isinstance(value, (int, float)) and not isinstance(value, bool),
                 "string": isinstance(value, str), "array": isinstance(value, list),
                 "object": isinstance(value, dict)}
        if not any(kinds.get(t, False) for t in types):
            problems.append("%s: %s is not %s" % (path, type(value).__name__, types))
            return
    if "enum" in schema and value not in schema["enum"]:
        problems.append("%s: %r is not one of %s" % (path, value, schema["enum"]))
    if isinstance(value, dict):
        for key in schema.get("required", []):
            if key not in value:
                problems.append("%s: no '%s'" % (path, key))
        for key, sub in schema.get("properties", {}).items():
            if key in value:
                check(value[key], sub, root, path + "." + key, problems)
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            check(item, schema["items"], root, "%s[%d]" % (path, i), problems)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--schema", help="LDtk's JSON_SCHEMA.json: check the project against it")
    args = parser.parse_args()
    data = project()
    if args.schema:
        with open(args.schema) as f:
            schema = json.load(f)
        problems = []
        check(data, schema, schema, "project", problems)
        for p in problems:
            print("schema:", p)
        print("schema check: %d problems" % len(problems))
        if problems:
            raise SystemExit(1)
    with open(os.path.join(HERE, "level.ldtk"), "w") as f:
        json.dump(data, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
