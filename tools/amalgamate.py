#!/usr/bin/env python3
"""Writes ledge's single-file build: one stb-style header, ledge.h.

    amalgamate.py --output FILE --umbrella include/ledge/ledge.h
                  --include DIR [--include DIR]... [--depfile FILE] SOURCES...

SOURCES are the core library's .c files, in the order the library is built
from them: meson passes its own list (meson.build, `ledge_sources`), so a
module added there is in the single header too, with nothing to change here.

The output has two parts:
- the declarations: the public headers, from the umbrella header down, each
  once, as they are (the same include guards, so <ledge/...> headers seen
  again are empty);
- the implementation, compiled where the game writes `#define
  LEDGE_IMPLEMENTATION` before including it (one C translation unit; the
  implementation is C99/C11, not C++). It is the internal headers the
  sources include (each once, before any source), then every source with its
  quoted includes removed; the system headers they include come first (with
  the macros a source defines right before one, its configuration: xxHash's
  XXH_INLINE_ALL, so that xxhash.h is read once, header-only).

Sources were written as separate translation units, so two of them may both
have a file-static function, variable, type or macro of the same name. The
generator finds each file's file-scope names itself (a small tokenizer: no
list to keep up to date) and:
- renames each file-static name (static functions and variables, types, tags
  and enumerators declared in the .c file) for that file only: `#define
  name ledge__<file>_name` before the file, `#undef name` after it; the
  static functions of the internal headers (core.h's v2, minf, ...) likewise
  for the whole implementation, so they cannot meet the game's own names;
- #undefs each macro a source defines after that source, and each macro of
  the internal headers at the end of the implementation.
A name that is also a struct member in a header (or a member of cglm's vector
unions) cannot be renamed by a macro without renaming the member too: such a
name is left alone when no other file declares it, and when one does, it is
renamed in the file's own text instead (every use not after `.` or `->`).
Only a name that is also a member of a struct of the same file is refused
(the message names the files).
"""
import argparse
import os
import re
import sys

KEYWORDS = set("""auto break case char const continue default do double else enum extern float
for goto if inline int long register restrict return short signed sizeof static struct switch
typedef union unsigned void volatile while _Bool _Complex _Imaginary _Alignas _Alignof _Atomic
_Generic _Noreturn _Static_assert _Thread_local __attribute__ __inline __inline__ __restrict
__restrict__ __extension__ bool int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t
size_t ptrdiff_t intptr_t uintptr_t""".split())
# Members of cglm's vector unions (vec2s .x, .raw, ...), which the sources read:
# a macro renaming one of these would rename the member access too.
CGLM_MEMBERS = set("raw x y z w r g b a i u v s t".split())

TOKEN = re.compile(
    r"""(?P<id>[A-Za-z_]\w*)|(?P<num>\.?\d(?:[\w.]|[eEpP][+-])*)|(?P<str>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')"""
    r"""|(?P<op>->|\.\.\.|[{}()\[\];,=*.:?&|^~!<>+\-/%#])""")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
DEFINE = re.compile(r"^\s*#\s*define\s+([A-Za-z_]\w*)")


class Error(Exception):
    pass


def strip_comments(text):
    """The text with comments blanked (strings kept), newlines kept."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j) or " ")
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def logical_lines(text):
    """Lines with backslash continuations joined."""
    return text.replace("\\\n", " ").split("\n")


def c_tokens(text):
    """The C tokens of a file, preprocessor lines left out, and the braces
    of C++'s `extern "C" { ... }` too (its contents are file scope)."""
    toks = []
    for line in logical_lines(strip_comments(text)):
        if line.lstrip().startswith("#"):
            continue
        for m in TOKEN.finditer(line):
            toks.append(m.group(0))
    k = 0
    while k + 2 < len(toks):
        if toks[k:k + 3] == ["extern", '"C"', "{"]:
            del toks[matching(toks, k + 2)]
            del toks[k:k + 3]
        else:
            k += 1
    return toks


def macros_defined(text):
    return [m.group(1) for m in map(DEFINE.match, logical_lines(strip_comments(text))) if m]


def matching(toks, i):
    """Index of the bracket closing the one at i."""
    pairs = {"{": "}", "(": ")", "[": "]"}
    open_, close, depth = toks[i], pairs[toks[i]], 0
    for j in range(i, len(toks)):
        if toks[j] == open_:
            depth += 1
        elif toks[j] == close:
            depth -= 1
            if depth == 0:
                return j
    raise Error("unbalanced %s" % open_)


