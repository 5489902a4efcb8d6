-- The scene "bump crowd" (docs/benchmarks.md) through the bump-compatible
-- module under LuaJIT: N moving 16 x 16 items, each moved once per frame
-- with world:move and the default filter (slide), velocity negated when
-- the move collided; 60 frames; ms per frame, median of 5 runs.
-- With this project's module it also times the same moves as raw FFI calls
-- of ledge_bump_move from the same Lua loop, without bump's `cols` tables
-- (the module's cost above that is building them, and their garbage), and
-- prints the collisions per move.
--   LEDGE_LIB=build/libledge.so luajit tests/lua/bench_bump.lua [module]
-- It also times the module's moves by a game that reads each col's normal
-- (the module makes a col's nested tables when first read).
-- It also times the raw calls with the per-item data in FFI arrays (the
-- crossing's floor: no game table read around the call).
-- BUMP_SIZES=10000 times one N only; BUMP_ONLY=module, normal, raw or ffi
-- times one of the four loops, BUMP_RUNS=1 runs each once instead of 5 (for
-- valgrind or a profiler on one path). BUMP_ALLOC=1 also counts the bytes
-- the module's moves allocate (the garbage the collector then has to
-- collect) over one more frame, untimed, with the collector paused for that
-- frame only so that collectgarbage('count') grows by exactly what is
-- allocated; the timed runs never touch the collector's settings.
-- `module` defaults to "bump" (this project's src/bindings/lua/bump.lua);
-- any module with bump's API can be timed the same way.
local root = (arg[0]:match('^(.*)tests/lua/[^/]*$') or './')
package.path = root .. 'src/bindings/lua/?.lua;' .. package.path
local bump = require(arg[1] or 'bump')
local ffi = require('ffi')
ffi.cdef('int clock_gettime(int, void *);')
local ts = ffi.new('int64_t[2]')
local function now()
    ffi.C.clock_gettime(2, ts) -- CLOCK_PROCESS_CPUTIME_ID: CPU time, steadier on a shared machine
    return tonumber(ts[0]) + tonumber(ts[1]) * 1e-9
end

-- BUMP_FRAMES=N runs N frames instead of the scene's 60 (for instruction
-- counts of a window of frames: the difference between two runs under
-- callgrind; the checksums then differ from the 60-frame ones).
local FRAMES = tonumber(os.getenv('BUMP_FRAMES') or 60)

-- Park-Miller, as tests/bench_bump.c draws the same velocities.
local state
local function pm()
    state = (state * 16807) % 2147483647
    return state / 2147483647
end

local C = require('ledge').C
local actual = ffi.new('double[2]')

-- Item `it` moved to (x, y) with `len` collisions: bounces when it collided.
local function moved(it, x, y, len, count)
    it.x, it.y = x, y
    if len > 0 then
        it.vx, it.vy = -it.vx, -it.vy
        count.cols = count.cols + len
    end
end

-- One frame of the module's own moves (world:move).
local function frame_module(world, items, n, dt, count)
    for k = 1, n do
        local it = items[k]
        local ax, ay, _, len = world:move(it, it.x + it.vx * dt, it.y + it.vy * dt)
        moved(it, ax, ay, len, count)
    end
end

-- The same moves by a game that reads each collision's normal (as a
-- platformer does for its ground test): the module's cols make their
-- nested tables when first read, so this one pays for `normal`.
local function frame_normal(world, items, n, dt, count)
    for k = 1, n do
        local it = items[k]
        local ax, ay, cols, len = world:move(it, it.x + it.vx * dt, it.y + it.vy * dt)
        for i = 1, len do count.up = count.up + (cols[i].normal.y < 0 and 1 or 0) end
        moved(it, ax, ay, len, count)
    end
end

-- The same moves reading every field of every col (bump's eager cost).
local function frame_every(world, items, n, dt, count)
    for k = 1, n do
        local it = items[k]
        local ax, ay, cols, len = world:move(it, it.x + it.vx * dt, it.y + it.vy * dt)
        for i = 1, len do
            local c = cols[i]
            count.up = count.up + c.move.x + c.normal.y + c.touch.x + c.slide.y + c.itemRect.w +
                c.otherRect.h
        end
        moved(it, ax, ay, len, count)
    end
end
local frames = { module = frame_module, normal = frame_normal, every = frame_every }

-- The same moves as raw calls of ledge_bump_move on the module's own C
-- arrays (src/bindings/lua/bump.lua keeps them by body slot), no cols.
local function frame_raw(world, items, n, dt, count, slots)
    local ptr, rects, cap, ids = world.lw.ptr, world.crects, world.crectCap, world.cids
    for k = 1, n do
        local it = items[k]
        local len = C.ledge_bump_move(ptr, rects, cap, ids + slots[k], it.x + it.vx * dt,
            it.y + it.vy * dt, true, world.ccols, world.ccolCap, actual, actual + 1)
        assert(len >= 0 and len <= world.ccolCap, 'ledge_bump_move refused or overflowed')
        moved(it, actual[0], actual[1], len, count)
    end
end

-- The floor of the crossing: the same raw calls with everything the loop
-- reads per item in FFI arrays (slot, velocity; the position from the
-- module's C rectangles), as tests/bench_bump.c's loop reads C arrays, no
-- game table touched. Against frame_raw it shows what reading and writing
-- the game's item tables costs around the call (their memory, not the
-- crossing); against C, the crossing itself.
local function frame_ffi(world, items, n, dt, count, slots, arrays)
    local ptr, rects, cap, ids = world.lw.ptr, world.crects, world.crectCap, world.cids
    local ccols, ccap = world.ccols, world.ccolCap
    local slot, vx, vy = arrays.slot, arrays.vx, arrays.vy
    for k = 0, n - 1 do
        local s = slot[k]
        local r = rects[s]
        local len = C.ledge_bump_move(ptr, rects, cap, ids + s, r.x + vx[k] * dt, r.y + vy[k] * dt,
            true, ccols, ccap, actual, actual + 1)
        assert(len >= 0 and len <= ccap, 'ledge_bump_move refused or overflowed')
        if len > 0 then
            vx[k], vy[k] = -vx[k], -vy[k]
            count.cols = count.cols + len
        end
    end
end

-- Bytes allocated by one frame of the module's moves after the 60 timed
-- (untimed; see BUMP_ALLOC above), per move and per collision: a frame
-- that reads no col field, one that reads col.normal, one that reads
-- every field (each after one warm-up frame).
local function allocated(world, items, n, dt)
    for _, how in ipairs({ 'module', 'normal', 'every' }) do
        local count = { cols = 0, up = 0 }
        -- One frame first: its loop compiled, so the trace objects LuaJIT
        -- makes for it are not counted as the moves' allocations.
        frames[how](world, items, n, dt, { cols = 0, up = 0 })
        collectgarbage()
        collectgarbage('stop')
        local before = collectgarbage('count')
        frames[how](world, items, n, dt, count)
        local kb = collectgarbage('count') - before
        collectgarbage('restart')
        print(string.format('bump crowd Lua (%s) N=%d: one frame allocates %.0f KB: %.1f bytes per move, %.0f per collision (%d collisions), %s',
            arg[1] or 'bump', n, kb, kb * 1024 / n, kb * 1024 / math.max(count.cols, 1), count.cols,
            how == 'module' and 'no col field read' or how == 'normal' and 'reading col.normal' or
            'reading every col field'))
    end
end

-- raw: false (world:move, no col read), true (raw ledge_bump_move),
-- 'ffi' (raw calls on FFI arrays) or 'normal' / 'every' (world:move
-- reading cols, as frames above).
local function run(n, raw)
    local cols = 2 * math.ceil(math.sqrt(n))
    local W, H = cols * 24, math.ceil(n / cols) * 24 * 2 + 48
    local world = bump.newWorld(64)
    world:add({}, -16, 0, 16, H)
    world:add({}, W, 0, 16, H)
    world:add({}, 0, -16, W, 16)
    world:add({}, 0, H, W, 16)
    local items = {}
    state = 42
    for k = 0, n - 1 do
        local it = { x = (k % cols) * 24 + 4, y = math.floor(k / cols) * 24 + 4 }
        it.vx, it.vy = pm() * 200 - 100, pm() * 200 - 100
        world:add(it, it.x, it.y, 16, 16)
        items[k + 1] = it
    end
    local dt = 1 / 60
    local slots, count = {}, { cols = 0, up = 0 }
    local arrays
    if raw == true then
        for k = 1, n do slots[k] = world.rects[items[k]] end
    elseif raw == 'ffi' then
        arrays = { slot = ffi.new('int32_t[?]', n), vx = ffi.new('double[?]', n),
            vy = ffi.new('double[?]', n) }
        for k = 0, n - 1 do
            local it = items[k + 1]
            arrays.slot[k], arrays.vx[k], arrays.vy[k] = world.rects[it], it.vx, it.vy
        end
    end
    local t0 = now()
    for _ = 1, FRAMES do
        if raw == true then
            frame_raw(world, items, n, dt, count, slots)
        elseif raw == 'ffi' then
            frame_ffi(world, items, n, dt, count, slots, arrays)
        else
            frames[raw or 'module'](world, items, n, dt, count)
        end
    end
    local ms = (now() - t0) * 1000 / FRAMES
    if arrays then -- the positions live in the module's rectangles only
        for k = 0, n - 1 do
            local r = world.crects[arrays.slot[k]]
            items[k + 1].x, items[k + 1].y = r.x, r.y
        end
    end
    local sum = 0
    for k = 1, n do sum = sum + items[k].x + 3 * items[k].y end
    -- After the checksum: the extra frame moves the items again.
    if os.getenv('BUMP_ALLOC') and not raw then allocated(world, items, n, dt) end
    return ms, sum, count.cols / (FRAMES * n)
end

for _, n in ipairs(os.getenv("BUMP_SIZES") and loadstring("return {" .. os.getenv("BUMP_SIZES") .. "}")() or { 100, 1000, 10000 }) do
    local t, sum, per = {}, 0, 0
    local only = os.getenv('BUMP_ONLY')
    local runs = tonumber(os.getenv('BUMP_RUNS') or 5)
    if only == nil or only == 'module' then
        for r = 1, runs do t[r], sum, per = run(n) end
        table.sort(t)
        print(string.format('bump crowd Lua (%s) N=%d: %.3f ms/frame (median of %d), checksum %.3f, %.3f collisions per move',
            arg[1] or 'bump', n, t[math.ceil(runs / 2)], runs, sum, per))
    end
    if only == nil or only == 'normal' then
        for r = 1, runs do t[r], sum = run(n, 'normal') end
        table.sort(t)
        print(string.format('bump crowd Lua (%s, reading col.normal) N=%d: %.3f ms/frame (median of %d), checksum %.3f',
            arg[1] or 'bump', n, t[math.ceil(runs / 2)], runs, sum))
    end
    if not arg[1] and (only == nil or only == 'raw') then
        for r = 1, runs do t[r], sum = run(n, true) end
        table.sort(t)
        print(string.format('bump crowd Lua (raw ledge_bump_move, no cols) N=%d: %.3f ms/frame (median of %d), checksum %.3f',
            n, t[math.ceil(runs / 2)], runs, sum))
    end
    if not arg[1] and (only == nil or only == 'ffi') then
        for r = 1, runs do t[r], sum = run(n, 'ffi') end
        table.sort(t)
        print(string.format('bump crowd Lua (raw ledge_bump_move on FFI arrays, no game table) N=%d: %.3f ms/frame (median of %d), checksum %.3f',
            n, t[math.ceil(runs / 2)], runs, sum))
    end
end

-- The FFI crossing alone: a million calls of a cheap ledge function
-- (ledge_body_position_ref: checks the id, copies two floats) from a
-- compiled Lua loop, ns per call. Not with BUMP_ONLY (one loop timed).
if not os.getenv('BUMP_ONLY') then
    local ledge = require('ledge')
    local C = ledge.C
    local w = ledge.newWorld({ width = 4, height = 4 })
    local b = w:newBody({ shape = { circle = 0.3 }, x = 1, y = 1 })
    local out = ffi.new('vec2s')
    local t = {}
    for r = 1, 5 do
        local t0 = now()
        for _ = 1, 1000000 do C.ledge_body_position_ref(w.ptr, b.id, out) end
        t[r] = (now() - t0) * 1e3
    end
    table.sort(t)
    print(string.format('FFI call from compiled Lua (ledge_body_position_ref): %.1f ns per call', t[3]))
end
