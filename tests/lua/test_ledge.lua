-- The LuaJIT binding (src/bindings/lua/ledge.lua): that it marshals every
-- kind of call correctly (checked against closed forms and brute force in
-- Lua), raises ledge's own messages, and keeps C objects alive as long as
-- Lua can reach them. Run: LEDGE_LIB=build/libledge.so luajit tests/lua/test_ledge.lua
local H = dofile((arg[0]:match('^(.*/)') or './') .. 'harness.lua')
local ledge = require('ledge').load()
local test, eq, near, truthy, raises = H.test, H.eq, H.near, H.truthy, H.raises

test('version is the headers\' version', function()
    local f = assert(io.open(H.root .. 'include/ledge/base.h'))
    local s = f:read('*a')
    f:close()
    local v = s:match('MAJOR (%d+)') .. '.' .. s:match('MINOR (%d+)') .. '.' .. s:match('PATCH (%d+)')
    eq(ledge.version(), v, 'version')
end)

test('every tile name round-trips', function()
    local n = 0
    for name, id in pairs(ledge.tiles) do
        eq(ledge.tiles[name], id)
        n = n + 1
    end
    eq(n, 34, 'tile count')
    local m = ledge.newTilemap({ width = 40, height = 2 })
    for name, id in pairs(ledge.tiles) do m:set(id, 1, name) end
    for name, id in pairs(ledge.tiles) do eq(m:get(id, 1), id, name) end
    eq(m:get(-1, 0), ledge.tiles.FULL, 'outside is FULL')
end)

test('a circle comes to rest on a FULL tile', function()
    local w = ledge.newWorld({ width = 8, height = 8 })
    w.tilemap:set(3, 0, 'FULL')
    local b = w:newBody({ shape = { circle = 0.4 }, x = 3.5, y = 3 })
    for _ = 1, 180 do w:step(1 / 60) end
    local x, y = b:position()
    near(x, 3.5, 1e-6, 'x')
    near(y, 1.4, 0.01, 'y (radius above the tile top, less the slop)')
    truthy(b:ground().onGround, 'on ground')
    local vx, vy = b:velocity()
    near(vy, 0, 0.2, 'vy')
    eq(b:type(), 'dynamic')
    near(b:mass(), math.pi * 0.16, 1e-5, 'mass = density * area')
end)

test('a resting body falls asleep, and waking it by velocity', function()
    local w = ledge.newWorld({ width = 8, height = 8, enable_sleep = true, sleep_time = 0.25 })
    w.tilemap:set(3, 0, 'FULL')
    local b = w:newBody({ shape = { circle = 0.4 }, x = 3.5, y = 3 })
    truthy(b:isAwake(), 'awake at first')
    for _ = 1, 180 do w:step(1 / 60) end
    truthy(not b:isAwake(), 'asleep after resting')
    truthy(b:ground().onGround, 'still on ground while asleep')
    b:setVelocity(1, 0)
    truthy(b:isAwake(), 'woken by a velocity')
    b:setAwake(false)
    truthy(not b:isAwake(), 'put to sleep')
    local still = ledge.newWorld({ width = 4, height = 4 })
    local c = still:newBody({ shape = { circle = 0.4 }, x = 2, y = 2 })
    raises('enable_sleep', c.setAwake, c, false)
end)

test('refusals raise ledge\'s message', function()
    local w = ledge.newWorld({ width = 4, height = 4 })
    raises('ledge_world_step: dt is -1', w.step, w, -1)
    raises('radius', ledge.shape, { circle = -1 })
    raises('ledge_tilemap_set', w.tilemap.set, w.tilemap, 99, 0, 1)
    raises('width is -3', ledge.newWorld, { width = -3 })
    local b = w:newBody({ shape = { box = { 0.5, 0.5 } }, x = 2, y = 2 })
    raises('velocity', b.setVelocity, b, 0 / 0, 0)
    b:destroy()
    truthy(not b:isValid(), 'destroyed body is invalid')
    raises('stale', b.position, b)
    w:destroy()
    raises('destroyed', w.step, w, 1 / 60)
end)

test('a bare body id (newBodyId, destroyBodyId)', function()
    local w = ledge.newWorld({ width = 4, height = 4, gravity = { 0, 0 } })
    local id = w:newBodyId({ shape = { box = { 0.5, 0.25 } }, type = 'kinematic', x = 2, y = 1.5 })
    truthy(ledge.C.ledge_body_is_valid(w.ptr, id), 'a living body')
    local b = w:body(id)
    local x, y = b:position()
    eq(x, 2)
    eq(y, 1.5)
    eq(b:type(), 'kinematic')
    w:destroyBodyId(id)
    truthy(not b:isValid(), 'the Body made for it is invalid')
    raises('stale', w.destroyBodyId, w, id)
    raises('needs a shape', w.newBodyId, w, { x = 1 })
end)

-- Seeded draws for the brute-force comparisons.
local rnd = H.draws(12345)

