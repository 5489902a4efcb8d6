-- The generated ffi.cdef (src/bindings/lua/ledge_cdef.lua) against the C
-- compiler: every struct's size and every field's offset as LuaJIT lays
-- them out must equal what cc computes from the real headers (with cglm's
-- real vec2s), and every declared function must exist in the library.
-- Run from the repository root: LEDGE_LIB=... luajit tests/lua/test_abi.lua [CC]
local H = dofile((arg[0]:match('^(.*/)') or './') .. 'harness.lua')
local ffi = require('ffi')
local ledge = require('ledge').load()
local cdef = require('ledge_cdef')
local cc = arg[1] or 'cc'

-- Top-level structs and their direct fields (nested anonymous structs and
-- function-pointer members are matched by name).
local structs = {}
for name, body in cdef:gmatch('typedef struct ([%w_]+) (%b{})') do
    local fields = {}
    for decl in body:sub(2, -2):gmatch('[^;]+') do
        local f = decl:match('%(%*([%w_]+)%)') or decl:match('([%w_]+)%s*%[') or
            decl:match('([%w_]+)%s*$')
        if f then fields[#fields + 1] = f end
    end
    structs[#structs + 1] = { name = name, fields = fields }
end

H.test('the cdef declares the structs', function()
    H.truthy(#structs >= 25, 'found ' .. #structs .. ' structs')
end)

local src = { '#include <ledge/ledge.h>', '#include <ledge/tiled.h>', '#include <ledge/ldtk.h>',
    '#include <stddef.h>',
    '#include <stdio.h>', 'int main(void) {' }
for _, s in ipairs(structs) do
    src[#src + 1] = string.format('printf("%s %%zu\\n", sizeof(%s));', s.name, s.name)
    for _, f in ipairs(s.fields) do
        src[#src + 1] = string.format('printf("%s.%s %%zu\\n", offsetof(%s, %s));', s.name, f,
            s.name, f)
    end
end
src[#src + 1] = 'return 0; }'
local tmp = os.tmpname()
local cfile = io.open(tmp .. '.c', 'w')
cfile:write(table.concat(src, '\n'))
cfile:close()
local cmd = string.format('%s -std=c11 -I%sinclude %s.c -o %s.bin && %s.bin', cc, H.root, tmp,
    tmp, tmp)
local p = io.popen(cmd)
local want = {}
for line in p:lines() do
    local k, v = line:match('^(%S+) (%d+)$')
    want[k] = tonumber(v)
end
p:close()
os.remove(tmp .. '.c')
os.remove(tmp .. '.bin')
os.remove(tmp)

for _, s in ipairs(structs) do
    H.test('layout of ' .. s.name, function()
        H.eq(ffi.sizeof(s.name), want[s.name], 'sizeof ' .. s.name)
        for _, f in ipairs(s.fields) do
            H.eq(ffi.offsetof(s.name, f), want[s.name .. '.' .. f], s.name .. '.' .. f)
        end
    end)
end

H.test('every function of the core headers is in the library', function()
    local n = 0
    for fn in cdef:gmatch('([%w_]+)%(') do
        if fn:match('^ledge_') and not fn:match('tiled') and not fn:match('ldtk') and
            not cdef:find('typedef [^;]-' .. fn .. '%(') then
            local ok = pcall(function() return ledge.C[fn] end)
            H.truthy(ok, fn .. ' missing from libledge')
            n = n + 1
        end
    end
    H.truthy(n >= 80, 'checked ' .. n .. ' functions')
end)

H.test('the checked-in cdef is what gen_cdef.sh makes from today\'s headers', function()
    local p = io.popen(H.root .. 'src/bindings/lua/gen_cdef.sh ' .. cc)
    local fresh = p:read('*a')
    p:close()
    local f = assert(io.open(H.root .. 'src/bindings/lua/ledge_cdef.lua'))
    local old = f:read('*a')
    f:close()
    H.truthy(#fresh > 1000, 'generated')
    H.truthy(fresh == old, 'stale: run src/bindings/lua/gen_cdef.sh > src/bindings/lua/ledge_cdef.lua')
end)

H.done()
