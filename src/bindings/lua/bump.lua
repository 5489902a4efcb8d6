-- A bump.lua 3.1.7-compatible collision module backed by ledge (README
-- "ledge for LÖVE", docs/bump.md): the same public API and semantics, so
-- that a game switches by changing its `require` line, plus opt-in features
-- bump does not have: N's tiles (slopes, curves, half tiles) in a tilemap,
-- a character mover with ground / wall / ceiling state, one-way and moving
-- platforms.
--
-- Written from bump's documented behaviour, not from its code.
--
-- How it is built: every item is a kinematic box body in a ledge world (y
-- down, pixels as units), so that the broad phase of move/check/project
-- and of the queries is ledge's loose grid (one FFI call per query, O(1)
-- per move in a crowd); the rectangles themselves are kept in doubles (a
-- C array by body slot, no Lua table per item), so that the narrow phase
-- and the responses give bump's exact answers (ledge stores floats). The beyond-bump calls (world:moveCharacter) run
-- ledge's character mover in C against the tiles and the items.
local ffi = require('ffi')
local here = (...) and (...):match('^(.-)[^%.]*$') or ''
local ledge = require(here .. 'ledge').load()
local C = ledge.C

local bump = {
    _VERSION = 'bump-ledge 3.1.7',
    _DESCRIPTION = 'bump.lua 3.1.7 API backed by ledge',
    _LICENSE = 'MIT',
}

-- LuaJIT's table.new(narray, nhash): a table with its parts sized.
local has_table_new, table_new = pcall(require, 'table.new')
if not has_table_new then table_new = function() return {} end end

local floor, ceil, abs, min, max, huge = math.floor, math.ceil, math.abs, math.min, math.max,
    math.huge
local DELTA = 1e-10 -- bump's tolerance for touching versus overlapping

local function sign(x)
    if x > 0 then return 1 end
    if x < 0 then return -1 end
    return 0
end

local function nearest(x, a, b)
    if abs(a - x) < abs(b - x) then return a end
    return b
end

-- --- rectangle geometry (bump.rect) --------------------------------------

local rect = {}

--- The corner of the rectangle nearest to (px, py).
function rect.getNearestCorner(x, y, w, h, px, py)
    return nearest(px, x, x + w), nearest(py, y, y + h)
end

