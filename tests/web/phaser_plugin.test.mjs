// ledge-phaser's logic in Node, with a stand-in for Phaser's scene (the
// sample covers the real Phaser in Chromium): Phaser's own reading of
// Tiled's flip flags (its ParseGID, Phaser 3 and 4) turned back into the
// flags gives every one of the eight; a layer's tiles become ledge's with
// their flips and one-way property; a character runs, jumps with coyote
// time and lands; a mover carries what stands on it; events reach the
// emitter with the game objects; save and restore come back to the same
// hash; fromTiledMap makes the C loader's bodies from Phaser's cache.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { createRequire } from 'node:module';
import { bindingDir, loadLedge, root } from './common.mjs';

const { createLedgePlugin, phaserTileFlips } = await import(path.join(bindingDir, 'phaser/ledge-phaser.mjs'));
const ledge = await loadLedge();
const require = createRequire(import.meta.url);

// Enough of a Phaser scene for the plugin: sys.events (an emitter with
// Phaser's (eventemitter3's) calls, whose constructor the plugin reuses),
// sys.cache, settings.
class Events {
  constructor() {
    this.l = new Map();
  }
  on(name, fn, context, once = false) {
    if (!this.l.has(name)) this.l.set(name, []);
    this.l.get(name).push({ fn, context, once });
    return this;
  }
  once(name, fn, context) {
    return this.on(name, fn, context, true);
  }
  off(name, fn, context) {
    this.l.set(name, (this.l.get(name) || []).filter((e) => fn && (e.fn !== fn || (context && e.context !== context))));
    return this;
  }
  listeners(name) {
    return (this.l.get(name) || []).map((e) => e.fn);
  }
  listenerCount(name) {
    return (this.l.get(name) || []).length;
  }
  emit(name, ...args) {
    const list = this.l.get(name) || [];
    this.l.set(name, list.filter((e) => !e.once));
    for (const e of list) e.fn.apply(e.context, args);
    return list.length > 0;
  }
  removeAllListeners() {
    this.l.clear();
  }
}
function scene(cache = {}, json = {}) {
  const sys = { events: new Events(), settings: { isBooted: true }, cache: { tilemap: { get: (k) => cache[k] }, json: { get: (k) => json[k] } } };
  return { sys };
}
const object = (x, y, w, h) => ({ x, y, displayWidth: w, displayHeight: h });

test('Phaser reads Tiled\'s flips into rotation and flipX; the plugin reads them back', () => {
  for (const phaser of ['phaser', 'phaser3']) {
    const parse = require(path.join(root, `samples/phaser/node_modules/${phaser}/src/tilemaps/parsers/tiled/ParseGID.js`));
    for (let flags = 0; flags < 8; ++flags) {
      const gid = (5 | (flags & 1 ? 0x80000000 : 0) | (flags & 2 ? 0x40000000 : 0) | (flags & 4 ? 0x20000000 : 0)) >>> 0;
      const g = parse(gid);
      assert.equal(phaserTileFlips(g.rotation, g.flipped, false), flags, `${phaser}: flags ${flags}`);
    }
  }
  // flipY (set in code) is the vertical flip.
  assert.equal(phaserTileFlips(0, false, true), 2);
  assert.equal(phaserTileFlips(Math.PI, true, true), 0);
});

