#!/usr/bin/env bash
# ledge's two commands (see README):
#   ./run.sh demo   install what is missing, build (release), run the headless
#                   demo (samples/demo.c), which writes its pictures to out/,
#                   and write a picture of every testbed scene to out/scenes/
#   ./run.sh web    install what is missing, build the browser testbed
#                   (samples/web) and the Phaser sample (samples/phaser, at
#                   /phaser/) and serve them on http://127.0.0.1:8000/
#   ./run.sh test   install what is missing, build twice (ASan+UBSan with
#                   --werror, and release), run the test suite in both, run
#                   it again under valgrind memcheck (release build), fuzz
#                   each libFuzzer harness for LEDGE_FUZZ_SECONDS (60) under
#                   ASan+UBSan, run the multi-worker tests (meson suite
#                   'workers') under ThreadSanitizer (build/tsan), and print
#                   the summed "N passed, N failed" line
# Works on a fresh Debian 12 machine as root; elsewhere it tells you which
# packages to install.
set -euo pipefail
cd "$(dirname "$0")"

# libxxhash-dev: xxHash's header (the snapshot's checksum and the replay hash,
# src/hash.c; header-only, nothing linked);
# libjansson-dev and zlib1g-dev: the optional Tiled loader (ledge_tiled)
# and LDtk loader (ledge_ldtk, jansson only);
# valgrind, clang and libclang-rt-14-dev: memcheck and the libFuzzer harnesses;
# libchipmunk-dev and libbox2d-dev: the peer engines of the rain benchmark
# (tests/bench_peers.c), so that their translation units are built too;
# libcairo2-dev: the pictures the samples draw (samples/tile_atlas.c);
# doxygen: the API reference, whose `doxygen` test fails on any warning;
# libsdl2-dev: the testbed's window (samples/testbed.c), so that it is built too;
# cmake: the CMake consumer of the installed package (check_cmake);
# emscripten and chromium: the WebAssembly build and its browser test (docs/web.md);
# luajit, love, xvfb and xauth: the Lua binding's tests and the LÖVE sample's
# autopilot under a virtual X server (check_lua), and the SDL testbed there
# (check_testbed).
PACKAGES=(meson ninja-build pkg-config gcc g++ python3 binutils libcglm-dev libxxhash-dev libcmocka-dev
    libjansson-dev zlib1g-dev valgrind clang libclang-rt-14-dev libchipmunk-dev libbox2d-dev
    libcairo2-dev doxygen libsdl2-dev cmake emscripten chromium luajit love xvfb xauth)