-- The result of clip_segment, in upvalues: a function returning six values
-- keeps LuaJIT from compiling its callers ("register coalescing too
-- complex"), one returning a boolean does not. Sides are numbered 1 left,
-- 2 right, 3 top, 4 bottom (fewer live values than normals: the same).
local C_t1, C_t2, C_in, C_out = 0, 0, 0, 0
local side_nx = { [0] = 0, -1, 1, 0, 0 }
local side_ny = { [0] = 0, 0, 0, -1, 1 }

-- One slab: the inside is p * t <= q. Updates the upvalues; false when
-- the range becomes empty.
local function slab(p, q, side)
    if p == 0 then return q > 0 end
    local r = q / p
    if p < 0 then
        if r > C_t2 then return false end
        if r > C_t1 then C_t1, C_in = r, side end
    else
        if r < C_t1 then return false end
        if r < C_t2 then C_t2, C_out = r, side end
    end
    return true
end

local function clip_segment(x, y, w, h, x1, y1, x2, y2, ti1, ti2)
    local dx, dy = x2 - x1, y2 - y1
    C_t1, C_t2, C_in, C_out = ti1, ti2, 0, 0
    return slab(-dx, x1 - x, 1) and slab(dx, x + w - x1, 2) and slab(-dy, y1 - y, 3) and
        slab(dy, y + h - y1, 4)
end

--- Liang-Barsky clipping of the segment (x1, y1)-(x2, y2) against the
--- rectangle, within parameters [ti1, ti2] (default 0..1): returns the
--- clipped parameters and the normals of the entry and exit sides, or nil.
function rect.getSegmentIntersectionIndices(x, y, w, h, x1, y1, x2, y2, ti1, ti2)
    if not clip_segment(x, y, w, h, x1, y1, x2, y2, ti1 or 0, ti2 or 1) then return nil end
    return C_t1, C_t2, side_nx[C_in], side_ny[C_in], side_nx[C_out], side_ny[C_out]
end

--- The Minkowski difference of two rectangles (where rect 1 overlaps
--- rect 2 when offset into it).
function rect.getDiff(x1, y1, w1, h1, x2, y2, w2, h2)
    return x2 - x1 - w1, y2 - y1 - h1, w1 + w2, h1 + h2
end

function rect.containsPoint(x, y, w, h, px, py)
    return px - x > DELTA and py - y > DELTA and x + w - px > DELTA and y + h - py > DELTA
end

function rect.isIntersecting(x1, y1, w1, h1, x2, y2, w2, h2)
    return x1 < x2 + w2 and x2 < x1 + w1 and y1 < y2 + h2 and y2 < y1 + h1
end

--- Squared distance between the centres (the tie-break of equal ti).
function rect.getSquareDistance(x1, y1, w1, h1, x2, y2, w2, h2)
    local dx = x1 - x2 + (w1 - w2) / 2
    local dy = y1 - y2 + (h1 - h2) / 2
    return dx * dx + dy * dy
end

--- The collision of rect 1 moving to (goalX, goalY) with rect 2, or nil:
--- {overlaps, ti, move, normal, touch, itemRect, otherRect}.
function rect.detectCollision(x1, y1, w1, h1, x2, y2, w2, h2, goalX, goalY)
    goalX, goalY = goalX or x1, goalY or y1
    local dx, dy = goalX - x1, goalY - y1
    local x, y, w, h = rect.getDiff(x1, y1, w1, h1, x2, y2, w2, h2)
    local overlaps, ti, nx, ny, tx, ty
    if rect.containsPoint(x, y, w, h, 0, 0) then
        -- Already overlapping: ti is minus the overlap area (deeper first).
        local px, py = rect.getNearestCorner(x, y, w, h, 0, 0)
        ti = -min(w1, abs(px)) * min(h1, abs(py))
        overlaps = true
        if dx == 0 and dy == 0 then
            -- Not moving: out along the shorter axis of the nearest corner.
            if abs(px) < abs(py) then py = 0 else px = 0 end
            nx, ny = sign(px), sign(py)
            tx, ty = x1 + px, y1 + py
        else
            -- Moving: back along the move until out.
            if not clip_segment(x, y, w, h, 0, 0, dx, dy, -huge, 1) then return nil end
            local t1 = C_t1
            nx, ny = side_nx[C_in], side_ny[C_in]
            tx, ty = x1 + dx * t1, y1 + dy * t1
        end
    else
        local hit = clip_segment(x, y, w, h, 0, 0, dx, dy, -huge, huge)
        local t1, t2, ex, ey = C_t1, C_t2, side_nx[C_in], side_ny[C_in]
        -- A hit enters within the move and is not a graze along a side.
        if hit and t1 < 1 and abs(t1 - t2) >= DELTA and (0 < t1 + DELTA or (t1 == 0 and t2 > 0)) then
            ti, nx, ny = t1, ex, ey
            overlaps = false
            tx, ty = x1 + dx * ti, y1 + dy * ti
        else
            return nil
        end
    end
    return {
        overlaps = overlaps, ti = ti,
        move = { x = dx, y = dy },
        normal = { x = nx, y = ny },
        touch = { x = tx, y = ty },
        itemRect = { x = x1, y = y1, w = w1, h = h1 },
        otherRect = { x = x2, y = y2, w = w2, h = h2 },
    }
end

bump.rect = rect

-- --- responses ------------------------------------------------------------

local responses = {}

function responses.touch(world, col)
    return col.touch.x, col.touch.y, {}, 0
end

function responses.cross(world, col, x, y, w, h, goalX, goalY, filter)
    local cols, len = world:project(col.item, x, y, w, h, goalX, goalY, filter)
    return goalX, goalY, cols, len
end

function responses.slide(world, col, x, y, w, h, goalX, goalY, filter)
    goalX, goalY = goalX or x, goalY or y
    local t, m = col.touch, col.move
    if m.x ~= 0 or m.y ~= 0 then
        if col.normal.x ~= 0 then goalX = t.x else goalY = t.y end
    end
    col.slide = { x = goalX, y = goalY }
    local cols, len = world:project(col.item, t.x, t.y, w, h, goalX, goalY, filter)
    return goalX, goalY, cols, len
end

function responses.bounce(world, col, x, y, w, h, goalX, goalY, filter)
    goalX, goalY = goalX or x, goalY or y
    local t, m = col.touch, col.move
    local bx, by = t.x, t.y
    if m.x ~= 0 or m.y ~= 0 then
        local rx, ry = goalX - t.x, goalY - t.y
        if col.normal.x == 0 then ry = -ry else rx = -rx end
        bx, by = t.x + rx, t.y + ry
    end
    col.bounce = { x = bx, y = by }
    local cols, len = world:project(col.item, t.x, t.y, w, h, bx, by, filter)
    return bx, by, cols, len
end

bump.responses = responses

-- --- the world ------------------------------------------------------------

local World = {}

-- bump's grid as a read-only view (below): the one field a World computes
-- when read. Methods are found first, as with a plain __index table.
local rows_view
World.__index = function(self, key)
    local m = World[key]
    if m == nil and key == 'rows' then return rows_view(self) end
    return m
end

local function default_filter() return 'slide' end

local function check_number(v, name, fn)
    if type(v) ~= 'number' or v ~= v then
        error(('%s: %s must be a number, got %s'):format(fn, name, tostring(v)), 3)
    end
end

local function check_rect(x, y, w, h, fn)
    check_number(x, 'x', fn)
    check_number(y, 'y', fn)
    check_number(w, 'w', fn)
    check_number(h, 'h', fn)
    if w <= 0 or h <= 0 then
        error(('%s: w and h must be > 0, got %s, %s'):format(fn, w, h), 3)
    end
end

-- The ledge world under a bump world: no gravity, y down. Without tiles the
-- tilemap is 2 x 2 empty cells of 1e6 pixels around the origin (ledge's
-- map is solid outside, so items live within +-1e6 pixels).
local function make_ledge_world(cellSize, tiles)
    -- ledge's query index files each body in the finest of its grids
    -- (cells of cell_size times a power of two) that holds it: a sixteenth
    -- of bump's cell lets 16-pixel items sit in 16-pixel cells (a move then
    -- meets a handful of candidates, not the 60 of a 64-pixel cell).
    local t = { gravity = { 0, 0 }, cell_size = cellSize / 16 }
    if tiles then
        t.tile_size, t.width, t.height, t.origin = tiles.size, tiles.width, tiles.height,
            { tiles.x or 0, tiles.y or 0 }
    else
        t.tile_size, t.width, t.height, t.origin = 1e6, 2, 2, { -1e6, -1e6 }
    end
    return ledge.newWorld(t)
