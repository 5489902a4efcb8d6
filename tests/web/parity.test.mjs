// Every JavaScript method against the C call it wraps: the scripted scene
// of tests/web/parity.c (bodies of every kind, a character, events,
// contacts, ground states, the pre-solve filter, every setter, tile edits,
// a snapshot restored, every query and distance query) run natively and
// through the binding (tests/web/parity.mjs) in Node and in Chromium must
// print the same trace, line for line, floats as their bits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { bindingDir, loadLedge, nativeReplay } from './common.mjs';
import { parityTrace, partsTrace } from './parity.mjs';
import { launch, serve } from './browser.mjs';

const STEPS = 240;
const here = path.dirname(new URL(import.meta.url).pathname);
const native = execFileSync(nativeReplay, ['parity', String(STEPS)], { encoding: 'utf8', maxBuffer: 1 << 26 });

function sameTrace(got, where) {
  const a = native.split('\n');
  const b = got.split('\n');
  const k = a.findIndex((line, i) => line !== b[i]);
  assert.equal(k, -1, `${where}: line ${k + 1} differs:\n  C:  ${a[k]}\n  JS: ${b[k]}`);
  assert.equal(b.length, a.length);
}

test('the scripted scene: the binding in Node prints the C trace', async (t) => {
  const ledge = await loadLedge();
  const trace = parityTrace(ledge, STEPS);
  sameTrace(trace, 'node');
  const count = (tag) => native.split('\n').filter((l) => l.startsWith(tag) && l.length > tag.length + 3).length;
  // The scene exercises what it claims: events of each kind, hits, a restore.
  assert.ok(count('touch') > 20 && count('sensor') > 2 && count('crush') > 20, 'events of every kind');
  assert.ok(count('rayall') > 20 && count('restored') === 1 && count('bodymove') === 1);
  t.diagnostic(`${native.split('\n').length - 1} lines agree`);
});

test('the moving parts (pushing, materials, joints, a snapshot): the binding in Node prints the C trace', async (t) => {
  const ledge = await loadLedge();
  const want = execFileSync(nativeReplay, ['parts', '200'], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const got = partsTrace(ledge, 200);
  const a = want.split('\n');
  const b = got.split('\n');
  const k = a.findIndex((line, i) => line !== b[i]);
  assert.equal(k, -1, `line ${k + 1} differs:\n  C:  ${a[k]}\n  JS: ${b[k]}`);
  assert.equal(b.length, a.length);
  // The scene exercises what it claims: a push, a belt under the hero, a
  // joint destroyed with its body, a restore that brings both back.
  const has = (re) => a.some((l) => re.test(l));
  assert.ok(has(/^hero( \S+){6} T /), 'the hero pushes');
  assert.ok(has(/^hero .* 3f000000 00000000 40000000 1 /), 'the hero stands on the belt (its floor material)');
  assert.ok(has(/^hero .* 00000000 00000000 00000000 1 F/), 'the hero stands on ice');
  assert.equal(a.filter((l) => l.startsWith('restored')).length, 1);
  assert.ok(has(/^step 125 \S+ 2$/) && has(/^step 130 \S+ 4$/), 'joints destroyed, then restored');
  t.diagnostic(`${a.length - 1} lines agree`);
});

test('the scripted scene: the binding in Chromium prints the C trace', { timeout: 120000 }, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledge-parity-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.mkdirSync(path.join(dir, 'dist'));
  for (const f of ['ledge.mjs', 'tiled.mjs', 'ldtk.mjs', 'dist/ledge_wasm.mjs', 'dist/ledge_wasm.wasm']) {
    fs.copyFileSync(path.join(bindingDir, f), path.join(dir, f));
  }
  fs.copyFileSync(path.join(here, 'parity.mjs'), path.join(dir, 'parity.mjs'));
  fs.writeFileSync(path.join(dir, "index.html"), `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><script type="module">
import { init } from './ledge.mjs';
import { parityTrace, partsTrace } from './parity.mjs';
const ledge = await init();
window.parity = parityTrace(ledge, ${STEPS});
</script>`);
  const server = await serve(dir);
  const browser = await launch();
  try {
    const page = await browser.context.newPage();
    const errors = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(server.url);
    await page.waitForFunction(() => typeof window.parity === 'string', null, { timeout: 60000 });
    sameTrace(await page.evaluate(() => window.parity), 'chromium');
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    server.close();
  }
});
