#!/usr/bin/env python3
"""Checks the single-file build (ledge.h from tools/amalgamate.py).

    check_single_header.py --built FILE --expect-program EXE
        [--test-source FILE]... [--test-include DIR]... [--include DIR]...
        [--cc COMPILER]... [--cflag FLAG]... -- GENERATOR [GENERATOR-ARGS...]

Cases (each one counts; a cmocka-like summary for run.sh at the end):
- fresh: GENERATOR run again now (with the arguments meson gave it, into a
  scratch file) writes exactly the built header: the installed ledge.h
  never lags the sources;
- reference: EXE (tests/single_hash.c linked with libledge) prints its two
  world hashes (the demo level and the rain scene);
- for each compiler and each of -std=c99, -std=c11 (-Wall -Wextra
  -pedantic -Werror -O2) and -std=gnu11 -march=native (GNU mode, where GCC
  would contract a*b+c into FMA unless the header stops it): the test
  program built from the single header alone, with no libledge and no
  include/ directory (the header is copied as <ledge/ledge.h>, which the
  test sources include), prints the same two hashes. Its implementation
  unit also checks that ledge's internal names stay inside: before the
  include it declares `extern int NAME;` for every name the header renames
  (so an unrenamed static of the same name would clash), and after it
  `#define NAME 1` for every name the header #undefs (so a leftover macro
  would be redefined, an error under -Werror).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

TEST_FLAGS = ["-std=c11", "-O2", "-ffp-contract=off", "-Wall", "-Wextra", "-Werror"]
MODES = [["-std=c99", "-pedantic"], ["-std=c11", "-pedantic"], ["-std=gnu11", "-march=native"]]
WARN = ["-Wall", "-Wextra", "-Werror", "-O2"]


def run(cmd, **kw):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)
    return r.returncode, r.stdout


def implementation_unit(header):
    """The unit defining LEDGE_IMPLEMENTATION, fenced by the header's own
    renamed and #undef'd names."""
    impl = header[header.index("#if defined(LEDGE_IMPLEMENTATION)"):]
    renamed = re.findall(r"^#define (\w+) ledge__\w+$", impl, re.M)
    undone = re.findall(r"^#undef (\w+)$", impl, re.M)
    text = "// ledge's internal names must not meet the game's\n"
    text += "".join("extern int %s;\n" % n for n in sorted(set(renamed)))
    text += "#define LEDGE_IMPLEMENTATION\n#include <ledge/ledge.h>\n"
    text += "".join("#define %s 1\n" % n for n in sorted(set(undone)))
    return text, len(set(renamed)), len(set(undone))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--built", required=True)
    ap.add_argument("--expect-program", required=True)
    ap.add_argument("--test-source", action="append", default=[])
    ap.add_argument("--test-include", action="append", default=[])
    ap.add_argument("--include", action="append", default=[])
    ap.add_argument("--cc", action="append", default=[])
    ap.add_argument("--cflag", action="append", default=[])
    ap.add_argument("generator", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    a.built, a.expect_program = os.path.abspath(a.built), os.path.abspath(a.expect_program)
    gen = a.generator[1:] if a.generator[:1] == ["--"] else a.generator
    passed = failed = 0

    def case(name, ok, detail=""):
        nonlocal passed, failed
        if ok:
            print("%s: ok%s" % (name, " (%s)" % detail if detail else ""))
        else:
            print("%s: FAIL\n%s" % (name, detail))
        if ok:
            passed += 1
        else:
            failed += 1

    with open(a.built) as f:
        built = f.read()
    with tempfile.TemporaryDirectory() as tmp:
        fresh = os.path.join(tmp, "fresh.h")
        rc, out = run([sys.executable] + gen + ["--output", fresh])
        same = rc == 0 and open(fresh).read() == built
        case("fresh (regenerated header equals the built one, %d lines)" % built.count("\n"), same,
             out if rc else "" if same else "the built ledge.h differs from a fresh one: stale")

        rc, expected = run([a.expect_program])
        lines = expected.strip().split("\n")
        ok = rc == 0 and len(lines) == 2 and all(re.search(r": [0-9a-f]{16}$", x) for x in lines)
        case("reference (library build)", ok, expected.strip().replace("\n", "; ") if ok else expected)

        inc = os.path.join(tmp, "inc")
        os.makedirs(os.path.join(inc, "ledge"))
        shutil.copy(a.built, os.path.join(inc, "ledge", "ledge.h"))
        impl_text, n_renamed, n_undone = implementation_unit(built)
        impl = os.path.join(tmp, "impl.c")
        with open(impl, "w") as f:
            f.write(impl_text)
        incs = ["-I" + inc] + ["-I" + d for d in a.test_include + a.include]
        # The test's own sources, once, with fixed flags: only the single
        # header's implementation unit varies.
        objs, ok, log = [], True, ""
        for k, src in enumerate(a.test_source):
            obj = os.path.join(tmp, "t%d.o" % k)
            rc, out = run([a.cc[0]] + TEST_FLAGS + a.cflag + incs + ["-c", src, "-o", obj])
            ok, log = ok and rc == 0, log + out
            objs.append(obj)
        case("test program's own sources against the single header's declarations", ok, log)
        for cc in a.cc:
            for mode in MODES:
                tag = "%s %s" % (os.path.basename(cc), " ".join(mode))
                obj, exe = os.path.join(tmp, "impl.o"), os.path.join(tmp, "single")
                rc, out = run([cc] + mode + WARN + a.cflag + incs + ["-c", impl, "-o", obj])
                if rc == 0:
                    rc, out = run([cc] + a.cflag + objs + [obj, "-lm", "-o", exe])
                if rc != 0:
                    case(tag + ": build from the single header alone", False, out)
                    continue
                rc, got = run([exe])
                case(tag + ": same hashes as the library build (%d renamed, %d #undef'd names fenced)"
                     % (n_renamed, n_undone), rc == 0 and got == expected,
                     "" if got == expected else "library:\n%ssingle header:\n%s" % (expected, got))
    print("[  PASSED  ] %d test(s)." % passed)
    if failed:
        print("[  FAILED  ] %d test(s)." % failed)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