install_missing() {
    local missing=() p
    for p in "${PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
    done
    # node and npm: Debian's packages unless some node is installed already
    # (NodeSource's nodejs brings its own npm and conflicts with Debian's).
    command -v node >/dev/null || missing+=(nodejs)
    command -v npm >/dev/null || missing+=(npm)
    [ ${#missing[@]} -eq 0 ] && return 0
    if [ "$(id -u)" -ne 0 ]; then
        echo "run.sh: missing packages: ${missing[*]} (apt-get install them as root)" >&2
        exit 1
    fi
    echo "run.sh: installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

setup() { # setup DIR ARGS...: configure once, reconfigure when it exists
    local dir=$1
    shift
    if [ -f "$dir/build.ninja" ]; then
        meson setup --reconfigure "$dir" "$@" >/dev/null
    else
        meson setup "$dir" "$@" >/dev/null
    fi
}

# Sums the test cases of one meson run from its JSON log: a cmocka program
# counts its own cases; any other test (or a crash after cmocka's summary,
# e.g. a sanitizer report at exit) counts as one.
count_results() {
    python3 - "$1" <<'PY'
import json, re, sys
passed = failed = 0
for line in open(sys.argv[1]):
    t = json.loads(line)
    out = (t.get("stdout") or "") + (t.get("stderr") or "")
    ok = t["result"] in ("OK", "EXPECTEDFAIL")
    p = sum(int(n) for n in re.findall(r"\[  PASSED  \] (\d+) test", out))
    f = sum(int(n) for n in re.findall(r"\[  FAILED  \] (\d+) test", out))
    if p or f:
        passed += p
        failed += f + (0 if ok or f else 1)
    elif ok:
        passed += 1
    else:
        failed += 1
print(passed, failed)
PY
}

run_suite() { # run_suite NAME DIR SETUP-ARGS...
    local name=$1 dir=$2
    shift 2
    echo "== $name build ($dir)"
    setup "$dir" "$@"
    ninja -C "$dir" >/dev/null
    meson test -C "$dir" --print-errorlogs --num-processes 2 || true
    read -r p f < <(count_results "$dir/meson-logs/testlog.json")
    echo "== $name: $p passed, $f failed"
    TOTAL_P=$((TOTAL_P + p))
    TOTAL_F=$((TOTAL_F + f))
}

# Packaging: README's install into a prefix of one's own, run exactly as
# README.md and docs/guide.md show it (the two must agree) in a copy of the
# source tree, with HOME a scratch folder and no PKG_CONFIG_PATH or
# LD_LIBRARY_PATH of ours: it installs, builds README's example with
# pkg-config and runs it. Then, on that install: the example as a meson
# subproject, the Tiled and LDtk loaders through pkg-config (the LDtk one
# must be installed when jansson is there), the exported symbols (only
# ledge_*), the CMake package and the single header. Counts as one
# test (and check_cmake, check_installed_single_header one each).
check_packaging() {
    local tmp dest pcdir libdir recipe ok=1
    tmp=$(mktemp -d)
    dest=$tmp/home/ledge
    echo "== packaging (README's install into ~/ledge, pkg-config, subproject, exported symbols)"
    awk '/^```c$/ && !done {on=1; next} /^```$/ && on {on=0; done=1} on' README.md >"$tmp/readme.c"
    recipe=$(python3 tests/check_static_recipe.py --print README.md install-prefix) || ok=0
    if [ "$recipe" != "$(python3 tests/check_static_recipe.py --print docs/guide.md install-prefix)" ]; then
        echo "README.md and docs/guide.md show different install commands (<!-- recipe: install-prefix -->)"
        ok=0
    fi
    mkdir -p "$tmp/home" "$tmp/src"
    tar -cf - --exclude=./build --exclude=./.git --exclude=./out --exclude=node_modules . |
        tar -xf - -C "$tmp/src"
    cp "$tmp/readme.c" "$tmp/src/game.c"
    if [ $ok = 1 ] && (cd "$tmp/src" && env -u PKG_CONFIG_PATH -u LD_LIBRARY_PATH HOME="$tmp/home" \
        bash -euo pipefail -c "$recipe") >"$tmp/install.log" 2>&1 &&
        grep -q "push (0, 1) by 0.05" "$tmp/install.log"; then
        echo "README's install into a prefix of one's own, its example built with pkg-config and run: ok"
    else
        tail -n 30 "$tmp/install.log"
        echo "README's install into a prefix of one's own: FAILED"
        ok=0
    fi
    pcdir=$dest/lib/pkgconfig
    libdir=$dest/lib
    mkdir -p "$tmp/consumer/subprojects"
    ln -s "$PWD" "$tmp/consumer/subprojects/ledge"
    cp "$tmp/readme.c" "$tmp/consumer/"
    printf "project('consumer', 'c', default_options : ['c_std=c11'])\nexecutable('readme', 'readme.c', dependencies : dependency('ledge'))\n" \
        >"$tmp/consumer/meson.build"
    if (cd "$tmp/consumer" && meson setup b -Dledge:tests=disabled -Dledge:samples=disabled \
        >/dev/null && ninja -C b >/dev/null && ./b/readme | grep -q "push (0, 1) by 0.05"); then
        echo "meson subproject build: ok"
    else
        echo "meson subproject build: FAILED"
        ok=0
    fi
    if [ -f "$pcdir/ledge-tiled.pc" ]; then
        printf '#include <ledge/tiled.h>\nint main(void) { ledge_tiled_def d = ledge_default_tiled_def(); return d.y_down; }\n' >"$tmp/tiled.c"
        if PKG_CONFIG_PATH=$pcdir cc -std=c11 -Wall -Wextra -Werror "$tmp/tiled.c" \
            $(PKG_CONFIG_PATH=$pcdir pkg-config --cflags --libs ledge-tiled) \
            -o "$tmp/tiled" && LD_LIBRARY_PATH=$libdir "$tmp/tiled"; then
            echo "pkg-config build against ledge-tiled: ok"
        else
            echo "pkg-config build against ledge-tiled: FAILED"
            ok=0
        fi
    fi
    # jansson is one of PACKAGES: an install without the LDtk loader lost it.
    if pkg-config --exists jansson && [ ! -f "$pcdir/ledge-ldtk.pc" ]; then
        echo "ledge-ldtk.pc was not installed though jansson is there"
        ok=0
    fi
    if [ -f "$pcdir/ledge-ldtk.pc" ]; then
        printf '#include <ledge/ldtk.h>\nint main(void) { ledge_ldtk_def d = ledge_default_ldtk_def(); return d.y_down || ledge_ldtk_tile_from_name("full", 0) != 1; }\n' >"$tmp/ldtk.c"
        if PKG_CONFIG_PATH=$pcdir cc -std=c11 -Wall -Wextra -Werror "$tmp/ldtk.c" \
            $(PKG_CONFIG_PATH=$pcdir pkg-config --cflags --libs ledge-ldtk) \
            -o "$tmp/ldtk" && LD_LIBRARY_PATH=$libdir "$tmp/ldtk"; then
            echo "pkg-config build against ledge-ldtk: ok"
        else
            echo "pkg-config build against ledge-ldtk: FAILED"
            ok=0
        fi
    fi
    local foreign
    foreign=$(nm -D --defined-only "$libdir"/libledge*.so | awk '$2 ~ /^[TDB]$/ && $3 !~ /^ledge_/' || true)
    if [ -z "$foreign" ]; then
        echo "exported symbols: only ledge_*"
    else
        echo "exported symbols beyond ledge_*: $foreign"
        ok=0
    fi
    check_cmake "$dest" "$tmp"
    check_installed_single_header "$dest" "$tmp"
    rm -rf "$tmp"
    if [ $ok = 1 ]; then TOTAL_P=$((TOTAL_P + 1)); else TOTAL_F=$((TOTAL_F + 1)); fi
}

# The CMake package of an install (check_packaging's): tests/cmake, a CMake
# game that writes only find_package(ledge 0.1 CONFIG REQUIRED) and
# target_link_libraries(... ledge::ledge), is configured, built and run
# (shared, static and C++ programs stepping a world; the Tiled and LDtk
# loaders' targets when installed); asking for ledge 1.0 must fail. Counts as one test.
check_cmake() { # check_cmake PREFIX SCRATCH
    local dest=$1 tmp=$2 ok=1 prog
    echo "== CMake package (find_package(ledge 0.1 CONFIG REQUIRED), tests/cmake)"
    if ! command -v cmake >/dev/null; then
        echo "cmake not found"
        TOTAL_F=$((TOTAL_F + 1))
        return
    fi
    if cmake -S tests/cmake -B "$tmp/cmake" -DCMAKE_PREFIX_PATH="$dest" -DCMAKE_BUILD_TYPE=Release \
        >"$tmp/cmake.log" 2>&1 && cmake --build "$tmp/cmake" >>"$tmp/cmake.log" 2>&1; then
        for prog in game game_static game_cpp tiled tiled_static ldtk ldtk_static; do
            if [ -x "$tmp/cmake/$prog" ]; then
                # libledge_tiled and libledge_ldtk find libledge through the
                # loader's path, as with pkg-config: the scratch prefix is
                # not on it.
                LD_LIBRARY_PATH=$(dirname "$(find "$dest" -name 'libledge.so.0' | head -n 1)") \
                    "$tmp/cmake/$prog" || ok=0
            elif [ "${prog#tiled}" != "$prog" ]; then
                if [ -f "$(find "$dest" -name ledge-tiled.pc | head -n 1)" ]; then
                    echo "$prog was not built"
                    ok=0
                fi
            elif [ "${prog#ldtk}" != "$prog" ]; then
                if [ -f "$(find "$dest" -name ledge-ldtk.pc | head -n 1)" ]; then
                    echo "$prog was not built"
                    ok=0
                fi
            else
                echo "$prog was not built"
                ok=0
            fi
        done
        if ldd "$tmp/cmake/game_static" | grep -q libledge; then
            echo "game_static links libledge.so"
            ok=0
        fi
    else
        cat "$tmp/cmake.log"
        ok=0
    fi
    if cmake -S tests/cmake -B "$tmp/cmake-1.0" -DCMAKE_PREFIX_PATH="$dest" \
        -DLEDGE_VERSION_WANTED=1.0 >"$tmp/cmake-1.0.log" 2>&1; then
        echo "find_package(ledge 1.0) accepted ledge $(grep -o "PACKAGE_VERSION \"[^\"]*" \
            "$(find "$dest" -name ledgeConfigVersion.cmake)")"
        ok=0
    elif grep -q "ledgeConfig.cmake, version: 0.1.0" "$tmp/cmake-1.0.log"; then
        echo "find_package(ledge 1.0) refused: ledge 0.1.0 is not compatible"
    else
        cat "$tmp/cmake-1.0.log"
        ok=0
    fi
    if [ $ok = 1 ]; then
        echo "CMake consumer: ok"
        TOTAL_P=$((TOTAL_P + 1))
    else
        echo "CMake consumer: FAILED"
        TOTAL_F=$((TOTAL_F + 1))
    fi
}

# The installed single-file build, <datadir>/ledge/single/ledge.h, used as
# the README says: one C99 file defines LEDGE_IMPLEMENTATION; the README's
# example links with it and -lm only. Counts as one test.
check_installed_single_header() { # PREFIX SCRATCH
    local dest=$1 tmp=$2 single
    single=$(find "$dest" -path '*/ledge/single/ledge.h' | head -n 1)
    echo "== installed single-file build (${single#"$dest"/})"
    printf '#define LEDGE_IMPLEMENTATION\n#include "ledge.h"\n' >"$tmp/ledge_impl.c"
    printf '#include "ledge.h"\n' | cat - "$tmp/readme.c" | grep -v '^#include <ledge/ledge.h>' >"$tmp/readme_single.c"
    if [ -n "$single" ] &&
        cc -std=c99 -Wall -Wextra -Werror -pedantic -I"$(dirname "$single")" "$tmp/ledge_impl.c" \
            "$tmp/readme_single.c" -lm -o "$tmp/readme_single" &&
        "$tmp/readme_single" | grep -q "push (0, 1) by 0.05"; then
        echo "README example from the single header: ok"
        TOTAL_P=$((TOTAL_P + 1))
    else
        echo "README example from the single header: FAILED"
        TOTAL_F=$((TOTAL_F + 1))
    fi
}

# Determinism across builds: the sanitizer (-O0) and release (-O3) builds
# must end the same 1,000-body, 1,000-step scene with the same hash
# (tests/test_determinism.c writes it), and every testbed scene's 600
# frames likewise (tests/test_scenes.c writes scenes.hash). Counts as two
# tests.
check_cross_build_hash() {
    local a=build/asan/tests/rain1000.hash b=build/release/tests/rain1000.hash
    echo "== determinism across builds"
    if [ -s "$a" ] && [ -s "$b" ] && [ "$(cat "$a")" = "$(cat "$b")" ]; then
        echo "sanitizer and release builds agree: hash $(cat "$a")"
        TOTAL_P=$((TOTAL_P + 1))
    else
        echo "sanitizer and release builds DIFFER: $(cat "$a" 2>/dev/null) vs $(cat "$b" 2>/dev/null)"
        TOTAL_F=$((TOTAL_F + 1))
    fi
    a=build/asan/tests/scenes.hash b=build/release/tests/scenes.hash
    if [ -s "$a" ] && [ -s "$b" ] && cmp -s "$a" "$b"; then
        echo "sanitizer and release builds agree on the $(wc -l <"$a") testbed scenes"
        TOTAL_P=$((TOTAL_P + 1))
    else
        echo "the testbed scenes' hashes DIFFER between the sanitizer and release builds:"
        diff "$a" "$b" || true
        TOTAL_F=$((TOTAL_F + 1))
    fi
}

# The whole suite again under valgrind memcheck (tests/meson.build's
# 'valgrind' setup: errors and leaks fail a test; heavy tests run a tenth of
# their random cases there). Each meson test counts as one.
check_valgrind() {
    local dir=build/release p f
    echo "== valgrind memcheck ($dir)"
    meson test -C "$dir" --setup valgrind --print-errorlogs --num-processes 2 >/dev/null || true
    read -r p f < <(python3 - "$dir/meson-logs/testlog-valgrind.json" <<'PY'
import json, sys
ok = bad = 0
for line in open(sys.argv[1]):
    t = json.loads(line)
    if t["result"] in ("OK", "EXPECTEDFAIL"):
        ok += 1
    else:
        bad += 1
        print(t["name"], t["result"], file=sys.stderr)
print(ok, bad)
PY
    )
    echo "== valgrind: $p tests clean, $f with errors, leaks or failures"
    TOTAL_P=$((TOTAL_P + p))
    TOTAL_F=$((TOTAL_F + f))
}

# Each fuzz harness for a bounded time under ASan+UBSan (tests/fuzz/run.sh,
# docs/robustness.md); each harness counts as one test.
# Fuzzing in the test run is repeatable: a fixed seed and a fixed number of
# inputs per harness (LEDGE_FUZZ_RUNS, default 150,000; the world harness a
# tenth), capped at LEDGE_FUZZ_SECONDS (default 180) per harness. Longer,
# open-ended runs: tests/fuzz/run.sh (docs/robustness.md).
check_fuzz() {
    local line
    export LEDGE_FUZZ_RUNS=${LEDGE_FUZZ_RUNS:-150000}
    echo "== fuzzing ($LEDGE_FUZZ_RUNS inputs per harness from seed 1, build/fuzz)"
    while IFS= read -r line; do
        echo "$line"
        case "$line" in
        "fuzz "*": ok,"*) TOTAL_P=$((TOTAL_P + 1)) ;;
        "fuzz "*": FAILED"*) TOTAL_F=$((TOTAL_F + 1)) ;;
        esac
    done < <(tests/fuzz/run.sh "${LEDGE_FUZZ_SECONDS:-180}" build/fuzz 2>&1 || true)
    if [ ! -x build/fuzz/tests/fuzz/fuzz_world ]; then
        echo "fuzz harnesses did not build"
        TOTAL_F=$((TOTAL_F + 1))
    fi
}

