-- ledge for LuaJIT: an FFI binding of ledge's public API (README "ledge for
-- LÖVE"). Idiomatic Lua on top of the generated ffi.cdef (ledge_cdef.lua):
-- objects with methods, positions as two numbers (x, y) in and out, tables
-- for results, and every refusal of the C library raised as a Lua error
-- carrying ledge's own message.
--
-- The shared library is found through the LEDGE_LIB environment variable (a
-- path, e.g. build/libledge.so) or else the system's library path
-- ("libledge.so"); the optional Tiled loader through LEDGE_TILED_LIB, the
-- libledge_tiled.so beside a libledge loaded by path, or the system's
-- "libledge_tiled.so"; the optional LDtk loader through LEDGE_LDTK_LIB, or
-- libledge_ldtk.so next to the file LEDGE_LIB names, or "libledge_ldtk.so".
-- Call ledge.load(path) before anything else to choose one from Lua
-- instead.
--
-- Ownership: a World owns its C world (freed when the World is collected or
-- on world:destroy()); bodies and the tilemap hold a reference to their
-- World, so the C world lives as long as anything of it is reachable.
local ffi = require('ffi')

local here = (...) and (...):match('^(.-)[^%.]*$') or ''
ffi.cdef(require(here .. 'ledge_cdef'))

local ledge = {}
local C -- the loaded library (ledge.load)

-- Errors: ledge counts the errors it reports on the calling thread and keeps
-- the last message (ledge_error_count, ledge_last_error); a wrapper that
-- sees the count change raises that message. No Lua log callback: LuaJIT
-- cannot be called back from a C function that compiled code called (it
-- stops with "bad callback"), and any refused call may come from a trace.
local function error_count() return C.ledge_error_count() end
local function last_error()
    if C.ledge_error_count() == 0 then return nil end
    return ffi.string(C.ledge_last_error())
end

-- Raises ledge's last message at the caller's caller (level: of the
-- function that called the public method; 3 when a method raises).
local function raise(fallback, level)
    error(last_error() or fallback, level or 3)
end

-- Runs f(...) and raises ledge's message when it logged an error.
local function checked(f, ...)
    local before = error_count()
    local a, b = f(...)
    if error_count() ~= before then raise('ledge refused the call', 4) end
    return a, b
end

-- Tile ids by name (ledge_tile_name): ledge.tiles.FULL == 1, ...
ledge.tiles = {}

local function tile_names()
    for id = 0, 33 do
        local name = ffi.string(C.ledge_tile_name(id))
        ledge.tiles[name] = id
    end
end

