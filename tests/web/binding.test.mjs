// The JavaScript binding (src/bindings/js/ledge.mjs): refusals throw
// ledge's message and leave the world as it was, 10,000 create/destroy
// cycles leak nothing, and the character move, queries, debug draw, sleeping,
// the response models and the Tiled loader give what the C library gives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { execFileSync } from 'node:child_process';
import { loadLedge, nativeReplay, root, rainWorld } from './common.mjs';

const ledge = await loadLedge();
const { World, Tile, circle, box } = ledge;

// A 16 x 8 room: floor row 0, walls at x = 0 and 15; `def` adds world def fields.
function room(def = {}) {
  const world = new World({ gravity: { x: 0, y: -10 }, width: 16, height: 8, ...def });
  for (let x = 0; x < 16; ++x) world.tilemap.set(x, 0, Tile.FULL);
  for (let y = 0; y < 8; ++y) {
    world.tilemap.set(0, y, Tile.FULL);
    world.tilemap.set(15, y, Tile.FULL);
  }
  return world;
}

function throwsLedge(fn, pattern) {
  assert.throws(fn, (e) => e instanceof Error && pattern.test(e.message), `expected ${pattern}`);
}

test('refusals throw Error with ledge message and change nothing', () => {
  throwsLedge(() => new World({ width: 0 }), /width is 0/);
  const world = room();
  try {
    const body = world.createBody({ shape: circle(0.4), position: { x: 4, y: 4 } });
    const before = world.hash();
    throwsLedge(() => world.createBody({ shape: circle(-1), position: { x: 2, y: 2 } }), /radius/);
    throwsLedge(() => world.createBody({ shape: circle(0.5), position: { x: NaN, y: 2 } }), /position/);
    throwsLedge(() => world.tilemap.set(99, 0, Tile.FULL), /ledge_tilemap_set/);
    throwsLedge(() => world.tilemap.set(1, 1, 40), /tile/);
    throwsLedge(() => world.step(-1), /dt/);
    throwsLedge(() => world.tilemap.loadAscii('#?#\n'), /ledge_tilemap_load_ascii/);
    throwsLedge(() => body.setTarget({ x: 1, y: 1 }, 0), /dt|kinematic/);
    throwsLedge(() => body.move({ x: NaN, y: 0 }), /ledge_body_move/);
    assert.equal(world.hash(), before, 'refused calls left the world as it was');
    assert.equal(world.bodyCount, 1);
    body.destroy();
    assert.equal(body.valid, false);
    throwsLedge(() => body.position, /ledge_body_position/);
    throwsLedge(() => (body.velocity = { x: 1, y: 0 }), /ledge_body_set_velocity/);
    assert.throws(() => world.createBody({ shape: { type: 'hexagon' } }), TypeError);
  } finally {
    world.dispose();
  }
  assert.throws(() => world.step(1 / 60), /disposed/);
});

test('whole-number fields given NaN, infinities or 1e12 are refused with the field named', () => {
  const fields = [
    ['width', /width is/],
    ['height', /height is/],
    ['bodyCapacity', /body_capacity/],
    ['iterations', /iterations is/],
    ['substeps', /substeps/],
    ['frictionLaw', /friction_?law/i], // negative: the binding's TypeError
  ];
  for (const [field, pattern] of fields) {
    for (const bad of [NaN, Infinity, -Infinity, 1e12, -1e12]) {
      throwsLedge(() => new World({ width: 8, height: 8, [field]: bad }), pattern);
    }
  }
  const world = room();
  try {
    const before = world.hash();
    for (const bad of [NaN, Infinity, 1e12]) {
      throwsLedge(() => world.createBody({ shape: circle(0.4), position: { x: 4, y: 4 }, type: bad }), /type/);
      throwsLedge(() => world.createBody({ shape: circle(0.4), position: { x: 4, y: 4 }, response: bad }), /response/);
    }
    assert.equal(world.hash(), before);
  } finally {
    world.dispose();
  }
});