# ThreadSanitizer over the multi-worker tests (meson suite 'workers':
# test_workers, and the allocation and soak tests with 2 workers), in a
# third build that compiles only those programs. TSan costs some 5-15
# times the time, and starting threads far more: the allocation test runs
# its reduced valgrind set of cases (LEDGE_UNDER_VALGRIND: every 8th
# failing allocation), the soak 5,000 steps (its allocation check still
# starts after its 2,000-step warm-up).
check_tsan() {
    local dir=build/tsan p f
    echo "== thread sanitizer build ($dir, suite workers)"
    setup "$dir" --buildtype=debugoptimized --werror -Db_sanitize=thread -Dtests=enabled
    ninja -C "$dir" tests/test_workers tests/test_alloc tests/test_soak >/dev/null
    LEDGE_SOAK_STEPS=5000 LEDGE_UNDER_VALGRIND=1 TSAN_OPTIONS="halt_on_error=1" \
        meson test -C "$dir" --no-rebuild --print-errorlogs --num-processes 2 --suite workers \
            --timeout-multiplier 2 ||
        true
    read -r p f < <(count_results "$dir/meson-logs/testlog.json")
    echo "== thread sanitizer: $p passed, $f failed"
    TOTAL_P=$((TOTAL_P + p))
    TOTAL_F=$((TOTAL_F + f))
}