end

--- A new world; cellSize (default 64) sizes ledge's query index (its finest cells are
--- cellSize / 16).
function bump.newWorld(cellSize)
    cellSize = cellSize or 64
    check_number(cellSize, 'cellSize', 'bump.newWorld')
    if cellSize <= 0 then error('bump.newWorld: cellSize must be > 0', 2) end
    local self = setmetatable({
        cellSize = cellSize,
        rects = {},     -- item -> its body slot (its rectangle is crects[slot])
        opts = {},      -- body slot -> the item's add options (beyond bump), if any
        count = 0,
        bySlot = {},    -- ledge body slot (index1) -> item
        responses = {},
        lw = make_ledge_world(cellSize),
        ids = ffi.new('ledge_body_id[?]', 64),
        idCap = 64,
        state = {},     -- item -> last moveCharacter state (beyond bump)
        crects = ffi.new('ledge_bump_rect[?]', 64), -- by body slot, for ledge_bump_move
        cids = ffi.new('ledge_body_id[?]', 64),     -- by body slot: its id, for the same
        crectCap = 64,
        ccols = ffi.new('ledge_bump_col[?]', 16),
        ccolCap = 16,
    }, World)
    for name, fn in pairs(responses) do self.responses[name] = fn end
    self._visited, self._stamps, self._first = {}, 0, {}
    self._visitedFilter = function(itm, other)
        if self._visited[other] == self._stamp then return false end
        return self._filter(itm, other)
    end
    return self
end

function World:addResponse(name, response)
    self.responses[name] = response
end

local function body_def(x, y, w, h, opts)
    local t = { shape = { box = { w / 2, h / 2 } }, type = 'kinematic', x = x + w / 2,
        y = y + h / 2 }
    if opts then
        if opts.oneWay then t.one_way = 'down' end -- solid from above on a y-down screen
        if opts.solid == false then t.response = 'cross' end
    end
    return t
end

-- An item is its body's slot: its rectangle lives only in the C array
-- crects (which ledge_bump_move reads and moves), its body as its id alone
-- in cids, both by slot; rects[item] is the slot. No Lua object per item,
-- so the garbage collector has little to traverse while games make bump's
-- cols tables. (A crects[slot] reference is not kept across attach, which
-- may reallocate the arrays.)
local function attach(self, item, x, y, w, h, opts)
    local id = self.lw:newBodyId(body_def(x, y, w, h, opts))
    local slot = id.index1
    self.bySlot[slot] = item
    self.opts[slot] = opts
    if slot >= self.crectCap then
        local cap = self.crectCap
        while cap <= slot do cap = cap * 2 end
        local grown = ffi.new('ledge_bump_rect[?]', cap)
        ffi.copy(grown, self.crects, ffi.sizeof('ledge_bump_rect') * self.crectCap)
        local ids = ffi.new('ledge_body_id[?]', cap)
        ffi.copy(ids, self.cids, ffi.sizeof('ledge_body_id') * self.crectCap)
        self.crects, self.cids, self.crectCap = grown, ids, cap
    end
    self.cids[slot] = id
    local c = self.crects[slot]
    c.x, c.y, c.w, c.h = x, y, w, h
    self.rects[item] = slot
    return slot
end

--- Adds item with its rectangle (left, top, width, height). Beyond bump,
--- an optional table: {oneWay = true} makes it a one-way platform for
--- world:moveCharacter (solid only from above), {solid = false} lets
--- characters pass through it.
function World:add(item, x, y, w, h, opts)
    if item == nil then error('World:add: item must not be nil', 2) end
    if self.rects[item] then error('World:add: item ' .. tostring(item) .. ' added twice', 2) end
    check_rect(x, y, w, h, 'World:add')
    attach(self, item, x, y, w, h, opts)
    self.count = self.count + 1
    return item
end

-- The item's slot (raises when it is not in the world).
local function get(self, item, fn)
    local slot = self.rects[item]
    if not slot then
        error(fn .. ': item ' .. tostring(item) .. ' must be added to the world first', 3)
    end
    return slot
