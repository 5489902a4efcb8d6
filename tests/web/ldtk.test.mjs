// LDtk projects in the JavaScript binding (docs/ldtk.md): World.fromLdtk
// gives what the C loader gives natively on the same file and the same def
// (`replay_hashes ldtk`, tests/web/ldtk_parity.c): the same map, levels,
// entities, fields, bodies and path positions, to the bit, and the same
// world hash after the load and after stepping with the platforms on their
// paths. Refusals are thrown with ledge's message; nothing leaks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadLedge, nativeReplay, root } from './common.mjs';

const SAMPLE = path.join(root, 'samples/level.ldtk');
const STEPS = 180;
// The times every path's position is asked at (ldtk_parity.c: times).
const TIMES = [0.0, 0.25, 1.0 / 3.0, 1.0, 2.5, 7.75, 100.0, 12345.678];
const DT = Math.fround(1 / 60);

const ledge = await loadLedge();

// The C loader's result on `file` with `options` (null when replay_hashes was
// built without ledge_ldtk).
function native(file, options) {
  const { resolve, ...rest } = options;
  let out;
  try {
    out = execFileSync(nativeReplay, ['ldtk', file, JSON.stringify(rest), String(STEPS)], { encoding: 'utf8' });
  } catch (e) {
    if (e.status === 1 || /usage|ldtk/.test(String(e.stderr))) return null;
    throw e;
  }
  if (!out.trim().startsWith('{')) return null; // built without ledge_ldtk: the demo's hashes
  return JSON.parse(out);
}

const hex = (h) => h.toString(16).padStart(16, '0');

// World.fromLdtk's result in the native program's shape, the world stepped
// as the native program steps it.
function viaBinding(project, options) {
  const { world, result } = ledge.World.fromLdtk(project, options);
  try {
    const entities = result.entities.map((e) => {
      const { bodies, ...rest } = e;
      return {
        ...rest,
        bodies: bodies.map((b) => ({ type: b.type, position: b.position, velocity: b.velocity, mass: b.mass })),
        pathPositions: e.path.length > 0 ? TIMES.map((t) => e.pathPosition(t)) : [],
      };
    });
    for (const e of result.entities) {
      for (const b of e.bodies) assert.equal(b.userData, e, 'a body\'s userData is its entity');
    }
    const hashes = [hex(world.hash())];
    const moving = result.entities.filter((e) => e.path.length > 0 && e.bodies.length > 0);
    for (let s = 0; s < STEPS; ++s) {
      for (const e of moving) e.bodies[0].setTarget(e.pathPosition((s + 1) * DT), DT);
      world.step(DT);
    }
    hashes.push(hex(world.hash()));
    const { width, height, gridPx, tileCounts, oneWayCells, materialCells, levels } = result;
    return { width, height, gridPx, tileCounts, oneWayCells, materialCells, levels, entities, hashes };
  } finally {
    world.dispose();
  }
}

function same(t, file, options, text = fs.readFileSync(file, 'utf8')) {
  const want = native(file, options);
  if (!want) {
    t.skip('replay_hashes was built without ledge_ldtk');
    return null;
  }
  assert.ok(!want.error, `the C loader refused: ${want && want.error}`);
  const got = viaBinding(text, options);
  assert.deepStrictEqual(got, want);
  return got;
}

const SAMPLE_DEFS = {
  'the first level': {},
  'a level by identifier': { level: 'Cave' },
  'a level by index': { level: 1 },
  'a level by iid': { level: '9538a3b3-153b-525c-8392-df222c02e081' },
  'every level': { allLevels: true },
  'every level, y down': { allLevels: true, yDown: true, world: { gravity: { x: 0, y: 10 } } },
  'one tile layer': { allLevels: true, tileLayer: 'Collisions' },
  'a tile size and the entity table': {
    allLevels: true,
    world: { tileSize: 0.5, gravity: { x: 0, y: -20 } },
    entityBodies: [
      { identifier: 'Coin', body: 'sensor' },
      { identifier: 'Player', body: 'kinematic' },
      { identifier: 'Key', body: 'dynamic', shape: 'box' },
      { identifier: 'Crate', body: 'none' }, // the fields still override it
    ],
  },
  'the IntGrid table': {
    allLevels: true,
    intgrid: [
      { layer: 'Collisions', identifier: 'one_way', tile: 'FULL', oneWay: false },
      { identifier: 'half_bottom', tile: 'half_top' },
      { layer: 'Collisions', value: 1, tile: 'slope45_up_right_one_way' },
      { layer: 'Elsewhere', identifier: '*', tile: 0 },
    ],
  },
};

