#!/usr/bin/env bash
# The LÖVE sample played by its autopilot under Xvfb (run.sh's check_lua):
#   samples/love/test_autopilot.sh path/to/libledge.so
# Prints "love autopilot: ok" when it reached the goal and saved a PNG,
# "love autopilot: skipped (...)" when LÖVE or Xvfb cannot start here,
# else "love autopilot: FAILED ...". Also checks that samples/love/level.lua
# is still samples/game.c's level.
set -uo pipefail
cd "$(dirname "$0")/../.."
lib=${1:-$PWD/build/release/libledge.so}
if ! python3 - <<'PY'
import re, subprocess
s = open("samples/game.c").read()
a = s.index("const char *const game_level =")
c = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', s[a:s.index(";", a)]))
c = c.encode().decode("unicode_escape")
lua = subprocess.run(["luajit", "-e", "io.write(dofile('samples/love/level.lua'))"],
                     capture_output=True, text=True).stdout
raise SystemExit(0 if c == lua else 1)
PY
then
    echo "love autopilot: FAILED: samples/love/level.lua differs from samples/game.c's level"
    exit 1
fi
for tool in love xvfb-run xauth; do
    if ! command -v "$tool" >/dev/null; then
        echo "love autopilot: skipped ($tool is not installed)"
        exit 0
    fi
done
tmp=$(mktemp -d)
out=$(LEDGE_LIB=$lib timeout 300 xvfb-run -a -s "-screen 0 1280x720x24" love samples/love \
    --autopilot --screenshot "$tmp/shot.png" 2>&1)
rc=$?
echo "$out" | grep "love autopilot" || true
if echo "$out" | grep -q "love autopilot: goal reached" && [ -s "$tmp/shot.png" ] &&
    [ "$(head -c 8 "$tmp/shot.png" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ]; then
    echo "love autopilot: ok ($(stat -c %s "$tmp/shot.png") byte PNG)"
elif [ $rc -ne 0 ] && ! echo "$out" | grep -q "love autopilot" &&
    echo "$out" | grep -qiE "could not (create|open|initialize)|opengl|display|xvfb"; then
    # LÖVE never reached the game: no display, no OpenGL, ... (a Lua error
    # in the sample is a failure, not a skip)
    echo "love autopilot: skipped (LÖVE could not start: $(echo "$out" | tail -n 1))"
else
    echo "love autopilot: FAILED (exit $rc)"
    echo "$out" | tail -n 5
fi
rm -rf "$tmp"