test('AABB and point queries equal brute force (2,000 queries)', function()
    local w = ledge.newWorld({ width = 64, height = 64, gravity = { 0, 0 } })
    local bodies = {}
    for i = 1, 300 do
        local hw, hh = rnd(0.1, 1.5), rnd(0.1, 1.5)
        bodies[i] = w:newBody({ shape = { box = { hw, hh } }, type = 'kinematic',
            x = rnd(2, 62), y = rnd(2, 62) })
    end
    for q = 1, 2000 do
        if q % 3 == 0 then -- move one body a little between queries
            local b = bodies[1 + (q % #bodies)]
            local x, y = b:position()
            b:setPosition(x + rnd(-0.5, 0.5), y + rnd(-0.5, 0.5))
        end
        local x0, y0 = rnd(0, 60), rnd(0, 60)
        local x1, y1 = x0 + rnd(0, 5), y0 + rnd(0, 5)
        local want = {}
        for _, b in ipairs(bodies) do
            local a, c, d, e = b:bounds()
            if a <= x1 and d >= x0 and c <= y1 and e >= y0 then want[#want + 1] = b end
        end
        local got = w:queryAABB(x0, y0, x1, y1)
        eq(#got, #want, 'count')
        for i = 1, #want do eq(got[i], want[i], 'body ' .. i) end
        local pg = w:queryPoint(x0, y0)
        local pw = {}
        for _, b in ipairs(bodies) do
            local a, c, d, e = b:bounds() -- boxes: the shape is its bounding box
            if a <= x0 and d >= x0 and c <= y0 and e >= y0 then pw[#pw + 1] = b end
        end
        eq(#pg, #pw, 'point count')
        for i = 1, #pw do eq(pg[i], pw[i], 'point body ' .. i) end
    end
end)

test('ray casts hit a box top at the closed-form point', function()
    local w = ledge.newWorld({ width = 16, height = 16, gravity = { 0, 0 } })
    local b = w:newBody({ shape = { box = { 1, 0.5 } }, type = 'static', x = 8, y = 8 })
    for i = 1, 200 do
        local x = rnd(7.01, 8.99)
        local h = w:raycast(x, 12, 0, -6)
        eq(h.kind, 'body')
        eq(h.body, b)
        near(h.y, 8.5, 1e-5, 'hit y')
        near(h.fraction, 3.5 / 6, 1e-5, 'fraction')
        near(h.ny, 1, 1e-6, 'normal')
    end
    local t = w:raycast(8, 5, 0, -10) -- down to the map's bottom edge: the solid outside
    eq(t.kind, 'tile')
    near(t.y, 0, 1e-5, 'tile hit y')
    eq(w:raycast(8, 12, 0, 1), nil, 'miss')
end)

test('ray casts at one-way platforms follow the filter\'s one_way', function()
    local w = ledge.newWorld({ width = 16, height = 16, gravity = { 0, 0 } })
    for x = 6, 8 do
        w.tilemap:set(x, 8, 'FULL')
        w.tilemap:setOneWay(x, 8, 'up')
    end
    local b = w:newBody({ shape = { box = { 1, 0.25 } }, type = 'static', x = 12, y = 4,
        one_way = 'up' })
    -- Falling onto the ledge: its top; rising or sideways through it: nothing.
    local h = w:raycast(7.3, 12, 0, -6)
    eq(h.kind, 'tile')
    near(h.y, 9, 1e-5, 'the ledge\'s top')
    eq(w:raycast(7.3, 6, 0, 6), nil, 'rising through the ledge')
    eq(w:raycast(2, 8.5, 10, 0), nil, 'along the ledge')
    eq(w:raycast(12.2, 2, 0, 4), nil, 'rising through the one-way body')
    eq(w:raycast(12.2, 7, 0, -4).body, b, 'falling onto the one-way body')
    -- 'always': one-way platforms are solid from every side; 'never': not there.
    eq(w:raycast(2, 8.5, 10, 0, { one_way = 'always' }).cell_x, 6, 'always: the ledge\'s side')
    eq(w:raycast(12.2, 2, 0, 4, { one_way = 'always' }).body, b, 'always: the body from below')
    eq(w:raycast(7.3, 12, 0, -13, { one_way = 'never' }).y, 0, 'never: down to the map\'s edge')
    raises('bad one_way', function() w:raycast(0, 0, 1, 1, { one_way = 'sometimes' }) end)
end)

test('the character mover walks and stops at a wall', function()
    local w = ledge.newWorld({ width = 16, height = 8, gravity = { 0, -20 } })
    for x = 0, 15 do w.tilemap:set(x, 0, 'FULL') end
    w.tilemap:set(10, 1, 'FULL')
    local p = w:newBody({ shape = { box = { 0.3, 0.45 } }, type = 'kinematic', x = 4, y = 1.46 })
    local r
    for _ = 1, 120 do r = p:move(0.1, -0.05) end
    local x, y = p:position()
    near(x, 10 - 0.3, 0.02, 'stopped at the wall')
    near(y, 1.45, 0.02, 'on the floor')
    truthy(r.onGround and r.onWall, 'flags')
    eq(r.wallSide, 1, 'wall on the right')
    local vx, vy = ledge.clipVelocity(r, 5, -3)
    near(vx, 0, 1e-6, 'clipped into the wall')
    near(vy, 0, 1e-6, 'clipped into the floor')
end)

test('touch events and contacts come through', function()
    local w = ledge.newWorld({ width = 8, height = 8 })
    for x = 0, 7 do w.tilemap:set(x, 0, 'FULL') end
    local b = w:newBody({ shape = { box = { 0.5, 0.5 } }, x = 4, y = 1.6, enable_events = true })
    local began = 0
    for _ = 1, 60 do
        w:step(1 / 60)
        began = began + #w:touchEvents().began
    end
    truthy(began >= 1, 'a touch began')
    local c = b:contacts()
    truthy(#c >= 1, 'contacts')
    eq(c[1].other, nil, 'a tile')
    near(c[1].ny, 1, 1e-5, 'normal up')
    eq(c[1].response, 'slide')
end)

test('bodies keep their world alive; worlds are collected', function()
    local b
    do
        local w = ledge.newWorld({ width = 4, height = 4 })
        b = w:newBody({ shape = { circle = 0.3 }, x = 2, y = 2 })
    end
    collectgarbage()
    collectgarbage()
    local x = b:position()
    near(x, 2, 0, 'still there')
    for _ = 1, 300 do ledge.newWorld({ width = 32, height = 32 }) end
    collectgarbage()
    truthy(b:isValid(), 'valid')
end)

test('debug draw hands tile outlines and bodies to Lua', function()
    local w = ledge.newWorld({ width = 8, height = 8 })
    w.tilemap:set(1, 1, 'FULL')
    w.tilemap:set(2, 1, '45DEG_PN')
    w:newBody({ shape = { box = { 0.5, 0.5 } }, x = 5, y = 5, type = 'static' })
    local outlines, solids = {}, 0
    w:draw({ polygon = function(v, color) outlines[#outlines + 1] = #v / 2 end,
        solidPolygon = function(v, color) solids = solids + 1 end }, 0, 0, 8, 8)
    eq(#outlines, 2, 'two tiles')
    eq(outlines[1], 4, 'square')
    eq(outlines[2], 3, 'triangle')
    eq(solids, 1, 'one box')
end)

test('same inputs, same hash', function()
    local function run()
        local w = ledge.newWorld({ width = 16, height = 16 })
        w.tilemap:loadAscii(string.rep('.', 16) .. '\n' .. string.rep(string.rep('.', 16) .. '\n', 14)
            .. string.rep('#', 16) .. '\n')
        for i = 1, 20 do w:newBody({ shape = { circle = 0.3 }, x = 2 + i * 0.5, y = 5 + i * 0.3 }) end
        for _ = 1, 120 do w:step(1 / 60) end
        return w:hash()
    end
    local a, b = run(), run()
    eq(#a, 16, 'hex digits')
    eq(a, b, 'hash')
end)

-- --- characters -------------------------------------------------------------

local ffi = require('ffi')

-- A floor of FULL tiles along row 0 (its top at y = 1), a 2-tile step up
-- at x >= 10 and a kinematic platform body.
local function char_world()
    local w = ledge.newWorld({ width = 16, height = 10, gravity = { 0, -20 } })
    for x = 0, 15 do w.tilemap:set(x, 0, 'FULL') end
    for x = 10, 15 do w.tilemap:set(x, 1, 'FULL') end
    return w
end

test('Character: its state equals the C calls made directly, frame by frame', function()
    local w = char_world()
    local box = ledge.shape({ box = { 0.3, 0.45 } })
    -- the other body of the pair: the character made with raw FFI calls;
    -- neither sees the other
    local p = w:newCharacter({ shape = box, x = 3, y = 4, category = 4, mask = 1 })
    local raw = w:newBody({ shape = box, type = 'kinematic', x = 3, y = 4, category = 2, mask = 1 })
    local C = ledge.C
    local rid = raw.id
    truthy(C.ledge_character_create(w.ptr, rid, nil), 'raw create')
    local st = ffi.new('ledge_character_state')
    local vx, vy, rvx, rvy = 0, 0, 0, 0
    local dt = 1 / 60
    local landed, fell_off = false, false
    for f = 1, 240 do
        local input = (f > 60 and f < 200) and 3 or 0
        vx, vy = input, vy - 20 * dt
        rvx, rvy = input, rvy - 20 * dt
        local s = p:move(vx, vy, dt)
        truthy(C.ledge_character_move(w.ptr, rid, ffi.new('vec2s', { { rvx, rvy } }), dt, st), 'raw move')
        vx, vy, rvx, rvy = s.vx, s.vy, st.velocity.x, st.velocity.y
        eq(s.x, st.position.x, 'x')
        eq(s.y, st.position.y, 'y')
        eq(s.vx, st.velocity.x, 'vx')
        eq(s.vy, st.velocity.y, 'vy')
        eq(s.realVx, st.real_velocity.x, 'realVx')
        eq(s.onFloor, st.on_floor, 'onFloor')
        eq(s.onWall, st.on_wall, 'onWall')
        eq(s.wallSide, st.wall_side, 'wallSide')
        eq(s.floorNormal.y, st.floor_normal.y, 'floorNormal')
        eq(s.wallNormal.x, st.wall_normal.x, 'wallNormal')
        eq(s.floorIsTile, st.floor_is_tile, 'floorIsTile')
        eq(s.timeSinceFloor, st.time_since_floor, 'timeSinceFloor')
        eq(s.hitCount, st.last_move.hit_count, 'hitCount')
        if s.onFloor then
            landed = true
            eq(s.floorIsTile, true, 'stands on a tile')
            eq(s.floorTile, ledge.tiles.FULL, 'a FULL tile')
            near(s.y, (s.floorCellY + 1) + 0.45, 0.05, 'stands on its top')
            eq(s.floorBody, nil, 'no floor body')
        end
        if f == 199 then
            truthy(s.onWall and s.wallSide == 1, 'against the step on the right')
            near(s.x, 10 - 0.3, 0.05, 'stopped at the step')
            near(s.wallNormal.x, -1, 1e-6, 'wall normal')
        end
        if landed and not s.onFloor then fell_off = true end
    end
    truthy(landed, 'landed')
    eq(fell_off, false, 'never left the floor')
    local s2 = p:state()
    eq(s2.x, st.position.x, 'state() x')
    eq(p.body.character, p, 'the body knows its character')
end)

test('Character: stands on a body, is carried by it, knows it', function()
    local w = char_world()
    local plat = w:newBody({ shape = ledge.shape({ box = { 1, 0.1 } }), type = 'kinematic',
        x = 5, y = 3 })
    local p = w:newCharacter({ shape = ledge.shape({ box = { 0.3, 0.45 } }), x = 5, y = 3.6 })
    local s
    for _ = 1, 30 do s = p:move(0, (s and s.vy or 0) - 20 / 60, 1 / 60) end
    truthy(s.onFloor, 'on the platform')
    eq(s.floorBody, plat, 'floorBody is the platform\'s Body')
    eq(s.floorIsTile, false, 'not a tile')
    near(s.y, 3.1 + 0.45, 0.05, 'on its top')
    local x0 = p:state().x
    plat:setVelocity(1, 0)
    w:step(0.5)
    near(p:state().x - x0, 0.5, 1e-3, 'carried by the step')
    p:setVelocity(7, 1)
    local st = p:state()
    eq(st.vx, 7, 'setVelocity vx')
    eq(st.vy, 1, 'setVelocity vy')
end)

test('Character: pushes a crate at the closed form\'s speed, and its state says so', function()
    -- A crate of 1 kg (friction 0.6) on the floor; the character (0.6 x 0.9,
    -- pushMass 0: its own 0.54 kg) runs into it at 6: w M / (M + f m).
    local w = char_world()
    local crate = w:newBody({ shape = ledge.shape({ box = { 0.5, 0.5 } }), x = 5, y = 1.5,
        friction = 0.6 })
    local p = w:newCharacter({ shape = ledge.shape({ box = { 0.3, 0.45 } }), x = 3, y = 1.45 })
    local s
    for _ = 1, 90 do
        s = p:move(6, (s and s.vy or 0) - 20 / 60, 1 / 60)
        w:step(1 / 60)
    end
    s = p:state()
    truthy(s.pushing, 'pushing')
    eq(s.pushedBody, crate, 'pushedBody is the crate\'s Body')
    local vx = crate:velocity()
    near(vx, 6 * 0.54 / (0.54 + 0.6), 1e-3, 'the closed form')
    -- Not pushing: the crate is a wall to it.
    p:setDef({ pushBodies = false })
    local x0 = crate:position()
    for _ = 1, 30 do
        s = p:move(6, s.vy - 20 / 60, 1 / 60)
        w:step(1 / 60)
    end
    eq(s.pushing, false, 'pushBodies = false')
    truthy(select(1, crate:position()) - x0 < 0.1, 'the crate stops (friction)')
    p:setDef({ pushMass = 5 })
    raises('push_mass', p.setDef, p, { pushMass = -1 })
end)

test('Character: options and refusals raise ledge\'s messages', function()
    local w = char_world()
    local box = ledge.shape({ box = { 0.3, 0.45 } })
    local dyn = w:newBody({ shape = box, x = 3, y = 4 })
    raises('not kinematic', dyn.makeCharacter, dyn)
    local p = w:newCharacter({ shape = box, x = 3, y = 4 },
        { snap_length = 0.5, platformOnLeave = 'nothing', ridePlatforms = false })
    raises('already a character', p.body.makeCharacter, p.body)
    raises('platformOnLeave', p.setDef, p, { platformOnLeave = 'fly' })
    raises('dt is 0', p.move, p, 1, 0, 0)
    raises('velocity', p.move, p, 0 / 0, 0, 1 / 60)
    raises('def->move is invalid', p.setDef, p, { max_slides = -3 })
    p:setDef({ up = { 0, 1 } })
    truthy(p:isValid(), 'still valid after refusals')
    near(p:state().y, 4, 1e-6, 'refused moves changed nothing')
    p:destroy()
    eq(p:isValid(), false, 'ended')
    eq(p.body.character, nil, 'the body forgets it')
    truthy(p.body:isValid(), 'the body stays')
    raises('is not a character', p.move, p, 1, 0, 1 / 60)
    local q = p.body:makeCharacter() -- again, after the end
    truthy(q:isValid(), 'made again')
    q.body:destroy()
    eq(q:isValid(), false, 'ends with its body')
end)

test('save and restore: the same hashes from then on, refusals raise ledge\'s message', function()
    local function level()
        local w = ledge.newWorld({ width = 24, height = 16 })
        for x = 0, 23 do w.tilemap:set(x, 0, 'FULL') end
        local bodies = {}
        for k = 0, 59 do
            local shape = k % 2 == 0 and { circle = 0.35 } or { box = { 0.3, 0.3 } }
            bodies[#bodies + 1] = w:newBody({ shape = shape, x = 3 + (k % 12) * 0.8, y = 2 + math.floor(k / 12) })
        end
        return w, bodies
    end
    local w = level()
    for _ = 1, 60 do w:step(1 / 60) end
    local s = w:save()
    eq(type(s), 'string', 'a string')
    eq(s:sub(1, 4), 'LDGS', 'the magic')
    local hashes = {}
    for k = 1, 90 do
        w:step(1 / 60)
        hashes[k] = w:hash()
    end
    -- Back in the same world, and in a fresh one built the same way.
    w:restore(s)
    local u = level()
    u:restore(s)
    eq(u:save(), s, 'the same bytes')
    for k = 1, 90 do
        w:step(1 / 60)
        u:step(1 / 60)
        eq(w:hash(), hashes[k], 'same world, step ' .. k)
        eq(u:hash(), hashes[k], 'fresh world, step ' .. k)
    end
    local before = w:hash()
    raises('truncated', function() w:restore(s:sub(1, #s - 1)) end)
    raises('corrupted', function()
        w:restore(s:sub(1, 100) .. string.char((s:byte(101) + 1) % 256) .. s:sub(102))
    end)
    raises('restore needs', function() w:restore(42) end)
    local small = ledge.newWorld({ width = 8, height = 8 })
    raises('map is 24 x 16 cells', function() small:restore(s) end)
    eq(w:hash(), before, 'the world is unchanged')
end)

test('chains: a ball rests on a hill, contacts, rays and touch events name the chain', function()
    local w = ledge.newWorld({ width = 32, height = 16 })
    -- A hill drawn right to left (the surface faces up, y up).
    local hill = w:newChain({ points = { 20, 2, 14, 2, 11, 4, 8, 4, 5, 2, 0, 2 }, data = 'hill' })
    eq(w:chainCount(), 1, 'count')
    eq(hill:type(), 'static')
    eq(hill:segmentCount(), 5, 'segments')
    truthy(not hill:isLoop(), 'open')
    eq(#hill:points(), 12, 'points')
    eq(hill.data, 'hill', 'data')
    local x0, y0, x1, y1, nx, ny = hill:segment(3) -- the flat top, (11, 4) -> (8, 4)
    near(x0, 11, 0, 'x0')
    near(y1, 4, 0, 'y1')
    near(ny, 1, 1e-6, 'normal up')
    near(nx, 0, 1e-6, 'normal x')
    local b = w:newBody({ shape = { circle = 0.4 }, x = 9.5, y = 6, enable_events = true })
    local began = {}
    for _ = 1, 120 do
        w:step(1 / 60)
        for _, e in ipairs(w:touchEvents().began) do began[#began + 1] = e end
    end
    local x, y = b:position()
    near(y, 4.4, 0.01, 'on the top')
    local c = b:contacts()
    eq(#c, 1, 'one contact')
    eq(c[1].chain, hill, 'the chain')
    eq(c[1].segment, 3, 'the top segment')
    eq(c[1].other, nil, 'no body')
    truthy(b:ground().onGround, 'on ground')
    eq(b:ground().groundChain, hill, 'ground chain')
    eq(#began, 1, 'a touch began')
    eq(began[1].chain, hill, 'touch names the chain')
    local h = w:raycast(12.5, 10, 0, -10)
    eq(h.kind, 'chain')
    eq(h.chain, hill)
    eq(h.segment, 2, 'the slope (14, 2) -> (11, 4)')
    near(h.y, 3, 1e-5, 'hit y')
    eq(w:raycast(12.5, 10, 0, -10, { chains = false }).kind, 'tile', 'chains left out')
    eq(w:raycast(12.5, 0.5, 0, 3), nil, 'from behind: no hit')
    hill:destroy()
    truthy(not hill:isValid(), 'destroyed')
    eq(w:chainCount(), 0, 'no chain')
    raises('def->count is 1', function() w:newChain({ points = { 1, 1 } }) end)
    raises('ledge_chain_create', function() w:newChain({ points = { 1, 1, 1, 1 } }) end)
    raises('a chain is static or kinematic', function() w:newChain({ points = { 0, 0, 1, 0 }, type = 'dynamic' }) end)
    raises('bad chain type', function() w:newChain({ points = { 0, 0, 1, 0 }, type = 'floaty' }) end)
end)

test('chains: AABB and point queries equal brute force over the segments', function()
    local w = ledge.newWorld({ width = 64, height = 64, gravity = { 0, 0 } })
    local chains = {}
    for k = 1, 6 do
        local pts, cx, cy = {}, rnd(8, 56), rnd(8, 56)
        for i = 0, 11 do -- a clockwise or counter-clockwise loop (a star)
            local a, r = (k % 2 == 0 and 1 or -1) * i * math.pi / 6, (i % 2 == 0) and 5 or 3
            pts[2 * i + 1], pts[2 * i + 2] = cx + r * math.cos(a), cy + r * math.sin(a)
        end
        chains[k] = w:newChain({ points = pts, loop = true })
    end
    for _ = 1, 300 do
        local qx0, qy0 = rnd(0, 60), rnd(0, 60)
        local qx1, qy1 = qx0 + rnd(0, 6), qy0 + rnd(0, 6)
        local want = {}
        for _, c in ipairs(chains) do
            for i = 1, c:segmentCount() do
                local ax, ay, bx, by = c:segment(i)
                -- The segment meets the box: clip it (Liang-Barsky).
                local t0, t1, dx, dy, hit = 0, 1, bx - ax, by - ay, true
                for _, e in ipairs({ { -dx, ax - qx0 }, { dx, qx1 - ax }, { -dy, ay - qy0 }, { dy, qy1 - ay } }) do
                    local pp, qq = e[1], e[2]
                    if pp == 0 then
                        if qq < 0 then hit = false end
                    else
                        local r = qq / pp
                        if pp < 0 then t0 = math.max(t0, r) else t1 = math.min(t1, r) end
                    end
                end
                if hit and t0 <= t1 then want[#want + 1] = { c, i } end
            end
        end
        local got = w:queryChainsAABB(qx0, qy0, qx1, qy1)
        eq(#got, #want, 'count')
        for i = 1, #want do
            eq(got[i].chain, want[i][1], 'chain ' .. i)
            eq(got[i].segment, want[i][2], 'segment ' .. i)
        end
        -- Point: inside a counter-clockwise loop, outside a clockwise one.
        local inside = {}
        for k, c in ipairs(chains) do
            local n, odd = c:segmentCount(), false
            for i = 1, n do
                local ax, ay, bx, by = c:segment(i)
                if (ay > qy0) ~= (by > qy0) and qx0 < ax + (qy0 - ay) * (bx - ax) / (by - ay) then
                    odd = not odd
                end
            end
            if odd == (k % 2 == 0) then inside[#inside + 1] = c end
        end
        local pg = w:queryChainsPoint(qx0, qy0)
        eq(#pg, #inside, 'point count')
        for i = 1, #inside do eq(pg[i], inside[i], 'point chain ' .. i) end
    end
end)

test('chains: a character walks a chain hill; a kinematic chain carries a crate', function()
    local w = ledge.newWorld({ width = 32, height = 16, gravity = { 0, -20 } })
    local hill = w:newChain({ points = { 30, 1, 20, 1, 16, 3, 12, 3, 8, 1, 0, 1 } })
    local ch = w:newCharacter({ shape = { box = { 0.3, 0.45 } }, x = 2, y = 1.46 })
    local top, st = 0, nil
    for _ = 1, 120 do
        st = ch:move(6, -2, 1 / 60)
        w:step(1 / 60)
        truthy(st.onFloor, 'on the floor')
        local _, y = ch:position()
        top = math.max(top, y)
    end
    near(top, 3.45, 0.02, 'over the top')
    eq(st.floorChain, hill, 'stands on the chain')
    eq(st.floorBody, nil, 'no body')
    local raft = w:newChain({ points = { 4, 8, 0, 8 }, type = 'kinematic', x = 20, y = 0, vx = 1 })
    eq(raft:type(), 'kinematic')
    local crate = w:newBody({ shape = { box = { 0.4, 0.4 } }, x = 22, y = 8.4, friction = 0.8 })
    for _ = 1, 60 do w:step(1 / 60) end
    local rx = raft:position()
    near(rx, 21, 1e-4, 'the raft moved 1')
    local cx = crate:position()
    near(cx, 23, 0.1, 'the crate rode along')
    raft:setVelocity(0, 0)
    raft:setTarget(20, 0, 1 / 60)
    w:step(1 / 60)
    near((raft:position()), 20, 1e-5, 'target reached')
    raises('static', function() hill:setVelocity(1, 0) end)
end)

test('chains: materials (a belt chain, ice, a character reading its floor)', function()
    local w = ledge.newWorld({ width = 64, height = 16 })
    local belt = w:newChain({ points = { 60, 2, 30, 2, 0, 2 },
        material = { friction = 0.5, surface_speed = 2 } })
    local m = belt:material()
    eq(m.surface_speed, 2, 'the def\'s speed')
    eq(m.friction, 0.5, 'the def\'s friction')
    eq(m.friction_mix, 'min', 'the default mix')
    eq(w:newChain({ points = { 4, 9, 0, 9 } }):material().friction, 1, 'the default material')
    local crate = w:newBody({ shape = { box = { 0.3, 0.3 } }, x = 20, y = 2.296, friction = 0.5 })
    for _ = 1, 30 do w:step(1 / 60) end
    near((crate:velocity()), 2 * (1 - 0.5 ^ 30), 1e-4, 'carried at 2 (1 - 0.5^30)')
    local p = w:newCharacter({ shape = ledge.shape({ box = { 0.3, 0.45 } }), x = 40, y = 2.46 })
    local s = p:move(0, -1, 1 / 60)
    truthy(s.onFloor, 'on the chain')
    eq(s.floorChain, belt, 'its chain')
    eq(s.floorMaterial.surface_speed, 2, 'its floor\'s belt')
    near(s.platformVx, 2, 1e-6, 'the belt\'s velocity')
    belt:setMaterial({ friction = 0 })
    eq(belt:material().surface_speed, 0, 'setMaterial: the default material\'s speed')
    s = p:move(0, -1, 1 / 60)
    eq(s.floorMaterial.friction, 0, 'ice now')
    raises('material->friction is 2', belt.setMaterial, belt, { friction = 2 })
    raises('def->material is friction 2', function()
        w:newChain({ points = { 1, 1, 0, 1 }, material = { friction = 2 } })
    end)
end)

test('chains: a Tiled polyline and a kinematic polyline with its path', function()
    -- libledge_tiled next to the libledge under test (skipped without it).
    local lib = os.getenv('LEDGE_TILED_LIB') or
        ((os.getenv('LEDGE_LIB') or ''):match('^(.*/)') or './') .. 'libledge_tiled.so'
    local f = io.open(lib)
    if not f then
        print('(no ' .. lib .. ': the Tiled chain test is skipped)')
        return
    end
    f:close()
    local path = os.tmpname()
    f = assert(io.open(path, 'w'))
    f:write([[{"type":"map","orientation":"orthogonal","infinite":false,"width":4,"height":4,
"tilewidth":16,"tileheight":16,"tilesets":[],"layers":[
{"type":"tilelayer","name":"t","width":4,"height":4,"data":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]},
{"type":"objectgroup","name":"o","objects":[
{"id":1,"name":"hill","x":0,"y":48,"polyline":[{"x":0,"y":0},{"x":32,"y":-16},{"x":64,"y":0}]},
{"id":2,"name":"raft","x":0,"y":16,"polyline":[{"x":0,"y":0},{"x":16,"y":0}],
 "properties":[{"name":"body","value":"kinematic"},{"name":"path","type":"object","value":3}]},
{"id":3,"name":"route","type":"path","x":0,"y":8,"polyline":[{"x":0,"y":0},{"x":32,"y":0}]}]}]}]])
    f:close()
    local ok, w, objects = pcall(ledge.loadTiledWorld, path)
    os.remove(path)
    truthy(ok, tostring(w))
    eq(w:chainCount(), 2, 'two chains')
    local hill, raft, route = objects[1], objects[2], objects[3]
    eq(hill.name, 'hill')
    truthy(hill.chain and hill.chain:isValid(), 'the hill is a chain')
    eq(#hill.points, 6, 'three points')
    eq(#hill.bodies, 0, 'no body')
    local _, _, _, _, _, ny = hill.chain:segment(1)
    truthy(ny > 0, 'facing up')
    eq(raft.chain:type(), 'kinematic')
    eq(raft.path, 3, 'the route')
    truthy(route.isPath and route.chain == nil, 'a path makes nothing')
    eq(#route.points, 4, 'two path points')
end)

test('a pendulum keeps its period, a rope its length, a joint its refusals', function()
    local w = ledge.newWorld({ width = 64, height = 64 })
    local L, th = 1.5, 0.1
    local bob = w:newBody({ shape = { circle = 0.1 }, x = 32 + L * math.sin(th), y = 40 - L * math.cos(th) })
    local rod = w:newJoint({ type = 'rod', anchorA = { 32, 40 }, b = bob, length = L, data = 'swing' })
    eq(rod:type(), 'rod', 'type')
    eq(rod.data, 'swing', 'data')
    eq(w:jointCount(), 1, 'count')
    local prev, first, last, cross = bob:position() - 32, nil, nil, 0
    for k = 1, 600 do
        w:step(1 / 60)
        local x = bob:position() - 32
        if (prev < 0 and x >= 0) or (prev > 0 and x <= 0) then
            local t = (k - 1 + prev / (prev - x)) / 60
            first = first or t
            last = t
            cross = cross + 1
        end
        prev = x
        local ax, ay, bx, by = rod:anchors()
        near(math.sqrt((bx - ax) ^ 2 + (by - ay) ^ 2), L, 1e-4, 'the rod keeps its length')
    end
    near(2 * (last - first) / (cross - 1), 2 * math.pi * math.sqrt(L / 10), 0.01 * 2.43, 'period')
    local a, b = rod:bodies()
    eq(a, nil, 'a fixed point')
    eq(b, bob, 'the bob')
    eq(#bob:joints(), 1, "the bob's joints")
    -- A crate on a rope: the rope's force is its weight.
    local crate = w:newBody({ shape = { box = { 0.3, 0.3 } }, x = 20, y = 30, density = 2 })
    local rope = w:newJoint({ type = 'rope', anchorA = { 20, 31 }, b = crate, length = 1 })
    for _ = 1, 60 do w:step(1 / 60) end
    local fx, fy = rope:force()
    near(fx, 0, 1e-3, 'fx')
    near(fy, crate:mass() * 10, 1e-2, 'the force is the weight')
    rope:setLength(0.8)
    for _ = 1, 60 do w:step(1 / 60) end
    near(rope:currentLength(), 0.8, 1e-3, 'shortened')
    raises('a body joined to itself', function() w:newJoint({ type = 'rod', a = crate, b = crate }) end)
    raises('length is -1', function() w:newJoint({ type = 'rope', b = crate, length = -1 }) end)
    raises('bad joint type', function() w:newJoint({ type = 'hinge', b = crate }) end)
    raises('a rod, rope, spring or pulley', function()
        w:newJoint({ type = 'weld', a = crate, b = bob }):setLength(2)
    end)
    crate:destroy()
    truthy(not rope:isValid(), 'the rope died with the crate')
    raises('stale', function() rope:force() end)
end)

test('a character hangs from a rope and lets go', function()
    local w = ledge.newWorld({ width = 64, height = 64 })
    local c = w:newCharacter({ shape = { box = { 0.3, 0.45 } }, x = 33, y = 37 })
    local hook = w:newJoint({ type = 'rope', anchorA = { 32, 40 }, b = c.body, length = 3.2 })
    local s = c:state()
    for _ = 1, 120 do
        s = c:move(s.vx, s.vy - 10 / 60, 1 / 60)
        w:step(1 / 60)
    end
    truthy(s.hanging, 'hanging')
    eq(s.hangJoint, hook, 'from the hook')
    near(s.hangX, 32, 1e-6, 'hang x')
    local x, y = c:position()
    truthy(math.sqrt((x - 32) ^ 2 + (y - 40) ^ 2) <= 3.2 + 0.005, 'within the rope')
    hook:destroy()
    truthy(not c:state().hanging, 'let go')
end)

test('materials: ice, a belt and a bouncy pad through the binding', function()
    local w = ledge.newWorld({ width = 40, height = 8 })
    local m = w.tilemap
    for x = 0, 39 do m:set(x, 0, 'FULL') end
    local d = m:tileMaterial('FULL')
    eq(d.friction, 1, 'default friction')
    eq(d.friction_mix, 'min', 'default mix')
    for x = 10, 19 do m:setCellMaterial(x, 0, { surface_speed = 2 }) end
    m:setCellMaterial(30, 0, { bounce = 0.9 })
    truthy(m:cellHasMaterial(10, 0), 'a cell with its own')
    eq(m:cellHasMaterial(5, 0), false, 'a cell without')
    eq(m:cellMaterial(12, 0).surface_speed, 2, 'read back')
    near(m:cellMaterial(30, 0).bounce, 0.9, 1e-7, 'a pad')
    local crate = w:newBody({ shape = { box = { 0.3, 0.3 } }, x = 14.5, y = 1.3, friction = 0.5 })
    for _ = 1, 30 do w:step(1 / 60) end
    local vx = crate:velocity()
    near(vx, 2, 1e-4, 'carried by the belt at 2 m/s: 2 (1 - 0.5^30)')
    -- A body belt, read back whole.
    local belt = w:newBody({ shape = { box = { 3, 0.2 } }, type = 'static', x = 30, y = 4,
        friction = 0.5, surface_speed = -1.5, friction_mix = 'max' })
    local bm = belt:material()
    eq(bm.surface_speed, -1.5, 'the body\'s speed')
    eq(bm.friction_mix, 'max', 'the body\'s mix')
    belt:setSurfaceSpeed(3)
    eq(belt:material().surface_speed, 3, 'setSurfaceSpeed')
    belt:setMaterial({ friction = 0.25, friction_mix = 'mean' })
    eq(belt:material().friction, 0.25, 'setMaterial')
    eq(belt:material().surface_speed, 0, 'setMaterial: the default material\'s speed')
    -- Refusals.
    raises('material->friction is 2', m.setTileMaterial, m, 'FULL', { friction = 2 })
    raises('tile is 0 (EMPTY has no surface', m.setTileMaterial, m, 'EMPTY', {})
    raises('cell is (40, 0)', m.setCellMaterial, m, 40, 0, {})
    raises('friction_mix must be', m.setCellMaterial, m, 1, 0, { friction_mix = 'rough' })
    raises('speed is inf', belt.setSurfaceSpeed, belt, 1 / 0)
    m:setCellMaterial(10, 0, nil)
    eq(m:cellHasMaterial(10, 0), false, 'taken away')
    m:clearCellMaterials()
    eq(m:cellHasMaterial(30, 0), false, 'all taken away')
    -- A character's floor material.
    m:setCellMaterial(5, 0, { friction = 0.05 })
    local p = w:newCharacter({ shape = ledge.shape({ box = { 0.3, 0.45 } }), x = 5.5, y = 1.46 })
    local s = p:move(0, -1, 1 / 60)
    truthy(s.onFloor, 'on the icy cell')
    near(s.floorMaterial.friction, 0.05, 1e-7, 'its floor\'s friction')
end)

H.done()
