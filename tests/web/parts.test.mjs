// A platformer's moving parts through the binding (docs/web.md): a
// character pushing crates at the closed form's speed, materials (belts of
// bodies and of tiles, ice, the mix rule), and joints (a pendulum keeps its
// length and period, a rope holds a crate's weight, a character hangs and
// swings), with their refusals and Joint objects across snapshots.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadLedge } from './common.mjs';

const ledge = await loadLedge();
const { World, Tile, circle, box } = ledge;
const DT = Math.fround(1 / 60);
const v2 = (x, y) => ({ x, y });
const throwsLedge = (fn, pattern) =>
  assert.throws(fn, (e) => e instanceof Error && pattern.test(e.message), `expected ${pattern}`);

// The push scene of docs/character.md: a default world, a floor of FULL
// tiles, a character 0.6 x 0.9 running at 6 m/s.
const WALK = 6;
const PUSH = 0.6 * 0.9; // the character's push mass: its own shape at density 1
function floorWorld(def = {}) {
  const world = new World(def);
  for (let x = 0; x < 64; ++x) world.tilemap.set(x, 0, Tile.FULL);
  return world;
}
function hero(world, x, y, def) {
  const body = world.createBody({ type: 'kinematic', shape: box(0.3, 0.45), position: v2(x, y) });
  return world.createCharacter(body, def);
}
function runFrame(world, character, speed) {
  const s = character.state;
  character.move(v2(speed, s.velocity.y - 10 * DT), DT);
  world.step(DT);
}

test('pushing: a crate reaches w M / (M + f m) on a flat floor, and pushBodies false makes it a wall', () => {
  for (const f of [0, 0.3, 0.6]) {
    const world = floorWorld();
    const crate = world.createBody({ shape: box(0.5, 0.5), position: v2(10, 1.5), friction: f });
    const ch = hero(world, 8, 1.45);
    for (let k = 0; k < 120; ++k) runFrame(world, ch, WALK);
    const want = (WALK * PUSH) / (PUSH + f * crate.mass);
    assert.ok(Math.abs(crate.velocity.x - want) < 1e-3, `friction ${f}: ${crate.velocity.x} m/s, closed form ${want}`);
    const s = ch.state;
    assert.equal(s.pushing, true);
    assert.equal(s.pushedBody, crate);
    assert.equal(s.ceilingBody, null);
    world.dispose();
  }
  // A heavier push mass pushes faster: M = 10 against a crate of friction 0.6.
  {
    const world = floorWorld();
    const crate = world.createBody({ shape: box(0.5, 0.5), position: v2(10, 1.5), friction: 0.6 });
    const ch = hero(world, 8, 1.45, { pushMass: 10 });
    for (let k = 0; k < 120; ++k) runFrame(world, ch, WALK);
    const want = (WALK * 10) / (10 + 0.6 * crate.mass);
    assert.ok(Math.abs(crate.velocity.x - want) < 1e-3, `push mass 10: ${crate.velocity.x}, closed form ${want}`);
    world.dispose();
  }
  // pushBodies false: the crate is a wall the character stops at.
  {
    const world = floorWorld();
    const crate = world.createBody({ shape: box(0.5, 0.5), position: v2(10, 1.5) });
    const ch = hero(world, 8, 1.45, { pushBodies: false });
    for (let k = 0; k < 60; ++k) runFrame(world, ch, WALK);
    assert.ok(Math.abs(crate.position.x - 10) < 1e-4, `the crate moved to ${crate.position.x}`);
    const s = ch.state;
    assert.equal(s.pushing, false);
    assert.equal(s.pushedBody, null);
    assert.equal(s.onWall, true);
    world.dispose();
  }
  // A crate dropped on the character rests on it: ceilingBody says which.
  {
    const world = floorWorld();
    const ch = hero(world, 8, 1.45);
    const crate = world.createBody({ shape: box(0.3, 0.3), position: v2(8, 3) });
    for (let k = 0; k < 90; ++k) runFrame(world, ch, 0);
    const s = ch.state;
    assert.equal(s.ceilingBody, crate);
    assert.equal(s.onCeiling, true);
    world.dispose();
  }
  const world = floorWorld();
  const body = world.createBody({ type: 'kinematic', shape: box(0.3, 0.45), position: v2(8, 1.45) });
  throwsLedge(() => world.createCharacter(body, { pushMass: -1 }), /push_mass/);
  world.dispose();
});