for (const [name, options] of Object.entries(SAMPLE_DEFS)) {
  test(`samples/level.ldtk, ${name}: the C loader's result and hashes`, (t) => {
    const got = same(t, SAMPLE, options);
    if (got) {
      assert.notEqual(got.hashes[0], got.hashes[1], 'the steps moved something');
      assert.ok(got.entities.length >= 4);
    }
  });
}

test('the sample\'s entities, fields and levels as the docs say', () => {
  const { world, result } = ledge.World.fromLdtk(fs.readFileSync(SAMPLE, 'utf8'), { allLevels: true });
  try {
    assert.deepEqual(result.levels.map((l) => [l.identifier, l.cell, l.width, l.height, l.fields]), [
      ['Meadow', { x: 0, y: 0 }, 30, 15, { music: 'meadow', dark: false }],
      ['Cave', { x: 30, y: 0 }, 20, 15, { music: 'cave', dark: true }],
    ]);
    const door = result.findEntity('Door');
    const key = result.findEntity('Key');
    assert.equal(door.fields.key.iid, key.iid);
    assert.equal(result.entities[door.fields.key.entity], key);
    assert.equal(door.fieldTypes.key, 'EntityRef');
    assert.equal(result.findEntity('Sign').fields.text, 'Welcome to ledge!\nThe cave is east.');
    const lift = result.entities.find((e) => e.identifier === 'Platform' && !e.loop);
    assert.equal(lift.body, 'kinematic');
    assert.equal(lift.bodies[0].type, 'kinematic');
    assert.deepEqual(lift.pathPosition(0), lift.bodies[0].position);
    assert.deepEqual(lift.path[0], lift.bodies[0].position);
    assert.equal(result.findEntity('Player').bodies.length, 0);
    assert.equal(result.findEntity('Player').pathPosition, undefined, 'no path, no pathPosition');
    assert.equal(result.findLevel('Cave'), result.levels[1]);
    assert.equal(result.findLevel('nothing'), null);
    assert.equal(result.bodies.length, result.entities.reduce((n, e) => n + e.bodies.length, 0));
    assert.equal(world.bodyCount, result.bodies.length);
  } finally {
    world.dispose();
  }
});