def is_id(t):
    return re.match(r"[A-Za-z_]\w*$", t) is not None and t not in KEYWORDS


class Chunk:
    """One file-scope declaration: its tokens with every {...} body replaced
    by the marker '{}' (bodies kept aside), and whether it was a function
    definition."""

    def __init__(self):
        self.toks, self.bodies, self.function = [], [], False


def chunks(toks):
    out, cur, i = [], Chunk(), 0
    while i < len(toks):
        t = toks[i]
        if t == "{":
            j = matching(toks, i)
            body = toks[i + 1:j]
            prev = cur.toks[-1] if cur.toks else ""
            cur.toks.append("{}")
            cur.bodies.append(body)
            i = j + 1
            if prev == ")":  # a function definition ends with its body
                cur.function = True
                out.append(cur)
                cur = Chunk()
            continue
        if t == ";":
            out.append(cur)
            cur = Chunk()
        else:
            cur.toks.append(t)
        i += 1
    if cur.toks:
        out.append(cur)
    return out


def drop_attributes(toks):
    out, i = [], 0
    while i < len(toks):
        if toks[i] in ("__attribute__", "__declspec") and i + 1 < len(toks) and toks[i + 1] == "(":
            i = matching(toks, i + 1) + 1
            continue
        out.append(toks[i])
        i += 1
    return out


def split_top(toks, sep):
    parts, cur, depth = [], [], 0
    for t in toks:
        if t in "([":
            depth += 1
        elif t in ")]":
            depth -= 1
        if t == sep and depth == 0:
            parts.append(cur)
            cur = []
        else:
            cur.append(t)
    parts.append(cur)
    return parts


def tags_and_enumerators(chunk):
    """Struct/union/enum tags defined (with a body) and enumerators."""
    tags, enumerators, b = [], [], 0
    toks = chunk.toks
    for k, t in enumerate(toks):
        if t == "{}":
            if k >= 2 and toks[k - 2] in ("struct", "union", "enum") and is_id(toks[k - 1]):
                tags.append(toks[k - 1])
            kind = toks[k - 1] if toks[k - 1] in ("struct", "union", "enum") else toks[k - 2] if k >= 2 else ""
            if kind == "enum" and not chunk.function:
                for item in split_top(chunk.bodies[b], ","):
                    if item and is_id(item[0]):
                        enumerators.append(item[0])
            b += 1
    return tags, enumerators


def declarator_names(toks):
    """Names declared by a declaration's tokens (specifiers, declarators,
    initializers; bodies already '{}')."""
    toks = drop_attributes(toks)
    # Drop the struct/union/enum specifiers: `struct tag {}` declares no object.
    cleaned, k = [], 0
    while k < len(toks):
        if toks[k] in ("struct", "union", "enum"):
            k += 1
            if k < len(toks) and is_id(toks[k]):
                k += 1
            if k < len(toks) and toks[k] == "{}":
                k += 1
            cleaned.append("int")  # stands for the type
            continue
        cleaned.append(toks[k])
        k += 1
    names = []
    for part in split_top(cleaned, ","):
        part = split_top(part, "=")[0]
        part = split_top(part, ":")[0]  # bit-fields
        name = None
        for k, t in enumerate(part):
            if t in ("(", "["):
                rest = [x for x in part[k + 1:] if x not in ("const", "volatile", "restrict")]
                if t == "(" and rest[:1] == ["*"]:  # (*name)(...): a pointer to function or array
                    name = next((x for x in rest if is_id(x)), None)
                break
            if is_id(t):
                name = t
        if name and name not in ("int",):
            names.append(name)
    return names


class FileNames:
    """What one file declares at file scope."""

    def __init__(self, text):
        self.local, self.public, self.members = [], [], set()
        self.macros = macros_defined(text)
        for ch in chunks(c_tokens(text)):
            if not ch.toks:
                continue
            tags, enumerators = tags_and_enumerators(ch)
            self.local += tags + enumerators
            self.members |= struct_members(ch)
            head = drop_attributes(ch.toks)
            if head[:1] == ["typedef"]:
                self.local += declarator_names(head[1:])
            elif "static" in head[:head.index("{}") if "{}" in head else len(head)]:
                self.local += declarator_names([t for t in head if t not in ("static", "inline")])
            else:
                self.public += declarator_names([t for t in head if t != "extern"])
        self.local = list(dict.fromkeys(self.local))


