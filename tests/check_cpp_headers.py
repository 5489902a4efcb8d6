#!/usr/bin/env python3
"""The public headers in C++: every header of include/ledge/ alone, and every
value macro they define, with each C++ compiler given, in C++11, 14, 17 and
20, with -Wall -Wextra -pedantic -Werror.

    check_cpp_headers.py --headers DIR [--include DIR]... [--single FILE]
                         [--uses FILE] --cxx COMPILER [--cxx COMPILER]...

For each (compiler, standard):
- each header of DIR is a translation unit of its own (`#include
  <ledge/NAME>`), so that it compiles without the others before it;
- one unit initialises an `auto` variable from every object-like macro of
  the headers (found by reading them, so a macro added later is checked
  too): a macro that builds a value must be a C++ expression. A
  function-like macro cannot be called blindly, so the check fails unless
  the file given by --uses (tests/test_cpp.cpp) calls it;
- with --single, the declarations part of the single-file build
  (ledge.h without LEDGE_IMPLEMENTATION), and a unit that defines
  LEDGE_IMPLEMENTATION, which must stop with the header's own #error (the
  implementation is C only) rather than with some other message.

Each compile is one case; prints a cmocka-like summary for run.sh.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

STDS = ["c++11", "c++14", "c++17", "c++20"]
FLAGS = ["-Wall", "-Wextra", "-pedantic", "-Werror", "-fsyntax-only"]
DEFINE = re.compile(r"^\s*#\s*define\s+([A-Za-z_]\w*)(\(?)(.*)$")
GUARD = re.compile(r"^LEDGE_\w*_H$|^LEDGE_H$")
NOT_VALUES = {"LEDGE_API"}  # attributes, not values


def public_macros(headers_dir):
    """(object-like, function-like) macro names of the public headers."""
    objects, functions = [], []
    for name in sorted(os.listdir(headers_dir)):
        if not name.endswith(".h"):
            continue
        with open(os.path.join(headers_dir, name)) as f:
            for line in f:
                m = DEFINE.match(line)
                if not m or GUARD.match(m.group(1)) or m.group(1) in NOT_VALUES:
                    continue
                if m.group(2) == "(":
                    functions.append(m.group(1))
                elif m.group(3).strip():
                    objects.append(m.group(1))
    return sorted(set(objects)), sorted(set(functions))


def compile_unit(cxx, std, includes, text, tmp):
    path = os.path.join(tmp, "unit.cpp")
    with open(path, "w") as f:
        f.write(text)
    cmd = [cxx, "-std=" + std] + FLAGS + ["-I" + d for d in includes] + [path]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return r.returncode, r.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--headers", required=True)
    ap.add_argument("--include", action="append", default=[])
    ap.add_argument("--single")
    ap.add_argument("--uses")
    ap.add_argument("--cxx", action="append", required=True)
    a = ap.parse_args()
    if a.single:
        a.single = os.path.abspath(a.single)

    headers = sorted(h for h in os.listdir(a.headers) if h.endswith(".h"))
    objects, functions = public_macros(a.headers)
    units = [("ledge/" + h, "#include <ledge/%s>\n" % h) for h in headers]
    body = "".join("    auto v%d = %s;\n    (void)v%d;\n" % (i, m, i) for i, m in enumerate(objects))
    includes = "".join("#include <ledge/%s>\n" % h for h in headers)
    units.append(("%d value macros" % len(objects), includes + "int main() {\n" + body + "}\n"))
    if a.single:
        units.append(("single header", '#include "%s"\nint main() { return 0; }\n' % a.single))

    passed = failed = 0
    uses = open(a.uses).read() if a.uses else ""
    for m in functions:
        if re.search(r"\b%s\s*\(" % m, uses):
            passed += 1
        else:
            print("FAIL function-like macro %s is not called in %s" % (m, a.uses))
            failed += 1
    with tempfile.TemporaryDirectory() as tmp:
        for cxx in a.cxx:
            for std in STDS:
                for name, text in units:
                    rc, out = compile_unit(cxx, std, [os.path.join(a.headers, "..")] + a.include, text, tmp)
                    tag = "%s -std=%s %s" % (os.path.basename(cxx), std, name)
                    if rc == 0:
                        print(tag + ": ok")
                        passed += 1
                    else:
                        print(tag + ": FAIL\n" + out)
                        failed += 1
                if a.single:  # the implementation part refuses C++ with its own message
                    text = '#define LEDGE_IMPLEMENTATION\n#include "%s"\n' % a.single
                    rc, out = compile_unit(cxx, std, a.include, text, tmp)
                    tag = "%s -std=%s single header implementation refused" % (os.path.basename(cxx), std)
                    if rc != 0 and "compile it as C" in out and out.count("error:") == 1:
                        print(tag + ": ok")
                        passed += 1
                    else:
                        print(tag + ": FAIL\n" + out)
                        failed += 1
    print("[  PASSED  ] %d test(s)." % passed)
    if failed:
        print("[  FAILED  ] %d test(s)." % failed)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