test('a layer, a character, a mover, events and rollback', () => {
  const Plugin = createLedgePlugin(ledge);
  const sc = scene();
  const plugin = new Plugin(sc, null, 'ledge');
  // A 20 x 8 layer of 16 px tiles: a floor, a 45 degree slope rising to the
  // right drawn flipped horizontally from a left-rising tile, a one-way plank.
  const tileset = { name: 'set', firstgid: 1, getTileProperties: (i) => (i === 3 ? { ledge_one_way: 'up' } : null) };
  const tile = (index, extra = {}) => ({ index, tileset, properties: {}, rotation: 0, flipX: false, flipY: false, ...extra });
  const data = Array.from({ length: 8 }, () => new Array(20).fill(null));
  for (let x = 0; x < 20; ++x) data[7][x] = tile(1);
  data[6][10] = tile(2, { flipX: true }); // 45DEG_PN flipped: rising to the right
  for (let x = 11; x < 20; ++x) data[6][x] = tile(1);
  for (let x = 3; x < 6; ++x) data[4][x] = tile(3);
  const layer = { layer: { width: 20, height: 8, data }, tilemap: { tileWidth: 16 }, x: 0, y: 0, scaleX: 1 };
  const world = plugin.fromTilemapLayer(layer, { tileShapes: { set: { 0: 'FULL', 1: '45DEG_PN', 2: 'FULL' } }, gravity: 800 });
  assert.equal(world.tilemap.get(10, 6), ledge.Tile['45DEG_NN'], 'the flipped slope rises to the right');
  assert.equal(world.tilemap.oneWay(4, 4), 'down', 'a plank solid from above on screen is one-way toward -y');
  const hero = plugin.add.character(object(40, 96, 10, 14));
  const platform = object(200, 60, 32, 6);
  plugin.add.mover(platform, { points: [{ x: 200, y: 60 }, { x: 260, y: 60 }], speed: 48 });
  const crate = object(248, 86, 16, 16);
  plugin.add.body(crate, { enableEvents: true });
  const touches = [];
  plugin.events.on('touchstart', (a, b) => touches.push([a, b]));
  for (let k = 0; k < 60; ++k) plugin.step();
  assert.equal(hero.onFloor, true, 'landed');
  assert.ok(touches.some(([a, b]) => a === crate && b === null), 'the crate touched the floor: the game object in the event');
  hero.setVelocityX(96);
  for (let k = 0; k < 100; ++k) plugin.step();
  assert.ok(hero.state.position.x > 11.5 && hero.state.position.y < 6, `ran up the slope: ${JSON.stringify(hero.state.position)}`);
  assert.equal(hero.onFloor, true);
  hero.setVelocityX(0);
  assert.equal(hero.jump(300), true);
  for (let k = 0; k < 3; ++k) plugin.step();
  assert.equal(hero.onFloor, false);
  assert.ok(hero.timeSinceFloor > 0 && hero.timeSinceFloor < 0.1);
  assert.equal(hero.jump(300, 0.01), false, 'no jump 3 steps after leaving the floor with 0.01 s of coyote time');
  for (let k = 0; k < 6; ++k) plugin.step();
  assert.equal(hero.jump(300), false, 'nor after 0.15 s with 0.1 s');
  const saved = plugin.save();
  const h0 = world.hash();
  for (let k = 0; k < 40; ++k) plugin.step();
  const h40 = world.hash();
  plugin.restore(saved);
  assert.equal(world.hash(), h0);
  for (let k = 0; k < 40; ++k) plugin.step();
  assert.equal(world.hash(), h40, 'the same 40 steps after a restore');
  // The mover went back and forth between its points.
  let min = Infinity, max = -Infinity;
  for (let k = 0; k < 200; ++k) {
    plugin.step();
    min = Math.min(min, platform.ledgeBody.position.x);
    max = Math.max(max, platform.ledgeBody.position.x);
  }
  assert.ok(Math.abs(min - 200 / 16) < 1e-3 && Math.abs(max - 260 / 16) < 1e-3, `platform between ${min} and ${max}`);
  // The frame hook moves the game objects to the bodies.
  sc.sys.events.emit('postupdate');
  assert.ok(Math.abs(crate.x - crate.ledgeBody.position.x * 16) < 1e-3);
  sc.sys.events.emit('shutdown');
  assert.equal(plugin.world, null);
});

test('fromTiledMap: the bodies of ledge\'s Tiled loader, from Phaser\'s cache, y down', () => {
  const fs = require('node:fs');
  const map = JSON.parse(fs.readFileSync(path.join(root, 'samples/level.tmj'), 'utf8'));
  const tilesets = { 'ledge_tiles.tsj': JSON.parse(fs.readFileSync(path.join(root, 'samples/ledge_tiles.tsj'), 'utf8')) };
  const Plugin = createLedgePlugin(ledge);
  const plugin = new Plugin(scene({ level: { data: map } }), null, 'ledge');
  const result = plugin.fromTiledMap('level', { tilesets });
  const { world } = ledge.World.fromTiled(map, { yDown: true, tilesets, world: { gravity: { x: 0, y: 1000 / map.tilewidth } } });
  assert.equal(plugin.world.hash(), world.hash());
  assert.ok(result.objects.length > 5 && result.findObject('crate').bodies.length === 1);
  world.dispose();
  assert.throws(() => plugin.fromTiledMap('nothing'), /no tilemap "nothing"/);
});

