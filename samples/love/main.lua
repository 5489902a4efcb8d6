-- The sample level in LÖVE 11.4 on ledge's LuaJIT binding (README "ledge
-- for LÖVE"). From the repository root:
--   LEDGE_LIB=build/libledge.so love samples/love
--   LEDGE_LIB=... xvfb-run -a -s "-screen 0 1280x720x24" love samples/love \
--       --autopilot --screenshot out/love.png
-- Keys: left/right or A/D run, space/up/W jump, down/S drops through the
-- one-way platform, escape quits. --autopilot plays by itself; with
-- --screenshot PATH it saves a picture of the goal and quits.
local source = love.filesystem.getSource()
local root = source:match('^(.*)/samples/love/?$') or (source .. '/../..')
package.path = root .. '/src/bindings/lua/?.lua;' .. source .. '/?.lua;' .. package.path

local game = require('game')
local g, options, accumulator, finished = nil, {}, 0, false
local SCALE = 40 -- pixels per metre

function love.load(args)
    for i = 1, #args do
        if args[i] == '--autopilot' then options.autopilot = true end
        if args[i] == '--screenshot' then options.screenshot = args[i + 1] end
    end
    g = game.new(dofile(source .. '/level.lua'))
    love.graphics.setBackgroundColor(0.11, 0.12, 0.15)
end

local function keyboard()
    local k = love.keyboard.isDown
    local run = 0
    if k('left') or k('a') then run = run - 1 end
    if k('right') or k('d') then run = run + 1 end
    return { run = run, jump = k('space') or k('up') or k('w'), drop = k('down') or k('s') }
end

-- Saves the next drawn frame to PATH (LÖVE writes into its save
-- directory; the bytes are copied to the real path), then calls done().
local function save_picture(path, done)
    love.graphics.captureScreenshot(function(image)
        local name = 'ledge-sample-shot.png'
        image:encode('png', name)
        local data = love.filesystem.read(name)
        local f = assert(io.open(path, 'wb'))
        f:write(data)
        f:close()
        options.saved = true
        if done then done() end
    end)
end

local function finish()
    local x = g.player:position()
    print(string.format('love autopilot: goal reached at frame %d, x = %.2f%s', g.frame, x,
        options.screenshot and ('; picture ' .. options.screenshot) or ''))
    love.event.quit(0)
end

function love.update(dt)
    if finished then return end
    -- Fixed steps: the autopilot runs as fast as the frames come (two
    -- steps per frame), a player in real time.
    local steps = 2
    if not options.autopilot then
        accumulator = math.min(accumulator + dt, 0.25)
        steps = math.floor(accumulator / game.DT)
        accumulator = accumulator - steps * game.DT
    end
    for _ = 1, steps do
        g:update(options.autopilot and g:autopilot() or keyboard())
        if options.screenshot and not options.shooting and g:onPlatform() and
            g.platform:position() >= 29 then
            -- the picture: riding the platform over the pile, mid-bowl
            options.shooting = true
            save_picture(options.screenshot)
            return
        end
        if options.autopilot and g.phase == 'goal' then
            finished = true
            if options.screenshot and not options.saved then
                if options.shooting then -- its frame is still to be drawn
                    local wait
                    wait = function() if options.saved then finish() else love.timer.sleep(0.01) end end
                    love.update = function() wait() end
                else
                    save_picture(options.screenshot, finish)
                end
            else
                finish()
            end
            return
        end
        if options.autopilot and g.frame > 3600 then
            print('love autopilot: FAILED, no goal after 60 s (phase ' .. g.phase .. ')')
            love.event.quit(1)
            return
        end
    end
end

function love.keypressed(key)
    if key == 'escape' then love.event.quit() end
end

local function color(c)
    return { math.floor(c / 65536) / 255, math.floor(c / 256) % 256 / 255, c % 256 / 255 }
end

function love.draw()
    local w, h = love.graphics.getDimensions()
    local px, py = g.player:position()
    local cx = math.max(w / 2 / SCALE, math.min(96 - w / 2 / SCALE, px))
    love.graphics.push()
    -- y up in the world, y down on screen: flip around the map's middle.
    love.graphics.translate(w / 2 - cx * SCALE, h / 2 + 9 * SCALE)
    love.graphics.scale(SCALE, -SCALE)
    love.graphics.setLineWidth(2 / SCALE)
    local x0, x1 = cx - w / 2 / SCALE - 1, cx + w / 2 / SCALE + 1
    g.world:draw({
        polygon = function(v, c) -- tiles: filled (triangulated by LÖVE), then outlined
            love.graphics.setColor(0.36, 0.38, 0.45)
            local ok = pcall(love.graphics.polygon, 'fill', v)
            if not ok then love.graphics.polygon('line', v) end
            love.graphics.setColor(color(c))
            love.graphics.polygon('line', v)
        end,
        solidPolygon = function(v, c)
            love.graphics.setColor(color(c))
            love.graphics.polygon('fill', v)
        end,
    }, x0, -1, x1, 19, { contacts = false, normals = false })
    for _, b in ipairs(g.pile) do -- circles: LuaJIT callbacks cannot take them, so from here
        if b.data == 'ball' then
            local bx, by = b:position()
            love.graphics.setColor(color(0xE6B366))
            love.graphics.circle('fill', bx, by, 0.25, 24)
        end
    end
    love.graphics.setColor(0.95, 0.35, 0.3)
    love.graphics.rectangle('fill', px - 0.3, py - 0.45, 0.6, 0.9)
    love.graphics.setColor(1, 0.9, 0.3)
    love.graphics.rectangle('fill', game.GOAL_X, 4, 0.15, 2)
    love.graphics.pop()
    love.graphics.setColor(1, 1, 1)
    local m = g.move
    love.graphics.print(string.format(
        'ledge %s on LÖVE %s   frame %d   x %.2f  y %.2f   ground %s  wall %s  ceiling %s   phase %s',
        require('ledge').version(), string.format('%d.%d', love.getVersion()), g.frame, px, py, tostring(m.onGround),
        tostring(m.onWall), tostring(m.onCeiling), options.autopilot and g.phase or 'player'),
        12, 12)
end
