// The binding's API beyond bodies (docs/web.md): Tiled objects from the
// JavaScript loader equal the C loader's; the new calls' refusals throw
// ledge's message; an exception in the pre-solve callback is thrown after
// the step; Body and Character objects name the same ids across snapshots;
// the views of events and contacts read what their records read; reading
// events and contacts every step allocates nothing on the JavaScript heap;
// what the pre-solve callback costs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { loadLedge, nativeReplay, rainWorld, root } from './common.mjs';
import { tiledTrace } from './parity.mjs';
import { objectsMap } from './tiled_map.mjs';

const ledge = await loadLedge();
const { World, Tile, circle, box } = ledge;
const here = path.dirname(new URL(import.meta.url).pathname);

function room() {
  const world = new World({ gravity: { x: 0, y: -10 }, width: 16, height: 8 });
  for (let x = 0; x < 16; ++x) world.tilemap.set(x, 0, Tile.FULL);
  for (let y = 0; y < 8; ++y) {
    world.tilemap.set(0, y, Tile.FULL);
    world.tilemap.set(15, y, Tile.FULL);
  }
  return world;
}
const throwsLedge = (fn, pattern) =>
  assert.throws(fn, (e) => e instanceof Error && pattern.test(e.message), `expected ${pattern}`);

test('Tiled objects: the JavaScript loader makes the bodies the C loader makes (two maps, y up and y down)', (t) => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ledge-tiled-'));
  t.after(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const objects = path.join(tmp, 'objects.tmj');
  fs.writeFileSync(objects, JSON.stringify(objectsMap()));
  const level = path.join(root, 'samples/level.tmj');
  const tilesets = { 'ledge_tiles.tsj': JSON.parse(fs.readFileSync(path.join(root, 'samples/ledge_tiles.tsj'), 'utf8')) };
  for (const [file, map] of [[level, JSON.parse(fs.readFileSync(level, 'utf8'))], [objects, objectsMap()]]) {
    for (const yDown of [false, true]) {
      const c = execFileSync(nativeReplay, ['tiled_world', file, ...(yDown ? ['y_down'] : [])], { encoding: 'utf8' });
      const js = tiledTrace(ledge, map, yDown, tilesets);
      const a = c.split('\n');
      const b = js.split('\n');
      const k = a.findIndex((line, i) => line !== b[i]);
      assert.equal(k, -1, `${path.basename(file)} y ${yDown ? 'down' : 'up'}: line ${k + 1}\n  C:  ${a[k]}\n  JS: ${b[k]}`);
      assert.ok(a.filter((l) => l.startsWith('body')).length >= 10, 'bodies were made');
    }
  }
  const { world, result } = World.fromTiled(objectsMap());
  try {
    const spawn = result.findObject('spawn');
    assert.deepEqual(spawn.properties, { i: 7, f: 0.25, s: 'x', c: '#ff00ff00', file: 'a.png', o: 3, b: true, k: { a: 1 } });
    assert.equal(result.findObject('ell').bodies.length > 1, true, 'the concave polygon was cut into pieces');
    assert.equal(result.findObject('zone').bodies[0].userData, result.findObject('zone'), 'a body knows its object');
    assert.equal(result.findObject('nothing'), null);
    // Polylines and chain polygons made chains, the path names its route.
    const hill = result.findObject('hill');
    assert.ok(hill.chain instanceof ledge.Chain && hill.chain.userData === hill);
    assert.equal(hill.shape, 'polyline');
    assert.equal(hill.bodies.length, 0);
    assert.equal(result.chains.length, 5);
    assert.equal(world.chainCount, 5);
    assert.equal(result.findObject('rock').chain.loop, true);
    const raft = result.findObject('raft');
    const route = result.findObject('route');
    assert.equal(raft.chain.type, 'kinematic');
    assert.equal(result.objects[raft.path], route);
    assert.equal(route.isPath, true);
    assert.equal(route.chain, null);
    assert.equal(route.points.length, 3);
    const n = hill.chain.segment(0).normal;
    assert.ok(n.y > 0, 'the hill faces up');
    assert.ok(result.findObject('ceiling').chain.segment(0).normal.y < 0, 'the ceiling faces down');
  } finally {
    world.dispose();
  }
  // Refusals name the object, as the C loader's do; the world is not made.
  const bad = objectsMap();
  bad.layers[1].objects.push({ id: 99, name: 'line', x: 0, y: 0, polyline: [{ x: 0, y: 0 }] });
  throwsLedge(() => World.fromTiled(bad), /object 99 'line': polyline has 1 points \(must be 2\.\.4096\)/);
  const chainBad = (edit, pattern) => {
    const m = objectsMap();
    edit(m.layers[3].objects);
    throwsLedge(() => World.fromTiled(m), pattern);
  };
  chainBad((o) => { o[0].properties = [{ name: 'body', type: 'string', value: 'dynamic' }]; }, /object 13 'hill': a chain is static or kinematic, never dynamic/);
  chainBad((o) => { o[0].properties = [{ name: 'facing', type: 'string', value: 'sideways' }]; }, /property 'facing' must be up, down, left or right/);
  chainBad((o) => { o[0].properties = [{ name: 'chain', type: 'bool', value: false }]; }, /a polyline is always a chain/);
  chainBad((o) => { o[5].properties[2].value = 99; }, /object 18 'raft': property 'path' names object 99, which the map does not have/);
  chainBad((o) => { o[5].properties[2].value = 13; }, /names object 13, which is not a path/);
  chainBad((o) => { o[0].polyline = [{ x: 0, y: 0 }, { x: 10, y: 0 }, { x: 10, y: 0 }]; }, /the world refused the chain of object 13: ledge_chain_create: segment 0, .* is 0 long/);
  const dyn = objectsMap();
  dyn.layers[1].objects[5].properties = [{ name: 'body', type: 'string', value: 'dynamic' }];
  throwsLedge(() => World.fromTiled(dyn), /a dynamic polygon must be convex/);
});