test('fromLdtk: ledge\'s LDtk loader from Phaser\'s JSON cache, y down, platforms on their paths', () => {
  const fs = require('node:fs');
  const text = fs.readFileSync(path.join(root, 'samples/level.ldtk'), 'utf8');
  const project = JSON.parse(text);
  const Plugin = createLedgePlugin(ledge);
  const plugin = new Plugin(scene({}, { level: project }), null, 'ledge');
  const result = plugin.fromLdtk('level', { allLevels: true, gravity: 960 });
  assert.equal(plugin.pixelsPerUnit, 32);
  assert.deepEqual(plugin.gravity, { x: 0, y: 30 });
  // The same world through the binding, stepped with its platforms moved as the plugin moves them.
  const { world, result: direct } = ledge.World.fromLdtk(project, { allLevels: true, yDown: true, world: { gravity: { x: 0, y: 30 }, tileSize: 1 } });
  assert.equal(plugin.world.hash(), world.hash());
  const moving = direct.entities.filter((e) => e.pathPosition);
  assert.equal(moving.length, 2);
  for (let s = 0; s < 90; ++s) {
    plugin.step();
    for (const e of moving) e.bodies[0].setTarget(e.pathPosition((s + 1) * (1 / 60)), 1 / 60);
    world.step(1 / 60);
  }
  assert.equal(plugin.world.hash(), world.hash());
  const platform = result.entities.find((e) => e.pathPosition);
  assert.deepEqual(platform.bodies[0].position, platform.pathPosition(90 / 60), 'the platform is where its path says');
  assert.notDeepEqual(platform.bodies[0].position, platform.path[0]);
  // y down: the player's start is above the cave's floor on screen.
  const player = result.findEntity('Player');
  assert.deepEqual(plugin.toPixels(player.position), { x: player.pxX, y: player.pxY });
  world.dispose();
  // The project's text works too; a missing key is named.
  assert.equal(plugin.fromLdtk(text, { level: 'Cave' }).levels[0].identifier, 'Cave');
  assert.throws(() => plugin.fromLdtk('nothing'), /no JSON "nothing"/);
});