test('materials: the mix rule, refusals, and what bodies, tile ids and cells report', () => {
  const d = ledge.defaultMaterial();
  assert.deepEqual(d, { friction: 1, bounce: 0, surfaceSpeed: 0, frictionMix: 'min' });
  const f = Math.fround;
  for (const [fa, fb] of [[0.2, 0.8], [0, 1], [0.5, 0.5], [0.3, 0.9]]) {
    const mix = (ma, mb) => ledge.mixMaterials({ friction: fa, frictionMix: ma, bounce: 0.1, surfaceSpeed: 1 },
      { friction: fb, frictionMix: mb, bounce: 0.4, surfaceSpeed: -3 });
    const mean = mix('mean', 'mean');
    assert.ok(Math.abs(mean.friction - Math.sqrt(f(fa) * f(fb))) < 1e-6);
    assert.equal(mean.frictionMix, 'mean');
    assert.equal(mean.bounce, f(0.4));
    assert.equal(mean.surfaceSpeed, -2);
    assert.equal(mix('min', 'mean').friction, f(Math.min(fa, fb)));
    assert.equal(mix('mean', 'min').frictionMix, 'min');
    assert.equal(mix('max', 'min').friction, f(Math.max(fa, fb)));
    assert.equal(mix('min', 'max').frictionMix, 'max');
  }
  assert.equal(ledge.materialIsValid({ friction: 0.5 }), true);
  assert.equal(ledge.materialIsValid({ friction: 1.5 }), false);
  assert.equal(ledge.materialIsValid({ surfaceSpeed: Infinity }), false);
  assert.throws(() => ledge.mixMaterials({ frictionMix: 'sideways' }, {}), TypeError);

  const world = floorWorld();
  const m = world.tilemap;
  const ice = { friction: 0, frictionMix: 'min' };
  m.setCellMaterial(3, 0, ice);
  assert.equal(m.cellHasMaterial(3, 0), true);
  assert.equal(m.cellHasMaterial(4, 0), false);
  assert.deepEqual(m.cellMaterial(3, 0), { friction: 0, bounce: 0, surfaceSpeed: 0, frictionMix: 'min' });
  m.setTileMaterial(Tile.FULL, { friction: 0.5, bounce: 0.25 });
  assert.deepEqual(m.tileMaterial(Tile.FULL), { friction: 0.5, bounce: 0.25, surfaceSpeed: 0, frictionMix: 'min' });
  assert.equal(m.cellMaterial(4, 0).friction, 0.5);
  assert.equal(m.cellMaterial(3, 0).friction, 0); // its own wins
  m.setCellMaterial(3, 0, null);
  assert.equal(m.cellHasMaterial(3, 0), false);
  assert.equal(m.cellMaterial(3, 0).friction, 0.5);
  m.setCellMaterial(5, 0, ice);
  m.reserveCellMaterials(64);
  m.clearCellMaterials();
  assert.equal(m.cellHasMaterial(5, 0), false);
  throwsLedge(() => m.setCellMaterial(2, 0, { friction: 2 }), /material/);
  throwsLedge(() => m.setCellMaterial(-5, 0, ice), /./);
  throwsLedge(() => m.setTileMaterial(Tile.EMPTY, ice), /./);
  throwsLedge(() => m.setTileMaterial(99, ice), /./);

  const b = world.createBody({ shape: box(0.5, 0.5), position: v2(10, 1.5), friction: 0.4, surfaceSpeed: 2, frictionMix: 'max' });
  assert.deepEqual(b.material, { friction: f(0.4), bounce: 0, surfaceSpeed: 2, frictionMix: 'max' });
  b.surfaceSpeed = -1;
  assert.equal(b.surfaceSpeed, -1);
  b.material = { friction: 0.1, bounce: 0.5 };
  assert.deepEqual(b.material, { friction: f(0.1), bounce: 0.5, surfaceSpeed: 0, frictionMix: 'min' });
  throwsLedge(() => { b.surfaceSpeed = NaN; }, /surface/);
  throwsLedge(() => { b.material = { bounce: -1 }; }, /material/);
  throwsLedge(() => world.createBody({ shape: box(0.5, 0.5), surfaceSpeed: 2e6 }), /surface_speed/);
  world.dispose();
});

