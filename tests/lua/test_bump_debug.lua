-- bump's debug overlay on the bump-compatible module (src/bindings/lua/bump.lua):
-- kikito's bump_debug.lua, shipped with bump.lua's demos, draws the grid a
-- bump world keeps (world.rows[cy][cx] = {itemCount, ...}) with
-- love.graphics. Its drawing function runs here as it reads a world,
-- against a stand-in for love.graphics that records each call; the cells
-- it draws, and the counts it prints, are checked against the cells every
-- item's rectangle covers (bump's grid_toCellRect), worked out here.
--   LEDGE_LIB=build/libledge.so luajit tests/lua/test_bump_debug.lua
local H = dofile((arg[0]:match('^(.*/)') or './') .. 'harness.lua')
local bump = require('bump')
local test, eq, truthy = H.test, H.eq, H.truthy

-- The stand-in for LÖVE's graphics module: every call recorded.
local calls = {}
love = {
    graphics = {
        getFont = function()
            return { getHeight = function() return 14 end }
        end,
        setColor = function(...) calls[#calls + 1] = { 'setColor', ... } end,
        rectangle = function(...) calls[#calls + 1] = { 'rectangle', ... } end,
        printf = function(...) calls[#calls + 1] = { 'printf', ... } end,
    },
}

-- bump_debug.lua's drawing, as kikito's demo has it (bump 3.1.x).
local bump_debug = {}

local function getCellRect(world, cx, cy)
    local cellSize = world.cellSize
    local l, t = world:toWorld(cx, cy)
    return l, t, cellSize, cellSize
end

function bump_debug.draw(world)
    local cellSize = world.cellSize
    local font = love.graphics.getFont()
    local fontHeight = font:getHeight()
    local topOffset = (cellSize - fontHeight) / 2
    for cy, row in pairs(world.rows) do
        for cx, cell in pairs(row) do
            local l, t, w, h = getCellRect(world, cx, cy)
            local intensity = cell.itemCount * 12 + 16
            love.graphics.setColor(255, 255, 255, intensity)
            love.graphics.rectangle('fill', l, t, w, h)
            love.graphics.setColor(255, 255, 255, 64)
            love.graphics.printf(cell.itemCount, l, t + topOffset, cellSize, 'center')
            love.graphics.setColor(255, 255, 255, 10)
            love.graphics.rectangle('line', l, t, w, h)
        end
    end
end

-- What the overlay must draw: each covered cell once, "l,t,count", sorted.
local function expected(world, items)
    local count, cs = {}, world.cellSize
    for _, item in ipairs(items) do
        if world:hasItem(item) then
            local x, y, w, h = world:getRect(item)
            local cx, cy = math.floor(x / cs) + 1, math.floor(y / cs) + 1
            local cr, cb = math.ceil((x + w) / cs), math.ceil((y + h) / cs)
            for j = cy, math.max(cy, cb) do
                for i = cx, math.max(cx, cr) do
                    local k = ((i - 1) * cs) .. ',' .. ((j - 1) * cs)
                    count[k] = (count[k] or 0) + 1
                end
            end
        end
    end
    local out = {}
    for k, n in pairs(count) do out[#out + 1] = k .. ',' .. n end
    table.sort(out)
    return table.concat(out, ' '), #out
end

-- What the overlay drew, in the same form; and the checks on the calls.
local function drawn(world)
    calls = {}
    bump_debug.draw(world)
    local fills, lines, out = {}, 0, {}
    for i, c in ipairs(calls) do
        if c[1] == 'rectangle' and c[2] == 'fill' then
            local p = calls[i + 2] -- the printf of that cell
            eq(p[1], 'printf', 'a count printed after each cell')
            eq(p[3], c[3], 'the count at the cell\'s left')
            eq(p[4], c[4] + (world.cellSize - 14) / 2, 'the count in the middle')
            eq(c[5], world.cellSize, 'cell width')
            eq(c[6], world.cellSize, 'cell height')
            eq(calls[i - 1][5], p[2] * 12 + 16, 'intensity from the count')
            out[#out + 1] = c[3] .. ',' .. c[4] .. ',' .. p[2]
            fills[#fills + 1] = c
        elseif c[1] == 'rectangle' then
            lines = lines + 1
        end
    end
    eq(lines, #fills, 'an outline per cell')
    table.sort(out)
    return table.concat(out, ' '), #out
end

test('bump_debug draws the cells the items cover, with their counts', function()
    local world = bump.newWorld(64)
    local items = {}
    local function add(x, y, w, h)
        local it = { n = #items + 1 }
        items[#items + 1] = it
        world:add(it, x, y, w, h)
        return it
    end
    add(0, 0, 16, 16)     -- one cell
    add(60, 10, 16, 16)   -- across a column boundary
    add(-10, -10, 20, 20) -- four cells, negative coordinates
    add(64, 64, 64, 64)   -- exactly one cell (bump's ceil)
    add(100, 0, 200, 150) -- a big one
    for k = 1, 40 do add((k * 37) % 500 - 100, (k * 53) % 400 - 50, 8 + k % 30, 6 + k % 25) end
    local want, n = expected(world, items)
    local got, m = drawn(world)
    eq(got, want, 'the cells and counts drawn')
    eq(m, n, 'cells drawn')
    eq(m, world:countCells(), 'as many cells as countCells')
    truthy(m > 40, 'a grid worth drawing')
    -- Moves, updates and removes: the next frame's overlay follows.
    for k = 1, #items, 3 do world:move(items[k], (k * 11) % 300, (k * 7) % 200) end
    world:update(items[2], 500, 500, 10, 10)
    world:remove(items[4])
    want, n = expected(world, items)
    got, m = drawn(world)
    eq(got, want, 'after moves and removes')
    eq(m, world:countCells(), 'countCells after them')
end)

test('world.rows is a read-only view of the grid', function()
    local world = bump.newWorld(32)
    local a, b = {}, {}
    world:add(a, 0, 0, 40, 10)
    world:add(b, 10, 0, 10, 10)
    local rows = world.rows
    eq(rows[1][1].itemCount, 2, 'two items in cell (1, 1)')
    eq(rows[1][2].itemCount, 1, 'one in cell (2, 1)')
    truthy(rows[1][1].items[a] and rows[1][1].items[b], 'both listed')
    eq(rows[1][1].x, 1, 'the cell knows its column')
    eq(rows[1][1].y, 1, 'and its row')
    eq(rows[2], nil, 'no second row')
    rows[1][1].itemCount = 99 -- a view: the world does not change
    rows[5] = {}
    eq(world.rows[1][1].itemCount, 2, 'unchanged')
    eq(world.rows[5], nil, 'still no fifth row')
    world:remove(a)
    eq(world.rows[1][2], nil, 'the next read follows the world')
    truthy(world.move == bump.newWorld(1).move, 'methods are found as before')
end)

H.done()
