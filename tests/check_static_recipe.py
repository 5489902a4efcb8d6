#!/usr/bin/env python3
"""Follows docs/guide.md's plain static build by hand, in a scratch folder.

    check_static_recipe.py --source-root DIR [--include DIR ...]
    check_static_recipe.py --self-test

The guide's block after `<!-- recipe: plain-static -->` is run with bash
as written, with its `LEDGE=` line pointed at the source tree: it
compiles the core's files (the list it reads from meson.build) with `cc`,
archives them and links `game.c`, which is this guide's own program (its
C unit with `main` that the other blocks continue, as doc_snippets.py
extracts it). The program must then run and exit 0. So the recipe links
whatever modules the library has, and a block that stops working fails
here. --include adds a directory to CPATH (cglm's, when it is not a
system one). Prints a cmocka-like summary (one case).

Also the extractor of tagged blocks for run.sh: `--print FILE NAME`
prints the block after `<!-- recipe: NAME -->` in FILE.
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import doc_snippets  # noqa: E402

RECIPE = re.compile(r"^\s*<!--\s*recipe:\s*(\S+)\s*-->\s*$")
FENCE = re.compile(r"^(\s*)(`{3,})\s*(\S*)\s*$")


def recipe(path, name):
    """The text of the block tagged `<!-- recipe: name -->` (blank lines may
    separate the tag and the fence), or None."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for i, line in enumerate(lines):
        m = RECIPE.match(line)
        if not m or m.group(1) != name:
            continue
        j = i + 1
        while j < len(lines) and not lines[j].strip():
            j += 1
        fence = FENCE.match(lines[j]) if j < len(lines) else None
        if not fence:
            return None
        body = []
        for k in range(j + 1, len(lines)):
            if lines[k].strip() == fence.group(2):
                return "\n".join(body) + "\n"
            body.append(lines[k])
    return None


def guide_program(root):
    """The guide's program: its C unit with main made of the most blocks."""
    units, _ = doc_snippets.extract(root, os.path.join("docs", "guide.md"))
    mains = [u for u in units if doc_snippets.MAIN.search(u.source())]
    return max(mains, key=lambda u: len(u.pieces)) if mains else None


def check(root, includes, block, program, quiet=False):
    """Runs `block` in a scratch folder with `program` as game.c; returns
    (ok, message)."""
    if block is None:
        return False, "docs/guide.md has no block tagged <!-- recipe: plain-static -->"
    if not re.search(r"^LEDGE=\S*", block, re.M):
        return False, "the recipe does not set LEDGE= on a line of its own"
    if program is None:
        return False, "docs/guide.md has no C program (a unit with main)"
    script = re.sub(r"^LEDGE=\S*", lambda _: "LEDGE=" + shlex.quote(root), block, count=1,
                    flags=re.M)
    env = dict(os.environ)
    if includes:
        env["CPATH"] = os.pathsep.join(includes + [env.get("CPATH", "")]).rstrip(os.pathsep)
    with tempfile.TemporaryDirectory(prefix="ledge-static-") as tmp:
        with open(os.path.join(tmp, "game.c"), "w", encoding="utf-8") as f:
            f.write(program)
        r = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=tmp, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=1200)
        if r.returncode != 0:
            return False, "the recipe failed (exit %d):\n%s" % (r.returncode, r.stdout[-4000:])
        objects = len([f for f in os.listdir(tmp) if f.endswith(".o")])
        if not os.path.exists(os.path.join(tmp, "game")):
            return False, "the recipe made no program `game`"
        r = subprocess.run([os.path.join(tmp, "game")], cwd=root, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=300)
        if r.returncode != 0:
            return False, "the guide's program exited %d:\n%s" % (r.returncode, r.stdout[-4000:])
    if not quiet:
        print(r.stdout, end="")
    return True, "%d files compiled by hand, the guide's program linked and run" % objects


def summary(ok, message):
    print(("ok: " if ok else "FAIL: ") + message)
    print("[==========] 1 test(s) run.")
    print("[  PASSED  ] %d test(s)." % (1 if ok else 0))
    if not ok:
        print("[  FAILED  ] 1 test(s).")
    return 0 if ok else 1


def self_test():
    """A recipe that does not link, and one that is missing, must fail."""
    program = "int main(void) { return 0; }\n"
    broken = 'LEDGE=x\ncc -c game.c -o game.o && cc game.o -lnothing_like_this -o game\n'
    good = 'LEDGE=x\ncc game.c -o game\n'
    cases = [check("/", [], broken, program, True)[0] is False,
             check("/", [], None, program, True)[0] is False,
             check("/", [], "cc game.c -o game\n", program, True)[0] is False,
             check("/", [], good, program, True)[0] is True,
             check("/", [], good, "int main(void) { return 3; }\n", True)[0] is False]
    print("self-test:", "ok" if all(cases) else "FAILED %s" % cases)
    return 0 if all(cases) else 1


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) == 4 and argv[1] == "--print":
        text = recipe(argv[2], argv[3])
        if text is None:
            print("%s: no block tagged <!-- recipe: %s -->" % (argv[2], argv[3]), file=sys.stderr)
            return 1
        sys.stdout.write(text)
        return 0
    root, includes, i = None, [], 1
    while i < len(argv):
        if argv[i] == "--source-root" and i + 1 < len(argv):
            root = os.path.abspath(argv[i + 1])
        elif argv[i] == "--include" and i + 1 < len(argv):
            if argv[i + 1] and argv[i + 1] not in doc_snippets.SYSTEM_INCLUDES:
                includes.append(argv[i + 1])
        else:
            print(__doc__)
            return 2
        i += 2
    if root is None:
        print(__doc__)
        return 2
    unit = guide_program(root)
    block = recipe(os.path.join(root, "docs", "guide.md"), "plain-static")
    return summary(*check(root, includes, block, unit.source() if unit else None))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