# The WebAssembly build (docs/web.md): the wasm replay module, the binding's
# package module and the page, then node's test runner over tests/web: the
# replay hashes against the native release build's, the binding, npm pack,
# and the page in headless Chromium. Each node test counts as one; a build
# that fails counts as one failure.
check_web() {
    local log p f version
    version=$(emcc --version 2>/dev/null || true)
    version=$(echo "$version" | head -n 1 | grep -o '[0-9][0-9.]*' | head -n 1)
    echo "== web (emscripten $version, node $(node --version))"
    if ! { src/bindings/js/build.sh test build/wasm && src/bindings/js/build.sh package \
        src/bindings/js/dist && samples/web/build.sh build/web &&
        samples/phaser/build.sh build/web/phaser; } >build/web-build.log 2>&1; then
        cat build/web-build.log
        echo "== web: the WebAssembly build FAILED"
        TOTAL_F=$((TOTAL_F + 1))
        return
    fi
    grep "^built" build/web-build.log
    (cd tests/web && npm ci --no-audit --no-fund >/dev/null 2>&1) || echo "npm ci failed in tests/web"
    log=build/web-tests.tap
    LEDGE_REPLAY_HASHES=${LEDGE_REPLAY_HASHES:-build/release/tests/replay_hashes} node --test --test-reporter=tap \
        tests/web/ >"$log" 2>&1 || true
    grep -E "^(not )?ok |^# (first|held|jump|tests|pass|fail|skipped)" "$log" || true
    p=$(sed -n 's/^# pass \([0-9]*\)$/\1/p' "$log" | tail -n 1)
    f=$(sed -n 's/^# fail \([0-9]*\)$/\1/p' "$log" | tail -n 1)
    if [ -z "$p" ] || [ -z "$f" ]; then
        tail -n 20 "$log"
        p=0 f=1
    elif [ "$f" -ne 0 ]; then
        grep -B 2 -A 20 "^not ok" "$log" | head -n 80
    fi
    echo "== web: $p passed, $f failed"
    TOTAL_P=$((TOTAL_P + p))
    TOTAL_F=$((TOTAL_F + f))
}