test('materials: belts of bodies and of tiles carry a crate at their speed, ice lets it slide', () => {
  // A static belt body (surface speed 1.5) and a kinematic one moving at 0.5:
  // the crate goes at 1.5 and 2, y up and y down (where the tangent turns).
  for (const yDown of [false, true]) {
    for (const kinematic of [false, true]) {
      const sy = yDown ? -1 : 1;
      const world = new World({ gravity: v2(0, -10 * sy), width: 128 });
      const belt = world.createBody({
        type: kinematic ? 'kinematic' : 'static', shape: box(40, 0.25), position: v2(50, 30),
        friction: 0.5, surfaceSpeed: 1.5, velocity: v2(kinematic ? 0.5 : 0, 0),
      });
      const crate = world.createBody({ shape: box(0.3, 0.3), friction: 0.5, position: v2(40, 30 + sy * (0.25 + 0.3 - 0.004)) });
      for (let k = 0; k < 120; ++k) world.step(DT);
      const want = (kinematic ? 0.5 : 0) + 1.5 * sy;
      assert.ok(Math.abs(crate.velocity.x - want) < 1e-4, `${yDown ? 'y down' : 'y up'} ${kinematic ? 'kinematic' : 'static'}: ${crate.velocity.x}, want ${want}`);
      belt.surfaceSpeed = 0;
      for (let k = 0; k < 120; ++k) world.step(DT);
      assert.ok(Math.abs(crate.velocity.x - (kinematic ? 0.5 : 0)) < 1e-4);
      world.dispose();
    }
  }
  // A belt of tiles: every HALF_U cell of the row moves at 3 m/s; the crate
  // on it reaches 3 m/s, and a character standing on it reads its material.
  {
    const world = floorWorld();
    for (let x = 0; x < 64; ++x) world.tilemap.set(x, 1, Tile.HALF_U);
    world.tilemap.setTileMaterial(Tile.HALF_U, { friction: 0.5, surfaceSpeed: 3 });
    const crate = world.createBody({ shape: box(0.3, 0.3), friction: 0.5, position: v2(5, 1.8) });
    const ch = hero(world, 40, 1.95);
    for (let k = 0; k < 180; ++k) {
      runFrame(world, ch, 0);
    }
    assert.ok(Math.abs(crate.velocity.x - 3) < 1e-3, `the crate goes at ${crate.velocity.x} on a 3 m/s belt`);
    const s = ch.state;
    assert.equal(s.onFloor, true);
    assert.deepEqual(s.floorMaterial, { friction: 0.5, bounce: 0, surfaceSpeed: 3, frictionMix: 'min' });
    assert.ok(Math.abs(s.platformVelocity.x - 3) < 1e-5, `platform velocity ${s.platformVelocity.x}`);
    world.dispose();
  }
  // Ice: a crate of friction 1 sliding at 4 m/s keeps its speed on cells of
  // friction 0 (mixed by min), and stops on the default floor.
  for (const icy of [true, false]) {
    const world = floorWorld();
    if (icy) for (let x = 0; x < 64; ++x) world.tilemap.setCellMaterial(x, 0, { friction: 0 });
    const crate = world.createBody({ shape: box(0.5, 0.5), friction: 1, position: v2(5, 1.5), velocity: v2(4, 0) });
    for (let k = 0; k < 60; ++k) world.step(DT);
    if (icy) assert.ok(Math.abs(crate.velocity.x - 4) < 1e-4, `on ice ${crate.velocity.x}`);
    else assert.ok(Math.abs(crate.velocity.x) < 1e-4, `on the default floor ${crate.velocity.x}`);
    world.dispose();
  }
});