end

-- Removes the body of slot s (the item's entry in rects stays to the caller).
local function detach(self, s)
    self.bySlot[s] = nil
    self.opts[s] = nil
    self.lw:destroyBodyId(self.cids[s])
end

function World:remove(item)
    detach(self, get(self, item, 'World:remove'))
    self.rects[item] = nil
    self.state[item] = nil
    self.count = self.count - 1
end

local vec_t = ffi.typeof('vec2s')
local pos = vec_t()

-- The body of slot s to its rectangle's centre.
local function place(self, s)
    local r = self.crects[s]
    pos.x, pos.y = r.x + r.w / 2, r.y + r.h / 2
    if not C.ledge_body_set_position_ref(self.lw.ptr, self.cids + s, pos) then
        error('World: ' .. tostring(ledge.lastError()), 3)
    end
end

--- Moves (teleports) item to (x, y); w and h default to the current ones.
function World:update(item, x, y, w, h)
    local s = get(self, item, 'World:update')
    local r = self.crects[s]
    w, h = w or r.w, h or r.h
    check_rect(x, y, w, h, 'World:update')
    if w ~= r.w or h ~= r.h then -- a new shape: a new body
        local opts = self.opts[s]
        detach(self, s)
        attach(self, item, x, y, w, h, opts)
    elseif x ~= r.x or y ~= r.y then
        r.x, r.y = x, y
        place(self, s)
    end
end

local box = ffi.new('ledge_aabb')

-- The items whose rectangles come within a hair of the box (ledge's
-- floats: grown so that rounding never loses one), into a Lua list.
local function candidates(self, x0, y0, x1, y1, out)
    local pad = 1e-3 + 1e-6 * max(abs(x0), abs(y0), abs(x1), abs(y1))
    box.lower.x, box.lower.y, box.upper.x, box.upper.y = x0 - pad, y0 - pad, x1 + pad, y1 + pad
    local n = C.ledge_world_query_aabb_ids(self.lw.ptr, box, nil, self.ids, self.idCap)
    if n < 0 then error('World: ' .. tostring(ledge.lastError()), 3) end
    if n > self.idCap then
        self.idCap = n * 2
        self.ids = ffi.new('ledge_body_id[?]', self.idCap)
        n = C.ledge_world_query_aabb_ids(self.lw.ptr, box, nil, self.ids, self.idCap)
    end
    local ids, bySlot = self.ids, self.bySlot
    for i = 0, n - 1 do out[i + 1] = bySlot[ids[i].index1] end
    return n
end

-- The world whose cols table.sort is ordering (sort_cols reads its slots).
local sorting_rects

-- bump's order: ti, then distance; full ties (same ti and distance, common
-- on a grid of equal items) by the other's body slot, as ledge_bump_move
-- breaks them, so that the C and Lua paths agree and table.sort, which is
-- not stable, gets a total order.
local function sort_cols(a, b)
    if a.ti == b.ti then
        local ir, ar, br = a.itemRect, a.otherRect, b.otherRect
        local da = rect.getSquareDistance(ir.x, ir.y, ir.w, ir.h, ar.x, ar.y, ar.w, ar.h)
        local db = rect.getSquareDistance(ir.x, ir.y, ir.w, ir.h, br.x, br.y, br.w, br.h)
        if da == db then return sorting_rects[a.other] < sorting_rects[b.other] end
        return da < db
    end
    return a.ti < b.ti
end

local scratch = {}

-- project's work, into `cols` (a table of the caller's); returns the count.
local function project_into(self, item, x, y, w, h, goalX, goalY, filter, cols)
    local len = 0
    local n = candidates(self, min(x, goalX), min(y, goalY), max(x, goalX) + w,
        max(y, goalY) + h, scratch)
    local rects, crects = self.rects, self.crects
    for i = 1, n do
        local other = scratch[i]
        scratch[i] = nil
        if other ~= item and other ~= nil then
            local kind = filter(item, other)
            if kind then
                local o = crects[rects[other]]
                local col = rect.detectCollision(x, y, w, h, o.x, o.y, o.w, o.h, goalX, goalY)
                if col then
                    col.other, col.item, col.type = other, item, kind
                    len = len + 1
                    cols[len] = col
                end
            end
        end
    end
    if len > 1 then
        sorting_rects = rects
        table.sort(cols, sort_cols)
    end
    return len
end

--- The collisions of an imaginary rectangle moving in a straight line from
--- (x, y) to (goalX, goalY), sorted by ti (then by distance); item itself
--- (may be nil) is skipped. Returns cols, len.
function World:project(item, x, y, w, h, goalX, goalY, filter)
    check_rect(x, y, w, h, 'World:project')
    goalX, goalY = goalX or x, goalY or y
    local cols = {}
    local len = project_into(self, item, x, y, w, h, goalX, goalY, filter or default_filter, cols)
    return cols, len
end

local actual_x, actual_y = ffi.new('double[1]'), ffi.new('double[1]')