# The LuaJIT binding and the bump.lua-compatible module (src/bindings/lua):
# each tests/lua/test_*.lua file prints "N passed, N failed", summed here;
# then the LÖVE sample's autopilot under Xvfb (samples/love), one test,
# skipped with a message where LÖVE or Xvfb cannot start.
check_lua() {
    local lib=$PWD/build/release/libledge.so f out p q
    echo "== Lua binding and bump module (LuaJIT, $lib)"
    for f in tests/lua/test_*.lua; do
        out=$(LEDGE_LIB=$lib luajit "$f" 2>&1 || true)
        echo "$f: $(echo "$out" | tail -n 1)"
        echo "$out" | grep -E "^FAILED" || true
        if read -r p q < <(echo "$out" | tail -n 1 | sed -nE 's/^([0-9]+) passed, ([0-9]+) failed$/\1 \2/p'); then
            TOTAL_P=$((TOTAL_P + p))
            TOTAL_F=$((TOTAL_F + q))
        else
            TOTAL_F=$((TOTAL_F + 1))
        fi
    done
    if [ -f samples/love/test_autopilot.sh ]; then
        out=$(samples/love/test_autopilot.sh "$lib" 2>&1 || true)
        echo "$out" | tail -n 3
        case "$out" in
        *"love autopilot: ok"*) TOTAL_P=$((TOTAL_P + 1)) ;;
        *"love autopilot: skipped"*) ;;
        *) TOTAL_F=$((TOTAL_F + 1)) ;;
        esac
    fi
}