def struct_members(chunk):
    """Member names declared in the struct/union bodies of a chunk."""
    members, b = set(), 0
    toks = chunk.toks
    for k, t in enumerate(toks):
        if t != "{}":
            continue
        kind = toks[k - 1] if k >= 1 and toks[k - 1] in ("struct", "union") else \
            toks[k - 2] if k >= 2 and toks[k - 2] in ("struct", "union") else ""
        if kind and not chunk.function:
            members |= body_members(chunk.bodies[b])
        b += 1
    return members


def body_members(body):
    members = set()
    for ch in chunks(body):
        members |= struct_members(ch)  # nested structs and unions
        members.update(declarator_names(ch.toks))
    return members


class Amalgamation:
    def __init__(self, includes):
        self.includes = [os.path.abspath(d) for d in includes]
        self.public_dir = self.includes[0]
        self.read = []  # every file read, for the depfile

    def text(self, path):
        if path not in self.read:
            self.read.append(path)
        with open(path) as f:
            return f.read()

    def resolve(self, name, from_dir):
        for d in [from_dir] + self.includes:
            p = os.path.normpath(os.path.join(d, name))
            if os.path.isfile(p):
                return p
        return None

    def is_public(self, path):
        return path.startswith(self.public_dir + os.sep)

    def expand_public(self, path, done, out):
        """The public headers from `path` down, each once, in order."""
        if path in done:
            return
        done.add(path)
        for line in self.text(path).split("\n"):
            m = INCLUDE.match(line)
            if m:
                p = self.resolve(m.group(2), os.path.dirname(path))
                if p and self.is_public(p):
                    self.expand_public(p, done, out)
                    continue
                if m.group(1) == '"':
                    raise Error("%s: cannot resolve %s" % (path, line.strip()))
            out.append(line)
        out.append("")

    def quoted_includes(self, path):
        found = []
        for line in self.text(path).split("\n"):
            m = INCLUDE.match(line)
            if m and m.group(1) == '"':
                p = self.resolve(m.group(2), os.path.dirname(path))
                if p is None:
                    raise Error("%s: cannot resolve %s" % (path, line.strip()))
                found.append(p)
        return found

    def internal_headers(self, path, done, order, public):
        """The internal headers `path` needs, dependencies first."""
        for p in self.quoted_includes(path):
            if self.is_public(p):
                if p not in public:
                    raise Error("%s includes %s, which the umbrella header does not" % (path, p))
            elif p not in done:
                done.add(p)
                self.internal_headers(p, done, order, public)
                order.append(p)

    def without_quoted_includes(self, path):
        lines = []
        for line in self.text(path).split("\n"):
            m = INCLUDE.match(line)
            if m and m.group(1) == '"':
                continue
            lines.append(line)
        return "\n".join(lines).rstrip("\n")


def prefix_of(path):
    return re.sub(r"\W", "_", os.path.splitext(os.path.basename(path))[0])