-- The C path's cols are built lazily. bump's col holds six nested tables
-- (move, normal, touch, itemRect, otherRect, slide): 8 tables and 1,220
-- bytes per collision, most of the collector's work in a crowd, while a
-- game typically reads one or two of them. So a col holds its scalar
-- fields, and the numbers of the nested ones in one FFI array (not
-- traversed by the collector) under the key `_ledge`; the shared metatable's
-- __index makes a nested table on its first read and stores it with
-- rawset, so that it is made once and keeps what the game writes into it.
-- Reading fields gives bump's values (tests/lua/test_bump.lua compares
-- them with the eager tables of the Lua path); pairs(), next() and rawget
-- see `_ledge`, and a nested field only after its first read
-- (docs/lua.md, "Differences that remain").
local col_data_t = ffi.typeof('double[16]')
-- Index in the array of each nested field's first number, and its keys.
local nested = {
    move = { 0, 'x', 'y' },
    normal = { 2, 'x', 'y' },
    touch = { 4, 'x', 'y' },
    slide = { 6, 'x', 'y' },
    itemRect = { 8, 'x', 'y', 'w', 'h' },
    otherRect = { 12, 'x', 'y', 'w', 'h' },
}
local col_mt = {
    __index = function(col, key)
        local f = nested[key]
        local d = rawget(col, '_ledge')
        if not f or not d then return nil end
        local i, t = f[1], nil
        if #f == 3 then
            t = { x = d[i], y = d[i + 1] }
        else
            t = { x = d[i], y = d[i + 1], w = d[i + 2], h = d[i + 3] }
        end
        rawset(col, key, t)
        return t
    end,
}

-- One of ledge_bump_move's collisions as bump's col table (lazy, above);
-- the other's rectangle is copied now, as it may move after this call.
local function col_table(self, item, c, w, h)
    local o = self.crects[c.other]
    local ir = c.item_rect
    local d = col_data_t()
    d[0], d[1], d[2], d[3] = c.move_x, c.move_y, c.normal_x, c.normal_y
    d[4], d[5], d[6], d[7] = c.touch_x, c.touch_y, c.slide_x, c.slide_y
    d[8], d[9], d[10], d[11] = ir.x, ir.y, w, h
    d[12], d[13], d[14], d[15] = o.x, o.y, o.w, o.h
    return setmetatable({
        item = item, other = self.bySlot[c.other], type = 'slide', overlaps = c.overlaps,
        ti = c.ti, _ledge = d, -- a constant key: one template copy
    }, col_mt)
end

-- check (and with `update`, move) with the default filter and bump's own
-- slide: the whole loop in one C call (ledge_bump_move), the same
-- arithmetic as the Lua path below.
local function check_in_c(self, item, s, goalX, goalY, update)
    check_number(goalX, 'goalX', 'World:check')
    check_number(goalY, 'goalY', 'World:check')
    -- The id from the FFI array by slot (attach keeps it there).
    local id = self.cids + s
    local n = C.ledge_bump_move(self.lw.ptr, self.crects, self.crectCap, id, goalX,
        goalY, update, self.ccols, self.ccolCap, actual_x, actual_y)
    while n > self.ccolCap do -- more collisions than the buffer holds: nothing was changed
        self.ccolCap = self.ccolCap * 4
        self.ccols = ffi.new('ledge_bump_col[?]', self.ccolCap)
        n = C.ledge_bump_move(self.lw.ptr, self.crects, self.crectCap, id, goalX, goalY,
            update, self.ccols, self.ccolCap, actual_x, actual_y)
    end
    if n < 0 then error('World: ' .. tostring(ledge.lastError()), 3) end
    local ax, ay = actual_x[0], actual_y[0] -- crects[s] moved there too when update
    local r = self.crects[s]
    -- A fresh cols table per call, as bump gives; made with its array part
    -- in place (filling an empty table grows it: two more allocations).
    local ccols, cols = self.ccols, nil
    if n == 0 then
        cols = {}
    elseif n == 1 then
        cols = { col_table(self, item, ccols[0], r.w, r.h) }
    else
        cols = table_new(n, 0)
        for i = 0, n - 1 do cols[i + 1] = col_table(self, item, ccols[i], r.w, r.h) end
    end
    return ax, ay, cols, n
end