# The SDL testbed (samples/testbed.c, docs/samples.md) under Xvfb: every
# scene for 60 frames played by its autopilot, exit 0 with no message from
# the library. One test; skipped with a message where Xvfb cannot start.
check_testbed() {
    local exe=build/release/samples/testbed out rc n want tool
    echo "== SDL testbed under Xvfb (every scene, 60 frames, autopilot)"
    if [ ! -x "$exe" ]; then
        echo "testbed: FAILED ($exe was not built: SDL2 missing?)"
        TOTAL_F=$((TOTAL_F + 1))
        return
    fi
    for tool in xvfb-run xauth; do
        if ! command -v "$tool" >/dev/null; then
            echo "testbed: skipped ($tool is not installed)"
            return
        fi
    done
    want=$("$exe" --list | wc -l)
    out=$(timeout 900 xvfb-run -a -s "-screen 0 1280x720x24" "$exe" --all --autopilot --frames 60 2>&1) &&
        rc=0 || rc=$?
    n=$(echo "$out" | grep -c "^testbed: .* 60 frames" || true)
    if [ $rc -eq 0 ] && [ "$n" -eq "$want" ]; then
        echo "testbed: ok ($n scenes, 60 frames each)"
        TOTAL_P=$((TOTAL_P + 1))
    elif [ "$n" -eq 0 ] && echo "$out" | grep -qiE "xvfb failed|cannot open display|couldn't open display|no available video device"; then
        echo "testbed: skipped (no display: $(echo "$out" | tail -n 1))"
    else
        echo "testbed: FAILED (exit $rc, $n of $want scenes)"
        echo "$out" | grep -v " 60 frames, " | tail -n 10
        TOTAL_F=$((TOTAL_F + 1))
    fi
}