test('10,000 create/destroy cycles leak no wasm memory', () => {
  const cycle = () => {
    const world = room();
    const a = world.createBody({ shape: circle(0.3), position: { x: 3, y: 3 } });
    world.createBody({ shape: box(0.3, 0.3), position: { x: 5, y: 3 } });
    world.step(1 / 60);
    a.destroy();
    world.raycast({ x: 5, y: 6 }, { x: 0, y: -5 });
    world.debugDraw();
    world.dispose();
  };
  for (let k = 0; k < 100; ++k) cycle(); // warm-up: the draw list, malloc's free lists
  const inUse = ledge.heapInUse();
  const heapBytes = ledge.module.HEAPU8.length;
  const world = room();
  const oneWorld = ledge.heapInUse() - inUse;
  world.dispose();
  assert.ok(oneWorld > 1000, `a world takes ${oneWorld} bytes, so a leak would show`);
  for (let k = 0; k < 10000; ++k) cycle();
  assert.equal(ledge.heapInUse(), inUse, 'bytes in use after 10,000 cycles');
  assert.equal(ledge.module.HEAPU8.length, heapBytes, 'the wasm heap did not grow');
});

test('character move: runs along the floor, stops at a wall, clips velocity', () => {
  const world = room();
  try {
    const player = world.createBody({ type: 'kinematic', shape: box(0.3, 0.45), position: { x: 3, y: 1.46 } });
    let r = player.move({ x: 0.1, y: -0.05 });
    assert.equal(r.onGround, true);
    assert.ok(Math.abs(r.position.x - 3.1) < 1e-5, `x ${r.position.x}`);
    assert.ok(Math.abs(r.position.y - 1.45) < 0.02, `y ${r.position.y}`);
    assert.equal(r.hits[r.groundHit].kind, 'tile');
    assert.equal(r.hits[r.groundHit].cell.y, 0);
    assert.ok(r.groundNormal.y > 0.99);
    for (let k = 0; k < 200; ++k) r = player.move({ x: 0.1, y: -0.01 });
    assert.equal(r.onWall, true);
    assert.equal(r.wallSide, 1);
    assert.ok(Math.abs(r.position.x - (15 - 0.3)) < 0.02, `against the wall at ${r.position.x}`);
    const v = ledge.clipVelocity(r, { x: 6, y: -1 });
    assert.ok(Math.abs(v.x) < 1e-6 && Math.abs(v.y) < 1e-6, `clipped ${v.x}, ${v.y}`);
    const up = ledge.clipVelocity(r, { x: -6, y: 10 });
    assert.deepEqual(up, { x: -6, y: 10 });
  } finally {
    world.dispose();
  }
});

test('queries meet one-way tiles as the filter says', () => {
  const world = room();
  try {
    world.tilemap.set(6, 3, Tile.FULL);
    world.tilemap.setOneWay(6, 3, 'up');
    // Sideways through the ledge: passes by default, stops with 'always'.
    const side = { x: 2.5, y: 3.5 };
    const right = { x: 13, y: 0 };
    const through = world.raycast(side, right);
    assert.equal(through.kind, 'tile');
    assert.deepEqual(through.cell, { x: 15, y: 3 });
    const solid = world.raycast(side, right, { oneWay: 'always' });
    assert.deepEqual(solid.cell, { x: 6, y: 3 });
    assert.ok(Math.abs(solid.point.x - 6) < 1e-5);
    // Falling onto its top: hit unless 'never'.
    const down = world.raycast({ x: 6.5, y: 6 }, { x: 0, y: -5.5 });
    assert.deepEqual(down.cell, { x: 6, y: 3 });
    assert.ok(Math.abs(down.point.y - 4) < 1e-5);
    assert.deepEqual(world.raycast({ x: 6.5, y: 6 }, { x: 0, y: -5.5 }, { oneWay: 'never' }).cell, { x: 6, y: 0 });
    assert.throws(() => world.raycast(side, right, { oneWay: 'sometimes' }));
  } finally {
    world.dispose();
  }
});

