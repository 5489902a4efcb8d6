#!/usr/bin/env python3
"""Compiles (and runs) every C snippet of ledge's documentation.

    doc_snippets.py --source-root DIR [options] -- CC [CC-ARGS...]
    doc_snippets.py --self-test [options] -- CC [CC-ARGS...]

The convention (README.md, "Documentation"): every ```c block of README.md
and docs/*.md is a complete C11 translation unit, compiled with
-std=c11 -Wall -Wextra -Werror -pedantic -Wno-unused-function. One that
defines `int main` is also linked against the library and run from the
source root, and must exit 0. A block preceded (blank lines allowed) by
`<!-- snippet: continue -->` is appended to the previous ```c block of the
same file; `<!-- snippet: skip REASON -->` leaves a block out (a skip
without a reason is an error). Other languages use ```sh, ```text, ...

Options:
  --source-root DIR  where README.md and docs/ are (the pages are globbed now)
  --include DIR      an include directory (repeatable)
  --cflag FLAG       an extra compile and link flag, e.g. -fsanitize=... (repeatable)
  --lib PATH         a library to link programs with, in order (repeatable)
  --link FLAG        an extra link flag after the libraries, e.g. -lm (repeatable)
  --without HEADER   a header of an optional library this build lacks (e.g.
                     ledge/tiled.h): units that include it are skipped
  --self-test        check that broken snippets, failing programs and skips
                     without a reason are reported as failures

Prints "file:line ok" or "file:line FAIL" (with the compiler's or the
program's output) per compiled unit, and a cmocka-like summary so that
run.sh counts each unit as one case. Compiler messages name the Markdown
file and line (the unit carries #line directives).
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

STD_FLAGS = ["-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic", "-Wno-unused-function"]
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([^\s`]*)")
MARKER = re.compile(r"^\s*<!--\s*snippet:\s*(\S+)(.*?)-->\s*$")
MAIN = re.compile(r"\bint\s+main\s*\(")
SYSTEM_INCLUDES = {"/usr/include", "/usr/local/include"}
RUN_TIMEOUT = 120


class Unit:
    """One translation unit: a block and the blocks that continue it."""

    def __init__(self, path, line):
        self.path = path  # relative to the source root
        self.line = line  # the first block's fence line (1-based)
        self.pieces = []  # (first code line, text)
        self.error = None  # a convention error found while extracting

    def name(self):
        more = [str(line - 1) for line, _ in self.pieces[1:]]
        return "%s:%d%s" % (self.path, self.line, " (+ %s)" % ", ".join(more) if more else "")

    def source(self):
        out = []
        for line, text in self.pieces:
            out.append('#line %d "%s"\n' % (line, self.path))
            out.append(text)
        return "".join(out)


def extract(root, rel):
    """The units and the skipped blocks of one page: ([Unit], [(line, reason)])."""
    with open(os.path.join(root, rel), encoding="utf-8") as f:
        lines = f.read().split("\n")
    units, skipped = [], []
    last_c = None  # the unit the previous ```c block belongs to (None after a skip)
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, lang = m.groups()
        start = i
        i += 1
        body = []
        while i < len(lines) and not (lines[i].strip().startswith(fence) and
                                       lines[i].strip().strip(fence[0]) == ""):
            body.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i])
            i += 1
        i += 1  # the closing fence
        if lang != "c":
            continue
        text = "\n".join(body) + "\n"
        # The marker: the previous non-blank line.
        j = start - 1
        while j >= 0 and not lines[j].strip():
            j -= 1
        marker = MARKER.match(lines[j]) if j >= 0 else None
        kind = marker.group(1) if marker else None
        arg = marker.group(2).strip() if marker else ""
        if kind == "skip":
            if arg:
                skipped.append((start + 1, arg))
                last_c = None
                continue
            unit = Unit(rel, start + 1)
            unit.error = "`<!-- snippet: skip -->` needs a reason (say why it cannot compile)"
            units.append(unit)
            last_c = None
            continue
        if kind == "continue":
            if last_c is None:
                unit = Unit(rel, start + 1)
                unit.error = ("`<!-- snippet: continue -->` follows no compiled ```c block "
                              "of this page")
                units.append(unit)
                continue
            last_c.pieces.append((start + 2, text))
            continue
        unit = Unit(rel, start + 1)
        if kind is not None:
            unit.error = "unknown snippet directive %r (continue or skip REASON)" % kind
        unit.pieces.append((start + 2, text))
        units.append(unit)
        last_c = unit if unit.error is None else None
    return units, skipped


def pages(root):
    found = [p for p in ["README.md"] if os.path.exists(os.path.join(root, p))]
    found += sorted(os.path.relpath(p, root) for p in glob.glob(os.path.join(root, "docs", "*.md")))
    return found


def run(cmd, cwd=None, timeout=None):
    try:
        p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=timeout)
        return p.returncode, p.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode("utf-8", "replace")
        return None, out + "\n(timed out after %d s)" % timeout
    except OSError as e:
        return None, str(e)


def check_unit(unit, opts, root, tmp, index):
    """None when the unit compiles (and runs); else the reason, with output."""
    if unit.error:
        return unit.error
    src = os.path.join(tmp, "snippet%d.c" % index)
    with open(src, "w", encoding="utf-8") as f:
        f.write(unit.source())
    incs = ["-I" + d for d in opts["include"] if d and d not in SYSTEM_INCLUDES]
    base = opts["cc"] + STD_FLAGS + opts["cflag"] + incs
    if not MAIN.search(unit.source()):
        rc, out = run(base + ["-c", src, "-o", src[:-2] + ".o"], cwd=root)
        return None if rc == 0 else "does not compile:\n" + out
    exe = src[:-2]
    rc, out = run(base + [src, "-o", exe] + opts["lib"] + opts["link"], cwd=root)
    if rc != 0:
        return "does not compile or link:\n" + out
    rc, out = run([exe], cwd=root, timeout=RUN_TIMEOUT)
    if rc != 0:
        return "the program exits with %s:\n%s" % (rc, out)
    return None


def check_tree(root, opts, quiet=False):
    """Checks every page under root; returns {unit name: None or reason}."""
    results = {}
    with tempfile.TemporaryDirectory(prefix="ledge-snippets-") as tmp:
        index = 0
        for rel in pages(root):
            units, skipped = extract(root, rel)
            for line, reason in skipped:
                if not quiet:
                    print("%s:%d skipped (%s)" % (rel, line, reason))
            for unit in units:
                missing = [h for h in opts["without"]
                           if re.search(r"#\s*include\s*[<\"]%s[>\"]" % re.escape(h), unit.source())]
                if missing and unit.error is None:
                    if not quiet:
                        print("%s skipped (%s: not built here)" % (unit.name(), missing[0]))
                    continue
                index += 1
                problem = check_unit(unit, opts, root, tmp, index)
                results[unit.name()] = problem
                if not quiet:
                    if problem is None:
                        print("%s ok" % unit.name())
                    else:
                        print("%s FAIL: %s" % (unit.name(), problem.rstrip()))
    return results


def summary(passed, failed):
    print("[  PASSED  ] %d test(s)." % passed)
    if failed:
        print("[  FAILED  ] %d test(s)." % failed)
    return 1 if failed else 0


# --- self-test --------------------------------------------------------------

SELF_README = """# A page