--- Loads the shared library (path, LEDGE_LIB, or the system's "ledge").
function ledge.load(path)
    if C then return ledge end
    ledge.library_path = path or os.getenv('LEDGE_LIB')
    C = ffi.load(ledge.library_path or 'ledge')
    C.ledge_set_log_hook(C.ledge_log_discard, nil)
    ledge.C = C
    tile_names()
    return ledge
end

local vec2_t = ffi.typeof('vec2s')
-- vec2s is a union whose first member is the raw array: build it by fields.
local function vec2(x, y)
    local v = vec2_t()
    v.x, v.y = x, y
    return v
end
local aabb_t = ffi.typeof('ledge_aabb')
local move_result_t = ffi.typeof('ledge_move_result')
local raycast_result_t = ffi.typeof('ledge_raycast_result')
local ground_t = ffi.typeof('ledge_ground')

ledge.body_types = { static = 0, kinematic = 1, dynamic = 2 }
ledge.responses = { slide = 0, touch = 1, bounce = 2, cross = 3 }
ledge.one_way = { none = 0, up = 1, down = 2, left = 3, right = 4 }
ledge.friction_mix = { mean = 0, min = 1, max = 2 }
local mix_names = { [0] = 'mean', 'min', 'max' }
local response_names = { [0] = 'slide', 'touch', 'bounce', 'cross' }

local function xy(t, dx, dy)
    if t == nil then return dx, dy end
    return t.x or t[1] or dx, t.y or t[2] or dy
end

-- --- shapes -------------------------------------------------------------

--- A shape from a table: {circle = r, x =, y =} (centre), {box = {hw, hh},
--- x =, y =} (half extents, centre), or {polygon = {x1, y1, x2, y2, ...}}.
function ledge.shape(t)
    local s
    if t.circle then
        s = C.ledge_make_circle(vec2(t.x or 0, t.y or 0), t.circle)
    elseif t.box then
        s = C.ledge_make_box(vec2(t.x or 0, t.y or 0), vec2(t.box[1], t.box[2]))
    elseif t.polygon then
        local n = #t.polygon / 2
        local pts = ffi.new('vec2s[?]', n)
        for i = 0, n - 1 do pts[i].x, pts[i].y = t.polygon[2 * i + 1], t.polygon[2 * i + 2] end
        s = ffi.new('ledge_shape')
        local before = error_count()
        C.ledge_make_polygon(pts, n, s)
        if error_count() ~= before then raise('bad polygon') end
        return s
    else
        error('ledge.shape: give circle, box or polygon', 2)
    end
    if s.type == 0 then raise('bad shape') end
    return s
end

-- --- world --------------------------------------------------------------

local World = {}
World.__index = World
local Body = {}
Body.__index = Body
local Tilemap = {}
Tilemap.__index = Tilemap
local Chain = {}
Chain.__index = Chain

ledge.World, ledge.Body, ledge.Tilemap, ledge.Chain = World, Body, Tilemap, Chain

local function fill_world_def(wd, t)
    t = t or {}
    if t.gravity then wd.gravity.x, wd.gravity.y = xy(t.gravity, 0, 0) end
    if t.tile_size then wd.tile_size = t.tile_size end
    if t.width then wd.map_width = t.width end
    if t.height then wd.map_height = t.height end
    if t.origin then wd.map_origin.x, wd.map_origin.y = xy(t.origin, 0, 0) end
    for _, k in ipairs({ 'body_capacity', 'iterations', 'substeps', 'linear_slop',
        'bounce_threshold', 'cell_size', 'enable_sleep', 'sleep_speed', 'sleep_time' }) do
        if t[k] ~= nil then wd[k] = t[k] end
    end
end

local function wrap_world(ptr)
    local self = setmetatable({ ptr = ffi.gc(ptr, C.ledge_world_destroy), users = {},
        chains = {} }, World)
    self.tilemap = setmetatable({ ptr = C.ledge_world_tilemap(ptr), owner = self }, Tilemap)
    return self
end

--- A new world from a table of ledge_world_def fields (gravity = {x, y},
--- tile_size, width, height, origin = {x, y}, iterations, substeps, ...);
--- missing fields keep ledge_default_world_def's values.
function ledge.newWorld(t)
    ledge.load()
    local wd = C.ledge_default_world_def()
    fill_world_def(wd, t)
    local ptr = checked(C.ledge_world_create, wd)
    if ptr == nil then raise('ledge_world_create failed') end
    return wrap_world(ptr)
end

--- Frees the C world now (the World and its bodies become unusable).
function World:destroy()
    if self.ptr ~= nil then
        C.ledge_world_destroy(ffi.gc(self.ptr, nil))
        self.ptr = nil
    end
end

local function wptr(self)
    local p = self.ptr
    if p == nil then error('this world was destroyed', 3) end
    return p
end

--- The world's state as a snapshot (ledge_world_save), a Lua string:
--- world:restore(s) puts it back, here or in a world made the same way.
function World:save()
    local p = wptr(self)
    local n = checked(C.ledge_world_snapshot_size, p)
    local buf = ffi.new('uint8_t[?]', n)
    local got = checked(C.ledge_world_save, p, buf, n)
    return ffi.string(buf, got)
end

--- Puts the world back to a snapshot of world:save(); raises ledge's
--- message (the world unchanged) when it is refused.
function World:restore(s)
    if type(s) ~= 'string' then error('restore needs the string of world:save()', 2) end
    checked(C.ledge_world_restore, wptr(self), s, #s)
end

function World:step(dt) checked(C.ledge_world_step, wptr(self), dt) end
function World:bodyCount() return C.ledge_world_body_count(wptr(self)) end
--- The replay hash as a 16-digit hexadecimal string.
function World:hash()
    local h = C.ledge_world_hash(wptr(self))
    return string.format('%08x%08x', tonumber(h / 0x100000000ULL), tonumber(h % 0x100000000ULL))
end

local function fill_body_def(bd, t)
    bd.shape = t.shape and (ffi.istype('ledge_shape', t.shape) and t.shape or ledge.shape(t.shape))
        or error('body needs a shape', 3)
    bd.type = ledge.body_types[t.type or 'dynamic'] or error('bad body type ' .. tostring(t.type), 3)
    bd.position.x, bd.position.y = t.x or 0, t.y or 0
    if t.vx or t.vy then bd.velocity.x, bd.velocity.y = t.vx or 0, t.vy or 0 end
    for _, k in ipairs({ 'density', 'friction', 'bounce', 'surface_speed', 'gravity_scale', 'drag',
        'bullet', 'sensor', 'enable_events', 'max_floor_angle' }) do
        if t[k] ~= nil then bd[k] = t[k] end
    end
    if t.friction_mix then
        bd.friction_mix = ledge.friction_mix[t.friction_mix] or error('bad friction_mix', 3)
    end
    if t.one_way then bd.one_way = ledge.one_way[t.one_way] or error('bad one_way', 3) end
    if t.response then bd.response = ledge.responses[t.response] or error('bad response', 3) end
    if t.category then bd.filter.category = t.category end
    if t.mask then bd.filter.mask = t.mask end
    if t.group then bd.filter.group = t.group end
end

local function key(id) return id.index1 * 4294967296 + id.generation end

local function wrap_body(world, id)
    local k = key(id)
    local b = world.users[k]
    if b then return b end
    b = setmetatable({ world = world, id = id, data = nil }, Body)
    world.users[k] = b
    return b
end

--- A new body: {shape = ledge.shape{...} or its table, type = 'dynamic' |
--- 'kinematic' | 'static', x, y, vx, vy, density, friction, bounce,
--- surface_speed, friction_mix = 'mean' | 'min' | 'max', gravity_scale,
--- drag, bullet, sensor, enable_events, one_way = 'up' ...,
--- response = 'slide' | 'touch' | 'bounce' | 'cross', category, mask,
--- group, data = anything of yours}.
function World:newBody(t)
    local bd = C.ledge_default_body_def()
    fill_body_def(bd, t)
    local id = checked(C.ledge_body_create, wptr(self), bd)
    if id.index1 == 0 then raise('ledge_body_create failed') end
    local b = wrap_body(self, id)
    b.data = t.data
    return b
end

--- A new body (the same table as newBody) as its bare `ledge_body_id`
--- cdata, without a Body object: for modules that keep thousands of
--- bodies themselves (bump.lua), so that the garbage collector has no Lua
--- object per body to visit. world:body(id) makes the Body when needed.
function World:newBodyId(t)
    local bd = C.ledge_default_body_def()
    fill_body_def(bd, t)
    local id = checked(C.ledge_body_create, wptr(self), bd)
    if id.index1 == 0 then raise('ledge_body_create failed') end
    return id
end

--- Removes the body of a bare id (newBodyId); a Body object made for it
--- is then invalid.
function World:destroyBodyId(id)
    checked(C.ledge_body_destroy, wptr(self), id)
    self.users[key(id)] = nil
end

--- The Body object of a C ledge_body_id (nil for the null id).
function World:body(id)
    if id.index1 == 0 then return nil end
    return wrap_body(self, ffi.new('ledge_body_id', id))
end

-- What a cast does at one-way platforms (query.h's ledge_query_one_way).
local query_one_way = { as_bodies = 0, always = 1, never = 2 }

local function filter_of(t)
    if t == nil then return nil end
    local f = C.ledge_default_query_filter()
    if t.category then f.category = t.category end
    if t.mask then f.mask = t.mask end
    if t.tiles ~= nil then f.include_tiles = t.tiles end
    if t.chains ~= nil then f.include_chains = t.chains end
    if t.one_way ~= nil then
        f.one_way = query_one_way[t.one_way] or error('bad one_way ' .. tostring(t.one_way)
            .. " (must be 'as_bodies', 'always' or 'never')", 3)
    end
    if t.ignore then f.ignore = t.ignore.id end
    return f
end

local kinds = { [0] = 'none', 'tile', 'body', 'chain' }

local function cast_result(world, r)
    return {
        kind = kinds[tonumber(r.kind)], body = world:body(r.body), x = r.point.x, y = r.point.y,
        nx = r.normal.x, ny = r.normal.y, fraction = r.fraction,
        cell_x = r.cell_x, cell_y = r.cell_y, tile = r.tile,
        chain = world:chain(r.chain), segment = r.chain.index1 ~= 0 and r.segment + 1 or nil,
    }
end

--- The closest hit of the segment (x, y) -> (x + dx, y + dy) or nil;
--- filter = {category, mask, tiles = bool, chains = bool,
--- one_way = 'as_bodies' | 'always' | 'never', ignore = body}.
--- A hit's kind is 'tile', 'body' or 'chain' (then chain and segment, from
--- 1, name what was hit).
function World:raycast(x, y, dx, dy, filter)
    local r = raycast_result_t()
    local hit = checked(C.ledge_world_raycast, wptr(self), vec2(x, y), vec2(dx, dy),
        filter_of(filter), r)
    if not hit then return nil end
    return cast_result(self, r)
end

--- The first hit of `shape` at (x, y) moved by (dx, dy), or nil.
function World:shapeCast(shape, x, y, dx, dy, filter)
    local r = raycast_result_t()
    local hit = checked(C.ledge_world_shape_cast, wptr(self), shape, vec2(x, y), vec2(dx, dy),
        filter_of(filter), r)
    if not hit then return nil end
    return cast_result(self, r)
end

local id_buf, id_cap = nil, 0
local function ids_to_bodies(self, fn, a, filter)
    local n = fn(wptr(self), a, filter_of(filter), id_buf, id_cap)
    if n > id_cap then
        id_cap = n * 2
        id_buf = ffi.new('ledge_body_id[?]', id_cap)
        n = fn(wptr(self), a, filter_of(filter), id_buf, id_cap)
    end
    local out = {}
    for i = 0, n - 1 do out[i + 1] = wrap_body(self, ffi.new('ledge_body_id', id_buf[i])) end
    return out
end

--- Bodies whose bounding boxes overlap the box (x0, y0)..(x1, y1), in body
--- index order.
function World:queryAABB(x0, y0, x1, y1, filter)
    local before = error_count()
    local out = ids_to_bodies(self, C.ledge_world_query_aabb_ids, aabb_t(vec2(x0, y0),
        vec2(x1, y1)), filter)
    if error_count() ~= before then raise('query refused') end
    return out
end

--- Bodies whose shapes contain the point (x, y).
function World:queryPoint(x, y, filter)
    local before = error_count()
    local out = ids_to_bodies(self, C.ledge_world_query_point_ids, vec2(x, y), filter)
    if error_count() ~= before then raise('query refused') end
    return out
end

local function events_list(world, arr, n, f)
    local out = {}
    for i = 0, n - 1 do out[i + 1] = f(world, arr[i]) end
    return out
end

--- The last step's touch events: {began = {{a =, b =, cell_x =, cell_y =,
--- chain =}}, ended = {...}} (b nil for a tile or a chain; chain the Chain
--- touched, else nil).
function World:touchEvents()
    local e = C.ledge_world_touch_events(wptr(self))
    local f = function(w, t)
        return { a = w:body(t.a), b = w:body(t.b), cell_x = t.cell_x, cell_y = t.cell_y,
            chain = w:chain(t.chain) }
    end
    return { began = events_list(self, e.begin, e.begin_count, f),
        ended = events_list(self, e['end'], e.end_count, f) }
end