test('joints: a pendulum keeps its length and swings with 2 pi sqrt(L / g)', () => {
  for (const type of ['rod', 'rope']) {
    for (const L of [0.5, 1, 3]) {
      const world = new World({ gravity: v2(0, -10), width: 32, height: 32 });
      const pivot = v2(16, 20);
      const th = 0.1;
      const bob = world.createBody({ shape: circle(0.1), position: v2(pivot.x + L * Math.sin(th), pivot.y - L * Math.cos(th)) });
      const joint = world.createJoint({ type, anchorA: pivot, bodyB: bob, length: L });
      assert.equal(joint.type, type);
      assert.equal(joint.bodyA, null);
      assert.equal(joint.bodyB, bob);
      assert.deepEqual(joint.anchorA, pivot);
      let prev = bob.position.x - pivot.x, first = -1, last = -1, cross = 0, stretch = 0;
      for (let k = 0; k < 20 * 60; ++k) {
        world.step(DT);
        const p = bob.position;
        const r = Math.hypot(p.x - pivot.x, p.y - pivot.y);
        stretch = Math.max(stretch, Math.abs(r - L), Math.abs(joint.currentLength - L));
        const x = p.x - pivot.x;
        if ((prev < 0 && x >= 0) || (prev > 0 && x <= 0)) {
          const t = (k + prev / (prev - x)) * DT;
          if (first < 0) first = t;
          last = t;
          cross++;
        }
        prev = x;
      }
      const period = (2 * (last - first)) / (cross - 1);
      const want = 2 * Math.PI * Math.sqrt(L / 10);
      assert.ok(Math.abs(period / want - 1) < 0.01, `${type} of ${L} m: period ${period}, 2 pi sqrt(L / g) ${want}`);
      assert.ok(stretch < 0.005, `${type} of ${L} m: the length moved by ${stretch}`);
      world.dispose();
    }
  }
});

test('joints: a rope holds a crate\'s weight, setters, refusals, destroy, debug draw', () => {
  const world = new World({ gravity: v2(0, -10), width: 32, height: 32 });
  const crate = world.createBody({ shape: box(0.5, 0.5), position: v2(10, 18) });
  const rope = world.createJoint({ type: 'rope', anchorA: v2(10, 20), bodyB: crate, length: 2.5, userData: 'hook' });
  assert.equal(rope.userData, 'hook');
  assert.equal(world.jointCount, 1);
  for (let k = 0; k < 120; ++k) world.step(DT);
  const weight = crate.mass * 10;
  assert.ok(Math.abs(rope.force.y - weight) < 0.01 * weight && Math.abs(rope.force.x) < 1e-3, `force ${JSON.stringify(rope.force)}, weight ${weight}`);
  assert.ok(Math.abs(crate.position.y - 17.5) < 0.005, `the crate hangs at ${crate.position.y}`);
  // A grappling hook climbs: the length set is the length kept.
  rope.length = 1.5;
  assert.equal(rope.length, 1.5);
  for (let k = 0; k < 120; ++k) world.step(DT);
  assert.ok(Math.abs(rope.currentLength - 1.5) < 0.005, `climbed to ${rope.currentLength}`);
  rope.setLimits(0.5, 1.5);
  assert.equal(rope.def.minLength, 0.5);
  assert.equal(rope.def.type, 'rope');
  assert.deepEqual(crate.joints(), [rope]);
  throwsLedge(() => rope.setSpring(2, 0.5), /./);
  throwsLedge(() => rope.setMotor(true, 1, 10), /./);
  throwsLedge(() => { rope.length = -1; }, /./);
  rope.collideConnected = true;
  assert.equal(rope.collideConnected, true);

  // Every kind, made from its defaults.
  const a = world.createBody({ shape: box(0.3, 0.3), position: v2(5, 10), gravityScale: 0 });
  const b = world.createBody({ shape: box(0.3, 0.3), position: v2(7, 10), gravityScale: 0 });
  for (const type of ['rod', 'rope', 'spring', 'weld', 'slider', 'pulley']) {
    const j = world.createJoint({ type, bodyA: a, bodyB: b });
    assert.equal(j.type, type);
    assert.equal(j.bodyA, a);
  }
  const spring = a.joints().find((j) => j.type === 'spring');
  spring.setSpring(4, 0.7);
  assert.equal(spring.def.hertz, 4);
  const slider = a.joints().find((j) => j.type === 'slider');
  slider.setMotor(true, 1, 50);
  assert.equal(slider.def.enableMotor, true);
  assert.equal(world.jointCount, 7);

  // Refusals: ledge's message, nothing made.
  throwsLedge(() => world.createJoint({ type: 'rope' }), /./); // two null bodies
  throwsLedge(() => world.createJoint({ type: 'rod', bodyA: a, bodyB: a }), /./);
  throwsLedge(() => world.createJoint({ type: 'spring', bodyB: a, hertz: 0 }), /hertz/);
  throwsLedge(() => world.createJoint({ type: 'slider', bodyB: a, axis: v2(0, 0) }), /axis/);
  assert.throws(() => world.createJoint({ type: 'chain', bodyB: a }), TypeError);
  assert.throws(() => world.createJoint({ bodyB: {} }), TypeError);
  assert.equal(world.jointCount, 7);

  // The debug draw draws joints unless told not to.
  const segs = (o) => world.debugDraw({ tiles: false, bodies: false, contacts: false, normals: false, ...o }).segments.length;
  assert.ok(segs({}) > segs({ joints: false }), 'joints drawn');

  // A joint dies with its body; a destroyed joint is invalid.
  b.destroy();
  assert.equal(world.jointCount, 1);
  assert.equal(spring.valid, false);
  throwsLedge(() => spring.currentLength, /./);
  rope.destroy();
  assert.equal(rope.valid, false);
  assert.equal(world.jointCount, 0);
  world.dispose();
  assert.equal(rope.valid, false);
});

