-- The LuaJIT binding's LDtk loader (ledge.loadLdtkWorld, docs/ldtk.md): the
-- sample project's levels, entities, fields, bodies and paths come back as
-- the C result says; the game's tables reach the loader; refusals raise
-- ledge's message. Skipped (0 tests) where libledge_ldtk is not built.
-- Run: LEDGE_LIB=build/libledge.so luajit tests/lua/test_ldtk.lua
local H = dofile((arg[0]:match('^(.*/)') or './') .. 'harness.lua')
local ledge = require('ledge').load()
local test, eq, near, truthy, raises = H.test, H.eq, H.near, H.truthy, H.raises

local core = os.getenv('LEDGE_LIB') or ''
local beside = core:match('^(.*/)') and core:match('^(.*/)') .. 'libledge_ldtk.so'
local f = beside and io.open(beside, 'rb')
if not f and not os.getenv('LEDGE_LDTK_LIB') then
    print('ldtk: libledge_ldtk is not built; skipped')
    H.done()
end
if f then f:close() end

local sample = H.root .. 'samples/level.ldtk'

test('the sample project: levels, entities, fields, bodies', function()
    local world, entities, levels = ledge.loadLdtkWorld(sample, { all_levels = true,
        gravity = { 0, -20 } })
    eq(#levels, 2, 'levels')
    eq(levels[2].identifier, 'Cave')
    eq(levels[2].cell_x, 30, 'the cave lies east of the meadow')
    eq(levels[2].fields.dark, true, 'level field')
    eq(#entities, 17, 'entities')
    local by = {}
    for i, e in ipairs(entities) do
        by[e.identifier] = by[e.identifier] or e
        truthy(e.level == 1 or e.level == 2, 'level index')
        if e.body then eq(#e.bodies, 1, e.identifier .. ' has its body') end
    end
    eq(by.Crate.body, 'dynamic')
    eq(by.Player.body, nil, 'the player is the game\'s')
    eq(by.Coin.fields.value, 5, 'Int field')
    eq(by.Sign.fields.text, 'Welcome to ledge!\nThe cave is east.', 'Multilines field')
    local key = by.Door.fields.key
    eq(entities[key.entity].identifier, 'Key', 'EntityRef resolved to the key')
    -- The loop platform: its path, and its position along it.
    local loop = by.Platform
    eq(#loop.path, 4)
    eq(loop.loop, true)
    local x, y = loop:pathPosition(0)
    near(x, loop.path[1][1], 1e-6, 'starts at its own place')
    near(y, loop.path[1][2], 1e-6)
    x, y = loop:pathPosition(5 / 1.5) -- 5 cells right at 1.5 units per second
    near(x, loop.path[2][1], 1e-4, 'the second stop')
    near(y, loop.path[2][2], 1e-4)
    local bx, by_ = by.Crate.bodies[1]:position()
    near(bx, (by.Crate.bounds[1] + by.Crate.bounds[3]) / 2, 1e-5, 'the body at its bounds\' centre')
    for _ = 1, 30 do world:step(1 / 60) end
    local cx, cy = by.Crate.bodies[1]:position()
    truthy(cx == cx and cy == cy and cy > 0, 'the crate is still in the level')
end)

test('the game\'s tables', function()
    local path = os.tmpname()
    local fh = assert(io.open(path, 'w'))
    fh:write([[{"jsonVersion":"1.5.3","defs":{"layers":[{"__type":"IntGrid","identifier":"G",
      "uid":1,"intGridValues":[{"value":1,"identifier":"dirt"},{"value":2,"identifier":"ladder"}]}],
      "tilesets":[]},"levels":[{"identifier":"L","pxWid":32,"pxHei":16,"layerInstances":[
      {"__identifier":"E","__type":"Entities","__gridSize":16,"__cWid":2,"__cHei":1,
       "entityInstances":[{"__identifier":"Rock","px":[0,0],"width":16,"height":16}]},
      {"__identifier":"G","__type":"IntGrid","__gridSize":16,"__cWid":2,"__cHei":1,
       "layerDefUid":1,"intGridCsv":[1,2]}]}]}]])
    fh:close()
    raises("cell (0, 0) holds value 1 'dirt', which is no tile name", ledge.loadLdtkWorld, path)
    local world, entities = ledge.loadLdtkWorld(path, {
        intgrid = { { identifier = 'dirt', tile = 'HALF_U', one_way = true },
                    { identifier = '*', tile = 0 } },
        entity_bodies = { { identifier = 'Rock', body = 'dynamic', shape = 'circle' } } })
    os.remove(path)
    eq(world.tilemap:get(0, 0), ledge.tiles.HALF_D, 'the top half, turned into y up')
    eq(world.tilemap:get(1, 0), ledge.tiles.EMPTY, 'a ladder: the game\'s')
    eq(entities[1].body, 'dynamic', 'from the table')
end)

test('every ledge_ldtk function of the cdef is in libledge_ldtk', function()
    local ffi = require('ffi')
    local lib = ffi.load(os.getenv('LEDGE_LDTK_LIB') or beside)
    local n = 0
    local cdef = require('ledge_cdef')
    for fn in cdef:gmatch('(ledge_[%w_]*ldtk[%w_]*)%(') do
        if not cdef:find('typedef [^;]-' .. fn .. '%(') then -- not a function type
            local ok = pcall(function() return lib[fn] end)
            truthy(ok, fn .. ' missing from libledge_ldtk')
            n = n + 1
        end
    end
    truthy(n >= 15, 'checked ' .. n .. ' functions')
end)

test('refusals raise ledge\'s message', function()
    raises('cannot open', ledge.loadLdtkWorld, '/nonexistent/level.ldtk')
    raises("no level 'Nope'", ledge.loadLdtkWorld, sample, { level = 'Nope' })
end)

H.done()