test('refusals of the characters, queries and distance calls throw ledge\'s message', () => {
  const world = room();
  try {
    const crate = world.createBody({ shape: box(0.4, 0.4), position: { x: 4, y: 2 } });
    const player = world.createBody({ type: 'kinematic', shape: box(0.3, 0.45), position: { x: 8, y: 1.46 } });
    const before = world.hash();
    throwsLedge(() => world.createCharacter(crate), /ledge_character_create/);
    const ch = world.createCharacter(player);
    throwsLedge(() => world.createCharacter(player), /already/);
    throwsLedge(() => ch.move({ x: 1, y: 0 }, 0), /dt/);
    throwsLedge(() => ch.move({ x: NaN, y: 0 }, 1 / 60), /velocity/);
    throwsLedge(() => (ch.velocity = { x: Infinity, y: 0 }), /ledge_character_set_velocity/);
    throwsLedge(() => (ch.def = { move: { maxSlides: 0 } }), /ledge_character_set_def: def->move is invalid/);
    throwsLedge(() => world.nearest(circle(0.2), { x: 4, y: 4 }, -1), /ledge_world_nearest/);
    throwsLedge(() => world.nearestPoint({ x: NaN, y: 4 }, 1), /ledge_world_nearest_point/);
    throwsLedge(() => world.tilemap.distance(circle(0.2), { x: 4, y: 4 }, -1), /ledge_tilemap_distance/);
    throwsLedge(() => ledge.shapeDistance(circle(-1), { x: 0, y: 0 }, circle(1), { x: 3, y: 0 }), /radius/);
    throwsLedge(() => ledge.tileOutline(40), /ledge_tile_outline_get/);
    throwsLedge(() => ledge.decompose([{ x: 0, y: 0 }, { x: 1, y: 1 }, { x: 1, y: 0 }, { x: 0, y: 1 }]), /ledge_decompose/);
    throwsLedge(() => world.raycastAll({ x: 1, y: 1 }, { x: NaN, y: 0 }, undefined, () => 1), /ledge_world_raycast_all/);
    throwsLedge(() => world.tilemap.queryRegion({ x: 5, y: 5 }, { x: 1, y: 1 }), /ledge_tilemap_query_region/);
    assert.equal(world.hash(), before, 'refused calls left the world as it was');
    ch.destroy();
    assert.equal(ch.valid, false);
    throwsLedge(() => ch.move({ x: 1, y: 0 }, 1 / 60), /not a character|ledge_character_move/);
    crate.destroy();
    throwsLedge(() => crate.contacts(), /ledge_body_contacts/);
    throwsLedge(() => crate.ground(), /ledge_body_ground/);
    assert.throws(() => world.setPreSolve(42), TypeError);
  } finally {
    world.dispose();
  }
  assert.throws(() => world.events, /disposed/);
});

test('pre-solve: the answer is applied, an exception is thrown after the step, and what a call costs', (t) => {
  const make = () => {
    const world = room();
    const balls = [];
    for (let k = 0; k < 40; ++k) balls.push(world.createBody({ shape: circle(0.25), position: { x: 1.5 + (k % 12), y: 1.3 + 0.6 * Math.floor(k / 12) } }));
    return { world, balls };
  };
  const { world, balls } = make();
  try {
    let calls = 0;
    world.setPreSolve((body, other, cellX, cellY, normal, proposed) => {
      ++calls;
      assert.equal(typeof proposed, 'string');
      return other === null ? 'cross' : undefined; // every tile is passed through
    });
    for (let k = 0; k < 90; ++k) world.step(1 / 60);
    assert.ok(calls > 40, `${calls} calls`);
    assert.ok(balls.every((b) => b.position.y < 1), 'the balls fell into the floor');
  } finally {
    world.dispose();
  }
  const other = make();
  try {
    for (let k = 0; k < 30; ++k) other.world.step(1 / 60);
    other.world.setPreSolve(() => {
      throw new Error('from the callback');
    });
    assert.throws(() => other.world.step(1 / 60), /from the callback/);
    other.world.setPreSolve(null);
    other.world.step(1 / 60); // the world steps on
    assert.ok(other.balls.every((b) => b.position.y > 1), 'resting on the floor');
  } finally {
    other.world.dispose();
  }
  // The cost: the rain of 1,000 circles (tests/web/rain.mjs) stepped with
  // a callback that keeps every answer and without one, the best of five
  // alternated runs of each.
  const time = (withCallback) => {
    const w = rainWorld(ledge, 1000);
    let n = 0;
    for (let k = 0; k < 120; ++k) w.step(1 / 60); // landed
    if (withCallback) w.setPreSolve(() => { ++n; });
    const t0 = performance.now();
    for (let k = 0; k < 120; ++k) w.step(1 / 60);
    const ms = (performance.now() - t0) / 120;
    const h = w.hash();
    w.dispose();
    return { ms, calls: n / 120, h };
  };
  let off = null;
  let on = null;
  for (let r = 0; r < 5; ++r) {
    const a = time(false);
    const b = time(true);
    assert.equal(b.h, a.h, 'a callback that keeps every answer changes nothing');
    if (!off || a.ms < off.ms) off = a;
    if (!on || b.ms < on.ms) on = b;
  }
  const ns = ((on.ms - off.ms) * 1e6) / on.calls;
  t.diagnostic(`pre-solve callback, rain of 1,000: ${on.calls.toFixed(0)} calls a step, ${off.ms.toFixed(3)} ms a step without, ${on.ms.toFixed(3)} ms with: ${ns.toFixed(0)} ns a call`);
});

