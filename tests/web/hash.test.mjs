// The WebAssembly build replays native runs bit for bit (docs/web.md): the
// sample game's autopilot run, the rain scene and every testbed scene
// (docs/samples.md) give the same ledge_world_hash in wasm as in the native
// release build, both through the C replay code compiled to wasm
// (tests/web/replay.c, replay_scenes.c) and through the JavaScript binding.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { loadLedge, loadReplay, nativeReplay, hex, rainWorld } from './common.mjs';

const FRAMES = 1500; // the autopilot reaches the goal before this (tests/test_demo.c)
const RAIN_N = 1000;
const RAIN_STEPS = 300;

const SCENE_FRAMES = 600;

function native(...args) {
  const out = execFileSync(nativeReplay, args.map(String), { encoding: 'utf8' });
  return Object.fromEntries(out.trim().split('\n').map((l) => l.split(' ')));
}

test('testbed scenes: 600 frames of each give the wasm hashes native gives', async (t) => {
  const want = native('scenes', SCENE_FRAMES);
  const m = await loadReplay();
  const names = [];
  for (let i = 0; i < m._replay_scene_count(); ++i) {
    const name = m.UTF8ToString(m._replay_scene_name(i));
    const low = m._replay_scene(i, SCENE_FRAMES);
    assert.ok(name in want, `the native build has the scene ${name}`);
    assert.equal(hex(m._replay_scene_high(), low), want[name], `scene ${name}`);
    names.push(name);
  }
  // Only the Tiled map's scene is native only (ledge_tiled reads its map
  // from a file); the LDtk project's is in both when ledge_ldtk is built.
  const missing = Object.keys(want).filter((n) => !names.includes(n));
  assert.ok(missing.every((n) => n === 'tiled'), `native only: ${missing.join(', ')}`);
  assert.ok(!('ldtk' in want) || names.includes('ldtk'), 'the LDtk scene replays in wasm');
  assert.ok(names.length >= 23, `${names.length} scenes`);
  t.diagnostic(`${names.length} scenes agree; native only: ${missing.join(', ') || 'none'}`);
});

test('demo level: wasm replay hash equals native', async () => {
  const want = native(FRAMES, RAIN_N, RAIN_STEPS);
  const m = await loadReplay();
  const low = m._replay_demo(FRAMES);
  assert.equal(hex(m._replay_high(), low), want.demo);
  assert.notEqual(want.demo, native(FRAMES - 1, 2, 1).demo, 'the hash sees one more frame');
});

test('rain scene: wasm replay hash equals native', async () => {
  const want = native(1, RAIN_N, RAIN_STEPS);
  const m = await loadReplay();
  const low = m._replay_rain(RAIN_N, RAIN_STEPS);
  assert.equal(hex(m._replay_high(), low), want.rain);
});

test('rain scene built through the JS binding: hash equals native', async () => {
  const want = native(1, RAIN_N, RAIN_STEPS);
  const ledge = await loadLedge();
  const world = rainWorld(ledge, RAIN_N);
  try {
    world.step(1 / 60);
    const first = world.hash();
    for (let k = 1; k < RAIN_STEPS; ++k) world.step(1 / 60);
    assert.equal(world.hash().toString(16).padStart(16, '0'), want.rain);
    assert.notEqual(world.hash(), first, 'the hash sees the state');
  } finally {
    world.dispose();
  }
});
