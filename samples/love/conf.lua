-- LÖVE 11.4 configuration of the ledge sample (samples/love/main.lua).
function love.conf(t)
    t.identity = 'ledge-sample'
    t.version = '11.4'
    t.window.title = 'ledge: the sample level (arrows / A D: run, space / up: jump, down: drop)'
    t.window.width = 1280
    t.window.height = 720
    t.modules.audio = false -- no sound, and no audio device needed under Xvfb
    t.modules.sound = false
    t.modules.joystick = false
end