test('joints: Joint objects name the same ids across snapshots; a character hangs and swings', () => {
  const world = new World({ gravity: v2(0, -10), width: 32, height: 32 });
  const L = 3, th = 0.1, pivot = v2(16, 20);
  const body = world.createBody({ type: 'kinematic', shape: box(0.3, 0.45), position: v2(pivot.x + L * Math.sin(th), pivot.y - L * Math.cos(th)) });
  const ch = world.createCharacter(body);
  const rope = world.createJoint({ anchorA: pivot, bodyB: body, length: L });
  let s = ch.state;
  assert.equal(s.hanging, false, 'not before its first move');
  s = ch.move(v2(0, 0), DT);
  assert.equal(s.hanging, true);
  assert.equal(s.hangJoint, rope);
  assert.deepEqual(s.hangAnchor, pivot);
  const snap = world.save();
  let prev = s.position.x - pivot.x, first = -1, last = -1, cross = 0;
  for (let k = 0; k < 20 * 60; ++k) {
    s = ch.move(v2(s.velocity.x, s.velocity.y - 10 * DT), DT);
    world.step(DT);
    const x = s.position.x - pivot.x;
    if ((prev < 0 && x >= 0) || (prev > 0 && x <= 0)) {
      const t = (k + prev / (prev - x)) * DT;
      if (first < 0) first = t;
      last = t;
      cross++;
    }
    prev = x;
  }
  const period = (2 * (last - first)) / (cross - 1);
  const want = 2 * Math.PI * Math.sqrt(L / 10);
  assert.ok(Math.abs(period / want - 1) < 0.01, `the character swings with period ${period}, want ${want}`);
  const hash = world.hash();
  rope.destroy();
  assert.equal(rope.valid, false);
  assert.equal(ch.state.hanging, false);
  world.restore(snap);
  assert.equal(rope.valid, true, 'the Joint object is valid again after restoring');
  assert.equal(body.joints()[0], rope, 'the same Joint object');
  assert.equal(ch.state.hangJoint, rope);
  // The run replays to the same hash from the snapshot.
  s = ch.state;
  for (let k = 0; k < 20 * 60; ++k) {
    s = ch.move(v2(s.velocity.x, s.velocity.y - 10 * DT), DT);
    world.step(DT);
  }
  assert.equal(world.hash(), hash);
  world.dispose();
});