--- Where item would end up moving to (goalX, goalY), and its collisions,
--- without moving it. Returns actualX, actualY, cols, len.
function World:check(item, goalX, goalY, filter)
    local s = get(self, item, 'World:check')
    if filter == nil and self.responses.slide == responses.slide then
        return check_in_c(self, item, s, goalX, goalY, false)
    end
    -- The items met so far are marked with this check's stamp, and one
    -- filter closure per world reads the stamp and the game's filter from
    -- fields (saved and restored, so that a filter or a response may call
    -- check again): no closure and no clearing per call, which keeps the
    -- loop that calls move compiled by LuaJIT.
    local saved_stamp, saved_filter = self._stamp, self._filter
    local stamp = self._stamps + 1
    self._stamps = stamp
    self._stamp, self._filter = stamp, filter or default_filter
    local visited = self._visited
    visited[item] = stamp
    local r = self.crects[s]
    local x, y, w, h = r.x, r.y, r.w, r.h
    local vf = self._visitedFilter
    local first = self._first
    local plen = project_into(self, item, x, y, w, h, goalX, goalY, vf, first)
    if plen == 0 then
        visited[item] = nil
        self._stamp, self._filter = saved_stamp, saved_filter
        return goalX, goalY, {}, 0
    end
    local projected = {}
    for i = 1, plen do
        projected[i] = first[i]
        first[i] = nil
    end
    local cols, len = {}, 0
    while plen > 0 do
        local col = projected[1]
        len = len + 1
        cols[len] = col
        visited[col.other] = stamp
        local response = self.responses[col.type]
        if not response then
            self._stamp, self._filter = saved_stamp, saved_filter
            error('World: unknown collision type "' .. tostring(col.type) .. '"', 2)
        end
        goalX, goalY, projected, plen = response(self, col, x, y, w, h, goalX, goalY, vf)
    end
    visited[item] = nil
    for i = 1, len do visited[cols[i].other] = nil end
    self._stamp, self._filter = saved_stamp, saved_filter
    return goalX, goalY, cols, len
end

--- Moves item toward (goalX, goalY), resolving collisions (check, then
--- update). Returns actualX, actualY, cols, len.
function World:move(item, goalX, goalY, filter)
    if filter == nil and self.responses.slide == responses.slide then
        return check_in_c(self, item, get(self, item, 'World:move'), goalX, goalY, true)
    end
    local ax, ay, cols, len = self:check(item, goalX, goalY, filter)
    self:update(item, ax, ay)
    return ax, ay, cols, len
end

-- --- queries --------------------------------------------------------------

function World:hasItem(item)
    return item ~= nil and self.rects[item] ~= nil
end

function World:countItems() return self.count end

--- All items (in no particular order) and their count.
function World:getItems()
    local out, n = {}, 0
    for item in pairs(self.rects) do
        n = n + 1
        out[n] = item
    end
    return out, n
end

function World:getRect(item)
    local r = self.crects[get(self, item, 'World:getRect')]
    return r.x, r.y, r.w, r.h
end

--- The 1-based cell of a point, as bump numbers its grid.
function World:toCell(x, y)
    local cs = self.cellSize
    return floor(x / cs) + 1, floor(y / cs) + 1
end

--- The top-left corner of cell (cx, cy).
function World:toWorld(cx, cy)
    local cs = self.cellSize
    return (cx - 1) * cs, (cy - 1) * cs
end

-- The cells of bump's grid an item's rectangle covers (bump's
-- grid_toCellRect): columns cx..cr, rows cy..cb.
local function cell_rect(cs, r)
    local cx, cy = floor(r.x / cs) + 1, floor(r.y / cs) + 1
    return cx, cy, max(cx, ceil((r.x + r.w) / cs)), max(cy, ceil((r.y + r.h) / cs))
end

--- world.rows: bump's grid as bump keeps it, rows[cy][cx] = {x = cx, y = cy,
--- itemCount = n, items = {[item] = true, ...}} for every cell an item's
--- rectangle covers, as kikito's bump_debug.lua reads it to draw the
--- grid. ledge keeps no such grid (its own query index finds the items),
--- so each read of world.rows computes a new table from the rectangles:
--- a view (changing it changes nothing), to be read once per frame, and
--- only when drawn.
rows_view = function(self)
    local rows, cs = {}, self.cellSize
    for item, slot in pairs(self.rects) do
        local cx, cy, cr, cb = cell_rect(cs, self.crects[slot])
        for j = cy, cb do
            local row = rows[j]
            if row == nil then
                row = {}
                rows[j] = row
            end
            for i = cx, cr do
                local cell = row[i]
                if cell == nil then
                    cell = { x = i, y = j, itemCount = 0, items = {} }
                    row[i] = cell
                end
                cell.itemCount = cell.itemCount + 1
                cell.items[item] = true
            end
        end
    end
    return rows
end

--- The cells of bump's grid that items occupy (computed, not stored).
function World:countCells()
    local seen, n, cs = {}, 0, self.cellSize
    for _, slot in pairs(self.rects) do
        local r = self.crects[slot]
        local cx, cy = self:toCell(r.x, r.y)
        local cr, cb = ceil((r.x + r.w) / cs), ceil((r.y + r.h) / cs)
        for j = cy, max(cy, cb) do
            for i = cx, max(cx, cr) do
                local k = i .. ',' .. j
                if not seen[k] then
                    seen[k] = true
                    n = n + 1
                end
            end
        end
    end
    return n
end

local function filtered(self, n, filter, test)
    local out, len = {}, 0
    for i = 1, n do
        local item = scratch[i]
        scratch[i] = nil
        if item ~= nil and (not filter or filter(item)) and test(self.crects[self.rects[item]]) then
            len = len + 1
            out[len] = item
        end
    end
    return out, len