test('joints and materials through the plugin: a lamp on a chain keeps its length in pixels, belts carry on screen', () => {
  const Plugin = createLedgePlugin(ledge);
  const plugin = new Plugin(scene(), null, 'ledge');
  // A 30 x 12 layer of 16 px tiles: a floor whose cells 2..9 are a belt
  // (tile properties: 48 px/s to the right on screen), the rest plain.
  const tileset = { name: 'set', firstgid: 1, getTileProperties: (i) => (i === 2 ? { ledge_surface_speed: 48, ledge_friction: 0.5 } : null) };
  const tile = (index) => ({ index, tileset, properties: {}, rotation: 0, flipX: false, flipY: false });
  const data = Array.from({ length: 12 }, () => new Array(30).fill(null));
  for (let x = 0; x < 30; ++x) data[11][x] = tile(x >= 2 && x < 10 ? 2 : 1);
  const layer = { layer: { width: 30, height: 12, data }, tilemap: { tileWidth: 16 }, x: 0, y: 0, scaleX: 1 };
  const world = plugin.fromTilemapLayer(layer, { tileShapes: { set: { 0: 'FULL', 1: 'FULL' } }, gravity: 800 });
  assert.equal(world.tilemap.cellMaterial(4, 11).surfaceSpeed, -3, '48 px/s to the right on screen is -3 units/s in the y-down world');
  const crate = object(48, 168, 16, 16);
  plugin.add.body(crate, { friction: 0.5 });
  for (let k = 0; k < 90; ++k) plugin.step();
  assert.ok(Math.abs(crate.ledgeBody.velocity.x * 16 - 48) < 0.05, `the belt carries the crate right at ${crate.ledgeBody.velocity.x * 16} px/s`);
  // A kinematic plank made a belt with setMaterial, and a whole tile shape made ice.
  plugin.setTileMaterial('FULL', { friction: 0 });
  assert.equal(world.tilemap.tileMaterial(ledge.Tile.FULL).friction, 0);
  const plank = object(300, 100, 64, 8);
  plugin.add.body(plank, { type: 'static' });
  plugin.setMaterial(plank, { surfaceSpeed: -32, friction: 1 });
  assert.equal(plank.ledgeBody.material.surfaceSpeed, 2);
  plugin.setCellMaterial(4, 11, null);
  assert.equal(world.tilemap.cellHasMaterial(4, 11), false);
  // A lamp hung 48 px below a hook in the ceiling swings on a rod: its
  // distance from the hook stays 48 px; a crate hangs from it by a rope.
  const lamp = object(220, 60, 8, 8);
  plugin.add.body(lamp, { shape: 'circle' });
  const rod = plugin.add.joint({ type: 'rod', a: null, anchorA: { x: 190, y: 20 }, b: lamp, length: 48 });
  const weight = object(220, 90, 8, 8);
  plugin.add.body(weight);
  const rope = plugin.addJoint({ type: 'rope', a: lamp, b: weight, anchorA: { x: 0, y: 4 }, length: 24 });
  assert.equal(rod.bodyB, lamp.ledgeBody);
  assert.equal(rope.bodyA, lamp.ledgeBody);
  assert.deepEqual(rod.anchorA, { x: 190 / 16, y: 20 / 16 });
  let worst = 0;
  for (let k = 0; k < 180; ++k) {
    plugin.step();
    const p = plugin.toPixels(lamp.ledgeBody.position);
    worst = Math.max(worst, Math.abs(Math.hypot(p.x - 190, p.y - 20) - 48));
  }
  assert.ok(worst < 0.1, `the rod's length moved by ${worst} px`);
  assert.ok(rope.currentLength <= 24 / 16 + 1e-3);
  assert.throws(() => plugin.addJoint({ a: {}, b: lamp }), TypeError);
  const saved = plugin.save();
  plugin.remove(weight);
  assert.equal(rope.valid, false, 'the rope died with its body');
  plugin.restore(saved);
  assert.equal(rope.valid, true, 'and is back after a restore');
  assert.ok(world.debugDraw({ tiles: false, bodies: false, contacts: false, normals: false }).segments.length >= 2, 'the debug view draws the joints');
});