// The sample with fields of every type on the sign and on the cave, and the
// cave saved as a separate level file: read by the C file loader next to
// the project, and by the binding through resolve.
function richProject(dir) {
  const p = JSON.parse(fs.readFileSync(SAMPLE, 'utf8'));
  const field = (id, type, value) => ({ __identifier: id, __type: type, __value: value, __tile: null, defUid: 9000, realEditorValues: [] });
  const cave = p.levels[1];
  const meadow = p.levels[0];
  const ents = (l) => l.layerInstances.find((x) => x.__type === 'Entities').entityInstances;
  const sign = ents(meadow).find((e) => e.__identifier === 'Sign');
  const key = ents(cave).find((e) => e.__identifier === 'Key');
  const ref = { entityIid: key.iid, layerIid: cave.layerInstances.find((x) => x.__type === 'Entities').iid, levelIid: cave.iid, worldIid: p.iid || '' };
  const missing = { entityIid: 'not-loaded-iid', layerIid: 'l', levelIid: 'v', worldIid: 'w' };
  sign.fieldInstances.push(
    field('count', 'Int', -42),
    field('big', 'Int', 9007199254740991),
    field('nothing', 'Int', null),
    field('ratio', 'Float', 0.1),
    field('flag', 'Bool', true),
    field('name', 'String', 'héllo "quoted" ✓'),
    field('item', 'LocalEnum.Body', 'dynamic'),
    field('extern', 'ExternEnum.Things', 'Thing_A'),
    field('tint', 'Color', '#ff8800'),
    field('spot', 'Point', { cx: 4, cy: 2 }),
    field('target', 'EntityRef', ref),
    field('lost', 'EntityRef', missing),
    field('file', 'FilePath', 'sounds/sign.ogg'),
    field('icon', 'Tile', { tilesetUid: 200, x: 32, y: 64, w: 32, h: 32 }),
    field('ints', 'Array<Int>', [1, null, 3]),
    field('points', 'Array<Point>', [{ cx: 1, cy: 1 }, null, { cx: 9, cy: 14 }]),
    field('refs', 'Array<EntityRef>', [ref, missing]),
    field('colors', 'Array<Color>', ['#000000', '#FFFFFF']),
    field('items', 'Array<LocalEnum.Body>', ['static', null, 'sensor']),
    field('empty', 'Array<Float>', []),
    field('future', 'SomeNewType', { anything: 1 }),
  );
  cave.fieldInstances.push(field('gravity', 'Float', 9.81), field('tags', 'Array<String>', ['wet', 'dark']));
  p.externalLevels = true;
  fs.mkdirSync(path.join(dir, 'rooms'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'rooms/Cave.ldtkl'), JSON.stringify(cave));
  p.levels[1] = { ...cave, layerInstances: null, externalRelPath: 'rooms/Cave.ldtkl' };
  const file = path.join(dir, 'rich.ldtk');
  fs.writeFileSync(file, JSON.stringify(p));
  return file;
}

