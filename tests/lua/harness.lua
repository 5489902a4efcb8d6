-- A tiny test harness for the Lua tests (run with plain LuaJIT): test(name,
-- fn) runs fn and counts it; the assertions raise; done() prints
-- "N passed, N failed" and exits non-zero on any failure.
local H = { passed = 0, failed = 0 }

function H.test(name, fn)
    local ok, err = xpcall(fn, debug.traceback)
    if ok then
        H.passed = H.passed + 1
    else
        H.failed = H.failed + 1
        io.stderr:write('FAILED ', name, ': ', tostring(err), '\n')
    end
end

function H.eq(a, b, what)
    if a ~= b then
        error(string.format('%s: expected %s, got %s', what or 'eq', tostring(b), tostring(a)), 2)
    end
end

function H.near(a, b, tol, what)
    if not (math.abs(a - b) <= (tol or 1e-9)) then
        error(string.format('%s: expected %.9g, got %.9g', what or 'near', b, a), 2)
    end
end

function H.truthy(v, what)
    if not v then error((what or 'expected a true value'), 2) end
end

-- Asserts that fn(...) raises an error whose message contains `text`.
function H.raises(text, fn, ...)
    local ok, err = pcall(fn, ...)
    if ok then error('expected an error containing "' .. text .. '"', 2) end
    if not tostring(err):find(text, 1, true) then
        error('error "' .. tostring(err) .. '" does not contain "' .. text .. '"', 2)
    end
end

-- Seeded draws (Park-Miller, exact in doubles): a function rnd(lo, hi)
-- returning reals in [lo, hi), the same sequence for the same seed.
function H.draws(seed)
    return function(lo, hi)
        seed = (seed * 16807) % 2147483647
        return lo + (hi - lo) * seed / 2147483647
    end
end

function H.done()
    print(string.format('%d passed, %d failed', H.passed, H.failed))
    os.exit(H.failed == 0 and 0 or 1)
end

-- Makes src/bindings/lua and tests/lua requirable from the repository root
-- or from tests/lua.
local root = (arg and arg[0] or ''):match('^(.*)tests/lua/[^/]*$') or './'
package.path = root .. 'src/bindings/lua/?.lua;' .. root .. 'tests/lua/?.lua;' .. package.path
H.root = root

return H