end

--- Items whose rectangles overlap the rectangle (touching edges do not).
function World:queryRect(x, y, w, h, filter)
    check_rect(x, y, w, h, 'World:queryRect')
    local n = candidates(self, x, y, x + w, y + h, scratch)
    return filtered(self, n, filter, function(r)
        return rect.isIntersecting(x, y, w, h, r.x, r.y, r.w, r.h)
    end)
end

--- Items whose rectangles contain the point (strictly inside).
function World:queryPoint(x, y, filter)
    check_number(x, 'x', 'World:queryPoint')
    check_number(y, 'y', 'World:queryPoint')
    local n = candidates(self, x, y, x, y, scratch)
    return filtered(self, n, filter, function(r)
        return rect.containsPoint(r.x, r.y, r.w, r.h, x, y)
    end)
end

-- The items a segment crosses (not along a border), with the parameters
-- of its entry and exit, sorted by entry along the whole line.
local function segment_hits(self, x1, y1, x2, y2, filter)
    for _, v in ipairs({ x1, y1, x2, y2 }) do check_number(v, 'coordinate', 'World:querySegment') end
    local n = candidates(self, min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2), scratch)
    local hits, len = {}, 0
    for i = 1, n do
        local item = scratch[i]
        scratch[i] = nil
        if item ~= nil and (not filter or filter(item)) then
            local r = self.crects[self.rects[item]]
            local t1, t2 = rect.getSegmentIntersectionIndices(r.x, r.y, r.w, r.h, x1, y1, x2,
                y2, 0, 1)
            if t1 and ((0 < t1 and t1 < 1) or (0 < t2 and t2 < 1)) then
                local l1 = rect.getSegmentIntersectionIndices(r.x, r.y, r.w, r.h, x1, y1, x2, y2,
                    -huge, huge)
                len = len + 1
                hits[len] = { item = item, ti1 = t1, ti2 = t2, weight = l1 or t1 }
            end
        end
    end
    table.sort(hits, function(a, b)
        if a.weight == b.weight then return a.ti1 < b.ti1 end
        return a.weight < b.weight
    end)
    return hits, len
end

--- Items the segment (x1, y1)-(x2, y2) crosses, nearest first.
function World:querySegment(x1, y1, x2, y2, filter)
    local hits, len = segment_hits(self, x1, y1, x2, y2, filter)
    local out = {}
    for i = 1, len do out[i] = hits[i].item end
    return out, len
end

--- As querySegment, with {item, x1, y1, x2, y2, ti1, ti2}: where the
--- segment enters and leaves each item (ti in 0..1 along it).
function World:querySegmentWithCoords(x1, y1, x2, y2, filter)
    local hits, len = segment_hits(self, x1, y1, x2, y2, filter)
    local dx, dy = x2 - x1, y2 - y1
    for i = 1, len do
        local h = hits[i]
        h.weight = nil
        h.x1, h.y1 = x1 + dx * h.ti1, y1 + dy * h.ti1
        h.x2, h.y2 = x1 + dx * h.ti2, y1 + dy * h.ti2
    end
    return hits, len
end

-- --- beyond bump: tiles and characters ---------------------------------------

-- Each tile id's vertical mirror: ledge's tile names describe y-up shapes
-- (docs/tiles.md); the world is y down, so a tile is stored mirrored to
-- look on screen as its name and glyph say. Found by group and normal.
local mirror = {}
do
    for t = 0, 33 do
        local g, n = C.ledge_tile_group_of(t), C.ledge_tile_normal(t)
        mirror[t] = t
        for m = 0, 33 do
            local gm, nm = C.ledge_tile_group_of(m), C.ledge_tile_normal(m)
            if gm == g and nm.x == n.x and nm.y == -n.y then mirror[t] = m end
        end
    end
end
bump.mirrorTile = mirror

