-- The bump.lua-compatible module (src/bindings/lua/bump.lua): bump 3.1.7's
-- documented behaviour (its README), case by case with answers worked out
-- by hand, plus seeded comparisons against brute force written here (every
-- item tested, no broad phase), and the beyond-bump features.
--   LEDGE_LIB=build/libledge.so luajit tests/lua/test_bump.lua
local H = dofile((arg[0]:match('^(.*/)') or './') .. 'harness.lua')
local bump = require('bump')
local test, eq, near, truthy, raises = H.test, H.eq, H.near, H.truthy, H.raises

local function collect(t, field)
    local r = {}
    for i, v in ipairs(t) do r[i] = v[field] end
    return table.concat(r, ',')
end

local function sorted(t)
    local c = {}
    for i, v in ipairs(t) do c[i] = tostring(v) end
    table.sort(c)
    return table.concat(c, ',')
end

local function same(a, b, what)
    eq(table.concat(a, ','), table.concat(b, ','), what)
end

test('the README example', function()
    local world = bump.newWorld(50)
    local A, B = { name = 'A' }, { name = 'B' }
    world:add(A, 0, 0, 64, 256)
    world:add(B, 0, -100, 32, 32)
    local x, y, cols, len = world:move(B, 0, 64)
    same({ x, y, len }, { 0, -32, 1 })
    same({ world:getRect(B) }, { 0, -32, 32, 32 })
    eq(cols[1].other, A)
    world:remove(A)
    world:remove(B)
    eq(world:countItems(), 0)
end)

test('add, update, remove, getRect and their errors', function()
    local world = bump.newWorld()
    local item = {}
    eq(world:add(item, 1, 2, 3, 4), item, 'add returns the item')
    raises('twice', world.add, world, item, 0, 0, 1, 1)
    raises('number', world.add, world, {}, 40)
    raises('nil', world.add, world)
    raises('> 0', world.add, world, {}, 0, 0, -1, 5)
    world:update(item, 40, 40, 20, 20)
    same({ world:getRect(item) }, { 40, 40, 20, 20 })
    world:update(item, 5, 5)
    same({ world:getRect(item) }, { 5, 5, 20, 20 }, 'w, h kept')
    raises('added to the world first', world.update, world, {}, 0, 0)
    raises('added to the world first', world.move, world, {}, 0, 0)
    raises('added to the world first', world.check, world, {}, 0, 0)
    raises('added to the world first', world.getRect, world, {})
    world:remove(item)
    raises('added to the world first', world.remove, world, item)
    eq(world:hasItem(item), false)
    world:add(item, 0, 0, 1, 1) -- adding again after removal is fine
    eq(world:hasItem(item), true)
end)

test('hasItem, getItems, countItems', function()
    local world = bump.newWorld()
    eq(world:hasItem(false), false)
    eq(world:hasItem(1), false)
    eq(world:hasItem('x'), false)
    eq(world:hasItem(), false)
    world:add('a', 1, 1, 1, 1)
    world:add('b', 2, 2, 2, 2)
    local items, len = world:getItems()
    eq(sorted(items), 'a,b')
    eq(len, 2)
    eq(world:countItems(), 2)
end)

test('toCell, toWorld, countCells', function()
    local world = bump.newWorld()
    same({ world:toCell(0, 0) }, { 1, 1 })
    same({ world:toCell(63.9, 63.9) }, { 1, 1 })
    same({ world:toCell(64, 64) }, { 2, 2 })
    same({ world:toCell(-1, -1) }, { 0, 0 })
    same({ world:toWorld(1, 1) }, { 0, 0 })
    same({ world:toWorld(2, 2) }, { 64, 64 })
    same({ world:toWorld(-1, 1) }, { -128, 0 })
    world:add({}, 0, 0, 10, 10)
    eq(world:countCells(), 1)
    world:add({}, 100, 100, 10, 10)
    eq(world:countCells(), 2)
    world:add({}, 0, 0, 100, 10) -- spans cells 1 and 2 of row 1
    eq(world:countCells(), 3)
    world:add({}, 300, 300, 64, 64) -- x and y 300..364: cells 5 and 6
    eq(world:countCells(), 7)
end)