def generate(umbrella, includes, sources, root):
    am = Amalgamation(includes)
    umbrella = os.path.abspath(umbrella)
    public_lines, public = [], set()
    am.expand_public(umbrella, public, public_lines)
    headers, done = [], set()
    for src in sources:
        am.internal_headers(src, done, headers, public)
    for h in list(headers):
        am.internal_headers(h, done, headers, public)

    # Names that a renaming macro must not touch: struct members anywhere in
    # the headers (the public ones are outside the renaming's reach).
    public_names = FileNames("\n".join(am.text(p) for p in sorted(public)))
    header_names = {h: FileNames(am.text(h)) for h in headers}
    unsafe = set(CGLM_MEMBERS) | public_names.members
    for h, n in header_names.items():
        unsafe |= n.members
    # Tags and typedef names a header mentions: a source defining one
    # completes the header's type; it is never renamed.
    header_types = type_names(am.text(p) for p in sorted(public) + headers)
    files = {s: FileNames(am.text(s)) for s in sources}
    declared_by = {}  # name -> files declaring it at file scope
    for path, n in list(files.items()) + list(header_names.items()):
        for name in n.local + n.public:
            declared_by.setdefault(name, []).append(path)
    for name in public_names.local + public_names.public:
        declared_by.setdefault(name, []).append(umbrella)
    all_tokens = set()
    for p in am.read:
        all_tokens.update(c_tokens(am.text(p)))

    def renames(path, names, unsafe_here, members_here=()):
        """(by macro, in the text): the renames of a file's static names."""
        by_macro, in_text = [], {}
        for name in names:
            if name in header_types:
                continue
            others = [p for p in declared_by.get(name, []) if p != path]
            new = "ledge__%s_%s" % (prefix_of(path), name)
            if new in all_tokens:
                raise Error("%s: renaming %s to %s would meet an existing name" % (rel(path, root), name, new))
            if name not in unsafe_here:
                by_macro.append((name, new))
            elif others:
                # Also a header's struct member: a macro would rename the
                # member too, so the file's own uses are renamed in its text
                # (every `name` not after . or ->).
                if name in members_here:
                    raise Error("%s: the file-static name %s is also declared by %s, and is a struct "
                                "member both in a header and in this file: rename it in the source"
                                % (rel(path, root), name, ", ".join(rel(p, root) for p in others)))
                in_text[name] = new
        return by_macro, in_text

    # The internal headers' static functions are renamed for the whole
    # implementation: only the public headers' members are out of reach.
    header_renames = []
    header_macros = []
    for h in headers:
        # (ledge_-prefixed ones cannot meet a game's names: left as they are)
        by_macro, in_text = renames(h, [x for x in header_names[h].local if x not in header_names[h].members
                                        and not x.startswith("ledge") and is_static_function(am.text(h), x)],
                                    set(CGLM_MEMBERS) | public_names.members, set(CGLM_MEMBERS))
        header_renames += by_macro  # (a member's name: left alone, in_text unused)
        header_macros += header_names[h].macros

    out = []
    w = out.append
    w(BANNER)
    w("#ifndef LEDGE_SINGLE_H\n#define LEDGE_SINGLE_H\n")
    w(ANONYMOUS_STRUCTS)
    w("\n".join(public_lines).rstrip("\n") + "\n")
    w("#endif // LEDGE_SINGLE_H\n")
    w(IMPLEMENTATION_START)
    # Every system header first, before any renaming macro exists, so that
    # none of them is read with a ledge name renamed (their own guards make
    # the includes left in place empty).
    # A system header's configuration macros (the #define lines right
    # before its #include in a source, as hash.c's XXH_INLINE_ALL before
    # xxhash.h) come first with it.
    system = []
    for p in headers + sources:
        config = []
        for line in am.text(p).split("\n"):
            m = INCLUDE.match(line)
            if m and m.group(1) == "<" and line.strip() not in system:
                system += [d for d in config if d not in system] + [line.strip()]
            config = config + [line.strip()] if DEFINE.match(line) else []
    w("// The system headers the sources include.")
    w("\n".join(system) + "\n")
    if header_renames:
        w("// The internal headers' static functions, under names of ledge's own.")
        w("".join("#define %s %s\n" % r for r in header_renames))
    for h in headers:
        w("// ---- %s ----" % rel(h, root))
        w(am.without_quoted_includes(h) + "\n")
    for src in sources:
        f = files[src]
        r, in_text = renames(src, f.local, unsafe, f.members)
        w("// ---- %s ----" % rel(src, root))
        if r:
            w("".join("#define %s %s\n" % x for x in r).rstrip("\n"))
        if in_text:
            w("// renamed in this file's text: " + ", ".join("%s -> %s" % x for x in sorted(in_text.items())))
        w(rename_tokens(am.without_quoted_includes(src), in_text))
        undefs = [x[0] for x in r] + list(dict.fromkeys(f.macros))
        if undefs:
            w("".join("#undef %s\n" % x for x in undefs).rstrip("\n"))
        w("")
    w("// ---- end of the implementation: its internal names go ----")
    w("".join("#undef %s\n" % x for x in [r[0] for r in header_renames] + list(dict.fromkeys(header_macros))))
    w(IMPLEMENTATION_END)
    return "\n".join(out), am.read


def rename_tokens(text, mapping):
    """The text with each identifier of `mapping` replaced, except after `.`
    or `->` (a member) and in comments, strings and character constants."""
    if not mapping:
        return text
    out, i, n, prev = [], 0, len(text), ""
    word = re.compile(r"[A-Za-z_]\w*|\.?\d(?:[\w.]|[eEpP][+-])*")
    while i < n:
        c = text[i]
        if text.startswith("//", i) or text.startswith("/*", i):
            j = text.find("\n" if c == "/" and text[i + 1] == "/" else "*/", i + 2)
            j = n if j < 0 else (j if text[i + 1] == "/" else j + 2)
            out.append(text[i:j])
            i = j
            continue
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i, prev = j + 1, c
            continue
        m = word.match(text, i)
        if m:
            w = m.group(0)
            out.append(mapping[w] if w in mapping and prev not in (".", "->") else w)
            i, prev = m.end(), w
            continue
        if not c.isspace():
            prev = "->" if c == ">" and prev == "-" else c
        out.append(c)
        i += 1
    return "".join(out)