test('queries and debug draw see tiles and bodies', () => {
  const world = room();
  try {
    const ball = world.createBody({ shape: circle(0.5), position: { x: 8, y: 3 }, userData: 'ball' });
    const down = world.raycast({ x: 4.5, y: 6 }, { x: 0, y: -10 });
    assert.equal(down.kind, 'tile');
    assert.deepEqual(down.cell, { x: 4, y: 0 });
    assert.ok(Math.abs(down.point.y - 1) < 1e-5 && down.normal.y === 1);
    const hitBall = world.raycast({ x: 8, y: 7 }, { x: 0, y: -10 });
    assert.equal(hitBall.kind, 'body');
    assert.equal(hitBall.body, ball);
    assert.equal(hitBall.body.userData, 'ball');
    assert.ok(Math.abs(hitBall.point.y - 3.5) < 1e-4);
    const noTiles = world.raycast({ x: 4.5, y: 6 }, { x: 0, y: -10 }, { includeTiles: false });
    assert.equal(noTiles, null);
    assert.deepEqual(world.queryPoint({ x: 8.2, y: 3.1 }), [ball]);
    assert.deepEqual(world.queryPoint({ x: 9, y: 4 }), []);
    assert.deepEqual(world.queryAABB({ x: 7, y: 2 }, { x: 9, y: 4 }), [ball]);
    const cast = world.shapeCast(circle(0.25), { x: 4, y: 5 }, { x: 0, y: -10 });
    assert.equal(cast.kind, 'tile');
    assert.ok(Math.abs(cast.fraction * 10 - 3.75) < 0.01, `cast fraction ${cast.fraction}`);
    const d = world.debugDraw({ contacts: false, normals: false });
    // 16 + 2 * 7 non-empty cells: one outline each; the ball as a solid circle.
    assert.equal(d.polygons.filter((p) => p.color === 0x9a9a9a).length, 16 + 14);
    assert.equal(d.circles.length, 1);
    assert.deepEqual(d.circles[0].center, { x: 8, y: 3 });
    assert.equal(d.circles[0].radius, 0.5);
    // More bodies than any fixed buffer would hold: every one is found.
    const many = [];
    for (let k = 0; k < 300; ++k) many.push(world.createBody({ type: 'static', shape: circle(0.01), position: { x: 2 + (k % 20) * 0.5, y: 5 + Math.floor(k / 20) * 0.1 } }));
    const found = world.queryAABB({ x: 1, y: 4.5 }, { x: 13, y: 7 });
    assert.equal(found.length, 300);
    assert.deepEqual(new Set(found), new Set(many));
    many.forEach((b) => b.destroy());
    const none = world.debugDraw({ tiles: false, bodies: false });
    assert.equal(none.polygons.length + none.circles.length, 0);
  } finally {
    world.dispose();
  }
});

// Steps until `body` sleeps (at most `max` steps); the steps taken.
function stepsToSleep(world, body, max = 600) {
  let k = 0;
  for (; k < max && body.awake; ++k) world.step(1 / 60);
  return k;
}