--- The last step's sensor events: {began = {{sensor =, visitor =}}, ended}.
function World:sensorEvents()
    local e = C.ledge_world_sensor_events(wptr(self))
    local f = function(w, t) return { sensor = w:body(t.sensor), visitor = w:body(t.visitor) } end
    return { began = events_list(self, e.begin, e.begin_count, f),
        ended = events_list(self, e['end'], e.end_count, f) }
end

--- The last step's crush events: {{body =, crusher =, depth =}}.
function World:crushEvents()
    local e = C.ledge_world_crush_events(wptr(self))
    return events_list(self, e.events, e.count, function(w, t)
        return { body = w:body(t.body), crusher = w:body(t.crusher), depth = t.depth }
    end)
end

-- The draw call calls back into Lua, which LuaJIT allows only from a C
-- call the interpreter made: this function is never compiled.
local function draw_world(world, dd, box) return C.ledge_world_draw(world, dd, box) end
jit.off(draw_world)

--- Debug draw through Lua functions: handlers = {polygon = f(verts, color),
--- solidPolygon = f(verts, color)} where verts is {x1, y1, x2, y2, ...} and
--- color 0xRRGGBB; options = {tiles, bodies, chains, contacts, normals,
--- bounds, joints, materials}. Circles, segments and points are not drawn
--- through it: LuaJIT callbacks cannot take vec2s by value (draw them from
--- body positions instead, joints from Joint:anchors() and chains from
--- Chain:points()).
function World:draw(handlers, x0, y0, x1, y1, options)
    local dd = C.ledge_default_debug_draw()
    local cbs = {}
    local function poly(h)
        local cb = ffi.cast('void (*)(const vec2s *, int, ledge_color, void *)',
            function(v, n, color)
                local t = {}
                for i = 0, n - 1 do t[2 * i + 1], t[2 * i + 2] = v[i].x, v[i].y end
                h(t, color)
            end)
        cbs[#cbs + 1] = cb
        return cb
    end
    if handlers.polygon then dd.draw_polygon = poly(handlers.polygon) end
    if handlers.solidPolygon then dd.draw_solid_polygon = poly(handlers.solidPolygon) end
    options = options or {}
    for _, k in ipairs({ 'tiles', 'bodies', 'chains', 'contacts', 'normals', 'bounds', 'joints',
                         'materials' }) do
        if options[k] ~= nil then dd['draw_' .. k] = options[k] end
    end
    local ok, err = pcall(checked, draw_world, wptr(self), dd,
        aabb_t(vec2(x0, y0), vec2(x1, y1)))
    for _, cb in ipairs(cbs) do cb:free() end
    if not ok then error(err, 2) end
end

-- --- tilemap ------------------------------------------------------------

local function mptr(self)
    if self.owner and self.owner.ptr == nil then error('this world was destroyed', 3) end
    return self.ptr
end

--- A standalone tilemap {width, height, tile_size, origin = {x, y}}.
function ledge.newTilemap(t)
    ledge.load()
    t = t or {}
    local d = C.ledge_default_tilemap_def()
    d.width, d.height = t.width or d.width, t.height or d.height
    d.tile_size = t.tile_size or d.tile_size
    if t.origin then d.origin.x, d.origin.y = xy(t.origin, 0, 0) end
    local p = checked(C.ledge_tilemap_create, d)
    if p == nil then raise('ledge_tilemap_create failed') end
    return setmetatable({ ptr = ffi.gc(p, C.ledge_tilemap_destroy) }, Tilemap)
end

local function tile_id(tile)
    if type(tile) == 'string' then
        return ledge.tiles[tile] or error('unknown tile name ' .. tile, 3)
    end
    return tile
end

-- --- materials (material.h) ----------------------------------------------------

--- A ledge_material from a table {friction, bounce, surface_speed,
--- friction_mix = 'mean' | 'min' | 'max'}: what it lacks is
--- ledge_default_material()'s (friction 1 mixed by min, bounce 0, speed 0).
function ledge.material(t)
    local m = C.ledge_default_material()
    if t.friction ~= nil then m.friction = t.friction end
    if t.bounce ~= nil then m.bounce = t.bounce end
    if t.surface_speed ~= nil then m.surface_speed = t.surface_speed end
    if t.friction_mix ~= nil then
        m.friction_mix = ledge.friction_mix[t.friction_mix] or
            error('friction_mix must be mean, min or max, got ' .. tostring(t.friction_mix), 2)
    end
    return m
end

local function material_table(m)
    return { friction = m.friction, bounce = m.bounce, surface_speed = m.surface_speed,
        friction_mix = mix_names[tonumber(m.friction_mix)] }
end

local function as_material(t)
    if ffi.istype('ledge_material', t) then return t end
    return ledge.material(t)
end

--- Every cell holding `tile` (an id or name, not EMPTY) gets material t
--- (a table as ledge.material takes it, or a ledge_material).
function Tilemap:setTileMaterial(tile, t)
    if not checked(C.ledge_tilemap_set_tile_material, mptr(self), tile_id(tile), as_material(t)) then
        raise('ledge_tilemap_set_tile_material refused')
    end
end

--- The material of tile id `tile`, as a table.
function Tilemap:tileMaterial(tile)
    return material_table(checked(C.ledge_tilemap_tile_material, mptr(self), tile_id(tile)))
end

--- Cell (x, y)'s own material (t a table or ledge_material), or with t
--- nil, takes it away.
function Tilemap:setCellMaterial(x, y, t)
    local m = t ~= nil and as_material(t) or nil
    if not checked(C.ledge_tilemap_set_cell_material, mptr(self), x, y, m) then
        raise('ledge_tilemap_set_cell_material refused')
    end
end

--- The material contacts with cell (x, y) use (its own, else its tile's).
function Tilemap:cellMaterial(x, y)
    return material_table(C.ledge_tilemap_cell_material(mptr(self), x, y))
end

--- Whether cell (x, y) has a material of its own.
function Tilemap:cellHasMaterial(x, y)
    return C.ledge_tilemap_cell_has_material(mptr(self), x, y)
end

--- Takes every cell's own material away.
function Tilemap:clearCellMaterials() C.ledge_tilemap_clear_cell_materials(mptr(self)) end

--- Sets cell (x, y) to a tile id or name ('FULL', '45DEG_PN', ...).
function Tilemap:set(x, y, tile)
    local ok = checked(C.ledge_tilemap_set, mptr(self), x, y, tile_id(tile))
    if not ok then raise('ledge_tilemap_set refused') end
end

function Tilemap:get(x, y) return C.ledge_tilemap_get(mptr(self), x, y) end

--- Makes cell (x, y) one-way: 'up', 'down', 'left', 'right' or 'none'.
function Tilemap:setOneWay(x, y, way)
    if not checked(C.ledge_tilemap_set_one_way, mptr(self), x, y,
            ledge.one_way[way] or error('bad one-way direction ' .. tostring(way), 2)) then
        raise('ledge_tilemap_set_one_way refused')
    end
end

--- width, height, tile_size, origin x, origin y.
function Tilemap:dimensions()
    local d = C.ledge_tilemap_get_def(mptr(self))
    return d.width, d.height, d.tile_size, d.origin.x, d.origin.y
end

--- Fills the map from ledge's ASCII form (docs/tilemap.md).
function Tilemap:loadAscii(text)
    if not checked(C.ledge_tilemap_load_ascii, mptr(self), text) then raise('bad level') end
end

--- Fills the map from N's level string (column by column, y down).
function Tilemap:loadN(text)
    if not checked(C.ledge_tilemap_load_n, mptr(self), text) then raise('bad level') end
end

--- Whether (x, y) is solid; also the cell and tile.
function Tilemap:queryPoint(x, y)
    local h = ffi.new('ledge_tile_hit')
    local solid = checked(C.ledge_tilemap_query_point, mptr(self), vec2(x, y), h)
    return solid, h.x, h.y, h.tile
end

--- The closest tile hit of a segment, as World:raycast, or nil.
function Tilemap:raycast(x, y, dx, dy)
    local r = ffi.new('ledge_ray_hit')
    if not checked(C.ledge_tilemap_raycast, mptr(self), vec2(x, y), vec2(dx, dy), r) then
        return nil
    end
    return { x = r.point.x, y = r.point.y, nx = r.normal.x, ny = r.normal.y,
        fraction = r.fraction, cell_x = r.cell_x, cell_y = r.cell_y, tile = r.tile }
end

-- --- Tiled maps ---------------------------------------------------------

local T -- libledge_tiled, loaded on first use

-- LEDGE_TILED_LIB, else the libledge_tiled beside the libledge loaded by
-- path, else the system's.
local function tiled_library()
    local env = os.getenv('LEDGE_TILED_LIB')
    if env then return ffi.load(env) end
    local dir = ledge.library_path and ledge.library_path:match('^(.*/)')
    if dir then
        local ok, lib = pcall(ffi.load, dir .. 'libledge_tiled.so')
        if ok then return lib end
    end
    return ffi.load('ledge_tiled')
end

--- A world from a Tiled JSON map file (ledge_tiled_create_world_file):
--- returns the World and a list of its objects {name, type, layer, x, y,
--- bodies = {...}, chain = the Chain of a polyline or chain polygon or nil,
--- isPath, path = the index in the list of the path it names or nil,
--- points = {x1, y1, ...} of a chain or path (world)}. t: {y_down = bool,
--- tile_layer = name, gravity = ...}.
function ledge.loadTiledWorld(path, t)
    ledge.load()
    T = T or tiled_library()
    t = t or {}
    local d = T.ledge_default_tiled_def()
    fill_world_def(d.world, t)
    d.y_down = t.y_down or false
    if t.tile_layer then d.tile_layer = t.tile_layer end
    local res = ffi.new('ledge_tiled_result *[1]')
    local p = checked(T.ledge_tiled_create_world_file, path, d, res)
    if p == nil then raise('ledge_tiled_create_world_file failed') end
    local world = wrap_world(p)
    local r, objects = res[0], {}
    for i = 0, r.object_count - 1 do
        local o = r.objects[i]
        local bodies = {}
        for k = 0, o.body_count - 1 do bodies[k + 1] = world:body(r.bodies[o.first_body + k]) end
        local points = {}
        for k = 0, o.point_count - 1 do
            local q = r.points[o.first_point + k]
            points[2 * k + 1], points[2 * k + 2] = q.x, q.y
        end
        objects[i + 1] = { name = ffi.string(o.name), type = ffi.string(o.type),
            layer = ffi.string(o.layer), x = o.position.x, y = o.position.y, bodies = bodies,
            chain = world:chain(o.chain), isPath = o.is_path,
            path = o.path >= 0 and o.path + 1 or nil, points = points }
    end
    T.ledge_tiled_result_destroy(r)
    return world, objects
end

-- --- LDtk projects ---------------------------------------------------------

local L -- libledge_ldtk, loaded on first use

-- The loader: LEDGE_LDTK_LIB, or the file next to LEDGE_LIB, or the system's.
local function ldtk_lib()
    if L then return L end
    local path = os.getenv('LEDGE_LDTK_LIB')
    local core = os.getenv('LEDGE_LIB')
    if not path and core and core:find('/') then
        local beside = core:match('^(.*/)') .. 'libledge_ldtk.so'
        local f = io.open(beside, 'rb')
        if f then f:close(); path = beside end
    end
    L = ffi.load(path or 'ledge_ldtk')
    return L
end

local body_kinds = { [0] = nil, 'static', 'kinematic', 'dynamic', 'sensor' }
local body_kind_ids = { none = 0, static = 1, kinematic = 2, dynamic = 3, sensor = 4 }

local function tile_id(v)
    if type(v) == 'string' then
        local id = ledge.tiles[v:upper()]
        if id == nil then error('unknown tile name ' .. v, 4) end
        return id
    end
    return v or 0
end

-- One value of a field as a Lua value.
local function ldtk_value(r, f, v)
    if v.is_null then return nil end
    local t = f.type
    if t == 1 then return tonumber(v.integer) end
    if t == 2 then return v.number end
    if t == 3 then return v.boolean end
    if t == 7 then return { cx = v.cx, cy = v.cy, x = v.point.x, y = v.point.y } end
    if t == 8 then
        return { iid = ffi.string(v.string), layer = ffi.string(v.layer),
            level = ffi.string(v.level), world = ffi.string(v.world),
            entity = v.entity >= 0 and v.entity + 1 or nil }
    end
    if t == 10 then return { tileset = v.tileset_uid, x = v.x, y = v.y, w = v.w, h = v.h } end
    if t == 0 then return nil end
    return ffi.string(v.string) -- String, Enum, Color ("#rrggbb"), FilePath
end

-- A {name = value} table of fields (arrays as Lua arrays).
local function ldtk_fields(r, first, count)
    local out = {}
    for i = first, first + count - 1 do
        local f = r.fields[i]
        local name = ffi.string(f.identifier)
        if f.is_array then
            local list = {}
            for k = 0, f.value_count - 1 do
                list[k + 1] = ldtk_value(r, f, r.values[f.first_value + k]) or false
            end
            out[name] = list
        elseif f.value_count == 1 then
            out[name] = ldtk_value(r, f, r.values[f.first_value])
        end
    end
    return out
end

local function ldtk_def(t)
    local lib = ldtk_lib()
    local d = lib.ledge_default_ldtk_def()
    local keep = {} -- C strings and tables alive until the load returns
    fill_world_def(d.world, t)
    d.y_down = t.y_down or false
    d.all_levels = t.all_levels or false
    d.level_index = t.level_index or 0
    if t.level then d.level = t.level end
    if t.world then d.ldtk_world = t.world end
    if t.tile_layer then d.tile_layer = t.tile_layer end
    if t.intgrid then
        local n = #t.intgrid
        local a = ffi.new('ledge_ldtk_intgrid_tile[?]', n)
        for i, e in ipairs(t.intgrid) do
            local c = a[i - 1]
            if e.layer then keep[#keep + 1] = e.layer; c.layer = e.layer end
            if e.identifier then keep[#keep + 1] = e.identifier; c.identifier = e.identifier end
            c.value = e.value or 0
            c.tile = tile_id(e.tile)
            c.one_way = e.one_way and 1 or 0 -- up as drawn
        end
        d.intgrid, d.intgrid_count = a, n
        keep[#keep + 1] = a
    end
    if t.entity_bodies then
        local n = #t.entity_bodies
        local a = ffi.new('ledge_ldtk_entity_body[?]', n)
        for i, e in ipairs(t.entity_bodies) do
            local c = a[i - 1]
            keep[#keep + 1] = e.identifier
            c.identifier = e.identifier
            c.body = body_kind_ids[e.body or 'none'] or error('unknown body ' .. tostring(e.body), 3)
            c.shape = e.shape == 'circle' and 1 or 0
            c.one_way = e.one_way or false
        end
        d.entity_bodies, d.entity_body_count = a, n
        keep[#keep + 1] = a
    end
    return d, keep
end

--- A world from an LDtk project file (ledge_ldtk_create_world_file, docs/ldtk.md):
--- returns the World, its entities and its levels. An entity is {identifier,
--- iid, layer, level (index into levels), x, y (its pivot), bounds = {x0, y0,
--- x1, y1}, body = 'static' | 'kinematic' | 'dynamic' | 'sensor' | nil,
--- bodies = {Body...}, fields = {name = value}, path = {{x, y}, ...},
--- speed, loop} and, when it has a path, entity:pathPosition(t) -> x, y.
--- A level is {identifier, iid, cell_x, cell_y, width, height (cells),
--- fields}. t: {all_levels, level (identifier or iid), level_index, world,
--- y_down, tile_layer, intgrid = {{layer =, identifier =, value =, tile =
--- id or name as drawn, one_way = bool}, ...}, entity_bodies = {{identifier
--- =, body = 'dynamic', shape = 'circle', one_way = bool}, ...}, gravity =
--- {x, y}, tile_size, ...}.
function ledge.loadLdtkWorld(path, t)
    ledge.load()
    t = t or {}
    local lib = ldtk_lib()
    local d, keep = ldtk_def(t)
    local res = ffi.new('ledge_ldtk_result *[1]')
    local p = checked(lib.ledge_ldtk_create_world_file, path, d, res)
    keep = nil
    if p == nil then raise('ledge_ldtk_create_world_file failed') end
    local world = wrap_world(p)
    local r = ffi.gc(res[0], lib.ledge_ldtk_result_destroy) -- kept for pathPosition
    local levels, entities = {}, {}
    for i = 0, r.level_count - 1 do
        local l = r.levels[i]
        levels[i + 1] = { identifier = ffi.string(l.identifier), iid = ffi.string(l.iid),
            cell_x = l.cell_x, cell_y = l.cell_y, width = l.cell_width, height = l.cell_height,
            fields = ldtk_fields(r, l.first_field, l.field_count) }
    end
    for i = 0, r.entity_count - 1 do
        local e = r.entities[i]
        local bodies = {}
        for k = 0, e.body_count - 1 do bodies[k + 1] = world:body(r.bodies[e.first_body + k]) end
        local ent = { identifier = ffi.string(e.identifier), iid = ffi.string(e.iid),
            layer = ffi.string(e.layer), level = e.level + 1, x = e.position.x, y = e.position.y,
            bounds = { e.bounds.lower.x, e.bounds.lower.y, e.bounds.upper.x, e.bounds.upper.y },
            body = body_kinds[tonumber(e.body)], bodies = bodies,
            fields = ldtk_fields(r, e.first_field, e.field_count) }
        if e.path_point_count > 0 then
            ent.path = {}
            for k = 0, e.path_point_count - 1 do
                local q = r.path_points[e.first_path_point + k]
                ent.path[k + 1] = { q.x, q.y }
            end
            ent.speed, ent.loop = e.path_speed, e.path_loop
            local cptr = r.entities + i
            ent.pathPosition = function(_, time)
                local q = lib.ledge_ldtk_path_position(r, cptr, time)
                return q.x, q.y
            end
        end
        entities[i + 1] = ent
    end
    return world, entities, levels
end

-- --- bodies -------------------------------------------------------------

local function bw(self)
    local w = self.world.ptr
    if w == nil then error('the world of this body was destroyed', 3) end
    return w
end

--- Removes the body; the Body object is then invalid.
function Body:destroy()
    checked(C.ledge_body_destroy, bw(self), self.id)
    self.world.users[key(self.id)] = nil
end

function Body:isValid() return self.world.ptr ~= nil and C.ledge_body_is_valid(self.world.ptr, self.id) end

function Body:position()
    local p = checked(C.ledge_body_position, bw(self), self.id)
    return p.x, p.y
end

function Body:velocity()
    local p = checked(C.ledge_body_velocity, bw(self), self.id)
    return p.x, p.y
end

local function setter(cfn)
    return function(self, x, y)
        if not checked(cfn, bw(self), self.id, vec2(x, y)) then raise('refused') end
    end
end
Body.setPosition = setter(function(...) return C.ledge_body_set_position(...) end)
Body.setVelocity = setter(function(...) return C.ledge_body_set_velocity(...) end)
Body.applyImpulse = setter(function(...) return C.ledge_body_apply_impulse(...) end)

--- Moves a kinematic body to (x, y) over the next step of dt seconds.
function Body:setTarget(x, y, dt)
    if not checked(C.ledge_body_set_target, bw(self), self.id, vec2(x, y), dt) then
        raise('refused')
    end
end

local function scalar_setter(cfn)
    return function(self, v)
        if not checked(cfn, bw(self), self.id, v) then raise('refused') end
    end
end
Body.setGravityScale = scalar_setter(function(...) return C.ledge_body_set_gravity_scale(...) end)
Body.setFriction = scalar_setter(function(...) return C.ledge_body_set_friction(...) end)
Body.setBounce = scalar_setter(function(...) return C.ledge_body_set_bounce(...) end)
Body.setDrag = scalar_setter(function(...) return C.ledge_body_set_drag(...) end)
Body.setSurfaceSpeed = scalar_setter(function(...) return C.ledge_body_set_surface_speed(...) end)

--- Sets friction, bounce, surface speed and friction mix at once (a table
--- as ledge.material takes it: what it lacks is the default material's).
function Body:setMaterial(t)
    if not checked(C.ledge_body_set_material, bw(self), self.id, as_material(t)) then
        raise('refused')
    end
end

--- The body's material: {friction, bounce, surface_speed, friction_mix}.
function Body:material()
    return material_table(checked(C.ledge_body_material, bw(self), self.id))
end

function Body:mass() return checked(C.ledge_body_mass, bw(self), self.id) end

function Body:type()
    local t = checked(C.ledge_body_get_type, bw(self), self.id)
    return ({ [0] = 'static', 'kinematic', 'dynamic' })[tonumber(t)]
end

--- The shape's world bounding box: x0, y0, x1, y1.
function Body:bounds()
    local s = checked(C.ledge_body_shape, bw(self), self.id)
    local x, y = self:position()
    local b = C.ledge_shape_aabb(s, vec2(x, y))
    return b.lower.x, b.lower.y, b.upper.x, b.upper.y
end

function Body:isFrozen() return checked(C.ledge_body_is_frozen, bw(self), self.id) end
--- Whether the body takes part in the step (false while it sleeps).
function Body:isAwake() return checked(C.ledge_body_is_awake, bw(self), self.id) end
--- Wakes it (true) or puts a dynamic body to sleep (false; the world needs enable_sleep).
function Body:setAwake(awake) return checked(C.ledge_body_set_awake, bw(self), self.id, awake) end
function Body:dropThrough() checked(C.ledge_body_drop_through, bw(self), self.id) end

--- Ground state after the last step: {onGround, onCeiling, onWallLeft,
--- onWallRight, groundNormal = {x, y}, wallNormal, groundBody, groundChain,
--- cellX, cellY}.
function Body:ground()
    local g = checked(C.ledge_body_ground, bw(self), self.id)
    return { onGround = g.on_ground, onCeiling = g.on_ceiling, onWallLeft = g.on_wall_left,
        onWallRight = g.on_wall_right,
        groundNormal = { x = g.ground_normal.x, y = g.ground_normal.y },
        wallNormal = { x = g.wall_normal.x, y = g.wall_normal.y },
        groundBody = self.world:body(g.ground_body), groundChain = self.world:chain(g.ground_chain),
        cellX = g.ground_cell_x,
        cellY = g.ground_cell_y }
end

--- The last step's contacts: {{other = body or nil (a tile or a chain),
--- chain = the Chain or nil, segment (from 1, a chain's), cellX, cellY, nx,
--- ny, x, y, depth, response = 'slide' ...}}.
function Body:contacts()
    local n = checked(C.ledge_body_contacts, bw(self), self.id, nil, 0)
    local buf = ffi.new('ledge_contact_data[?]', math.max(n, 1))
    n = C.ledge_body_contacts(self.world.ptr, self.id, buf, n)
    local out = {}
    for i = 0, n - 1 do
        local c = buf[i]
        out[i + 1] = { other = self.world:body(c.other), chain = self.world:chain(c.chain),
            segment = c.chain.index1 ~= 0 and c.segment + 1 or nil, cellX = c.cell_x, cellY = c.cell_y,
            nx = c.normal.x, ny = c.normal.y, x = c.point.x, y = c.point.y, depth = c.depth,
            response = response_names[tonumber(c.response)] }
    end
    return out
end

-- The character mover (move.h): one reusable def and result per world.
local move_def_fields = { 'max_slides', 'max_floor_slope', 'snap_length', 'skin',
    'stop_on_slope', 'set_velocity' }

--- A character move (ledge_body_move): moves the body by (dx, dy) sliding
--- along tiles and bodies. opts: ledge_move_def fields (max_slides,
--- max_floor_slope, snap_length, skin, stop_on_slope, set_velocity, up =
--- {x, y}). Returns {x, y, dx, dy, onGround, onWall, onCeiling, wallSide,
--- snapped, stuck, groundNormal = {x, y}, hits = {{kind, body, chain,
--- segment, cellX, cellY, tile, nx, ny, fraction}}, groundHit = the hit
--- stood on or nil} and keeps
--- the C result as result.c.
function Body:move(dx, dy, opts)
    local md = C.ledge_default_move_def()
    if opts then
        for _, k in ipairs(move_def_fields) do
            if opts[k] ~= nil then md[k] = opts[k] end
        end
        if opts.up then md.up.x, md.up.y = xy(opts.up, 0, 0) end
    end
    local r = move_result_t()
    if not checked(C.ledge_body_move, bw(self), self.id, vec2(dx, dy), md, r) then
        raise('ledge_body_move refused')
    end
    local hits = {}
    for i = 0, r.hit_count - 1 do
        local h = r.hits[i]
        hits[i + 1] = { kind = kinds[tonumber(h.kind)], body = self.world:body(h.body),
            chain = self.world:chain(h.chain), segment = h.chain.index1 ~= 0 and h.segment + 1 or nil,
            cellX = h.cell_x, cellY = h.cell_y, tile = h.tile, nx = h.normal.x, ny = h.normal.y,
            fraction = h.fraction }
    end
    return { x = r.position.x, y = r.position.y, dx = r.displacement.x, dy = r.displacement.y,
        onGround = r.on_ground, onWall = r.on_wall, onCeiling = r.on_ceiling,
        wallSide = r.wall_side, snapped = r.snapped, stuck = r.stuck,
        groundNormal = { x = r.ground_normal.x, y = r.ground_normal.y }, hits = hits,
        groundHit = r.ground_hit >= 0 and hits[r.ground_hit + 1] or nil, c = r }
end

-- --- chains (chain.h) -------------------------------------------------------

local function chain_key(id) return id.index1 * 4294967296 + id.generation end

local function wrap_chain(world, id)
    local k = chain_key(id)
    local c = world.chains[k]
    if c then return c end
    c = setmetatable({ world = world, id = ffi.new('ledge_chain_id', id), data = nil }, Chain)
    world.chains[k] = c
    return c
end

--- The Chain object of a C ledge_chain_id (nil for the null id).
function World:chain(id)
    if id.index1 == 0 then return nil end
    return wrap_chain(self, id)
end

--- A new chain (free-form ground, docs/chains.md): {points = {x1, y1, x2,
--- y2, ...} (the chain's frame; its surface faces right of the direction
--- from one point to the next, y up), loop = bool, type = 'static' |
--- 'kinematic', x, y (its position), vx, vy (a kinematic chain's
--- velocity), category, mask, group, material (a table as ledge.material
--- takes it, or a ledge_material: its surface, a belt's speed along each
--- segment), data = anything of yours}.
function World:newChain(t)
    local pts = t.points or error('newChain needs points = {x1, y1, ...}', 2)
    local n = math.floor(#pts / 2)
    local buf = ffi.new('vec2s[?]', math.max(n, 1))
    for i = 0, n - 1 do buf[i].x, buf[i].y = pts[2 * i + 1], pts[2 * i + 2] end
    local cd = C.ledge_default_chain_def()
    cd.points, cd.count, cd.loop = buf, n, t.loop and true or false
    cd.type = ledge.body_types[t.type or 'static'] or error('bad chain type ' .. tostring(t.type), 2)
    cd.position.x, cd.position.y = t.x or 0, t.y or 0
    if t.vx or t.vy then cd.velocity.x, cd.velocity.y = t.vx or 0, t.vy or 0 end
    if t.category then cd.filter.category = t.category end
    if t.mask then cd.filter.mask = t.mask end
    if t.group then cd.filter.group = t.group end
    if t.material then cd.material = as_material(t.material) end
    local id = checked(C.ledge_chain_create, wptr(self), cd)
    if id.index1 == 0 then raise('ledge_chain_create failed', 2) end
    local c = wrap_chain(self, id)
    c.data = t.data
    return c
end

function World:chainCount() return C.ledge_world_chain_count(wptr(self)) end

-- The chain queries without callbacks (ffi.h), into buffers that grow.
local chain_ids, chain_segs, chain_cap = nil, nil, 0
local function chain_hits(self, n_of, filter)
    local n = n_of(chain_ids, chain_segs, chain_cap)
    if n > chain_cap then
        chain_cap = n * 2
        chain_ids = ffi.new('ledge_chain_id[?]', chain_cap)
        chain_segs = ffi.new('int[?]', chain_cap)
        n = n_of(chain_ids, chain_segs, chain_cap)
    end
    if n < 0 then raise('query refused', 4) end
    local out = {}
    for i = 0, n - 1 do
        local seg = chain_segs[i]
        out[i + 1] = { chain = wrap_chain(self, chain_ids[i]), segment = seg >= 0 and seg + 1 or nil }
    end
    return out
end

--- The chain segments that meet the box (x0, y0)..(x1, y1): {{chain =,
--- segment = (from 1)}}, by chain then segment.
function World:queryChainsAABB(x0, y0, x1, y1, filter)
    local p, box, f = wptr(self), aabb_t(vec2(x0, y0), vec2(x1, y1)), filter_of(filter)
    return chain_hits(self, function(ids, segs, cap)
        return checked(C.ledge_world_query_chains_aabb_ids, p, box, f, ids, segs, cap)
    end)
end

--- The closed chains whose solid holds the point (x, y): a list of Chains
--- (inside a counter-clockwise loop, outside a clockwise one).
function World:queryChainsPoint(x, y, filter)
    local p, at, f = wptr(self), vec2(x, y), filter_of(filter)
    local out = {}
    local hits = chain_hits(self, function(ids, segs, cap)
        if cap > 0 then for i = 0, cap - 1 do segs[i] = -1 end end
        return checked(C.ledge_world_query_chains_point_ids, p, at, f, ids, cap)
    end)
    for i, h in ipairs(hits) do out[i] = h.chain end
    return out
end

local function chw(self)
    local w = self.world.ptr
    if w == nil then error('the world of this chain was destroyed', 3) end
    return w
end

--- Removes the chain; the Chain object is then invalid.
function Chain:destroy()
    checked(C.ledge_chain_destroy, chw(self), self.id)
    self.world.chains[chain_key(self.id)] = nil
end

function Chain:isValid()
    return self.world.ptr ~= nil and C.ledge_chain_is_valid(self.world.ptr, self.id)
end

function Chain:type()
    local t = checked(C.ledge_chain_get_type, chw(self), self.id)
    return ({ [0] = 'static', 'kinematic', 'dynamic' })[tonumber(t)]
end

function Chain:position()
    local p = checked(C.ledge_chain_position, chw(self), self.id)
    return p.x, p.y
end

function Chain:velocity()
    local p = checked(C.ledge_chain_velocity, chw(self), self.id)
    return p.x, p.y
end

local function chain_setter(cfn)
    return function(self, x, y)
        if not checked(cfn, chw(self), self.id, vec2(x, y)) then raise('refused') end
    end
end
Chain.setPosition = chain_setter(function(...) return C.ledge_chain_set_position(...) end)
--- A kinematic chain's velocity (refused for a static chain).
Chain.setVelocity = chain_setter(function(...) return C.ledge_chain_set_velocity(...) end)

--- Moves a kinematic chain to (x, y) over the next step of dt seconds.
function Chain:setTarget(x, y, dt)
    if not checked(C.ledge_chain_set_target, chw(self), self.id, vec2(x, y), dt) then
        raise('refused')
    end
end

function Chain:isLoop() return checked(C.ledge_chain_is_loop, chw(self), self.id) end

--- The chain's points in its frame: {x1, y1, x2, y2, ...}.
function Chain:points()
    local n = checked(C.ledge_chain_points, chw(self), self.id, nil, 0)
    local buf = ffi.new('vec2s[?]', math.max(n, 1))
    C.ledge_chain_points(self.world.ptr, self.id, buf, n)
    local out = {}
    for i = 0, n - 1 do out[2 * i + 1], out[2 * i + 2] = buf[i].x, buf[i].y end
    return out
end

function Chain:segmentCount() return checked(C.ledge_chain_segment_count, chw(self), self.id) end

--- Segment i (from 1) in the world: x0, y0, x1, y1, nx, ny (its normal).
function Chain:segment(i)
    local v = ffi.new('vec2s[3]')
    if not checked(C.ledge_chain_segment, chw(self), self.id, i - 1, v, v + 1, v + 2) then
        raise('refused')
    end
    return v[0].x, v[0].y, v[1].x, v[1].y, v[2].x, v[2].y
end

--- Which bodies meet the chain: category, mask, group.
function Chain:setFilter(category, mask, group)
    local f = checked(C.ledge_chain_filter, chw(self), self.id)
    if category then f.category = category end
    if mask then f.mask = mask end
    if group then f.group = group end
    if not checked(C.ledge_chain_set_filter, chw(self), self.id, f) then raise('refused') end
end

function Chain:filter()
    local f = checked(C.ledge_chain_filter, chw(self), self.id)
    return f.category, f.mask, f.group
end

--- The chain's material, as a table {friction, bounce, surface_speed,
--- friction_mix}.
function Chain:material()
    return material_table(checked(C.ledge_chain_material, chw(self), self.id))
end

--- Sets the chain's material (a table as ledge.material takes it, or a
--- ledge_material).
function Chain:setMaterial(t)
    if not checked(C.ledge_chain_set_material, chw(self), self.id, as_material(t)) then
        raise('ledge_chain_set_material refused')
    end
end

-- --- characters (character.h) -------------------------------------------------

local Character = {}
Character.__index = Character
ledge.Character = Character

local leave_names = { add_velocity = 0, add_upward = 1, nothing = 2 }
local character_state_t = ffi.typeof('ledge_character_state')

-- A ledge_character_def from opts: the mover's fields (as Body:move takes
-- them, plus up = {x, y}), platformOnLeave = 'add_velocity' | 'add_upward'
-- | 'nothing', ridePlatforms = boolean, pushBodies = boolean, pushMass =
-- number (0: its own shape's mass at density 1).
local function character_def(opts)
    local cd = C.ledge_default_character_def()
    if not opts then return cd end
    for _, k in ipairs(move_def_fields) do
        if opts[k] ~= nil then cd.move[k] = opts[k] end
    end
    if opts.up then cd.move.up.x, cd.move.up.y = xy(opts.up, 0, 0) end
    if opts.platformOnLeave ~= nil then
        local v = leave_names[opts.platformOnLeave]
        if not v then
            error('platformOnLeave must be add_velocity, add_upward or nothing, got ' ..
                tostring(opts.platformOnLeave), 3)
        end
        cd.platform_on_leave = v
    end
    if opts.ridePlatforms ~= nil then cd.ride_platforms = opts.ridePlatforms and true or false end
    if opts.pushBodies ~= nil then cd.push_bodies = opts.pushBodies and true or false end
    if opts.pushMass ~= nil then cd.push_mass = opts.pushMass end
    return cd
end

-- The state as a Lua table (C's fields in camelCase, vectors as {x, y}).
local function state_table(world, st)
    local function v(p) return { x = p.x, y = p.y } end
    local function body(id)
        if id.index1 == 0 then return nil end
        return world:body(id)
    end
    local floor_body = body(st.floor_body)
    local r = st.last_move
    return {
        x = st.position.x, y = st.position.y,
        vx = st.velocity.x, vy = st.velocity.y,
        realVx = st.real_velocity.x, realVy = st.real_velocity.y,
        onFloor = st.on_floor, onWall = st.on_wall, onCeiling = st.on_ceiling,
        wallSide = st.wall_side,
        floorNormal = v(st.floor_normal), wallNormal = v(st.wall_normal),
        ceilingNormal = v(st.ceiling_normal),
        floorBody = floor_body, floorChain = world:chain(st.floor_chain),
        floorIsTile = st.floor_is_tile,
        floorCellX = st.floor_is_tile and st.floor_cell_x or nil,
        floorCellY = st.floor_is_tile and st.floor_cell_y or nil,
        floorTile = st.floor_is_tile and st.floor_tile or nil,
        platformVx = st.platform_velocity.x, platformVy = st.platform_velocity.y,
        floorMaterial = material_table(st.floor_material),
        timeSinceFloor = st.time_since_floor,
        hitCount = r.hit_count, snapped = r.snapped, stuck = r.stuck,
        crushed = st.crushed, crushedBy = body(st.crushed_by),
        pushing = st.pushing, pushedBody = body(st.pushed_body),
        ceilingBody = body(st.ceiling_body),
        hanging = st.hanging,
        hangJoint = st.hanging and world:joint(st.hang_joint) or nil,
        hangX = st.hang_anchor.x, hangY = st.hang_anchor.y,
    }
end

--- Makes this living kinematic body a character (ledge_character_create)
--- and returns its Character object (the same one each time it is asked
--- for, until it ends). opts: the mover's options as Body:move takes them
--- (max_slides, max_floor_slope, snap_length, skin, stop_on_slope, up =
--- {x, y}), platformOnLeave = 'add_velocity' (default) | 'add_upward' |
--- 'nothing', ridePlatforms (default true), pushBodies (default true:
--- it pushes the dynamic bodies it walks into, docs/character.md),
--- pushMass (the mass it pushes as; default 0, its own shape's mass at
--- density 1). Raises ledge's message when refused (a dynamic body,
--- already a character, ...).
function Body:makeCharacter(opts)
    local cd = character_def(opts)
    if not checked(C.ledge_character_create, bw(self), self.id, cd) then
        raise('ledge_character_create refused')
    end
    self.character = setmetatable({ body = self, world = self.world, id = self.id,
        st = character_state_t() }, Character)
    return self.character
end

--- A kinematic body of table t (as World:newBody takes it; type is
--- forced to 'kinematic') made a character with opts (Body:makeCharacter).
function World:newCharacter(t, opts)
    local bt = {}
    for k, v in pairs(t) do bt[k] = v end
    bt.type = 'kinematic'
    return self:newBody(bt):makeCharacter(opts)
end

local function cw(self)
    if not self.world.ptr then error('the world was destroyed', 3) end
    return self.world.ptr
end

--- Moves the character by (vx, vy) * dt with the mover and returns its
--- state (Character:state). Raises ledge's message when refused (a
--- non-finite velocity, dt out of range, an ended character).
function Character:move(vx, vy, dt)
    if not checked(C.ledge_character_move, cw(self), self.id, vec2(vx, vy), dt, self.st) then
        raise('ledge_character_move refused')
    end
    return state_table(self.world, self.st)
end

--- The character's state: {x, y, vx, vy (the velocity the last move left),
--- realVx, realVy, onFloor, onWall, onCeiling, wallSide (+1 right, -1
--- left, 0), floorNormal, wallNormal, ceilingNormal (each {x, y}),
--- floorBody (a Body, or nil for a tile, a chain or no floor), floorChain
--- (the Chain stood on, or nil), floorIsTile, floorCellX, floorCellY,
--- floorTile (when floorIsTile), floorMaterial ({friction, bounce,
--- surface_speed, friction_mix}: the tile's, body's or chain's, what the
--- game's acceleration reads on ice), platformVx, platformVy (a belt's
--- too), timeSinceFloor (coyote time), hitCount, snapped, stuck, crushed,
--- crushedBy (a Body or nil), pushing, pushedBody (the body its last move
--- pushed, or nil), ceilingBody (a body resting on it, or nil), hanging,
--- hangJoint (the Joint it hangs from, or nil), hangX, hangY}.
function Character:state()
    if not checked(C.ledge_character_get_state, cw(self), self.id, self.st) then
        raise('ledge_character_get_state refused')
    end
    return state_table(self.world, self.st)
end

--- Sets the velocity kept in the state (a knock-back).
function Character:setVelocity(vx, vy)
    if not checked(C.ledge_character_set_velocity, cw(self), self.id, vec2(vx, vy)) then
        raise('ledge_character_set_velocity refused')
    end
end

--- Replaces the character's options (as Body:makeCharacter takes them).
function Character:setDef(opts)
    if not checked(C.ledge_character_set_def, cw(self), self.id, character_def(opts)) then
        raise('ledge_character_set_def refused')
    end
end

--- Whether the character is alive (its body alive and still a character).
function Character:isValid()
    return self.world.ptr ~= nil and C.ledge_character_is_valid(self.world.ptr, self.id)
end

--- Ends the character; the body stays (Body:destroy ends both).
function Character:destroy()
    checked(C.ledge_character_destroy, cw(self), self.id)
    if self.body.character == self then self.body.character = nil end
end

function Character:position()
    return self.body:position()
end

-- --- joints -------------------------------------------------------------

local Joint = {}
Joint.__index = Joint
ledge.Joint = Joint

ledge.joint_types = { rod = 0, rope = 1, spring = 2, weld = 3, slider = 4, pulley = 5 }
local joint_type_names = { [0] = 'rod', 'rope', 'spring', 'weld', 'slider', 'pulley' }
local joint_def_t = ffi.typeof('ledge_joint_def')
local joint_defaults = {
    rod = 'ledge_default_rod_def', rope = 'ledge_default_rope_def',
    spring = 'ledge_default_spring_def', weld = 'ledge_default_weld_def',
    slider = 'ledge_default_slider_def', pulley = 'ledge_default_pulley_def',
}

local function body_id_of(b)
    if b == nil then return ffi.new('ledge_body_id') end
    if ffi.istype('ledge_body_id', b) then return b end
    return b.id
end

local function wrap_joint(world, id)
    local k = key(id)
    world.joints = world.joints or {}
    local j = world.joints[k]
    if j then return j end
    j = setmetatable({ world = world, id = ffi.new('ledge_joint_id', id), data = nil }, Joint)
    world.joints[k] = j
    return j
end

--- A new joint: {type = 'rod' | 'rope' | 'spring' | 'weld' | 'slider' |
--- 'pulley', a = Body or nil (a fixed point), b = Body or nil, anchorA =
--- {x, y} (an offset from a's position, or a world point), anchorB, length,
--- minLength, maxLength, hertz, dampingRatio, axis = {x, y}, limit =
--- {lower, upper} (a slider's), motor = {speed, maxForce} (a slider's),
--- groundA = {x, y}, groundB, ratio (a pulley's), collideConnected, data =
--- anything of yours}; fields left out keep the type's defaults
--- (ledge_default_*_def). Raises ledge's message when refused.
function World:newJoint(t)
    local make = joint_defaults[t.type or 'rope']
    if not make then error('bad joint type ' .. tostring(t.type), 2) end
    local jd = C[make]()
    jd.body_a, jd.body_b = body_id_of(t.a), body_id_of(t.b)
    if t.anchorA then jd.anchor_a.x, jd.anchor_a.y = xy(t.anchorA, 0, 0) end
    if t.anchorB then jd.anchor_b.x, jd.anchor_b.y = xy(t.anchorB, 0, 0) end
    if t.axis then jd.axis.x, jd.axis.y = xy(t.axis, 1, 0) end
    if t.groundA then jd.ground_a.x, jd.ground_a.y = xy(t.groundA, 0, 0) end
    if t.groundB then jd.ground_b.x, jd.ground_b.y = xy(t.groundB, 0, 0) end
    local fields = { length = 'length', minLength = 'min_length', maxLength = 'max_length',
        hertz = 'hertz', dampingRatio = 'damping_ratio', ratio = 'ratio',
        collideConnected = 'collide_connected' }
    for lua, c in pairs(fields) do
        if t[lua] ~= nil then jd[c] = t[lua] end
    end
    if t.limit then
        jd.enable_limit = true
        jd.lower, jd.upper = t.limit[1], t.limit[2]
    end
    if t.motor then
        jd.enable_motor = true
        jd.motor_speed, jd.max_motor_force = t.motor[1], t.motor[2]
    end
    local id = checked(C.ledge_joint_create, wptr(self), jd)
    if id.index1 == 0 then raise('ledge_joint_create failed') end
    local j = wrap_joint(self, id)
    j.data = t.data
    return j
end

--- The number of living joints.
function World:jointCount() return C.ledge_world_joint_count(wptr(self)) end

local function jw(self)
    local p = self.world.ptr
    if p == nil then error('the world was destroyed', 3) end
    return p
end

--- Whether the joint lives (neither it nor its bodies destroyed).
function Joint:isValid()
    return self.world.ptr ~= nil and C.ledge_joint_is_valid(self.world.ptr, self.id)
end

--- Removes the joint.
function Joint:destroy()
    checked(C.ledge_joint_destroy, jw(self), self.id)
    if self.world.joints then self.world.joints[key(self.id)] = nil end
end

--- 'rod', 'rope', 'spring', 'weld', 'slider' or 'pulley'.
function Joint:type() return joint_type_names[tonumber(checked(C.ledge_joint_get_type, jw(self), self.id))] end

--- Its bodies (a Body, or nil for a fixed point), a then b.
function Joint:bodies()
    local a = checked(C.ledge_joint_body_a, jw(self), self.id)
    local b = checked(C.ledge_joint_body_b, jw(self), self.id)
    return self.world:body(a), self.world:body(b)
end

--- Its anchors in world coordinates now: ax, ay, bx, by.
function Joint:anchors()
    local a = checked(C.ledge_joint_anchor_a, jw(self), self.id)
    local b = checked(C.ledge_joint_anchor_b, jw(self), self.id)
    return a.x, a.y, b.x, b.y
end

--- What it measures now (ledge_joint_current_length).
function Joint:currentLength() return checked(C.ledge_joint_current_length, jw(self), self.id) end

--- The force it applied to body b over the last step: fx, fy.
function Joint:force()
    local f = checked(C.ledge_joint_force, jw(self), self.id)
    return f.x, f.y
end

function Joint:setLength(length) checked(C.ledge_joint_set_length, jw(self), self.id, length) end
function Joint:setLimits(lower, upper) checked(C.ledge_joint_set_limits, jw(self), self.id, lower, upper) end
function Joint:setSpring(hertz, damping) checked(C.ledge_joint_set_spring, jw(self), self.id, hertz, damping) end
--- The slider's motor: on (speed, maxForce), or off (nil).
function Joint:setMotor(speed, max_force)
    checked(C.ledge_joint_set_motor, jw(self), self.id, speed ~= nil, speed or 0, max_force or 0)
end
function Joint:setCollideConnected(on) checked(C.ledge_joint_set_collide_connected, jw(self), self.id, on) end

--- The Joint object of a C ledge_joint_id (nil for the null id).
function World:joint(id)
    if id.index1 == 0 then return nil end
    return wrap_joint(self, id)
end

--- The joints of a body (Joint objects, by joint index).
function Body:joints()
    local p = bw(self)
    local n = checked(C.ledge_body_joints, p, self.id, nil, 0)
    local ids = ffi.new('ledge_joint_id[?]', math.max(n, 1))
    checked(C.ledge_body_joints, p, self.id, ids, n)
    local out = {}
    for i = 0, n - 1 do out[#out + 1] = self.world:joint(ids[i]) end
    return out
end

--- velocity (vx, vy) without its parts into the surfaces a move met.
function ledge.clipVelocity(result, vx, vy)
    local v = C.ledge_move_clip_velocity(result.c, vec2(vx, vy))
    return v.x, v.y
end

function ledge.version()
    ledge.load()
    return ffi.string(C.ledge_version_string())
end

--- The last error message ledge logged (nil when none).
function ledge.lastError() return last_error() end

ledge.load_library = ledge.load
setmetatable(ledge, { __index = function(_, k)
    if k == 'tiles_loaded' then return nil end
end })

local load = ledge.load
function ledge.load(path)
    load(path)
    if next(ledge.tiles) == nil then tile_names() end
    return ledge
end

return ledge
