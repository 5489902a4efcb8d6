#!/usr/bin/env python3
"""tools/amalgamate.py on sources written to clash, so that a module added
later (src/distance.c, ...) needs nothing done by hand.

    check_amalgamate.py --generator tools/amalgamate.py --source-root DIR
                        [--include DIR]... --cc CC -- SOURCES...

Cases (cmocka-like summary for run.sh):
- two files of a small fake library that each define a static function,
  a static variable, a struct tag and typedef, an enumerator and a macro of
  the same names (different values), and use a header's struct member and
  static inline helper: the generated header compiles (C99 and C11, -Wall
  -Wextra -pedantic -Werror) and each file's public function sees its own
  definitions (checked values);
- two files with a static function `count`, also a member of a public
  header's struct that both read (through `.` and `->`): renamed in the
  files' text, members untouched, each sees its own;
- a static name that clashes with another file's and is also a member of a
  struct of its own file: the generator refuses, naming both files;
- the real core sources (SOURCES, meson's list) plus one new module that
  redefines, file-static, one name of each kind found in them (a static
  function, a static variable, an enumerator, a file macro, and an internal
  header's helper name used as a macro after the include): it builds with
  the real library's code and its probe answers; the names are picked by
  the generator's own parser, so the case follows the sources as they change.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

FLAGS = ["-Wall", "-Wextra", "-pedantic", "-Werror", "-O1"]

UMBRELLA = """\
#ifndef FAKE_H
#define FAKE_H
typedef struct fake_counter { int count; } fake_counter;
int fake_a(void);
int fake_b(void);
int fake_c(void);
#endif
"""
CORE = """\
#ifndef FAKE_CORE_H
#define FAKE_CORE_H
#include "fake/fake.h"
static inline int twice(int x) { return 2 * x; }
#endif
"""
MODULE = """\
#include "core.h"
#define SCALE {n}
enum {{ SIZE = {n} }};
typedef struct pair {{ int first, second; }} pair;
static int table[2] = {{{n}, {n}}};
static int helper(pair p) {{ return p.first + p.second; }}
int fake_{name}(void) {{
    pair p = {{SIZE, table[1]}};
    fake_counter c = {{SCALE}};
    return helper(p) + twice(c.count);
}}
"""
CLASH_MEMBER = """\
#include "core.h"
static int count(void) { return 3; }
int fake_c(void) { fake_counter k = {10}; return count() + k.count; }
"""
CLASH_MEMBER_B = """\
#include "core.h"
static int count(void) { return 4; }
int fake_b(void) { fake_counter k = {20}; fake_counter *p = &k; return count() + p->count; }
"""
CLASH_OWN_MEMBER = """\
#include "core.h"
struct own { int count; };
static int count(void) { return 5; }
int fake_a(void) { struct own o = {1}; return count() + o.count; }
"""
MAIN_MEMBER = """\
#define LEDGE_IMPLEMENTATION
#include "single.h"
int main(void) { return !(fake_b() == 24 && fake_c() == 13); }
"""
MAIN = """\
#define LEDGE_IMPLEMENTATION
#include "single.h"
#include <stdio.h>
int main(void) {
    printf("%d %d\\n", fake_a(), fake_b());
    return !(fake_a() == 4 * 1 && fake_b() == 4 * 2);
}
"""


def run(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return r.returncode, r.stdout


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--generator", required=True)
    ap.add_argument("--source-root", required=True)
    ap.add_argument("--include", action="append", default=[])
    ap.add_argument("--cc", required=True)
    ap.add_argument("sources", nargs="+")
    a = ap.parse_args()
    sources = [s for s in a.sources if s != "--"]
    sys.path.insert(0, os.path.dirname(os.path.abspath(a.generator)))
    import amalgamate  # the generator's own parser picks the real names

    passed = failed = 0

    def case(name, ok, detail=""):
        nonlocal passed, failed
        print("%s: %s" % (name, "ok" if ok else "FAIL\n" + detail))
        passed, failed = passed + ok, failed + (not ok)

    extra_inc = ["-I" + d for d in a.include]
    with tempfile.TemporaryDirectory() as tmp:
        inc, src = os.path.join(tmp, "include"), os.path.join(tmp, "src")
        write(os.path.join(inc, "fake", "fake.h"), UMBRELLA)
        write(os.path.join(src, "core.h"), CORE)
        write(os.path.join(src, "a.c"), MODULE.format(n=1, name="a"))
        write(os.path.join(src, "b.c"), MODULE.format(n=2, name="b"))
        write(os.path.join(src, "c.c"), CLASH_MEMBER)
        write(os.path.join(src, "b2.c"), CLASH_MEMBER_B)
        gen = [sys.executable, a.generator, "--umbrella", os.path.join(inc, "fake", "fake.h"),
               "--include", inc, "--include", src, "--root", tmp]
        out_h = os.path.join(tmp, "single.h")
        rc, out = run(gen + ["--output", out_h, os.path.join(src, "a.c"), os.path.join(src, "b.c")])
        write(os.path.join(tmp, "main.c"), MAIN)
        for std in ["-std=c99", "-std=c11"]:
            ok, detail = rc == 0, out
            if ok:
                rc2, detail = run([a.cc, std] + FLAGS + ["-I" + tmp, os.path.join(tmp, "main.c"), "-o",
                                                        os.path.join(tmp, "main")])
                if rc2 == 0:
                    rc2, detail = run([os.path.join(tmp, "main")])
                ok = rc2 == 0
            case("two files, same static function, variable, tag, typedef, enumerator and macro "
                 "(%s): each sees its own" % std, ok, detail)

        write(os.path.join(src, "d.c"), CLASH_OWN_MEMBER)
        write(os.path.join(tmp, "main_member.c"), MAIN_MEMBER)
        rc, out = run(gen + ["--output", out_h, os.path.join(src, "b2.c"), os.path.join(src, "c.c")])
        ok, detail = rc == 0, out
        if ok:
            rc, detail = run([a.cc, "-std=c99"] + FLAGS + ["-I" + tmp, os.path.join(tmp, "main_member.c"), "-o",
                                                        os.path.join(tmp, "main_member")])
            if rc == 0:
                rc, detail = run([os.path.join(tmp, "main_member")])
            ok = rc == 0 and "count -> ledge__b2_count" in open(out_h).read()
        case("two files with a static count, also a header's struct member read through . and ->: "
             "renamed in their text, members untouched", ok, detail)

        rc, out = run(gen + ["--output", out_h, os.path.join(src, "c.c"), os.path.join(src, "d.c")])
        ok = rc != 0 and "count" in out and "src/c.c" in out and "src/d.c" in out
        case("a clashing static name that is also a member of the file's own struct: refused, naming both files",
             ok, out)

        # The real sources and one new module reusing their file-static names.
        names = {s: amalgamate.FileNames(open(s).read()) for s in sources}

        def pick(kind):
            """A file-static name of `kind` from the real sources."""
            for s in sources:
                n, t = names[s], amalgamate.strip_comments(open(s).read())
                for name in (n.macros if kind == "macro" else n.local):
                    e = re.escape(name)
                    if kind == "function" and amalgamate.is_static_function(t, name):
                        return name
                    if kind == "variable" and re.search(r"^static\b[^(;{=]*\b%s\s*(\[[^\]]*\]\s*)*[=;]" % e, t, re.M):
                        return name
                    if kind == "enumerator" and re.search(r"\benum\b[^;{]*\{[^}]*\b%s\b" % e, t):
                        return name
                    if kind == "macro" and name.isupper() and not name.startswith("LEDGE_"):
                        return name
            return None

        fn, var, enum, macro = pick("function"), pick("variable"), pick("enumerator"), pick("macro")
        module = '#include "core.h"\n'
        body = []
        if macro:
            module += "#define %s 5\n" % macro
            body.append(macro)
        if enum:
            module += "enum { %s = 7 };\n" % enum
            body.append(enum)
        if var:
            module += "static int %s = 11;\n" % var
            body.append(var)
        if fn:
            module += "static int %s(void) { return 13; }\n" % fn
            body.append("%s()" % fn)
        module += "int ledge_probe_new_module(void) { return %s; }\n" % " + ".join(body or ["0"])
        expected = sum(v for v, x in [(5, macro), (7, enum), (11, var), (13, fn)] if x)
        new = os.path.join(tmp, "newmodule.c")
        write(new, module)
        real_h = os.path.join(tmp, "real", "ledge.h")
        os.makedirs(os.path.dirname(real_h))
        root = a.source_root
        rc, out = run([sys.executable, a.generator, "--umbrella", os.path.join(root, "include", "ledge", "ledge.h"),
                       "--include", os.path.join(root, "include"), "--include", os.path.join(root, "src"),
                       "--root", root, "--output", real_h] + sources + [new])
        probe = os.path.join(tmp, "probe.c")
        write(probe, '#define LEDGE_IMPLEMENTATION\n#include "ledge.h"\n#include <stdio.h>\n'
                     "int ledge_probe_new_module(void);\n"
                     "int main(void) {\n"
                     "    ledge_shape c = ledge_make_circle((vec2s){{0, 0}}, 1.0f);\n"
                     '    printf("%%d\\n", ledge_probe_new_module());\n'
                     "    return !(ledge_probe_new_module() == %d && ledge_shape_is_valid(&c));\n}\n" % expected)
        ok, detail = rc == 0, out
        if ok:
            rc, detail = run([a.cc, "-std=c11"] + FLAGS + ["-I" + os.path.dirname(real_h)] + extra_inc +
                             [probe, "-lm", "-o", os.path.join(tmp, "probe")])
            if rc == 0:
                rc, detail = run([os.path.join(tmp, "probe")])
            ok = rc == 0
        case("the core sources plus a new module redefining %s: builds, and the module sees its own"
             % ", ".join(x for x in [fn, var, enum, macro] if x), ok and len(body) == 4, detail)
    print("[  PASSED  ] %d test(s)." % passed)
    if failed:
        print("[  FAILED  ] %d test(s)." % failed)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