test('sleeping: enableSleep, sleepTime, sleepSpeed, body.awake get and set, refusals', () => {
  const world = room({ enableSleep: true });
  try {
    const crate = world.createBody({ shape: box(0.4, 0.4), position: { x: 5, y: 3 } });
    const wall = world.createBody({ type: 'static', shape: box(0.5, 0.5), position: { x: 10, y: 3 } });
    assert.equal(crate.awake, true);
    assert.equal(wall.awake, true, 'only a sleeping dynamic body is not awake');
    // It falls ~0.57 s, then rests sleepTime (0.5 s, the default) before it sleeps.
    const n = stepsToSleep(world, crate);
    assert.ok(n > 55 && n < 75, `asleep after ${n} steps`);
    assert.equal(crate.awake, false);
    assert.equal(crate.frozen, false, 'sleeping is not frozen');
    assert.deepEqual(crate.velocity, { x: 0, y: 0 });
    const rest = crate.position;
    assert.ok(Math.abs(rest.y - 1.4) < 0.01, `on the floor at ${rest.y}`);
    const hash = world.hash();
    for (let k = 0; k < 60; ++k) world.step(1 / 60);
    assert.equal(crate.awake, false);
    assert.deepEqual(crate.position, rest, 'a sleeping body stays put bit for bit');
    assert.equal(world.hash(), hash);
    // Woken by the game: awake, then asleep again after sleepTime of rest.
    crate.awake = true;
    assert.equal(crate.awake, true);
    world.step(1 / 60);
    assert.equal(crate.awake, true, 'the rest timer starts again');
    const again = stepsToSleep(world, crate);
    assert.ok(again >= 28 && again <= 31, `asleep again after ${again} steps (0.5 s)`);
    // Put to sleep in mid-air (after a step there, so that its contacts of
    // the last step, which it keeps, are none): it hangs until woken, then falls.
    crate.position = { x: 5, y: 5 };
    assert.equal(crate.awake, true, 'setting the position wakes it');
    world.step(1 / 60);
    assert.ok(crate.velocity.y < 0);
    crate.awake = false;
    assert.equal(crate.awake, false);
    assert.deepEqual(crate.velocity, { x: 0, y: 0 }, 'put to sleep: velocity 0');
    const hang = crate.position;
    for (let k = 0; k < 30; ++k) world.step(1 / 60);
    assert.deepEqual(crate.position, hang);
    crate.awake = true;
    world.step(1 / 60);
    assert.ok(crate.position.y < hang.y, `falls once woken (y ${crate.position.y})`);
    // Refusals: static bodies cannot sleep; awake takes a boolean.
    const before = world.hash();
    throwsLedge(() => (wall.awake = false), /ledge_body_set_awake: .*cannot sleep \(it is not dynamic\)/);
    assert.throws(() => (crate.awake = 'no'), TypeError);
    assert.equal(world.hash(), before);
    assert.equal(crate.awake, true);
  } finally {
    world.dispose();
  }
  // Without enableSleep (the default) nothing sleeps, and putting a body to sleep is refused.
  const plain = room();
  try {
    const crate = plain.createBody({ shape: box(0.4, 0.4), position: { x: 5, y: 3 } });
    assert.equal(stepsToSleep(plain, crate, 200), 200);
    const before = plain.hash();
    throwsLedge(() => (crate.awake = false), /ledge_body_set_awake: .*cannot sleep \(the world's enable_sleep is false\)/);
    assert.equal(crate.awake, true);
    assert.equal(plain.hash(), before);
    crate.awake = true; // waking an awake body is allowed
  } finally {
    plain.dispose();
  }
  // sleepTime: 1.5 s more rest is 90 more steps; sleepSpeed 1e6: everything counts as resting,
  // so the crate sleeps in mid-air after sleepTime.
  const times = [0.5, 2].map((sleepTime) => {
    const w = room({ enableSleep: true, sleepTime });
    const c = w.createBody({ shape: box(0.4, 0.4), position: { x: 5, y: 3 } });
    const k = stepsToSleep(w, c);
    w.dispose();
    return k;
  });
  assert.ok(Math.abs(times[1] - times[0] - 90) <= 1, `sleepTime 0.5: ${times[0]} steps, 2: ${times[1]}`);
  const fast = room({ enableSleep: true, sleepSpeed: 1e6, sleepTime: 0.25 });
  try {
    const c = fast.createBody({ shape: box(0.4, 0.4), position: { x: 5, y: 6 } });
    const k = stepsToSleep(fast, c);
    assert.ok(k >= 14 && k <= 16, `asleep after ${k} steps (0.25 s)`);
    assert.ok(c.position.y > 5, `asleep in mid-air at ${c.position.y}`);
  } finally {
    fast.dispose();
  }
  throwsLedge(() => new World({ enableSleep: true, sleepSpeed: -1 }), /ledge_world_create: sleep_speed -1/);
  throwsLedge(() => new World({ sleepTime: NaN }), /sleep_time nan/);
});

test('frictionLaw: coulomb holds a box on a 26.6 degree slope that n lets slide; bad names throw', () => {
  // A box on one 22DEG_BIG_PP cell (normal (1, 2)/sqrt5, tan 0.5), friction 0.6.
  const slide = (def) => {
    const world = room(def);
    world.tilemap.set(5, 1, Tile['22DEG_BIG_PP']);
    const b = world.createBody({ shape: box(0.2, 0.2), position: { x: 5.4, y: 2.1 }, friction: 0.6 });
    for (let k = 0; k < 30; ++k) world.step(1 / 60);
    const landed = b.position.x;
    for (let k = 0; k < 30; ++k) world.step(1 / 60);
    const out = { hash: world.hash(), moved: b.position.x - landed };
    world.dispose();
    return out;
  };
  const byDefault = slide({});
  const n = slide({ frictionLaw: 'n' });
  const coulomb = slide({ frictionLaw: 'coulomb' });
  assert.equal(n.hash, byDefault.hash, "'n' is the default");
  assert.deepEqual(slide({ frictionLaw: 1 }), coulomb, 'the C enum value works too');
  assert.ok(n.moved > 0.02, `n: the box slides down (${n.moved} m in half a second)`);
  assert.ok(Math.abs(coulomb.moved) < 1e-3, `coulomb: the box rests (${coulomb.moved} m)`);
  assert.throws(() => new World({ frictionLaw: 'box2d' }), (e) => e instanceof TypeError && /frictionLaw must be one of n, coulomb/.test(e.message));
  throwsLedge(() => new World({ frictionLaw: 7 }), /ledge_world_create: friction_law is 7/);
});

test('sleeping rain, both friction laws, through the binding: hash and sleeping count equal native', () => {
  const N = 200;
  const STEPS = 100; // part of the pile asleep by then, with either law
  const hashes = [];
  for (const [model, frictionLaw] of [[0, 'n'], [1, 'coulomb']]) {
    const [, hash, asleep] = execFileSync(nativeReplay, ['rain_sleep', N, STEPS, model].map(String), { encoding: 'utf8' }).trim().split(' ');
    const world = rainWorld(ledge, N, { enableSleep: true, frictionLaw });
    try {
      for (let k = 0; k < STEPS; ++k) world.step(1 / 60);
      const bodies = world.queryAABB({ x: -100, y: -100 }, { x: 100, y: 100 });
      assert.equal(bodies.length, N);
      const sleeping = bodies.filter((b) => !b.awake).length;
      assert.equal(world.hash().toString(16).padStart(16, '0'), hash, `hash, ${frictionLaw}`);
      assert.equal(sleeping, Number(asleep), `sleeping circles, ${frictionLaw}`);
      assert.ok(sleeping > 0 && sleeping < N, `${sleeping} of ${N} asleep`);
      hashes.push(hash);
    } finally {
      world.dispose();
    }
  }
  assert.notEqual(hashes[0], hashes[1]);
});

test('ASCII and N level text load as in C', () => {
  const world = new World({ width: 4, height: 3 });
  try {
    world.tilemap.loadAscii('####\n#./#\n####\n');
    assert.equal(world.tilemap.get(0, 0), Tile.FULL);
    assert.equal(world.tilemap.get(1, 1), Tile.EMPTY);
    assert.notEqual(world.tilemap.get(2, 1), Tile.EMPTY);
    assert.equal(world.tilemap.get(-1, 0), Tile.FULL, 'outside the map is FULL');
    world.tilemap.setOneWay(1, 1, 'up');
    assert.equal(world.tilemap.oneWay(1, 1), 'up');
  } finally {
    world.dispose();
  }
});

test('Tiled tile layers: same cells as the C loader (samples/level.tmj)', (t) => {
  const mapPath = path.join(root, 'samples/level.tmj');
  const map = JSON.parse(fs.readFileSync(mapPath, 'utf8'));
  const tilesets = {};
  for (const ts of map.tilesets) {
    if (ts.source) tilesets[ts.source] = JSON.parse(fs.readFileSync(path.join(root, 'samples', ts.source), 'utf8'));
  }
  let want;
  try {
    want = execFileSync(nativeReplay, ['tiled', mapPath], { encoding: 'utf8' }).trim().split('\n');
  } catch (e) {
    t.skip('replay_hashes was built without ledge_tiled');
    return;
  }
  const [w, h] = want[0].split(' ').map(Number);
  const world = new World({ width: w, height: h });
  try {
    // Cells left empty by the map are cleared, as the C loader does.
    for (let y = 0; y < h; ++y) for (let x = 0; x < w; ++x) world.tilemap.set(x, y, Tile['45DEG_NN']);
    world.tilemap.loadTiled(map, { tilesets });
    const got = [];
    for (let y = h - 1; y >= 0; --y) {
      const row = [];
      for (let x = 0; x < w; ++x) row.push(world.tilemap.get(x, y));
      got.push(row.join(','));
    }
    assert.deepEqual(got, want.slice(1));
    assert.ok(got.some((row) => row.split(',').some((c) => c !== '0' && c !== '1')), 'the map has slopes');
  } finally {
    world.dispose();
  }
  const wrong = new World({ width: 3, height: 3 });
  throwsLedge(() => wrong.tilemap.loadTiled(map, { tilesets }), /tiled: map is/);
  wrong.dispose();
});

test('Tiled: every tile under all eight flips, base64 layer, y up and y down: same cells as the C loader', (t) => {
  // One row per flip combination, one column per tile id; an embedded
  // tileset names ids by number and by name alternately.
  const W = 34;
  const H = 8;
  const tiles = [];
  for (let id = 1; id < 34; ++id) {
    const value = id % 2 ? id : ledge.tileNames[id].toLowerCase();
    tiles.push({ id, properties: [{ name: 'ledge_tile', type: typeof value === 'number' ? 'int' : 'string', value }] });
  }
  const gids = [];
  for (let row = 0; row < H; ++row) {
    const flips = ((row & 1 ? 0x80000000 : 0) | (row & 2 ? 0x40000000 : 0) | (row & 4 ? 0x20000000 : 0)) >>> 0;
    for (let col = 0; col < W; ++col) gids.push(col === 0 ? 0 : (flips | (col + 1)) >>> 0);
  }
  const bytes = Buffer.alloc(4 * gids.length);
  gids.forEach((g, k) => bytes.writeUInt32LE(g, 4 * k));
  const map = {
    type: 'map', orientation: 'orthogonal', renderorder: 'right-down', infinite: false,
    width: W, height: H, tilewidth: 16, tileheight: 16, version: '1.10', tiledversion: '1.10.2',
    nextlayerid: 2, nextobjectid: 1,
    tilesets: [{ firstgid: 1, name: 't', tilewidth: 16, tileheight: 16, tilecount: 40, columns: 8,
      image: 't.png', imagewidth: 128, imageheight: 80, margin: 0, spacing: 0, tiles }],
    layers: [{ id: 1, name: 'solid', type: 'tilelayer', x: 0, y: 0, width: W, height: H, opacity: 1,
      visible: true, encoding: 'base64', data: bytes.toString('base64') }],
  };
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ledge-tiled-'));
  t.after(() => fs.rmSync(tmp, { recursive: true, force: true }));
  for (const yDown of [false, true]) {
    const file = path.join(tmp, `flips${yDown ? '-down' : ''}.tmj`);
    fs.writeFileSync(file, JSON.stringify(map));
    let want;
    try {
      want = execFileSync(nativeReplay, ['tiled', file, ...(yDown ? ['y_down'] : [])], { encoding: 'utf8' }).trim().split('\n');
    } catch (e) {
      t.skip('replay_hashes was built without ledge_tiled');
      return;
    }
    const world = new World({ width: W, height: H });
    try {
      world.tilemap.loadTiled(JSON.stringify(map), { yDown });
      const got = [`${W} ${H}`];
      for (let y = H - 1; y >= 0; --y) {
        const row = [];
        for (let x = 0; x < W; ++x) row.push(world.tilemap.get(x, y));
        got.push(row.join(','));
      }
      assert.deepEqual(got, want, `yDown ${yDown}`);
      assert.equal(new Set(got.slice(1)).size, 8, 'each flip made a different row');
    } finally {
      world.dispose();
    }
  }
});