def type_names(texts):
    """Tags and typedef names a header mentions: a source that defines one
    completes the header's type, it does not declare a name of its own."""
    names = set()
    for text in texts:
        toks = c_tokens(text)
        names.update(toks[k + 1] for k, t in enumerate(toks[:-1]) if t in ("struct", "union", "enum"))
        for ch in chunks(toks):
            if drop_attributes(ch.toks)[:1] == ["typedef"]:
                names.update(declarator_names(drop_attributes(ch.toks)[1:]))
    return names


def is_static_function(text, name):
    return re.search(r"\bstatic\b[^;{}]*\b%s\s*\(" % re.escape(name), strip_comments(text)) is not None


def rel(path, root):
    return os.path.relpath(path, root) if root else os.path.basename(path)


BANNER = """\
// ledge.h: ledge, 2D physics for tile-based platformers, as one file (stb style).
// Generated by tools/amalgamate.py from ledge's public headers and core
// sources; do not edit (edit the sources and regenerate). MIT licence.
//
// Use: include it wherever ledge is used. In exactly one C file (C99 or
// later) of the game, define LEDGE_IMPLEMENTATION first:
//
//     #define LEDGE_IMPLEMENTATION
//     #include "ledge.h"
//
// Needs cglm's headers, xxHash's xxhash.h (its implementation part includes
// it with XXH_INLINE_ALL: header-only, nothing more to link) and libm (-lm).
// The declarations compile as C and C++; the implementation is C only. The
// Tiled loader is not included.
// Same inputs, same bits: compile that file without fast-math (and, for
// GCC's GNU modes on FMA targets, with -ffp-contract=off; the file turns
// contraction off itself for Clang and GCC).
"""

ANONYMOUS_STRUCTS = """\
// The implementation reads vec2s's .x and .y, cglm's anonymous structs,
// which cglm may leave out before C11: ask for them.
#if defined(LEDGE_IMPLEMENTATION) && !defined(__cplusplus) && !defined(CGLM_USE_ANONYMOUS_STRUCT) && \\
    !defined(CGLM_NO_ANONYMOUS_STRUCT)
#define CGLM_USE_ANONYMOUS_STRUCT 1
#endif
"""

IMPLEMENTATION_START = """
#if defined(LEDGE_IMPLEMENTATION) && !defined(LEDGE_SINGLE_IMPLEMENTATION_DONE)
#define LEDGE_SINGLE_IMPLEMENTATION_DONE
#ifdef __cplusplus
#error "ledge.h: the implementation (LEDGE_IMPLEMENTATION) is C99/C11: compile it as C, in a .c file; the declarations work in C++"
#else
#if !CGLM_USE_ANONYMOUS_STRUCT
#error "ledge.h: the implementation needs cglm's anonymous structs (vec2s .x): include ledge.h before cglm, or define CGLM_USE_ANONYMOUS_STRUCT 1"
#endif
// No fused multiply-add contraction: the same bits as the library's build
// (-ffp-contract=off), whatever the game's flags.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC push_options
#pragma GCC optimize("fp-contract=off")
#endif
"""

IMPLEMENTATION_END = """\
#if defined(__clang__)
#pragma STDC FP_CONTRACT DEFAULT
#elif defined(__GNUC__)
#pragma GCC pop_options
#endif
#endif // __cplusplus
#endif // LEDGE_IMPLEMENTATION"""


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--output", required=True)
    ap.add_argument("--umbrella", required=True)
    ap.add_argument("--include", action="append", required=True,
                    help="the public include directory first, then the sources' own")
    ap.add_argument("--depfile")
    ap.add_argument("--root", help="paths in comments are relative to this directory")
    ap.add_argument("sources", nargs="+")
    a = ap.parse_args()
    sources = [os.path.abspath(s) for s in a.sources]
    root = os.path.abspath(a.root) if a.root else os.path.dirname(os.path.dirname(os.path.abspath(a.umbrella)))
    root = os.path.dirname(root) if os.path.basename(root) == "include" else root
    try:
        text, read = generate(a.umbrella, a.include, sources, root)
    except Error as e:
        print("amalgamate.py: " + str(e), file=sys.stderr)
        return 1
    with open(a.output, "w") as f:
        f.write(text + "\n")
    if a.depfile:
        with open(a.depfile, "w") as f:
            f.write("%s: %s\n" % (a.output.replace(" ", "\\ "),
                                  " ".join(p.replace(" ", "\\ ") for p in read + [os.path.abspath(__file__)])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
