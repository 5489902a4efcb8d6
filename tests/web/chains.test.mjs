// Chains in the JavaScript binding (docs/web.md, docs/chains.md): the
// chains' scene of tests/web/parity.c (a hill holding a crate and a
// walking character, a kinematic chain carrying a crate, rays, the box
// query, events, contacts, ground states, a snapshot) prints the C trace
// through the binding; a ray meets a chain from its solid side only; the
// point and box queries; a kinematic chain carries a character; Chain
// objects name the same ids across snapshots; refusals throw ledge's
// message and change nothing; the debug draw's chains.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { loadLedge, nativeReplay } from './common.mjs';
import { chainsTrace } from './parity.mjs';

const ledge = await loadLedge();
const { World, Chain, Tile, box } = ledge;
const v2 = (x, y) => ({ x, y });
const throwsLedge = (fn, pattern) =>
  assert.throws(fn, (e) => e instanceof Error && pattern.test(e.message), `expected ${pattern}`);

function floorWorld() {
  const world = new World({ gravity: v2(0, -10), width: 30, height: 12 });
  for (let x = 0; x < 30; ++x) world.tilemap.set(x, 0, Tile.FULL);
  return world;
}

test('the chains\' scene: the binding prints the C trace (a hill holds a crate and the character, a kinematic chain carries a crate)', (t) => {
  const STEPS = 200;
  const want = execFileSync(nativeReplay, ['chains', String(STEPS)], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const got = chainsTrace(ledge, STEPS);
  const a = want.split('\n');
  const b = got.split('\n');
  const k = a.findIndex((line, i) => line !== b[i]);
  assert.equal(k, -1, `line ${k + 1} differs:\n  C:  ${a[k]}\n  JS: ${b[k]}`);
  assert.equal(b.length, a.length);
  // The scene does what it claims.
  const heroOnHill = a.filter((l) => /^hero( \S+){4} T 1:0 /.test(l)).length;
  assert.ok(heroOnHill > 40, `the character walks on the hill (${heroOnHill} steps)`);
  const crates = a.filter((l) => l.startsWith('crate'));
  assert.ok(crates.some((l) => /^crate \S+ 405947ae 00000000 00000000 T 1:0 /.test(l)), 'crate a rests on the hill at y 3.4');
  assert.ok(crates.some((l) => /^crate( \S+){2} 3f800000 00000000 T 2:0 /.test(l)), 'crate b rides the lift to the right at 1 unit/s');
  assert.ok(crates.some((l) => /^crate( \S+){2} bf800000 00000000 T 2:0 /.test(l)), 'and back to the left');
  assert.ok(a.includes('touch 1:0 - 1:0'), 'crate a\'s touch with the hill is an event naming the chain');
  assert.ok(a.filter((l) => l.startsWith('down 3 - 1:0 0 ')).length >= 5, 'the ray from above hits the hill\'s first segment');
  assert.ok(a.filter((l) => l.startsWith('up 0 ')).length >= 5, 'the ray from behind passes through');
  assert.ok(a.some((l) => /^step 110 \S+ 1 F /.test(l)), 'the hill destroyed');
  const hash = (n) => a.find((l) => l.startsWith(`step ${n} `)).split(' ')[2];
  assert.equal(hash(120), hash(100), 'restored: the step after the restore repeats the step after the save');
  t.diagnostic(`${a.length - 1} lines agree`);
});

test('a ray meets a chain from its solid side only; includeChains; the point and box queries', () => {
  const world = new World({ gravity: v2(0, -10), width: 20, height: 10 });
  try {
    // A floor at y 2 drawn right to left (y up: its surface faces up).
    const floor = world.createChain({ points: [v2(15, 2), v2(5, 2)], userData: 'floor' });
    const down = world.raycast(v2(8, 6), v2(0, -8));
    assert.equal(down.kind, 'chain');
    assert.equal(down.chain, floor);
    assert.equal(down.segment, 0);
    assert.deepEqual([down.normal.x, down.normal.y], [0, 1]);
    assert.ok(Math.abs(down.point.y - 2) < 1e-6 && Math.abs(down.fraction - 0.5) < 1e-6);
    assert.equal(world.raycast(v2(8, 1), v2(0, 8)), null, 'from behind: no hit');
    assert.equal(world.raycast(v2(8, 6), v2(0, -8), { includeChains: false }).kind, 'tile', 'includeChains false: the tile floor under it');
    const cast = world.shapeCast(box(0.5, 0.5), v2(8, 6), v2(0, -8));
    assert.equal(cast.kind, 'chain');
    assert.ok(Math.abs(cast.fraction - 3.5 / 8) < 1e-4);
    const near = world.nearestPoint(v2(9, 3), 5);
    assert.equal(near.kind, 'chain');
    assert.equal(near.chain, floor);

    // A counter-clockwise loop is an island (solid inside), a clockwise one a room.
    const island = world.createChain({ points: [v2(0, 0), v2(2, 0), v2(2, 2), v2(0, 2)], loop: true, position: v2(3, 5) });
    const room = world.createChain({ points: [v2(0, 0), v2(0, 3), v2(3, 3), v2(3, 0)], loop: true, position: v2(12, 5) });
    assert.equal(island.loop, true);
    assert.equal(island.segmentCount, 4);
    assert.deepEqual(world.queryChainsPoint(v2(4, 6)), [island, room], 'inside the island and outside the room');
    assert.deepEqual(world.queryChainsPoint(v2(13, 6)), [], 'inside the room: free space');
    assert.deepEqual(world.queryChainsPoint(v2(4, 6), { includeChains: false }), []);
    const hits = world.queryChainsAABB(v2(7, 1), v2(13, 3));
    assert.deepEqual(hits.map((h) => [h.chain.userData, h.segment]), [['floor', 0]]);
    const wide = world.queryChainsAABB(v2(2, 4), v2(16, 9));
    assert.deepEqual(wide.map((h) => [world === h.chain.world, h.segment]).length, 8, 'every segment of both loops');
    assert.equal(world.chainCount, 3);
  } finally {
    world.dispose();
  }
});

test('a kinematic chain carries a crate and a character; the character\'s floorChain, the ground\'s groundChain', () => {
  const world = floorWorld();
  try {
    const lift = world.createChain({ points: [v2(2, 0), v2(-2, 0)], type: 'kinematic', position: v2(10, 4), velocity: v2(1.5, 0) });
    assert.equal(lift.type, 'kinematic');
    const crate = world.createBody({ type: 'dynamic', shape: box(0.3, 0.3), position: v2(9, 4.31), friction: 1 });
    const hero = world.createBody({ type: 'kinematic', shape: box(0.3, 0.45), position: v2(11, 4.46) });
    const ch = world.createCharacter(hero);
    const dt = 1 / 60;
    let st;
    for (let k = 0; k < 60; ++k) {
      const vel = { x: 0, y: ch.state.velocity.y - 10 * dt };
      st = ch.move(vel, dt);
      world.step(dt);
    }
    assert.equal(st.onFloor, true);
    assert.equal(st.floorChain, lift);
    assert.equal(st.floorBody, null);
    assert.ok(Math.abs(st.platformVelocity.x - 1.5) < 1e-4, `the platform's velocity is the chain's (${st.platformVelocity.x})`);
    assert.ok(Math.abs(hero.position.x - 12.5) < 0.05, `the character rode 1.5 units (${hero.position.x})`);
    const g = crate.ground();
    assert.equal(g.onGround, true);
    assert.equal(g.groundChain, lift);
    assert.ok(crate.position.x > 10.3 && crate.position.x < 10.55, `the crate rode along (${crate.position.x})`);
    assert.ok(Math.abs(crate.velocity.x - 1.5) < 1e-3);
    const c = crate.contacts().get(0);
    assert.equal(c.chain, lift);
    assert.equal(c.other, null);
    assert.ok(Math.abs(lift.position.x - 11.5) < 1e-4);

    // setTarget: there in one step; position set: a teleport.
    lift.setTarget(v2(12, 4.5), dt);
    world.step(dt);
    assert.ok(Math.abs(lift.position.x - 12) < 1e-4 && Math.abs(lift.position.y - 4.5) < 1e-4);
    lift.position = v2(5, 5);
    assert.deepEqual(lift.position, v2(5, 5));
  } finally {
    world.dispose();
  }
});

test('Chain objects: the same object for the same id, valid across snapshots as in C; getters and setters', () => {
  const world = floorWorld();
  try {
    const a = world.createChain({ points: [v2(6, 1), v2(4, 2), v2(2, 1)], userData: 'a' });
    const b = world.createChain({
      points: [v2(1, 0), v2(-1, 0)], type: 'kinematic', position: v2(20, 3),
      filter: { category: 2, mask: 5, group: -1 }, material: { friction: 0.2, bounce: 0.4, surfaceSpeed: 1, frictionMix: 'max' },
    });
    assert.ok(a instanceof Chain && a.valid && b.valid);
    assert.deepEqual(a.points(), [v2(6, 1), v2(4, 2), v2(2, 1)]);
    assert.equal(a.segmentCount, 2);
    const s = a.segment(1);
    assert.deepEqual([s.from, s.to], [v2(4, 2), v2(2, 1)]);
    assert.ok(Math.abs(Math.hypot(s.normal.x, s.normal.y) - 1) < 1e-6 && s.normal.y > 0, 'the surface faces up');
    const f = b.filter;
    assert.deepEqual([f.category, f.mask, f.group], [2n, 5n, -1]);
    const m = b.material;
    assert.deepEqual([m.friction, m.bounce, m.surfaceSpeed, m.frictionMix], [Math.fround(0.2), Math.fround(0.4), 1, 'max']);
    b.material = { friction: 0 };
    assert.deepEqual(b.material, { friction: 0, bounce: 0, surfaceSpeed: 0, frictionMix: 'min' });
    b.filter = { category: 4 };
    assert.equal(b.filter.category, 4n);

    const snap = world.save();
    a.destroy();
    assert.equal(a.valid, false);
    assert.equal(world.chainCount, 1);
    const c = world.createChain({ points: [v2(9, 1), v2(8, 1)] });
    assert.equal(c._id[0], a._id[0], 'the slot is used again');
    assert.notEqual(c, a);
    world.restore(snap);
    assert.equal(a.valid, true, 'the restored world has chain a again');
    assert.equal(c.valid, false);
    assert.equal(world.chainCount, 2);
    const hit = world.raycast(v2(4, 5), v2(0, -4));
    assert.equal(hit.chain, a, 'hits name the same Chain object');
    assert.equal(hit.chain.userData, 'a');
    assert.ok(world.queryChainsAABB(v2(19, 2), v2(21, 4))[0].chain === b);
    assert.equal(b.material.friction, 0, 'the restored chain\'s material');
    assert.ok(a.equals(hit.chain) && !a.equals(b));
  } finally {
    world.dispose();
  }
});

test('chain refusals throw ledge\'s message and change nothing', () => {
  const world = floorWorld();
  try {
    const a = world.createChain({ points: [v2(6, 1), v2(2, 1)] });
    const before = world.hash();
    throwsLedge(() => world.createChain({ points: [v2(0, 0)] }), /ledge_chain_create: .*count is 1/);
    throwsLedge(() => world.createChain({ points: [v2(0, 0), v2(1, 0)], loop: true }), /count is 2 \(must be 3\.\.\d+ for a closed chain\)/);
    throwsLedge(() => world.createChain({ points: [v2(0, 0), v2(1, 0), v2(1, 0), v2(2, 0)] }), /ledge_chain_create: segment 1, .* is 0 long/);
    throwsLedge(() => world.createChain({ points: [v2(0, 0), v2(4, 0), v2(4, 1), v2(2, -1)] }), /segments 0 and 2 of the chain cross or touch/);
    throwsLedge(() => world.createChain({ points: [v2(0, 0), v2(1, 0)], type: 'dynamic' }), /a chain is static or kinematic/);
    throwsLedge(() => world.createChain({ points: [v2(0, 0), v2(NaN, 0)] }), /points\[1\] is \(nan, 0\) \(must be finite/);
    throwsLedge(() => world.createChain({ points: [v2(0, 0), v2(1, 0)], material: { friction: 2 } }), /def->material is friction 2/);
    assert.throws(() => world.createChain({ points: [v2(0, 0), { x: 1 }] }), TypeError);
    assert.throws(() => world.createChain({}), TypeError);
    assert.equal(world.chainCount, 1, 'nothing made');
    throwsLedge(() => { a.velocity = v2(1, 0); }, /static/);
    throwsLedge(() => a.setTarget(v2(1, 0), 1 / 60), /static/);
    throwsLedge(() => a.segment(1), /ledge_chain_segment: index is 1 \(the chain has 1 segments\)/);
    throwsLedge(() => { a.material = { bounce: -1 }; }, /ledge_chain_set_material: material->bounce is -1/);
    throwsLedge(() => world.queryChainsAABB(v2(1, 1), v2(0, 0)), /ledge_world_query_chains_aabb: aabb is/);
    assert.deepEqual(a.velocity, v2(0, 0));
    assert.equal(a.material.bounce, 0);
    assert.equal(world.hash(), before, 'the world unchanged');
    a.destroy();
    throwsLedge(() => a.destroy(), /ledge_chain_destroy: chain id \{1, 0\} is stale/);
    throwsLedge(() => a.position, /chain/);
    throwsLedge(() => a.points(), /ledge_chain_points/);
    world.dispose();
    assert.equal(a.valid, false);
    assert.throws(() => a.position, /disposed/);
  } finally {
    world.dispose();
  }
});

test('the debug draw draws the chains unless told not to', () => {
  const world = new World({ gravity: v2(0, -10), width: 20, height: 10 });
  try {
    world.createChain({ points: [v2(15, 2), v2(10, 3), v2(5, 2)] });
    const on = world.debugDraw({ tiles: false, bodies: false, normals: false });
    const off = world.debugDraw({ tiles: false, bodies: false, normals: false, chains: false });
    assert.equal(on.segments.length - off.segments.length, 2, 'one segment per chain segment');
    assert.ok(on.segments.some((s) => s.p1.x === 15 && s.p1.y === 2 && s.p2.x === 10 && s.p2.y === 3));
  } finally {
    world.dispose();
  }
});