--- Fills a tilemap of N tiles under the world (the opt-in part; bump has
--- no tiles). `level` is ledge's ASCII form (docs/tilemap.md): one line
--- per row, the first line the top row on screen; `tileSize` in pixels;
--- the map's top-left corner at (x, y) (default 0, 0). Outside the map is
--- solid for world:moveCharacter. Items keep their places.
function World:setTiles(level, tileSize, x, y)
    local rows = {}
    for line in level:gmatch('[^\n]+') do rows[#rows + 1] = line end
    local width, height = #rows[1], #rows
    local lw = make_ledge_world(self.cellSize, { size = tileSize, width = width,
        height = height, x = x or 0, y = y or 0 })
    -- ledge's ASCII form puts its first line at the largest y; the world is
    -- y down, so the rows go in reversed: the screen's top row at y = 0.
    local flipped = {}
    for i = height, 1, -1 do flipped[#flipped + 1] = rows[i] end
    lw.tilemap:loadAscii(table.concat(flipped, '\n') .. '\n')
    for cy = 0, height - 1 do
        for cx = 0, width - 1 do
            local t = lw.tilemap:get(cx, cy)
            if mirror[t] ~= t then lw.tilemap:set(cx, cy, mirror[t]) end
        end
    end
    local old = {} -- every item's rectangle and options, then each filed anew
    for item, slot in pairs(self.rects) do
        local c = self.crects[slot]
        old[item] = { c.x, c.y, c.w, c.h, self.opts[slot] }
    end
    self.lw = lw
    self.bySlot, self.opts = {}, {}
    self.crects, self.crectCap = ffi.new('ledge_bump_rect[?]', 64), 64
    self.cids = ffi.new('ledge_body_id[?]', 64)
    for item, t in pairs(old) do attach(self, item, t[1], t[2], t[3], t[4], t[5]) end
    self.tiles = { size = tileSize, width = width, height = height, x = x or 0, y = y or 0,
        rows = rows }
end

--- Sets one tile (cell column cx, row cy from the top, 0-based) to a ledge
--- tile name or id (as it looks on screen: '45DEG_NP' rises to the right,
--- as in docs/tiles.md); oneWay = true makes it solid from above only.
function World:setTile(cx, cy, tile, oneWay)
    if not self.tiles then error('World:setTile: call World:setTiles first', 2) end
    if type(tile) == 'string' then
        tile = ledge.tiles[tile] or error('World:setTile: unknown tile ' .. tile, 2)
    end
    self.lw.tilemap:set(cx, cy, mirror[tile] or tile)
    if oneWay ~= nil then self.lw.tilemap:setOneWay(cx, cy, oneWay and 'down' or 'none') end
end

--- The tile id at cell (cx, cy) as it looks on screen (0 without tiles).
function World:getTile(cx, cy)
    if not self.tiles then return 0 end
    return mirror[self.lw.tilemap:get(cx, cy)]
end

local char_def = C.ledge_default_move_def()
char_def.up.x, char_def.up.y = 0, -1 -- y down
local char_result = ffi.new('ledge_move_result')
local move_vec = vec_t()

--- Beyond bump: moves item toward (goalX, goalY) with ledge's character
--- mover: it slides along tiles of every shape (slopes, curves, seams that
--- never snag) and other items, keeps to the ground over slopes and small
--- steps down (snap), and stands on one-way platforms. Returns actualX,
--- actualY, cols, len, state; state = {onGround, onWall, onCeiling,
--- wallSide (+1 right, -1 left), groundNormal = {x, y}, groundItem}.
--- cols hold {item, other (an item, or {tile, cellX, cellY} for a tile),
--- type = 'slide', normal, ti}. opts: {snap = pixels (default 0.25 tile),
--- maxSlope = radians (default 50 degrees)}.
function World:moveCharacter(item, goalX, goalY, opts)
    local s = get(self, item, 'World:moveCharacter')
    local r = self.crects[s]
    local size = self.tiles and self.tiles.size or 16
    char_def.snap_length = opts and opts.snap or 0.25 * size
    char_def.max_floor_slope = opts and opts.maxSlope or 0.87266463
    char_def.skin = 0.01 * size / 16
    move_vec.x, move_vec.y = goalX - r.x, goalY - r.y
    if not C.ledge_body_move_ref(self.lw.ptr, self.cids + s, move_vec, char_def,
        char_result) then
        error('World:moveCharacter: ' .. tostring(ledge.lastError()), 2)
    end
    local res = char_result
    r.x, r.y = res.position.x - r.w / 2, res.position.y - r.h / 2
    local cols = {}
    local groundItem
    for i = 0, res.hit_count - 1 do
        local h = res.hits[i]
        local other
        if h.kind == 2 then
            other = self.bySlot[h.body.index1]
            if i == res.ground_hit then groundItem = other end
        else
            other = { tile = h.tile, cellX = h.cell_x, cellY = h.cell_y }
        end
        cols[i + 1] = { item = item, other = other, type = 'slide', ti = h.fraction,
            normal = { x = h.normal.x, y = h.normal.y } }
    end
    local state = { onGround = res.on_ground, onWall = res.on_wall, onCeiling = res.on_ceiling,
        wallSide = res.wall_side,
        groundNormal = { x = res.ground_normal.x, y = res.ground_normal.y },
        groundItem = groundItem }
    self.state[item] = state
    return r.x, r.y, cols, res.hit_count, state
end

--- The state of item's last world:moveCharacter (nil before one).
function World:getState(item) return self.state[item] end

--- Beyond bump: moves a platform item to (x, y) (a teleport, like update)
--- and carries the characters whose last moveCharacter stood on it by the
--- same displacement (they slide against what is in their way).
function World:movePlatform(item, x, y)
    local r = self.crects[get(self, item, 'World:movePlatform')]
    local dx, dy = x - r.x, y - r.y
    self:update(item, x, y)
    for char, s in pairs(self.state) do
        if s.groundItem == item and char ~= item then
            local cr = self.crects[self.rects[char]]
            self:moveCharacter(char, cr.x + dx, cr.y + dy)
            self.state[char].groundItem = item
        end
    end
end

return bump