test('chains through the plugin: a hill in pixels holds a crate and the character, a chain on a path carries, Tiled chains, events, the debug view', async () => {
  const Plugin = createLedgePlugin(ledge);
  const plugin = new Plugin(scene(), null, 'ledge');
  const tileset = { name: 'set', firstgid: 1, getTileProperties: () => null };
  const data = Array.from({ length: 12 }, () => new Array(30).fill(null));
  for (let x = 0; x < 30; ++x) data[11][x] = { index: 1, tileset, properties: {}, rotation: 0, flipX: false, flipY: false };
  const layer = { layer: { width: 30, height: 12, data }, tilemap: { tileWidth: 16 }, x: 0, y: 0, scaleX: 1 };
  const world = plugin.fromTilemapLayer(layer, { tileShapes: { set: { 0: 'FULL' } }, gravity: 800 });
  // A hill drawn right to left on screen: turned so that it faces up on screen (-y).
  const hill = plugin.add.chain({ points: [{ x: 200, y: 176 }, { x: 160, y: 144 }, { x: 120, y: 144 }, { x: 80, y: 176 }], userData: 'hill' });
  assert.ok(hill instanceof ledge.Chain && hill.userData === 'hill');
  assert.ok(hill.segment(1).normal.y < -0.99, 'the plateau faces up on screen');
  assert.deepEqual(plugin.toPixels(hill.position), { x: 140, y: 160 });
  const crate = object(140, 100, 16, 16);
  plugin.add.body(crate, { enableEvents: true });
  const touches = [];
  plugin.events.on('touchstart', (a, b, cell, chain) => touches.push([a, b, chain]));
  const hero = plugin.add.character(object(40, 160, 10, 14));
  hero.setVelocityX(64);
  let onHill = 0;
  for (let k = 0; k < 150; ++k) {
    plugin.step();
    if (hero.state.floorChain === hill) ++onHill;
  }
  assert.ok(Math.abs(plugin.toPixels(crate.ledgeBody.position).y - 136) < 0.1, `the crate rests on the plateau (${plugin.toPixels(crate.ledgeBody.position).y})`);
  assert.equal(crate.ledgeBody.ground().groundChain, hill);
  assert.ok(touches.some(([a, b, chain]) => a === crate && b === null && chain === hill), 'the touch names the chain');
  assert.ok(onHill > 20, `the character walked over the hill (${onHill} steps on it)`);
  assert.equal(plugin.add.chain({ points: [{ x: 300, y: 100 }, { x: 340, y: 100 }], facing: 'down' }).segment(0).normal.y, 1, 'a ceiling faces down on screen');
  assert.throws(() => plugin.add.chain({ points: [{ x: 0, y: 0 }, { x: 1, y: 0 }], facing: 'sideways' }), TypeError);
  assert.throws(() => plugin.add.chain({ points: [{ x: 0, y: 0 }] }), /ledge_chain_create/);

  // A kinematic chain going back and forth along a path carries a crate.
  const lift = plugin.add.chain({ points: [{ x: 300, y: 120 }, { x: 360, y: 120 }], type: 'kinematic', path: [{ x: 330, y: 120 }, { x: 394, y: 120 }], speed: 32 });
  const rider = object(330, 100, 12, 12);
  plugin.add.body(rider, { friction: 1 });
  const saved = plugin.save();
  let min = Infinity, max = -Infinity;
  for (let k = 0; k < 400; ++k) {
    plugin.step();
    min = Math.min(min, plugin.toPixels(lift.position).x);
    max = Math.max(max, plugin.toPixels(lift.position).x);
  }
  assert.ok(Math.abs(min - 330) < 0.05 && Math.abs(max - 394) < 0.05, `the lift between ${min} and ${max} px`);
  assert.equal(rider.ledgeBody.ground().groundChain, lift, 'the rider stays on the lift');
  const h = world.hash();
  plugin.restore(saved);
  for (let k = 0; k < 400; ++k) plugin.step();
  assert.equal(world.hash(), h, 'the same steps after a restore');

  // The debug view draws the chains' segments in pixels.
  const segs = [];
  const g = new Proxy({}, { get: (_, name) => (name === 'lineBetween' ? (...a) => { segs.push(a); return g; } : () => g) });
  plugin.debug(true, { graphics: g, tiles: false, bodies: false, normals: false, contacts: false });
  plugin.systems.events.emit('postupdate');
  assert.ok(segs.some(([x1, y1, x2, y2]) => Math.abs(x1 - 80) < 1e-3 && Math.abs(y1 - 176) < 1e-3 && Math.abs(x2 - 120) < 1e-3 && Math.abs(y2 - 144) < 1e-3),
    'the hill\'s first segment (turned: left to right on screen), in pixels');
  plugin.removeChain(lift);
  assert.equal(lift.valid, false);

  // fromTiledMap: the Tiled loader's chains; a raft with a speed follows its path.
  const { objectsMap } = await import('./tiled_map.mjs');
  const map = objectsMap();
  map.layers[3].objects[5].properties.push({ name: 'speed', type: 'float', value: 16 });
  const p2 = new Plugin(scene({ m: { data: map } }), null, 'ledge');
  const result = p2.fromTiledMap('m');
  assert.equal(result.chains.length, 5);
  assert.equal(p2.world.chainCount, 5);
  const raft = result.findObject('raft').chain;
  const route = result.findObject('route').points;
  let maxX = -Infinity, minY = Infinity;
  for (let k = 0; k < 600; ++k) {
    p2.step();
    maxX = Math.max(maxX, raft.position.x);
    minY = Math.min(minY, raft.position.y);
  }
  assert.ok(Math.abs(maxX - route[1].x) < 1 / 60, `the raft reaches the route's second point (${maxX} vs ${route[1].x})`);
  assert.ok(Math.abs(minY - route[2].y) < 1 / 60, `and its third (within a step at 1 unit/s) (${minY} vs ${route[2].y})`);
});