test('Body and Character objects name the same ids across snapshots, as in C', () => {
  const world = room();
  try {
    const player = world.createBody({ type: 'kinematic', shape: box(0.3, 0.45), position: { x: 3, y: 1.46 }, userData: 'me' });
    const ch = world.createCharacter(player);
    const crate = world.createBody({ shape: box(0.4, 0.4), position: { x: 6, y: 2 } });
    const snap = world.save();
    const later = world.createBody({ shape: circle(0.3), position: { x: 9, y: 3 } });
    crate.destroy();
    ch.destroy();
    assert.equal(crate.valid, false);
    world.restore(snap);
    assert.equal(crate.valid, true, 'destroyed after the save: valid again');
    assert.equal(later.valid, false, 'made after the save: invalid');
    assert.equal(ch.valid, true, 'the character is back');
    assert.equal(player.character, ch);
    assert.equal(world.queryPoint({ x: 6, y: 2 })[0], crate, 'queries give the same object');
    assert.equal(world.queryPoint({ x: 3, y: 1.46 })[0].userData, 'me');
    const again = world.createBody({ shape: circle(0.3), position: { x: 9, y: 3 } });
    assert.ok(again.equals(later) && again === later, 'made again in the same order: the same id, the same object');
    ch.move({ x: 1, y: -1 }, 1 / 60);
    assert.equal(ch.state.onFloor, true);
  } finally {
    world.dispose();
  }
});

test('events and contacts: records, toArray and the raw views agree; the profile', () => {
  const world = room();
  try {
    const boxes = [];
    for (let k = 0; k < 6; ++k) boxes.push(world.createBody({ shape: box(0.4, 0.4), position: { x: 3 + k, y: 1.5 + (k % 2) }, enableEvents: true }));
    world.enableProfile(true);
    let e = world.events;
    for (let k = 0; k < 30 && e.touchBegin.length === 0; ++k) {
      world.step(1 / 60);
      e = world.events;
    }
    assert.ok(world.profile.step > 0, 'the step was timed');
    assert.equal(e, world.events, 'the same object every time');
    assert.ok(e.touchBegin.length > 0);
    const all = e.touchBegin.toArray();
    for (let i = 0; i < e.touchBegin.length; ++i) {
      const r = e.touchBegin.get(i);
      assert.deepEqual({ a: r.a, b: r.b, cell: { ...r.cell }, chain: r.chain }, all[i]);
      const at = e.touchBegin.byteOffset + i * e.touchBegin.stride;
      assert.equal(e.touchBegin.u32[(at + e.touchBegin.fields.a) >> 2], r.a._id[0], 'the raw view');
      assert.equal(e.touchBegin.i32[(at + e.touchBegin.fields.cell) >> 2], r.cell.x);
    }
    const c = boxes[0].contacts();
    assert.ok(c.length > 0 && c.get(0).normal.y > 0.99 && c.get(0).other === null);
    assert.equal(boxes[0].ground().onGround, true);
    assert.ok(boxes[0].ground() === boxes[0].ground(), 'the same ground object, updated');
  } finally {
    world.dispose();
  }
});

test('reading events, contacts and ground states every step allocates nothing on the JavaScript heap', () => {
  const out = execFileSync(process.execPath, ['--expose-gc', '--min-semi-space-size=64', '--max-semi-space-size=64',
    path.join(here, 'alloc_probe.mjs')], { encoding: 'utf8' });
  const bytes = Object.fromEntries(out.trim().split('\n').map((l) => l.split(' ')).map(([k, v]) => [k, Number(v)]));
  for (const what of ['step', 'events', 'contacts']) assert.ok(bytes[what] < 8, `${what}: ${bytes[what]} bytes a step`);
  assert.ok(bytes.move < 64, `a character move: ${bytes.move} bytes`);
});
