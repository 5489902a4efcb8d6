// The JavaScript binding (src/bindings/js/ledge.mjs): refusals throw
// ledge's message and leave the world as it was, 10,000 create/destroy
// cycles leak nothing, and the character move, queries, debug draw and the
// Tiled loader give what the C library gives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { execFileSync } from 'node:child_process';
import { loadLedge, nativeReplay, root } from './common.mjs';

const ledge = await loadLedge();
const { World, Tile, circle, box } = ledge;

// A 16 x 8 room: floor row 0, walls at x = 0 and 15.
function room() {
  const world = new World({ gravity: { x: 0, y: -10 }, width: 16, height: 8 });
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