test('move without collisions goes to the goal', function()
    local world = bump.newWorld()
    local item = world:add({}, 0, 0, 1, 1)
    local x, y, cols, len = world:move(item, 1, 1)
    same({ x, y, #cols, len }, { 1, 1, 0, 0 })
end)

-- Item 'a' at the top of a column of 1 x 1 items ('b' at y 2, 'c' at y 3)
-- moved down to y 5 with each response: touch stops at the first item met,
-- cross reports every item crossed and goes on.
for _, case in ipairs({
    { 'touch', { 0, 1, 1 }, 'b', 'touch' },
    { 'cross', { 0, 5, 2 }, 'b,c', 'cross,cross' },
}) do
    local response, stop, others, types = case[1], case[2], case[3], case[4]
    test(response .. ' down a column of items', function()
        local world = bump.newWorld()
        local a = world:add('a', 0, 0, 1, 1)
        world:add('b', 0, 2, 1, 1)
        world:add('c', 0, 3, 1, 1)
        local x, y, cols, len = world:move(a, 0, 5, function() return response end)
        same({ x, y, len }, stop)
        eq(collect(cols, 'other'), others)
        eq(collect(cols, 'type'), types)
        same({ world:getRect(a) }, { stop[1], stop[2], 1, 1 })
    end)
end

test('slide keeps the part of the move along the surface', function()
    -- a moves diagonally from (0,0) to (5,5): it meets c's left side at
    -- (1,1) (ti 0.2), slides down to (1,5); b (x 0..1) and c (x 2..3) only
    -- graze its sides after that.
    local world = bump.newWorld()
    local a = world:add('a', 0, 0, 1, 1)
    world:add('b', 0, 2, 1, 2)
    world:add('c', 2, 1, 1, 1)
    local x, y, cols, len = world:move(a, 5, 5, function() return 'slide' end)
    same({ x, y, len }, { 1, 5, 1 })
    local c = cols[1]
    eq(c.other, 'c')
    eq(c.type, 'slide')
    near(c.ti, 0.2, 1e-12, 'ti')
    same({ c.normal.x, c.normal.y }, { -1, 0 }, 'normal')
    same({ c.touch.x, c.touch.y }, { 1, 1 }, 'touch')
    same({ c.move.x, c.move.y }, { 5, 5 }, 'move')
    same({ c.slide.x, c.slide.y }, { 1, 5 }, 'slide')
    same({ c.itemRect.x, c.itemRect.y, c.itemRect.w, c.itemRect.h }, { 0, 0, 1, 1 })
    same({ c.otherRect.x, c.otherRect.y, c.otherRect.w, c.otherRect.h }, { 2, 1, 1, 1 })
    eq(c.overlaps, false)
    eq(c.item, 'a')
end)

test('bounce reflects the rest of the move', function()
    -- touch at y 1 (ti 0.2, normal (0, -1)); the 4 units left go back up.
    local world = bump.newWorld()
    local a = world:add('a', 0, 0, 1, 1)
    world:add('b', 0, 2, 1, 2)
    local x, y, cols, len = world:move(a, 0, 5, function() return 'bounce' end)
    same({ x, y, len }, { 0, -3, 1 })
    same({ cols[1].bounce.x, cols[1].bounce.y }, { 0, -3 })
    same({ cols[1].normal.x, cols[1].normal.y }, { 0, -1 })
end)

test('project: sorted by ti, filters, tunnelling, touching then entering', function()
    local world = bump.newWorld()
    eq(#world:project({}, 1, 2, 3, 4), 0, 'empty world')
    world:add({ 'b' }, 70, 0, 10, 10)
    world:add({ 'c' }, 50, 0, 10, 10)
    local d = world:add({ 'd' }, 90, 0, 10, 10)
    local cols = world:project({}, 110, 0, 10, 10, 10, 0)
    eq(collect(cols, 'ti'), '0.1,0.3,0.5')
    cols = world:project({}, 110, 0, 10, 10, 10, 0, function(_, o) return o ~= d and 'touch' end)
    eq(#cols, 2, 'filtered')
    local w2 = bump.newWorld()
    w2:add({}, 1, 0, 2, 1)
    cols = w2:project({}, -5, 0, 4, 1, 5, 0) -- passes right through it
    eq(#cols, 1, 'tunnelling')
    eq(cols[1].overlaps, false)
    local w3 = bump.newWorld()
    w3:add({}, 0, 0, 32, 100)
    eq(#w3:project({}, 32, 50, 20, 20, 30, 50), 1, 'touching, then entering')
    eq(#w3:project({}, 32, 50, 20, 20, 32, 80), 0, 'touching, sliding along: no hit')
    local w4 = bump.newWorld()
    w4:add({}, 0, 0, 2, 2)
    cols = w4:project({}, 1, 1, 2, 2, 1, 1) -- overlapping, not moving
    eq(#cols, 1)
    eq(cols[1].overlaps, true)
    near(cols[1].ti, -1, 1e-12, 'ti is minus the overlap area')
    unused = nil
end)

test('an overlapping item: touch pushes it out the shorter way, slide without a move does not', function()
    local world = bump.newWorld()
    world:add('wall', 0, 0, 10, 10)
    local a = world:add('a', 8, 3, 4, 4) -- 2 inside from the right
    local x, y, cols = world:check(a, 8, 3, function() return 'touch' end)
    same({ x, y }, { 10, 3 })
    eq(cols[1].overlaps, true)
    same({ cols[1].normal.x, cols[1].normal.y }, { 1, 0 })
    near(cols[1].ti, -8, 1e-12, 'minus the overlap area (2 x 4)')
    -- bump's slide keeps the goal when the move is zero: the item stays.
    x, y = world:move(a, 8, 3)
    same({ x, y }, { 8, 3 })
    -- moving, it is pushed back along its move until out.
    -- moving, it is put back along its move until out (bump's rule): moving
    -- right by 1, it goes back left to x = -4.
    x, y, cols = world:check(a, 9, 3, function() return 'touch' end)
    same({ x, y }, { -4, 3 })
    same({ cols[1].normal.x, cols[1].normal.y }, { -1, 0 })
end)

test('queryRect, queryPoint, querySegment(WithCoords)', function()
    local world = bump.newWorld()
    local a = world:add('a', 10, 0, 10, 10)
    local b = world:add('b', 70, 0, 10, 10)
    local c = world:add('c', 50, 0, 10, 10)
    local d = world:add('d', 90, 0, 10, 10)
    eq(sorted(world:queryRect(55, 5, 20, 20)), 'b,c')
    eq(sorted(world:queryRect(0, 5, 100, 20)), 'a,b,c,d')
    eq(sorted(world:queryRect(20, 0, 30, 10)), '', 'touching edges do not count')
    local f = function(o) return o == a or o == b or o == d end
    eq(sorted(world:queryRect(0, 5, 100, 20, f)), 'a,b,d')
    raises('> 0', world.queryRect, world, 0, 0, -1, -1)
    local w = bump.newWorld()
    w:add('a', 10, 0, 10, 10)
    w:add('b', 15, 0, 10, 10)
    w:add('c', 20, 0, 10, 10)
    eq(sorted(w:queryPoint(4, 5)), '')
    eq(sorted(w:queryPoint(14, 5)), 'a')
    eq(sorted(w:queryPoint(16, 5)), 'a,b')
    eq(sorted(w:queryPoint(21, 5)), 'b,c')
    eq(sorted(w:queryPoint(20, 5)), 'b', 'borders do not contain')
    eq(sorted(w:queryPoint(16, 5, function(o) return o ~= 'b' end)), 'a')
    local s = bump.newWorld()
    s:add('a', 5, 0, 5, 10)
    s:add('b', 15, 0, 5, 10)
    s:add('c', 25, 0, 5, 10)
    eq(table.concat(s:querySegment(0, 5, 30, 5), ','), 'a,b,c')
    eq(table.concat(s:querySegment(30, 5, 0, 5), ','), 'c,b,a')
    eq(table.concat(s:querySegment(17, 5, 26, 5), ','), 'b,c')
    eq(table.concat(s:querySegment(0, 5, 30, 5, function(o) return o ~= 'b' end), ','), 'a,c')
    local t = bump.newWorld()
    t:add('a', 10, 0, 5, 5)
    eq(#t:querySegment(0, 5, 10, 0), 0, 'ends on a corner')
    eq(#t:querySegment(15, 5, 20, 0), 0, 'starts on a corner')
    local info, len = s:querySegmentWithCoords(0, 5, 30, 5)
    eq(len, 3)
    eq(info[1].item, 'a')
    same({ info[1].x1, info[1].y1, info[1].x2, info[1].y2 }, { 5, 5, 10, 5 })
    near(info[2].ti1, 0.5, 1e-12)
    near(info[2].ti2, 20 / 30, 1e-12)
end)

test('addResponse: a response of the game\'s own', function()
    local world = bump.newWorld()
    local a = world:add('a', 0, 0, 1, 1)
    world:add('b', 0, 2, 1, 1)
    -- 'stick': stop at the touch, like touch, but record it.
    local seen
    world:addResponse('stick', function(w, col)
        seen = col.other
        return col.touch.x, col.touch.y, {}, 0
    end)
    local x, y = world:move(a, 0, 5, function() return 'stick' end)
    same({ x, y }, { 0, 1 })
    eq(seen, 'b')
    raises('unknown collision type', world.move, world, a, 0, 9, function() return 'nope' end)
    truthy(bump.responses.slide and bump.responses.touch and bump.responses.cross and
        bump.responses.bounce, 'bump.responses')
end)

local rnd = H.draws(777)

test('project equals brute force over every item (3,000 seeded moves)', function()
    local world = bump.newWorld(32)
    local items = {}
    for i = 1, 150 do
        items[i] = world:add({ id = i }, rnd(0, 600), rnd(0, 600), rnd(2, 40), rnd(2, 40))
    end
    local r = bump.rect
    for k = 1, 3000 do
        local it = items[1 + k % #items]
        local x, y, w, h = world:getRect(it)
        local gx, gy = x + rnd(-60, 60), y + rnd(-60, 60)
        local got = world:project(it, x, y, w, h, gx, gy)
        local want = {}
        for _, o in ipairs(items) do
            if o ~= it then
                local ox, oy, ow, oh = world:getRect(o)
                local c = r.detectCollision(x, y, w, h, ox, oy, ow, oh, gx, gy)
                if c then want[#want + 1] = { other = o, ti = c.ti } end
            end
        end
        eq(#got, #want, 'collision count')
        local ids = {}
        for _, c in ipairs(want) do ids[c.other] = c.ti end
        for i, c in ipairs(got) do
            eq(ids[c.other], c.ti, 'same ti')
            if i > 1 then truthy(got[i - 1].ti <= c.ti, 'sorted by ti') end
        end
        if k % 3 == 0 then world:move(it, gx, gy) end -- keep the grid moving
    end
end)

test('slide never ends inside an item it did not meet (2,000 seeded moves)', function()
    local world = bump.newWorld()
    local walls = {}
    for i = 1, 60 do
        walls[i] = world:add({ wall = i }, rnd(0, 500), rnd(0, 500), rnd(5, 60), rnd(5, 60))
    end
    local p = world:add({ player = true }, -100, -100, 12, 12)
    for _ = 1, 2000 do
        local x, y, w, h
        repeat -- a start that overlaps nothing
            x, y = rnd(-20, 520), rnd(-20, 520)
            world:update(p, x, y)
        until #world:queryRect(x, y, 12, 12) == 1
        local gx, gy = x + rnd(-80, 80), y + rnd(-80, 80)
        local ax, ay, cols, len = world:move(p, gx, gy)
        -- bump skips the items already met in a move, so a slide may end
        -- inside one of those, never inside any other
        local met = {}
        for _, c in ipairs(cols) do met[c.other] = true end
        eq(#world:queryRect(ax, ay, 12, 12, function(o) return o ~= p and not met[o] end), 0,
            'inside an item not met')
        if len == 0 then same({ ax, ay }, { gx, gy }, 'free move reaches the goal') end
        for _, c in ipairs(cols) do
            truthy(c.ti >= 0 and c.ti <= 1, 'ti in 0..1')
            truthy(math.abs(c.normal.x) + math.abs(c.normal.y) == 1, 'axis normal')
        end
    end
end)


-- world:move and world:check with the default filter run in one C call
-- (ledge_bump_move); with a filter they run bump's loop in Lua. The Lua
-- loop is the oracle: two worlds with the same items, one moved each way,
-- must agree on every returned value and every col field, bit for bit.
-- The keys pairs() gives, sorted, as one string (nested tables' too),
-- without the C path's `_ledge` (the numbers its lazy cols are made from).
local function keys_of(t)
    local ks = {}
    for k, v in pairs(t) do
        if k ~= '_ledge' then
            ks[#ks + 1] = type(v) == 'table' and k ~= 'item' and k ~= 'other' and
                (tostring(k) .. '{' .. keys_of(v) .. '}') or tostring(k)
        end
    end
    table.sort(ks)
    return table.concat(ks, ',')
end

-- The fields of bump's col and their keys, in an order of reading that
-- depends on `turn` (the C path's cols make a nested table on its first
-- read: the order must not matter).
local NESTED = { 'move', 'normal', 'touch', 'slide', 'itemRect', 'otherRect' }
local NESTED_KEYS = { move = 'xy', normal = 'xy', touch = 'xy', slide = 'xy', itemRect = 'xywh',
    otherRect = 'xywh' }

-- a: the C path's cols (lazy), b: the Lua path's (bump's eager tables, the
-- oracle). Every field reads the same, bit for bit; before any read a C
-- col holds only the scalar fields (and `_ledge`), after reading every
-- field pairs() gives the same keys as the eager col.
local function same_cols(a, b, what, turn)
    eq(#a, #b, what .. ' count')
    for i = 1, #a do
        local x, y = a[i], b[i]
        eq(keys_of(x), 'item,other,overlaps,ti,type', what .. ' lazy col keys before reading')
        truthy(rawget(x, '_ledge') ~= nil, what .. ' lazy col data')
        eq(x.other, y.other, what .. ' other')
        eq(x.item, y.item, what .. ' item')
        eq(x.type, y.type, what .. ' type')
        eq(x.overlaps, y.overlaps, what .. ' overlaps')
        eq(x.ti, y.ti, what .. ' ti')
        for j = 1, #NESTED do
            local f = NESTED[1 + (j + turn + i) % #NESTED]
            local xf = x[f]
            eq(rawget(x, f), xf, what .. ' ' .. f .. ' kept by the first read')
            eq(x[f], xf, what .. ' ' .. f .. ' made once')
            for k in NESTED_KEYS[f]:gmatch('.') do
                eq(xf[k], y[f][k], what .. ' ' .. f .. '.' .. k)
            end
        end
        eq(x.bounce, nil, what .. ' no bounce')
        eq(x.nothing, nil, what .. ' unknown key')
        eq(keys_of(x), keys_of(y), what .. ' col keys (pairs) after reading every field')
    end
    eq(keys_of(a), keys_of(b), what .. ' cols keys')
end

local function slide_filter() return 'slide' end

-- A draw for c_equals_lua: reals, or on a lattice (positions and moves in
-- multiples of 4, 16 x 16 items) where equal ti and equal distances are
-- common, so that the tie-break between full ties is exercised.
local function draw(lattice, lo, hi)
    if lattice then return 4 * math.floor(rnd(lo, hi) / 4) end
    return rnd(lo, hi)
end

local function c_equals_lua(cap, lattice)
    local wc, wl = bump.newWorld(32), bump.newWorld(32)
    if cap then -- a small C buffer: moves with more collisions grow it and call again
        wc.ccolCap, wc.ccols = cap, require('ffi').new('ledge_bump_col[?]', cap)
    end
    local ic, il = {}, {}
    for i = 1, 120 do -- overlapping starts included
        local x, y, w, h = draw(lattice, 0, 400), draw(lattice, 0, 400), rnd(2, 40), rnd(2, 40)
        if lattice then w, h = 16, 16 end
        ic[i] = wc:add({ id = i }, x, y, w, h)
        il[i] = wl:add({ id = i }, x, y, w, h)
    end
    local function key(c) return c.other.id end
    local collided, most = 0, 0
    for k = 1, 4000 do
        local i = 1 + k % #ic
        local x, y = wc:getRect(ic[i])
        local dx, dy = draw(lattice, -60, 60), draw(lattice, -60, 60)
        if k % 7 == 0 then dx = 0 end
        if k % 11 == 0 then dx, dy = 0, 0 end
        local fn = k % 5 == 0 and 'check' or 'move'
        local ax, ay, cc, lc = wc[fn](wc, ic[i], x + dx, y + dy)
        local bx, by, cl, ll = wl[fn](wl, il[i], x + dx, y + dy, slide_filter)
        eq(ax, bx, 'actual x')
        eq(ay, by, 'actual y')
        eq(lc, ll, 'len')
        for j = 1, #cc do -- the items are different tables in the two worlds
            eq(key(cc[j]), key(cl[j]), 'other')
            cc[j].other, cl[j].other, cc[j].item, cl[j].item = 0, 0, 0, 0
        end
        same_cols(cc, cl, fn, k)
        if lc > 0 then collided = collided + 1 end
        most = math.max(most, lc)
        same({ wc:getRect(ic[i]) }, { wl:getRect(il[i]) }, 'rect after ' .. fn)
    end
    truthy(collided > 500, 'moves that collided: ' .. collided)
    -- the bodies under the items follow too: queries see the C moves
    for i = 1, #ic do
        local x, y, w, h = wc:getRect(ic[i])
        local hit = false
        for _, o in ipairs(wc:queryPoint(x + w / 2, y + h / 2)) do hit = hit or o == ic[i] end
        truthy(hit, 'item ' .. i .. ' found at its rectangle')
    end
    return most
end

test('move and check in C equal bump\'s loop in Lua (4,000 seeded moves)', function()
    c_equals_lua()
end)

test('the same on a lattice, where full ties (equal ti and distance) are common', function()
    c_equals_lua(nil, true)
end)

test('the same with a C buffer of 1 collision, grown as moves need', function()
    local most = c_equals_lua(1)
    truthy(most >= 3, 'most collisions in a move: ' .. most)
end)

test('the C path\'s lazy cols: kept cols read the values of their move, writes stay', function()
    local world = bump.newWorld()
    local wall = world:add({}, 20, 0, 10, 40)
    local p = world:add({}, 0, 10, 10, 10)
    local _, _, cols, len = world:move(p, 30, 25)
    eq(len, 1, 'one collision')
    local col = cols[1]
    -- the rectangles move after the move: the col still reads the old ones
    world:update(wall, 100, 100, 5, 5)
    world:update(p, -50, -50, 3, 3)
    same({ col.otherRect.x, col.otherRect.y, col.otherRect.w, col.otherRect.h }, { 20, 0, 10, 40 },
        'otherRect when the move was made')
    same({ col.itemRect.x, col.itemRect.y, col.itemRect.w, col.itemRect.h }, { 0, 10, 10, 10 },
        'itemRect when the move was made')
    same({ col.move.x, col.move.y, col.normal.x, col.normal.y }, { 30, 15, -1, 0 }, 'move, normal')
    same({ col.touch.x, col.touch.y, col.slide.x, col.slide.y }, { 10, 15, 10, 25 }, 'touch, slide')
    col.normal.x = 7 -- a game's write into a nested table stays
    eq(col.normal.x, 7, 'written')
    col.touch = { x = 1, y = 2 } -- and so does a nested table of its own
    eq(col.touch.y, 2, 'replaced')
    col.slide = nil -- assigning nil gives the value of the move back (bump: nil)
    eq(col.slide.y, 25, 'slide made again from the move')
end)

test('the C path: a game\'s own slide response is still called; bad goals raise', function()
    local world = bump.newWorld()
    local wall = world:add({}, 20, 0, 10, 40)
    local p = world:add({}, 0, 10, 10, 10)
    local calls = 0
    local builtin = bump.responses.slide
    world:addResponse('slide', function(...)
        calls = calls + 1
        return builtin(...)
    end)
    local ax, _, cols = world:move(p, 30, 20)
    eq(calls, 1, 'own slide called')
    eq(ax, 10, 'stopped at the wall')
    eq(cols[1].other, wall, 'other')
    world:addResponse('slide', builtin)
    raises('goalX', world.move, world, p, 0 / 0, 0)
    raises('goalY', world.check, world, p, 0, 0 / 0)
    raises('must be added', world.move, world, {}, 0, 0)
    same({ world:getRect(p) }, { 10, 20, 10, 10 }, 'unchanged by the refused moves')
end)

-- --- beyond bump -----------------------------------------------------------

-- A 12 x 6 level, 16-pixel tiles, y down: a floor (top at y 80), a 45
-- degree ramp two tiles high (x 96..128) up to a raised floor (top at 48).
local level = table.concat({
    '............',
    '............',
    '............',
    '......./####',
    '....../#####',
    '############',
}, '\n')

test('setTiles keeps the items added before it; a new size keeps the options', function()
    local world = bump.newWorld()
    world:add('a', 10, 20, 30, 40)
    world:add('plat', 100, 120, 64, 8, { oneWay = true })
    world:setTiles(level, 16)
    same({ world:getRect('a') }, { 10, 20, 30, 40 }, 'a kept')
    same({ world:getRect('plat') }, { 100, 120, 64, 8 }, 'plat kept')
    eq(world:countItems(), 2)
    eq(table.concat(world:queryRect(0, 0, 50, 70), ','), 'a')
    eq(world.opts[world.rects.plat].oneWay, true, 'options kept by setTiles')
    world:update('plat', 90, 120, 60, 8) -- a new size: a new body
    same({ world:getRect('plat') }, { 90, 120, 60, 8 }, 'plat resized')
    eq(world.opts[world.rects.plat].oneWay, true, 'options kept by a new size')
    eq(table.concat(world:queryPoint(120, 124), ','), 'plat')
    world:remove('a')
    eq(world:hasItem('a'), false)
    eq(#world:queryRect(0, 0, 50, 70), 0)
end)

test('tiles: a character walks up a 45 degree slope and stands on it', function()
    local world = bump.newWorld()
    world:setTiles(level, 16)
    eq(world:getTile(6, 4), 4, 'the slope cell (45DEG_NP)') -- '/' is 45DEG_NP in ledge's ASCII
    local p = world:add('p', 20, 80 - 24 - 0.05, 12, 24)
    local x, y, cols, len, st
    for _ = 1, 60 do x, y, cols, len, st = world:moveCharacter(p, x and x + 2 or 22, (y or 56) + 1) end
    truthy(st.onGround, 'on the ground')
    truthy(x > 128, 'walked on: x = ' .. x)
    -- On the flat top (row 3 is y 48..64): stands at y = 48 - 24.
    near(y, 24, 0.1, 'on the top floor')
end)

test('tiles: walking on a FULL floor never snags on seams', function()
    local world = bump.newWorld()
    world:setTiles(level, 16)
    local p = world:add('p', 2, 80 - 24, 12, 24)
    local prevY
    for i = 1, 50 do
        local x, y, _, _, st = world:moveCharacter(p, 2 + i * 2, 80 - 24 + 1)
        truthy(st.onGround, 'ground at step ' .. i)
        near(x, 2 + i * 2, 1e-3, 'x follows the goal')
        if prevY then near(y, prevY, 1e-4, 'y stays') end
        prevY = y
        if x > 80 then break end
    end
end)

test('one-way platform item: jump up through it, land on it', function()
    local world = bump.newWorld()
    world:add('floor', 0, 200, 400, 16)
    local plat = world:add('plat', 100, 120, 64, 8, { oneWay = true })
    local p = world:add('p', 120, 176, 12, 24)
    local x, y, st = 120, 176, nil
    local vy = -400
    for _ = 1, 120 do
        vy = vy + 900 / 60
        local _, _, _, _, s = world:moveCharacter(p, x, y + vy / 60)
        st = s
        x, y = world:getRect(p)
        if st.onGround and vy > 0 then vy = 0 end
    end
    near(y, 120 - 24, 0.05, 'stands on the platform')
    eq(st.groundItem, plat, 'ground item')
end)

test('moving platform carries the character standing on it', function()
    local world = bump.newWorld()
    local plat = world:add('plat', 0, 100, 64, 8)
    local p = world:add('p', 20, 76, 12, 24)
    local _, _, _, _, st = world:moveCharacter(p, 20, 77)
    truthy(st.onGround, 'standing')
    for i = 1, 30 do world:movePlatform(plat, i * 2, 100) end
    local x, y = world:getRect(p)
    near(x, 80, 0.01, 'carried 60 px')
    near(y, 76, 0.05, 'still on top')
end)

test('every tile\'s mirror is its vertical reflection (point sampling)', function()
    local ledge = require('ledge')
    local ffi = require('ffi')
    local v = ffi.typeof('vec2s')
    for t = 0, 33 do
        local m = bump.mirrorTile[t]
        eq(bump.mirrorTile[m], t, 'an involution')
        for i = 1, 200 do
            local px, py = rnd(0.01, 0.99), rnd(0.01, 0.99)
            local a = ledge.C.ledge_tile_contains(t, v({ { 0, 0 } }), 1, v({ { px, py } }))
            local b = ledge.C.ledge_tile_contains(m, v({ { 0, 0 } }), 1, v({ { px, 1 - py } }))
            eq(a, b, 'tile ' .. t .. ' at ' .. px .. ', ' .. py)
        end
    end
end)

H.done()
