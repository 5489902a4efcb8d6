-- The sample game on the LuaJIT binding (src/bindings/lua/ledge.lua): the
-- level of samples/game.c, its moving platform over a pile of boxes and
-- balls, the one-way platform, and the player moved by ledge's character
-- mover; plus the autopilot that plays it (as samples/game.c's does).
-- No LÖVE here: main.lua draws it, tests/lua/test_game.lua plays it.
local ledge = require('ledge')

local game = {}
game.__index = game

local DT, GRAVITY, RUN, JUMP = 1 / 60, -20, 6, 10
local PHX, PHY = 0.3, 0.45
local GOAL_X = 90
local PLAT_HX, PLAT_HY, PLAT_MID, PLAT_SWING, PLAT_PERIOD = 1.5, 0.25, 29, 3.5, 5
local ONE_WAY_X0, ONE_WAY_X1, ONE_WAY_Y = 38, 43, 5
game.DT, game.GOAL_X = DT, GOAL_X

local function platform_target(frame)
    local t = frame * DT
    return PLAT_MID - PLAT_SWING * math.cos(2 * math.pi * t / PLAT_PERIOD), 4 - PLAT_HY
end

function game.new(level)
    ledge.load()
    local g = setmetatable({ frame = 0, phase = 'run', phaseFrames = 0, vx = 0, vy = 0 }, game)
    g.world = ledge.newWorld({ gravity = { 0, GRAVITY }, width = 96, height = 18 })
    g.world.tilemap:loadAscii(level)
    for x = ONE_WAY_X0, ONE_WAY_X1 do g.world.tilemap:setOneWay(x, ONE_WAY_Y, 'up') end
    local px, py = platform_target(0)
    g.platform = g.world:newBody({ type = 'kinematic', shape = { box = { PLAT_HX, PLAT_HY } },
        x = px, y = py })
    -- The player is a ledge character (character.h): the world keeps its
    -- state and carries it on the moving platform inside the step.
    g.player = g.world:newCharacter({ shape = { box = { PHX, PHY } }, x = 3, y = 4 + PHY + 0.01 },
        { platformOnLeave = 'nothing' })
    g.pile = {}
    for row = 0, 3 do
        for col = 0, 8 do
            if not (row == 0 and (col == 0 or col == 8)) then
                local ball = (row + col) % 2 == 0
                local x = 24.6 + (row % 2 == 1 and 0.45 or 0) + col
                g.pile[#g.pile + 1] = g.world:newBody({
                    shape = ball and { circle = 0.25 } or { box = { 0.24, 0.24 } },
                    x = x, y = 1.35 + 0.6 * row, friction = ball and 0.2 or 0.5, bounce = 0.1,
                    data = ball and 'ball' or 'box' })
            end
        end
    end
    g.state = g.player:state()
    g.move = { onGround = false }
    return g
end

function game:onPlatform()
    return self.state.floorBody == self.platform
end

function game:onOneWay()
    local s = self.state
    return s.onFloor and s.floorIsTile and s.floorCellX >= ONE_WAY_X0 and
        s.floorCellX <= ONE_WAY_X1 and s.floorCellY == ONE_WAY_Y
end

--- One fixed step with input {run = -1..1, jump = bool, drop = bool}.
function game:update(input)
    -- character.h's frame order: platform targets, characters, step.
    local tx, ty = platform_target(self.frame + 1)
    self.platform:setTarget(tx, ty, DT)
    local s = self.state
    self.vx = input.run * RUN
    self.vy = s.vy + GRAVITY * DT
    if input.jump and s.onFloor then self.vy = JUMP end
    if input.drop and s.onFloor then self.player.body:dropThrough() end
    s = self.player:move(self.vx, self.vy, DT)
    self.state = s
    self.move = { onGround = s.onFloor, onWall = s.onWall, onCeiling = s.onCeiling }
    self.world:step(DT)
    self.frame = self.frame + 1
    self.phaseFrames = self.phaseFrames + 1
end

function game:setPhase(p)
    self.phase, self.phaseFrames = p, 0
end

--- The autopilot's input for this frame (samples/game.c's plan): run right,
--- ride the platform over the bowl, hop up through the one-way platform and
--- drop back, jump walls met on the ground, stop at the goal.
function game:autopilot()
    local m = self.move
    local x = self.player:position()
    local input = { run = 0, jump = false, drop = false }
    if self.phase == 'run' then
        input.run = 1
        if not self.platformDone and x >= 23.2 then
            self:setPhase('wait')
            input.run = 0
        elseif not self.oneWayDone and x >= 40 then
            self:setPhase('up')
            input.run, input.jump = 0, true
        elseif not self.bonked and x >= 54.3 and m.onGround then
            input.jump = true
        elseif x >= GOAL_X then
            self:setPhase('goal')
            input.run = 0
        end
        if m.onGround and m.onWall then input.jump = true end
        if m.onCeiling and x >= 54 and x <= 56 then self.bonked = true end
    elseif self.phase == 'wait' or self.phase == 'ride' then
        local px = self.platform:position()
        if self.phase == 'wait' then
            if px - PLAT_HX <= 24.05 then self:setPhase('ride') end
        else
            if x < px + 0.9 then input.run = 1 end
            if self:onPlatform() and px >= PLAT_MID + PLAT_SWING - 0.1 then
                self.platformDone = true
                self:setPhase('run')
                input.run = 1
            end
        end
    elseif self.phase == 'up' or self.phase == 'stand' or self.phase == 'drop' then
        if self.phase == 'up' and self:onOneWay() then self:setPhase('stand') end
        if self.phase == 'stand' and self.phaseFrames >= 30 then
            input.drop = true
            self:setPhase('drop')
        elseif self.phase == 'drop' and m.onGround and not self:onOneWay() and
            self.phaseFrames > 1 then
            self.oneWayDone = true
            self:setPhase('run')
            input.run = 1
        end
    end
    return input
end

return game