cmd=${1:-}
case "$cmd" in
demo)
    install_missing
    setup build/release --buildtype=release -Dtests=disabled
    ninja -C build/release >/dev/null
    if [ ! -x build/release/samples/demo ]; then
        echo "run.sh: samples/demo was not built (it needs cairo: libcairo2-dev)" >&2
        exit 1
    fi
    mkdir -p out
    # The sample game played by its autopilot: one line per game second,
    # then the pictures out/demo-final.png and out/demo-path.png.
    ./build/release/samples/demo out
    if [ -x build/release/samples/tile_atlas ]; then
        ./build/release/samples/tile_atlas out/tiles.png
    fi
    # The testbed's scenes, one picture each (docs/samples.md shows them).
    mkdir -p out/scenes
    ./build/release/samples/gallery out/scenes | tail -n 1
    echo "run.sh: wrote $(ls out/scenes/*.png | wc -l) scene pictures to out/scenes/"
    ;;
web)
    install_missing
    samples/web/build.sh build/web
    samples/phaser/build.sh build/web/phaser
    echo "run.sh: serving build/web on http://127.0.0.1:8000/ (the Phaser sample at /phaser/; Ctrl-C stops)"
    exec python3 -m http.server 8000 --bind 127.0.0.1 --directory build/web
    ;;
test)
    install_missing
    TOTAL_P=0
    TOTAL_F=0
    rm -f build/{asan,release}/tests/rain1000.hash build/{asan,release}/tests/scenes.hash
    run_suite sanitized build/asan --buildtype=debug --werror -Db_sanitize=address,undefined
    run_suite release build/release --buildtype=release --werror -Dtests=enabled
    check_cross_build_hash
    check_tsan
    check_lua
    check_testbed
    check_packaging
    check_valgrind
    check_fuzz
    check_web
    echo "$TOTAL_P passed, $TOTAL_F failed"
    [ "$TOTAL_F" -eq 0 ]
    ;;
*)
    echo "usage: ./run.sh demo | ./run.sh web | ./run.sh test" >&2
    exit 2
    ;;
esac
