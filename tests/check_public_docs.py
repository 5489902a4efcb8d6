#!/usr/bin/env python3
"""Every public item of ledge's headers has a doc comment (independently of Doxygen).

    check_public_docs.py HEADER|DIR... check these headers (a directory: its *.h)
    check_public_docs.py --self-test check that the checker itself catches gaps

A public item is a function prototype marked LEDGE_API, a typedef, a struct,
union or enum member, an enum constant, a `#define LEDGE_*` (include guards
aside) and the file itself (`/// @file` at its top). It is documented when
the line right before it is a `///` comment (not `///<`, which belongs to the
item above; #if/#else/#endif lines in between are skipped) or when a `///<`
comment ends one of its lines. A macro defined again in another #if branch is
covered by its first, documented definition.

Prints one line per undocumented item ("file:line: what") and a cmocka-like
summary: each header is one case.
"""
import glob
import os
import re
import sys
import tempfile

CONDITIONAL = re.compile(r"\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b")
DEFINE = re.compile(r"\s*#\s*define\s+(\w+)")


def strip_comments(line, in_block):
    """The code of `line` without comments; also whether a /* */ stays open."""
    out = []
    i = 0
    while i < len(line):
        if in_block:
            end = line.find("*/", i)
            if end < 0:
                return "".join(out), True
            i = end + 2
            in_block = False
        elif line.startswith("//", i):
            break
        elif line.startswith("/*", i):
            in_block = True
            i += 2
        elif line[i] == '"':  # skip string literals (braces inside them)
            j = i + 1
            while j < len(line) and line[j] != '"':
                j += 2 if line[j] == "\\" else 1
            out.append('""')
            i = j + 1
        else:
            out.append(line[i])
            i += 1
    return "".join(out), in_block


def doc_before(lines, idx):
    """Whether a `///` comment (not `///<`) sits right before line idx."""
    j = idx - 1
    while j >= 0 and CONDITIONAL.match(lines[j]):
        j -= 1
    if j < 0:
        return False
    s = lines[j].strip()
    return s.startswith("///") and not s.startswith("///<")


def trailing_doc(line):
    return "///<" in line


def check_header(path, text):
    """Returns a list of "path:line: description" for undocumented items."""
    lines = text.split("\n")
    name = os.path.basename(path)
    problems = []
    if not re.match(r"\s*///\s*[@\\]file\s+" + re.escape(name) + r"\s*$", lines[0] if lines else ""):
        problems.append("%s:1: the file has no `/// @file %s` comment on its first line" % (path, name))

    code = []
    in_block = False
    for line in lines:
        c, in_block = strip_comments(line, in_block)
        code.append(c)

    documented_macros = set()
    # Statement state: a declaration at file scope, or members inside braces.
    depth = 0          # brace depth, extern "C" braces not counted
    stack = []         # for each open brace: ('aggregate', kind) or ('extern',)
    stmt_start = None  # index of the first line of the current statement
    stmt_text = ""
    member_start = None  # first line of the current member (inside a body)
    member_lines = []    # lines of the current member whose ///< counts
    guard = None
    i = 0
    while i < len(lines):
        c = code[i]
        stripped = c.strip()
        # Preprocessor lines (with their continuations).
        if stripped.startswith("#"):
            end = i
            while code[end].rstrip().endswith("\\") and end + 1 < len(lines):
                end += 1
            m = DEFINE.match(c)
            ifndef = re.match(r"\s*#\s*ifndef\s+(\w+)", c)
            if ifndef:
                guard = ifndef.group(1)
            elif m:
                macro = m.group(1)
                if macro == guard:
                    pass  # include guard
                elif macro.startswith("LEDGE_"):
                    if doc_before(lines, i) or any(trailing_doc(lines[k]) for k in range(i, end + 1)):
                        documented_macros.add(macro)
                    elif macro not in documented_macros:
                        problems.append("%s:%d: macro %s has no /// comment" % (path, i + 1, macro))
                        documented_macros.add(macro)  # report once
                guard = None
            else:
                guard = None
            i = end + 1
            continue
        if not stripped:
            i += 1
            continue
        if re.match(r'extern\s+"C"\s*\{', stripped.replace('""', '"C"')) or stripped.startswith('extern ""'):
            stack.append(("extern",))
            i += 1
            continue
        # Walk the code characters of the line.
        for ch_index, ch in enumerate(c):
            if ch.isspace() and stmt_start is None and member_start is None:
                continue
            in_body = depth > 0 and stack and stack[-1][0] == "aggregate"
            if depth == 0 and stmt_start is None and not ch.isspace():
                if ch == "}" and stack and stack[-1][0] == "extern":
                    stack.pop()
                    continue
                stmt_start = i
                stmt_text = ""
            if in_body and member_start is None and not ch.isspace() and ch != "}":
                member_start = i
                member_lines = []
            if depth == 0 and stmt_start is not None:
                stmt_text += ch
            if ch == "{":
                if in_body and member_start is not None:
                    member_lines.append(member_start)  # a nested aggregate: its opening line
                head = stmt_text if depth == 0 else ""
                kind = "enum" if re.search(r"\benum\b", head) else "struct"
                if depth > 0:
                    kind = "enum" if re.search(r"\benum\b", c[:ch_index]) else "struct"
                stack.append(("aggregate", kind, member_start))
                if depth == 0:
                    check_decl(path, lines, stmt_start, i, stmt_text, problems)
                depth += 1
                member_start = None
            elif ch == "}":
                if in_body:
                    if member_start is not None:  # enum's last constant without a comma
                        check_member(path, lines, member_start, i, member_lines, problems)
                    _, _, outer_member = stack.pop()
                    depth -= 1
                    member_start = outer_member
                    if member_start is not None:
                        member_lines = [member_start, i]
            elif ch == ";":
                if depth == 0:
                    if stmt_start is not None and "{" not in stmt_text:
                        check_decl(path, lines, stmt_start, i, stmt_text, problems)
                    stmt_start = None
                    stmt_text = ""
                elif in_body and member_start is not None:
                    member_lines = member_lines or list(range(member_start, i + 1))
                    check_member(path, lines, member_start, i, member_lines, problems)
                    member_start = None
            elif ch == "," and in_body and stack[-1][1] == "enum" and member_start is not None:
                check_member(path, lines, member_start, i, list(range(member_start, i + 1)),
                             problems)
                member_start = None
        i += 1
    return problems


