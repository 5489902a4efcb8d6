-- The LÖVE sample's game (samples/love/game.lua) played by its autopilot
-- without LÖVE: it must ride the platform, stand on the one-way platform,
-- and reach the goal within 60 game seconds, with the pile intact.
local H = dofile((arg[0]:match('^(.*/)') or './') .. 'harness.lua')
package.path = H.root .. 'samples/love/?.lua;' .. package.path
local game = require('game')
local level = dofile(H.root .. 'samples/love/level.lua')

H.test('the autopilot plays the sample level to the goal', function()
    local g = game.new(level)
    local rode, stood, frames = false, false, 0
    while g.phase ~= 'goal' and frames < 3600 do
        g:update(g:autopilot())
        rode = rode or g:onPlatform()
        stood = stood or g:onOneWay()
        frames = frames + 1
    end
    H.eq(g.phase, 'goal', 'reached the goal (frames ' .. frames .. ')')
    H.truthy(rode, 'rode the moving platform')
    H.truthy(stood, 'stood on the one-way platform')
    local x = g.player:position()
    H.truthy(x >= game.GOAL_X, 'x past the goal')
    for _, b in ipairs(g.pile) do
        local bx, by = b:position()
        H.truthy(bx > 23 and bx < 35 and by > 0.9 and by < 6, 'pile body in the bowl')
    end
end)

H.done()