```c
#include <stdio.h>

int main(void) {
    printf("hello\\n");
    return 0;
}
```

```sh
this is not C and is not compiled
```
"""

SELF_PAGE = """# Another page

A broken snippet (line 5):

```c
int f(void) { return undeclared_name; }
```

A skip without a reason (line 12):

<!-- snippet: skip -->
```c
this is not C
```

A skip with a reason, not compiled:

<!-- snippet: skip a fragment of the block above -->
```c
this is not C either
```

A program in two blocks (lines 25 and 32):

```c
#include <stdlib.h>
static int twice(int x) { return 2 * x; }
```

<!-- snippet: continue -->

```c
int main(void) { return twice(2) == 4 ? EXIT_SUCCESS : EXIT_FAILURE; }
```

A program that fails (line 38):

```c
int main(void) { return 3; }
```

A warning is an error (line 44):

```c
int g(int x) { int unused; return x; }
```
"""

SELF_EXPECTED = {
    "README.md:3": True,
    "docs/page.md:5": False,
    "docs/page.md:12": False,
    "docs/page.md:25 (+ 32)": True,
    "docs/page.md:38": False,
    "docs/page.md:44": False,
}


def self_test(opts):
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="ledge-snippets-self-") as root:
        os.mkdir(os.path.join(root, "docs"))
        with open(os.path.join(root, "README.md"), "w") as f:
            f.write(SELF_README)
        with open(os.path.join(root, "docs", "page.md"), "w") as f:
            f.write(SELF_PAGE)
        results = check_tree(root, opts, quiet=True)
    for name in sorted(set(results) | set(SELF_EXPECTED)):
        want = SELF_EXPECTED.get(name)
        got = (results[name] is None) if name in results else None
        ok = want is not None and got == want
        print("self-test %s: expected %s, got %s: %s" % (
            name, {True: "ok", False: "FAIL", None: "nothing"}[want],
            {True: "ok", False: "FAIL", None: "nothing"}[got], "ok" if ok else "FAIL"))
        if not ok and name in results and results[name]:
            print("    " + results[name].rstrip().replace("\n", "\n    "))
        passed += ok
        failed += not ok
    return summary(passed, failed)


def parse_args(argv):
    opts = {"include": [], "cflag": [], "lib": [], "link": [], "without": [], "cc": [],
            "root": None,
            "self_test": False}
    i = 1
    while i < len(argv):
        a = argv[i]
        if a == "--":
            opts["cc"] = argv[i + 1:]
            break
        if a == "--self-test":
            opts["self_test"] = True
            i += 1
            continue
        key = a[2:].replace("-", "_") if a.startswith("--") else None
        if key == "source_root" and i + 1 < len(argv):
            opts["root"] = argv[i + 1]
        elif key in ("include", "cflag", "lib", "link", "without") and i + 1 < len(argv):
            opts[key].append(argv[i + 1])
        else:
            raise SystemExit("doc_snippets.py: unknown or incomplete option %r\n\n%s" %
                             (a, __doc__.strip()))
        i += 2
    if not opts["cc"]:
        raise SystemExit("doc_snippets.py: no compiler given (-- CC ...)")
    if not opts["self_test"] and not opts["root"]:
        raise SystemExit("doc_snippets.py: --source-root is required")
    # Paths given relative to where we were started stay valid after cwd changes.
    opts["include"] = [os.path.abspath(d) for d in opts["include"] if d]
    opts["lib"] = [os.path.abspath(p) for p in opts["lib"]]
    return opts


def main(argv):
    opts = parse_args(argv)
    if opts["self_test"]:
        return self_test(opts)
    results = check_tree(os.path.abspath(opts["root"]), opts)
    failed = sum(1 for r in results.values() if r is not None)
    return summary(len(results) - failed, failed)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
