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
another includes its header. Public functions (ledge_*, declared in
include/ledge/) are reached without a header of src/, so their calls are
followed too: a module may call the public functions of its own layer and
the layers below, and those calls count in the circles. Every file of
src/ (but the bindings') must be in the table: a new file must be given
its layer. Each stage's state, which the world reaches through a pointer
(`struct ledge__<name> *` in struct ledge_world, world_state.h), is
declared in the header of a module of the stages layer, never in the
store's own headers.

Prints one line per violation and a cmocka-like summary (one case per
file).
"""
import os
import re
import sys
import tempfile

# Lowest first. The Tiled and LDtk loaders are libraries of their own,
# above the core, built on the public API only; each has its own layers.
LAYERS = [
    ("base: numbers, checks, hooks, growable arrays",
     ["core", "array", "hooks", "check", "hash", "ldl", "material"]),
    ("geometry: shapes and their collision, rays, sweeps, distances",
     ["shape", "narrow", "ray", "sweep", "decompose", "gjk", "distance", "bvh", "segment"]),
    ("tiles: the tile set, the tilemap and its queries, the grid",
     ["tile", "tile_push", "tile_round", "tile_collide", "tilemap", "tilemap_ray", "tilemap_load",
      "tilemap_material", "distance_tile", "grid", "grid_refile"]),
    ("store: the world's state, the body store, ids and slots, workers",
     ["workers", "shape_table", "body_fields", "world_state", "body_store", "slots", "contacts", "par"]),
    ("stages: the step's stages and the state they keep",
     ["chain_store", "order", "joints", "broad_file", "broad_tiles", "broad", "joint_solve",
      "resolve", "fast", "response", "sleep", "events", "query_index", "characters", "push",
      "chain_query"]),
    ("api: the step and the public calls",
     ["move", "character", "joint", "body", "chain", "world", "query", "draw", "distance_world", "ffi",
      "profile", "snapshot_codec", "snapshot", "snapshot_tiles", "snapshot_bodies", "snapshot_contacts",
      "snapshot_events", "snapshot_characters", "snapshot_chains", "snapshot_joints"]),
    ("tiled context", ["tiled_ctx", "tiled_flip"]),
    ("tiled util", ["tiled_util", "tiled_lookup"]),
    ("tiled data", ["tiled_data", "tiled_tileset", "tiled_objects"]),
    ("tiled layers", ["tiled_layers"]),
    ("tiled", ["tiled"]),
    ("ldtk context", ["ldtk_ctx", "ldtk_names"]),
    ("ldtk util", ["ldtk_json"]),
    ("ldtk data", ["ldtk_defs", "ldtk_fields", "ldtk_levels"]),
    ("ldtk entities", ["ldtk_entities"]),
    ("ldtk layers", ["ldtk_layers", "ldtk_place"]),
    ("ldtk", ["ldtk"]),
]

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# A function definition or declaration at the start of a line (a file's top
# level, as clang-format lays it out), of an internal (ledge__) name.
DEFINITION = re.compile(r'^(?:static\s+)?(?:inline\s+)?[A-Za-z_][\w\s\*]*?\b(ledge__\w+)\s*\([^;{}]*\)\s*\{',
                        re.M)
# A public function's definition (ledge_ and a lower-case letter: not the
# internal ledge__ names), and a call of any such name.
PUBLIC_DEFINITION = re.compile(
    r'^(?!static)[A-Za-z_][\w\s\*]*?\b(ledge_[a-z]\w*)\s*\([^;{}]*\)\s*\{', re.M)
PUBLIC_CALL = re.compile(r'\b(ledge_[a-z]\w*)\s*\(')
PROTOTYPE = re.compile(r'^(?!static)[A-Za-z_][\w\s\*]*?\b(ledge__\w+)\s*\([^;{}]*\)\s*;', re.M)


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
    return re.sub(r'//[^\n]*', '', text)


def strip_strings(text):
    """Comments and string literals out (messages name public functions)."""
    return re.sub(r'"(?:\\.|[^"\\\n])*"', '""', strip_comments(text))


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
    problems += stage_state_problems(src, files, table)
    # Calls of public functions: within the layer or downward, like includes.
    public, texts = {}, {}
    for f in files:
        with open(os.path.join(src, f), encoding="utf-8") as fh:
            texts[f] = strip_strings(fh.read())
        for name in PUBLIC_DEFINITION.findall(texts[f]):
            public.setdefault(name, module(f))
    for f in files:
        m = module(f)
        if m not in table:
            continue
        for name in sorted(set(PUBLIC_CALL.findall(texts[f]))):
            t = public.get(name)
            if t is None or t == m or t not in table:
                continue
            if table[t] > table[m]:
                problems.append(f"{f}: calls {name}, which {t}.c defines a layer up "
                                f"({LAYERS[table[t]][0].split(':')[0]} above "
                                f"{LAYERS[table[m]][0].split(':')[0]})")
            graph.setdefault(m, set()).add(t)
    # Circles among the modules' includes and public calls.
    state, stack = {}, []

    def visit(m):
        state[m] = 1
        stack.append(m)
        for t in sorted(graph.get(m, ())):
            if state.get(t) == 1:
                circle = stack[stack.index(t):] + [t]
                problems.append("a circle of includes and calls: " + " -> ".join(circle))
            elif t not in state:
                visit(t)
        stack.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m)
    return files, problems


STAGES = next(k for k, (name, _) in enumerate(LAYERS) if name.startswith("stages"))


def stage_state_problems(src, files, table):
    """Each `struct ledge__x *member;` of struct ledge_world is declared in a
    header of a module of the stages layer."""
    path = os.path.join(src, "world_state.h")
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as fh:
        text = strip_comments(fh.read())
    body = re.search(r"struct ledge_world\s*\{(.*?)\n\};", text, re.S)
    if not body:
        return ["world_state.h: no struct ledge_world"]
    problems = []
    for name, member in re.findall(r"struct\s+(ledge__\w+)\s*\*\s*(\w+)\s*;", body.group(1)):
        where = []
        for f in files:
            if not f.endswith(".h"):
                continue
            with open(os.path.join(src, f), encoding="utf-8") as fh:
                if re.search(r"\bstruct\s+" + name + r"\s*\{", strip_comments(fh.read())):
                    where.append(f)
        if not where:
            problems.append(f"world_state.h: the world's {member} ({name}) is declared in no header")
        for f in where:
            if table.get(module(f)) != STAGES:
                problems.append(f"{f}: declares {name}, the world's {member}, outside the stages "
                                f"layer (a stage's state is declared in the stage's header)")
    return problems


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
        put("world_state.h", "struct ledge_world {\n    struct ledge__thing *thing;\n};\n")
        put("grid.h", "typedef struct ledge__thing {\n    int x;\n} ledge__thing;\n")  # not a stage
        _, bad = check(d)
    with tempfile.TemporaryDirectory() as d:
        def put(name, text):
            with open(os.path.join(d, name), "w", encoding="utf-8") as fh:
                fh.write(text)
        # A public function called a layer up, through the public header only.
        put("tiled.c", "int ledge_tiled_find(void) {\n    return 1;\n}\n")
        put("tiled_objects.c", '#include "ledge/tiled.h"\n'
            'int f(void) {\n    return ledge_tiled_find();\n}\n')
        # Two modules of one layer calling each other's public functions.
        put("body.c", "int ledge_body_a(void) {\n    return ledge_world_b();\n}\n")
        put("world.c", "int ledge_world_b(void) {\n    return ledge_body_a();\n}\n")
        # A message naming a function of a layer up is not a call.
        put("hooks.c", 'void g(void) {\n    h("ledge_body_a(1) refused");\n}\n')
        _, public_bad = check(d)
    caught = [any("a layer up" in p for p in bad), any("a circle" in p for p in bad),
              any("no layer" in p for p in bad), any("outside the stages" in p for p in bad), not ok,
              any(p.startswith("tiled_objects.c: calls ledge_tiled_find") for p in public_bad),
              any("a circle" in p and "body" in p for p in public_bad),
              not any(p.startswith("hooks.c") for p in public_bad)]
    print("self-test:", "ok" if all(caught) else f"FAILED {caught} {bad}")
    return 0 if all(caught) else 1


if __name__ == "__main__":
    if len(sys.argv) == 2 and sys.argv[1] == "--self-test":
        sys.exit(self_test())
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    sys.exit(report(*check(sys.argv[1])))