test('fields of every type and a separate level file (resolve): the C loader\'s result', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledge-ldtk-'));
  try {
    const file = richProject(dir);
    const asked = [];
    const resolve = (rel) => {
      asked.push(rel);
      return fs.readFileSync(path.join(dir, rel), 'utf8');
    };
    const got = same(t, file, { allLevels: true, resolve });
    if (!got) return;
    assert.deepEqual(asked, ['rooms/Cave.ldtkl']);
    const sign = got.entities.find((e) => e.identifier === 'Sign');
    const f = sign.fields;
    assert.equal(f.count, -42);
    assert.equal(f.big, 9007199254740991);
    assert.equal(f.nothing, null);
    assert.equal(f.ratio, 0.1);
    assert.equal(f.flag, true);
    assert.equal(f.name, 'héllo "quoted" ✓');
    assert.equal(f.item, 'dynamic');
    assert.equal(f.tint, '#ff8800');
    assert.equal(f.spot.cx, 4);
    assert.equal(got.entities[f.target.entity].identifier, 'Key');
    assert.equal(f.lost.entity, -1);
    assert.equal(f.lost.iid, 'not-loaded-iid');
    assert.deepEqual(f.icon, { tileset: 200, x: 32, y: 64, w: 32, h: 32 });
    assert.deepEqual(f.ints, [1, null, 3]);
    assert.equal(f.points[1], null);
    assert.deepEqual(f.colors, ['#000000', '#FFFFFF']);
    assert.deepEqual(f.items, ['static', null, 'sensor']);
    assert.deepEqual(f.empty, []);
    assert.equal(f.future, null);
    assert.equal(sign.fieldTypes.future, 'SomeNewType');
    assert.deepEqual(got.levels[1].fields, { music: 'cave', dark: true, gravity: 9.81, tags: ['wet', 'dark'] });
    // A parsed project and a resolve that returns parsed levels load the same.
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
    const again = viaBinding(parsed, { allLevels: true, resolve: (rel) => JSON.parse(resolve(rel)) });
    assert.deepStrictEqual(again, got);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// ledge's message of the C file loader, as the memory loader words it.
const memoryMessage = (msg, file) => msg.replace(`ledge_ldtk_create_world_file: ${file}: `, 'ledge_ldtk_create_world: ');

function refusedLike(t, file, text, options) {
  const want = native(file, options);
  if (!want) return t.skip('replay_hashes was built without ledge_ldtk');
  assert.ok(want.error, 'the C loader refuses it');
  const before = ledge.heapInUse();
  assert.throws(() => ledge.World.fromLdtk(text, options), (e) => {
    assert.ok(e instanceof Error);
    assert.equal(e.message, memoryMessage(want.error, file));
    return true;
  });
  assert.equal(ledge.heapInUse(), before, 'a refused load leaves nothing allocated');
  return undefined;
}

test('refusals: the C loader\'s message, thrown; nothing leaks', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledge-ldtk-'));
  try {
    const sample = fs.readFileSync(SAMPLE, 'utf8');
    const put = (name, text) => {
      const f = path.join(dir, name);
      fs.writeFileSync(f, text);
      return f;
    };
    // Broken JSON.
    const broken = sample.slice(0, 200);
    refusedLike(t, put('broken.ldtk', broken), broken, {});
    // An IntGrid value whose name is no tile.
    const p = JSON.parse(sample);
    p.defs.layers.find((l) => l.__type === 'IntGrid').intGridValues[0].identifier = 'ladder';
    const ladder = JSON.stringify(p);
    refusedLike(t, put('ladder.ldtk', ladder), ladder, {});
    // A level that is not there (by name, by index).
    refusedLike(t, SAMPLE, sample, { level: 'Nope' });
    refusedLike(t, SAMPLE, sample, { level: 7 });
    // A tile layer that no level has; a circle entity table on a non-square entity.
    refusedLike(t, SAMPLE, sample, { tileLayer: 'Nothing' });
    refusedLike(t, SAMPLE, sample, { allLevels: true, entityBodies: [{ identifier: 'Door', body: 'dynamic', shape: 'circle' }] });
    refusedLike(t, SAMPLE, sample, { world: { tileSize: -1 } });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('resolve: a missing file is refused naming it, a thrown error comes through, no resolve refuses', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledge-ldtk-'));
  try {
    const text = fs.readFileSync(richProject(dir), 'utf8');
    const before = ledge.heapInUse();
    assert.throws(() => ledge.World.fromLdtk(text, { allLevels: true, resolve: () => null }),
      /^Error: ledge_ldtk_create_world: .*rooms\/Cave\.ldtkl/);
    assert.throws(() => ledge.World.fromLdtk(text, { allLevels: true }), /rooms\/Cave\.ldtkl/);
    const mine = new Error('no such room');
    assert.throws(() => ledge.World.fromLdtk(text, { allLevels: true, resolve: () => { throw mine; } }), (e) => e === mine);
    assert.throws(() => ledge.World.fromLdtk(text, { allLevels: true, resolve: () => 42 }), TypeError);
    // The first level is inside the project: no file is asked for.
    let asked = 0;
    const { world } = ledge.World.fromLdtk(text, { level: 0, resolve: () => { asked++; return null; } });
    world.dispose();
    assert.equal(asked, 0);
    assert.equal(ledge.heapInUse(), before);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('options are checked: TypeErrors name the option', () => {
  const sample = fs.readFileSync(SAMPLE, 'utf8');
  const bad = [
    [{ intgrid: [{ identifier: 'full', tile: 'ladder' }] }, /intgrid\[0\]\.tile: "ladder" is no tile name/],
    [{ intgrid: [{ identifier: 'full', tile: 1, oneWay: 'sideways' }] }, /intgrid\[0\]\.oneWay/],
    [{ intgrid: {} }, /intgrid must be an array/],
    [{ entityBodies: [{ identifier: 'Crate', body: 'flying' }] }, /entityBodies\[0\]\.body must be one of/],
    [{ entityBodies: [{ body: 'static' }] }, /entityBodies\[0\]\.identifier/],
    [{ level: {} }, /level must be/],
    [{ level: 1.5 }, /level must be/],
    [{ tileLayer: 3 }, /tileLayer must be a string/],
    [{ resolve: 'rooms' }, /resolve must be a function/],
    ['yes', /options must be an object/],
  ];
  for (const [options, message] of bad) assert.throws(() => ledge.World.fromLdtk(sample, options), message);
  assert.throws(() => ledge.World.fromLdtk(42), /must be a JSON string/);
  // An id out of range is ledge's refusal, naming the entry.
  assert.throws(() => ledge.World.fromLdtk(sample, { intgrid: [{ identifier: 'full', tile: 99 }] }), /^Error: ledge_ldtk_create_world: .*intgrid/);
});

test('world.loadLdtk and tilemap.loadLdtk load what fromLdtk makes', () => {
  const sample = fs.readFileSync(SAMPLE, 'utf8');
  const made = ledge.World.fromLdtk(sample, { level: 'Meadow' });
  const world = new ledge.World({ width: 30, height: 15 });
  const tiles = new ledge.World({ width: 30, height: 15 });
  const wrong = new ledge.World({ width: 20, height: 15 });
  try {
    const result = world.loadLdtk(sample, { level: 'Meadow' });
    assert.equal(world.hash(), made.world.hash());
    assert.equal(result.entities.length, made.result.entities.length);
    assert.deepEqual(result.bodies.map((b) => b.position), made.result.bodies.map((b) => b.position));
    tiles.tilemap.loadLdtk(sample, { level: 'Meadow' });
    for (let y = 0; y < 15; ++y) {
      for (let x = 0; x < 30; ++x) {
        assert.equal(tiles.tilemap.get(x, y), made.world.tilemap.get(x, y), `cell ${x}, ${y}`);
        assert.equal(tiles.tilemap.oneWay(x, y), made.world.tilemap.oneWay(x, y));
      }
    }
    assert.equal(tiles.bodyCount, 0, 'the tilemap load makes no body');
    const hash = wrong.hash();
    assert.throws(() => wrong.loadLdtk(sample, { level: 'Meadow' }), /^Error: ledge_ldtk_load_world: /);
    assert.throws(() => wrong.tilemap.loadLdtk(sample, { level: 'Meadow' }), /^Error: ledge_ldtk_load_tilemap: /);
    assert.equal(wrong.hash(), hash, 'a refused load leaves the world as it was');
    wrong.loadLdtk(sample, { level: 'Cave' });
    assert.notEqual(wrong.hash(), hash);
  } finally {
    made.world.dispose();
    world.dispose();
    tiles.dispose();
    wrong.dispose();
  }
});

test('no leak: results with paths are freed with their world; pathPosition then throws', () => {
  const sample = fs.readFileSync(SAMPLE, 'utf8');
  const warm = ledge.World.fromLdtk(sample, { allLevels: true });
  warm.world.dispose();
  const before = ledge.heapInUse();
  let last;
  for (let k = 0; k < 20; ++k) {
    last = ledge.World.fromLdtk(sample, { allLevels: true });
    last.result.entities.find((e) => e.path.length > 0).pathPosition(k);
    last.world.loadLdtk(sample, { allLevels: true }); // a second result in the same world
    last.world.dispose();
  }
  assert.equal(ledge.heapInUse(), before);
  const platform = last.result.entities.find((e) => e.path.length > 0);
  assert.throws(() => platform.pathPosition(1), /disposed/);
});

test('ldtkTileFromName: ledge\'s names and the friendly vocabulary', () => {
  assert.deepEqual(ledge.ldtkTileFromName('full'), { tile: ledge.Tile.FULL, oneWay: 'none' });
  assert.deepEqual(ledge.ldtkTileFromName('_45DEG_PN'), { tile: ledge.Tile['45DEG_PN'], oneWay: 'none' });
  assert.deepEqual(ledge.ldtkTileFromName('one_way'), { tile: ledge.Tile.FULL, oneWay: 'up' });
  assert.equal(ledge.ldtkTileFromName('ladder'), null);
});

test('docs/ldtk.md\'s JavaScript example runs as written', () => {
  const doc = fs.readFileSync(path.join(root, 'docs/ldtk.md'), 'utf8');
  const example = doc.slice(doc.indexOf('## JavaScript')).match(/```js\n([\s\S]*?)```/)[1];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledge-ldtk-doc-'));
  try {
    const file = path.join(dir, 'example.mjs');
    fs.writeFileSync(file, example.replace("from 'ledge-physics'", `from ${JSON.stringify(path.join(root, 'src/bindings/js/ledge.mjs'))}`));
    const out = execFileSync('node', [file], { cwd: root, encoding: 'utf8' });
    assert.equal(out.trim(), 'the player starts at (3.5, 2); the door opens with the Key');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
