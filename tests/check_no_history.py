#!/usr/bin/env python3
"""The user-facing text of ledge describes the library as it is, not how it got there.

    check_no_history.py [--root DIR]  scan README.md, docs/, include/, src/ and samples/
    check_no_history.py --self-test   check that the checker itself catches the words

The history of the work stays in git and CHANGELOG.md. A line fails when it
names an issue by number ("issue 18", "issue #3"), a sitting or a session of
work, a work branch ("branch i18e", or a branch name such as "i16k"), keeps
an attempt ("tried and not kept", "not landed") or dates a heading
("## Figures of 2026-11-28", "### 2026-11-28: ..."). Dates in tables and
measurement notes are fine: a benchmark names the day it was measured.

Text files only (by extension); generated and binary files are skipped.
Prints one line per hit ("file:line: word") and a cmocka-like summary: each
file is one case.
"""
import os
import re
import sys
import tempfile

TEXT_EXTENSIONS = {".md", ".h", ".c", ".cpp", ".hpp", ".js", ".mjs", ".html", ".css",
                   ".lua", ".py", ".txt", ".sh", ".json", ".tmj", ".tsj", ".build", ".in"}
SCANNED = ["README.md", "docs", "include", "src", "samples"]
SKIPPED_DIRS = {"build", "node_modules", ".git", "__pycache__"}

PATTERNS = [
    ("issue number", re.compile(r"\bissues?\s*(?:#\s*)?\d", re.I)),
    ("sitting", re.compile(r"\bsittings?\b", re.I)),
    ("session", re.compile(r"\bsessions?\b", re.I)),
    ("branch name", re.compile(r"\bbranch(?:es)?\s+`?[a-z]+\d", re.I)),
    ("branch name", re.compile(r"\bi\d{1,3}[a-z]\b")),
    ("attempt kept in the docs", re.compile(r"\b(?:tried and not (?:kept|landed)|not landed)\b", re.I)),
    ("dated heading", re.compile(r"^\s*#{1,6}\s.*\b20\d\d-\d\d-\d\d")),
    ("dated heading", re.compile(r"^\s*#{1,6}\s.*\bfigures of 20\d\d", re.I)),
]


def scan_text(path, text):
    """Returns a list of "path:line: what (`match`)" for each hit."""
    problems = []
    dated_heading_ok = not path.endswith(".md")  # a '#' line in C is a directive
    for number, line in enumerate(text.split("\n"), 1):
        for what, pattern in PATTERNS:
            if what == "dated heading" and dated_heading_ok:
                continue
            m = pattern.search(line)
            if m:
                problems.append("%s:%d: %s (`%s`)" % (path, number, what, m.group(0).strip()))
                break
    return problems


def files_under(root):
    out = []
    for entry in SCANNED:
        path = os.path.join(root, entry)
        if os.path.isfile(path):
            out.append(path)
            continue
        for dirpath, dirnames, filenames in os.walk(path):
            # Hidden folders and links are what builds leave (the wasm build's
            # .include links system headers into src/bindings/js/dist).
            dirnames[:] = sorted(d for d in dirnames if d not in SKIPPED_DIRS and not d.startswith("."))
            for name in sorted(filenames):
                if os.path.islink(os.path.join(dirpath, name)):
                    continue
                if os.path.splitext(name)[1] in TEXT_EXTENSIONS or name == "meson.build":
                    out.append(os.path.join(dirpath, name))
    return out


def read_text(path):
    with open(path, "rb") as f:
        data = f.read()
    if b"\0" in data:
        return None  # binary
    return data.decode("utf-8", errors="replace")


SELF_TEST_GOOD = """# Benchmarks

Measured on 2026-11-28 on a 2-core machine. The narrow phase is branch-free;
the grid is kept, and the branches of the switch are few. An i16 type, an
int32 field, one run per process. The issue of stability is covered below.
"""

SELF_TEST_BAD = {
    "issue.md": ("The distance queries (issue 18) came first.\n", ["issue number"]),
    "issue_hash.c": ("/* Fixes issue #7. */\n", ["issue number"]),
    "sitting.md": ("Measured in the same sitting.\n", ["sitting"]),
    "session.h": ("/// The third session made it faster.\n", ["session"]),
    "branch.md": ("Measured on branch i18e.\n", ["branch name"]),
    "branch_name.js": ("// the i16k sweep\n", ["branch name"]),
    "tried.md": ("### Tried and not kept: the grid without a branch\n", ["attempt"]),
    "dated.md": ("## Figures of 2026-11-28\n", ["dated heading"]),
    "dated2.md": ("### 2026-11-20: the rain\n", ["dated heading"]),
}


def self_test():
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        cases = {"good.md": (SELF_TEST_GOOD, [])}
        cases.update(SELF_TEST_BAD)
        for name, (text, expected) in sorted(cases.items()):
            path = os.path.join(tmp, name)
            with open(path, "w") as f:
                f.write(text)
            problems = scan_text(path, read_text(path))
            ok = len(problems) == len(expected) and all(
                any(e in p for p in problems) for e in expected)
            print("self-test %s: %s%s" % (name, "ok" if ok else "FAIL",
                                          "" if ok else " (reported: %r)" % problems))
            passed += ok
            failed += not ok
        # The walk: a tree with one bad file in docs/ and one in src/, a binary
        # file and a build directory that are skipped.
        os.makedirs(os.path.join(tmp, "tree", "docs"))
        os.makedirs(os.path.join(tmp, "tree", "src", "build"))
        for rel, data in [("README.md", b"# ledge\n"), ("docs/a.md", b"a session\n"),
                          ("src/b.c", b"/* issue 3 */\n"), ("src/c.png", b"\0session\0"),
                          ("src/build/d.c", b"/* session */\n")]:
            with open(os.path.join(tmp, "tree", rel), "wb") as f:
                f.write(data)
        hits = []
        for path in files_under(os.path.join(tmp, "tree")):
            text = read_text(path)
            if text is not None:
                hits += scan_text(path, text)
        ok = len(hits) == 2 and any("a.md" in h for h in hits) and any("b.c" in h for h in hits)
        print("self-test walk: %s%s" % ("ok" if ok else "FAIL", "" if ok else " (reported: %r)" % hits))
        passed += ok
        failed += not ok
    return summary(passed, failed)


def summary(passed, failed):
    print("[  PASSED  ] %d test(s)." % passed)
    if failed:
        print("[  FAILED  ] %d test(s)." % failed)
    return 1 if failed else 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    if argv[1:2] == ["--root"] and len(argv) == 3:
        root = argv[2]
    elif len(argv) > 1:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    root = os.path.normpath(root)
    passed = failed = 0
    for path in files_under(root):
        text = read_text(path)
        if text is None:
            continue
        problems = scan_text(os.path.relpath(path, root), text)
        for p in problems:
            print(p)
        passed += not problems
        failed += bool(problems)
    return summary(passed, failed)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
