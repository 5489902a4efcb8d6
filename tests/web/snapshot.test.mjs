// Snapshots through the JavaScript binding (docs/rollback.md): a snapshot
// made natively (tests/web/replay.c) restored in wasm and one made in wasm
// restored natively continue with the same hashes, the two builds write
// the same bytes for the same state, a rollback in wasm comes back to the
// straight run's hash, and a refused restore throws ledge's message and
// changes nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { loadLedge, nativeReplay, rainWorld } from './common.mjs';

const N = 400;
const STEPS = 150;
const MORE = 120;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ledge-snapshot-'));
const native = (...args) => execFileSync(nativeReplay, args.map(String), { encoding: 'utf8' }).trim().split(' ');
const hex = (h) => h.toString(16).padStart(16, '0');

test('native snapshot resumed in wasm, wasm snapshot resumed natively, same bytes', async () => {
  const ledge = await loadLedge();
  const file = path.join(tmp, 'native.snap');
  const [, savedHash] = native('snapshot_save', N, STEPS, file);
  const nativeBytes = new Uint8Array(fs.readFileSync(file));
  // The same run in wasm: the same hash, and the same bytes.
  const world = rainWorld(ledge, N);
  for (let k = 0; k < STEPS; ++k) world.step(1 / 60);
  assert.equal(hex(world.hash()), savedHash);
  const wasmBytes = world.save();
  assert.ok(wasmBytes instanceof Uint8Array);
  assert.deepEqual(wasmBytes, nativeBytes, 'wasm and native write the same snapshot');
  for (let k = 0; k < MORE; ++k) world.step(1 / 60);
  const straight = hex(world.hash());
  // Native -> wasm: a fresh wasm world restored from the native file.
  const other = rainWorld(ledge, N);
  other.restore(nativeBytes);
  assert.equal(hex(other.hash()), savedHash);
  for (let k = 0; k < MORE; ++k) other.step(1 / 60);
  assert.equal(hex(other.hash()), straight);
  // Wasm -> native.
  const wasmFile = path.join(tmp, 'wasm.snap');
  fs.writeFileSync(wasmFile, wasmBytes);
  const [, restored, resumed] = native('snapshot_resume', wasmFile, N, MORE);
  assert.equal(restored, savedHash);
  assert.equal(resumed, straight);
  // Rolling the first world back gives the straight run again.
  world.restore(wasmBytes);
  for (let k = 0; k < MORE; ++k) world.step(1 / 60);
  assert.equal(hex(world.hash()), straight);
  world.dispose();
  other.dispose();
});

test('a refused restore throws ledge\'s message and leaves the world as it was', async () => {
  const ledge = await loadLedge();
  const world = rainWorld(ledge, 50);
  for (let k = 0; k < 30; ++k) world.step(1 / 60);
  const good = world.save();
  for (let k = 0; k < 5; ++k) world.step(1 / 60);
  const before = world.hash();
  assert.throws(() => world.restore(good.subarray(0, good.length - 1)), /ledge_world_restore: .*truncated/);
  const bad = good.slice();
  bad[bad.length - 3] ^= 0x40;
  assert.throws(() => world.restore(bad), /ledge_world_restore: the snapshot is corrupted/);
  assert.throws(() => world.restore(new Uint8Array(0)), /ledge_world_restore: .*size 0/);
  assert.throws(() => world.restore([1, 2, 3]), TypeError);
  const smaller = new ledge.World({ width: 10, height: 10 });
  assert.throws(() => smaller.restore(good), /map is .* cells, this world's 10 x 10/);
  assert.equal(world.hash(), before);
  world.restore(good);
  assert.notEqual(world.hash(), before);
  smaller.dispose();
  world.dispose();
});

test('a rollback storm in wasm ends with the straight run\'s hash and bytes', async () => {
  const ledge = await loadLedge();
  const straight = rainWorld(ledge, 300);
  const hashes = [straight.hash()];
  for (let k = 0; k < 200; ++k) {
    straight.step(1 / 60);
    hashes.push(straight.hash());
  }
  const end = straight.save();
  const world = rainWorld(ledge, 300);
  const ring = [world.save()];
  let f = 0, seed = 12345, rollbacks = 0;
  while (f < 200) {
    world.step(1 / 60);
    ring[++f] = world.save();
    assert.equal(world.hash(), hashes[f]);
    seed = (seed * 48271) % 2147483647; // Park-Miller: every bit varies
    if (seed % 8 === 0 && f > 8) {
      f -= 1 + Math.floor(seed / 8) % 8;
      world.restore(ring[f]);
      rollbacks++;
    }
  }
  assert.ok(rollbacks > 10);
  assert.deepEqual(world.save(), end);
  straight.dispose();
  world.dispose();
});
