#!/usr/bin/env python3
"""The modules of src/ call only downward (docs/design.md, "How the modules layer").

    check_layers.py SRC_DIR      check src/ (exit 1 on any violation)
    check_layers.py --self-test  check that the checker catches what it should

A module is a .c file and the .h of the same name (src/broad.c and
src/broad.h). Each module sits in one layer of LAYERS below; a file may
include the headers of its own layer and of the layers below, never of a
layer above, and the modules' includes must not close a circle (a module
including a header whose module includes, directly or not, the first).
Every internal function is declared in the header of the module that
defines it, so the include graph is the call graph: a module that calls
another includes its header. Every file of src/ (but the bindings') must
be in the table: a new file must be given its layer.

Prints one line per violation and a cmocka-like summary (one case per
file).
"""
import os
import re
import sys
import tempfile

# Lowest first. The Tiled loader is a library of its own, above the core,
# built on the public API only; it has its own layers.
LAYERS = [
    ("base: numbers, checks, hooks, growable arrays",
     ["core", "array", "hooks", "check", "material"]),
    ("geometry: shapes and their collision, rays, sweeps, distances",
     ["shape", "narrow", "ray", "sweep", "decompose", "gjk", "distance"]),
    ("tiles: the tile set, the tilemap and its queries, the grid",
     ["tile", "tile_push", "tile_round", "tile_collide", "tilemap", "tilemap_ray", "tilemap_load",
      "tilemap_material", "distance_tile", "grid", "grid_refile"]),
    ("store: the world's state, the body store, ids and slots, workers",
     ["workers", "body_fields", "world_state", "body_store", "slots", "contacts", "par"]),
    ("stages: the step's stages and the state they keep",
     ["order", "broad_file", "broad_tiles", "broad", "resolve", "fast",
      "response", "sleep", "events", "query_index", "characters"]),
    ("api: the step and the public calls",
     ["move", "character", "body", "world", "query", "draw", "distance_world", "ffi",
      "profile", "snapshot_codec", "snapshot", "snapshot_tiles", "snapshot_bodies", "snapshot_contacts",
      "snapshot_events", "snapshot_characters"]),
    ("tiled context", ["tiled_ctx", "tiled_flip"]),
    ("tiled util", ["tiled_util"]),
    ("tiled data", ["tiled_data", "tiled_tileset", "tiled_objects"]),
    ("tiled layers", ["tiled_layers"]),
    ("tiled", ["tiled"]),
]

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# A function definition or declaration at the start of a line (a file's top
# level, as clang-format lays it out), of an internal (ledge__) name.
DEFINITION = re.compile(r'^(?:static\s+)?(?:inline\s+)?[A-Za-z_][\w\s\*]*?\b(ledge__\w+)\s*\([^;{}]*\)\s*\{',
                        re.M)
PROTOTYPE = re.compile(r'^(?!static)[A-Za-z_][\w\s\*]*?\b(ledge__\w+)\s*\([^;{}]*\)\s*;', re.M)


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
    return re.sub(r'//[^\n]*', '', text)


def layer_of():
    table = {}
    for k, (_, mods) in enumerate(LAYERS):
        for m in mods:
            table[m] = k
    return table


def module(name):
    return os.path.splitext(os.path.basename(name))[0]


def check(src):
    table = layer_of()
    files = sorted(f for f in os.listdir(src) if f.endswith((".c", ".h")))
    graph = {}
    problems = []
    for f in files:
        m = module(f)
        if m not in table:
            problems.append(f"{f}: module '{m}' has no layer (tests/check_layers.py, LAYERS)")
            continue
        with open(os.path.join(src, f), encoding="utf-8") as fh:
            text = fh.read()
        for inc in INCLUDE.findall(text):
            if inc.startswith("ledge/") or not os.path.exists(os.path.join(src, inc)):
                continue  # public headers and system-style paths are below everything
            t = module(inc)
            if t == m:
                continue
            if t not in table:
                problems.append(f"{f}: includes {inc}, whose module has no layer")
                continue
            if table[t] > table[m]:
                problems.append(f"{f}: includes {inc}, a layer up ({LAYERS[table[t]][0].split(':')[0]} "
                                f"above {LAYERS[table[m]][0].split(':')[0]})")
            graph.setdefault(m, set()).add(t)
    # Every internal function declared in a header is defined by that
    # header's module (in it, inline, or in the .c of the same name); no .c
    # file declares another module's function.
    defined, declared = {}, []
    for f in files:
        with open(os.path.join(src, f), encoding="utf-8") as fh:
            text = strip_comments(fh.read())
        for name in DEFINITION.findall(text):
            defined.setdefault(name, set()).add(module(f))
        for name in PROTOTYPE.findall(text):
            declared.append((f, name))
    for f, name in declared:
        where = defined.get(name, set())
        if not where:
            continue  # defined elsewhere (a binding, a test) or not at all: not the layers' concern
        if module(f) not in where:
            owner = sorted(where)[0]
            problems.append(f"{f}: declares {name}, which {owner}.c defines (declare it in {owner}.h)")
    # Circles among the modules' includes.
    state, stack = {}, []

    def visit(m):
        state[m] = 1
        stack.append(m)
        for t in sorted(graph.get(m, ())):
            if state.get(t) == 1:
                circle = stack[stack.index(t):] + [t]
                problems.append("a circle of includes: " + " -> ".join(circle))
            elif t not in state:
                visit(t)
        stack.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m)
    return files, problems


def report(files, problems):
    for p in problems:
        print(p)
    bad = {p.split(":")[0] for p in problems}
    failed = len([f for f in files if f in bad]) + (1 if any(p.startswith("a circle") for p in problems) else 0)
    print(f"[==========] {len(files)} file(s) checked.")
    print(f"[  PASSED  ] {len(files) - min(failed, len(files))} test(s).")
    if failed:
        print(f"[  FAILED  ] {failed} test(s).")
    return 1 if problems else 0


def self_test():
    with tempfile.TemporaryDirectory() as d:
        def put(name, text):
            with open(os.path.join(d, name), "w", encoding="utf-8") as fh:
                fh.write(text)
        put("core.h", "")
        put("shape.h", '#include "core.h"\n')
        put("shape.c", '#include "shape.h"\n')
        _, ok = check(d)
        put("hooks.c", '#include "shape.h"\n')          # base including geometry: up a layer
        put("narrow.h", '#include "ray.h"\n')           # a circle in one layer
        put("ray.h", '#include "narrow.h"\n')
        put("mystery.c", "")                             # no layer
        _, bad = check(d)
    caught = [any("a layer up" in p for p in bad), any("a circle" in p for p in bad),
              any("no layer" in p for p in bad), not ok]
    print("self-test:", "ok" if all(caught) else f"FAILED {caught} {bad}")
    return 0 if all(caught) else 1


if __name__ == "__main__":
    if len(sys.argv) == 2 and sys.argv[1] == "--self-test":
        sys.exit(self_test())
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    sys.exit(report(*check(sys.argv[1])))