def check_decl(path, lines, start, end, text, problems):
    text = " ".join(text.split())
    public = "LEDGE_API" in text or text.startswith("typedef") or re.match(
        r"(struct|union|enum)\s+\w+\s*\{", text)
    if not public:
        return
    if doc_before(lines, start) or any(trailing_doc(lines[k]) for k in range(start, end + 1)
                                       if "{" not in lines[k] or k == start):
        return
    m = re.search(r"(\w+)\s*\(", text) if "LEDGE_API" in text and "typedef" not in text else None
    what = m.group(1) if m else text[:60]
    problems.append("%s:%d: %s has no /// comment" % (path, start + 1, what))


def check_member(path, lines, start, end, member_lines, problems):
    if doc_before(lines, start):
        return
    candidates = member_lines if member_lines else range(start, end + 1)
    if any(trailing_doc(lines[k]) for k in candidates):
        return
    problems.append("%s:%d: member `%s` has no /// or ///< comment" %
                    (path, start + 1, " ".join(lines[start].split())[:60]))


# --- self-test --------------------------------------------------------------

SELF_TEST_GOOD = """/// @file good.h
/// A documented header.
#ifndef LEDGE_GOOD_H
#define LEDGE_GOOD_H

/// Marks a public function.
#if defined(_WIN32)
#define LEDGE_API __declspec(dllexport)
#else
#define LEDGE_API
#endif

/// A limit.
#define LEDGE_LIMIT 3
#define LEDGE_OTHER 4 ///< Another limit.

/// A kind.
typedef enum ledge_kind {
    LEDGE_KIND_A = 0, ///< The first.
    /// The second.
    LEDGE_KIND_B = 1
} ledge_kind;

/// A thing.
typedef struct ledge_thing {
    int a; ///< A field.
    /// A callback.
    void (*fn)(int x,
               int y);
    float b; ///< A field whose comment
             ///< runs on.
} ledge_thing;

/// Does things.
LEDGE_API int ledge_do(int a,
                       int b);

#endif // LEDGE_GOOD_H
"""

# Each bad header and the items the checker must name in it.
SELF_TEST_BAD = {
    "bad_function.h": ("/// @file bad_function.h\n/// Doc.\n\n/// Documented.\n"
                       "LEDGE_API int ledge_a(void);\n\nLEDGE_API int ledge_b(void);\n",
                       ["ledge_b"]),
    "bad_member.h": ("/// @file bad_member.h\n/// Doc.\n\n/// A thing.\ntypedef struct t {\n"
                     "    int a; ///< Yes.\n               ///< Still a.\n    int b;\n} t;\n",
                     ["member `int b;`"]),
    "bad_enum.h": ("/// @file bad_enum.h\n/// Doc.\n\n/// Kinds.\ntypedef enum k {\n"
                   "    K_A, ///< Yes.\n    K_B\n} k;\n",
                   ["member `K_B`"]),
    "bad_macro.h": ("/// @file bad_macro.h\n\n/// Min.\n#define LEDGE_MIN 1\n#define LEDGE_MAX 2\n",
                    ["macro LEDGE_MAX"]),
    "bad_typedef.h": ("/// @file bad_typedef.h\n\ntypedef int ledge_int;\n", ["typedef int ledge_int"]),
    "bad_file.h": ("// no file comment\n", ["@file"]),
}


def self_test():
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        cases = {"good.h": (SELF_TEST_GOOD, [])}
        cases.update(SELF_TEST_BAD)
        for name, (text, expected) in sorted(cases.items()):
            path = os.path.join(tmp, name)
            with open(path, "w") as f:
                f.write(text)
            problems = check_header(path, text)
            ok = len(problems) == len(expected) and all(
                any(e in p for p in problems) for e in expected)
            print("self-test %s: %s%s" % (name, "ok" if ok else "FAIL",
                                          "" if ok else " (reported: %r)" % problems))
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
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    paths = []
    for arg in argv[1:]:  # a directory stands for its headers, globbed now
        paths += sorted(glob.glob(os.path.join(arg, "*.h"))) if os.path.isdir(arg) else [arg]
    passed = failed = 0
    for path in paths:
        with open(path, encoding="utf-8") as f:
            problems = check_header(path, f.read())
        for p in problems:
            print(p)
        print("%s: %s" % (path, "ok" if not problems else "FAIL (%d undocumented)" % len(problems)))
        passed += not problems
        failed += bool(problems)
    return summary(passed, failed)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
