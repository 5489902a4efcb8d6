// The npm package (src/bindings/js): `npm pack` works offline and holds the
// module, the .wasm, the README and the TypeScript declarations; installed
// from the tarball into an empty project, the README's example runs in
// Node as written, and TypeScript accepts correct use of the declarations
// and rejects wrong use.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { bindingDir } from './common.mjs';

const here = path.dirname(new URL(import.meta.url).pathname);
const tsc = path.join(here, 'node_modules/.bin/tsc');
const npm = (args, cwd) => execFileSync('npm', [...args, '--offline', '--no-audit', '--no-fund'], { cwd, encoding: 'utf8' });

test('npm pack, install from the tarball, README example and types', { timeout: 180000 }, (t) => {
  assert.ok(fs.existsSync(path.join(bindingDir, 'dist/ledge_wasm.wasm')), 'build the package first (build.sh package dist)');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ledge-pack-'));
  t.after(() => fs.rmSync(tmp, { recursive: true, force: true }));
  // The module was just built by run.sh; --ignore-scripts skips prepack's rebuild.
  const packed = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', tmp], bindingDir));
  const files = packed[0].files.map((f) => f.path).sort();
  assert.deepEqual(files, ['README.md', 'dist/ledge_wasm.mjs', 'dist/ledge_wasm.wasm', 'ldtk.mjs', 'ledge.d.ts', 'ledge.mjs', 'package.json', 'tiled.mjs']);
  const wasm = packed[0].files.find((f) => f.path === 'dist/ledge_wasm.wasm');
  t.diagnostic(`tarball ${packed[0].filename}: ${packed[0].size} bytes, .wasm ${wasm.size} bytes`);

  const app = path.join(tmp, 'app');
  fs.mkdirSync(app);
  fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  npm(['install', path.join(tmp, packed[0].filename)], app);

  // The README's example, as written.
  const readme = fs.readFileSync(path.join(bindingDir, 'README.md'), 'utf8');
  const example = readme.match(/```js\n([\s\S]*?)```/)[1];
  fs.writeFileSync(path.join(app, 'example.mjs'), example);
  const out = execFileSync('node', ['example.mjs'], { cwd: app, encoding: 'utf8' });
  const [player] = out.match(/\{[^}]*\}/g).map((s) => Function(`return (${s})`)());
  assert.ok(player.x > 7 && player.y > 3.4, `the README's player ran up the slope: ${out}`);

  // TypeScript: correct use compiles, wrong use does not.
  const good = `import { init, type MoveResult, type Vec2, type CharacterState, type Response, type Events, type Contact, type LdtkEntity } from 'ledge-physics';
const ledge = await init();
const world = new ledge.World({ width: 8, height: 8, frictionLaw: 'coulomb', enableSleep: true, sleepSpeed: 0.05, sleepTime: 0.5 });
const body = world.createBody({ type: 'kinematic', shape: ledge.box(0.3, 0.45), position: { x: 2, y: 2 } });
const r: MoveResult = body.move({ x: 0.1, y: 0 });
const v: Vec2 = ledge.clipVelocity(r, { x: 1, y: 0 });
const h: bigint = world.hash();
const hit = world.raycast({ x: 0, y: 4 }, { x: 0, y: -4 });
const awake: boolean = body.awake;
body.awake = true;
if (hit && hit.kind === 'tile') console.log(hit.cell, v, h, r.onGround, awake, body.frozen);
const player = world.createBody({ type: 'kinematic', shape: ledge.box(0.3, 0.45), position: { x: 4, y: 2 } });
const character = world.createCharacter(player, { move: { stepHeight: 0.55 }, platformOnLeave: 'addUpward' });
const state: CharacterState = character.move({ x: 1, y: 0 }, 1 / 60);
const coyote: number = state.timeSinceFloor;
world.setPreSolve((a, b, cx, cy, n, proposed): Response => (b === null && n.y > 0.5 ? 'cross' : proposed));
world.step(1 / 60);
const events: Events = world.events;
for (let i = 0; i < events.touchBegin.length; ++i) console.log(events.touchBegin.get(i).cell.x);
const c: Contact[] = body.contacts().toArray();
const near = world.nearestPoint({ x: 1, y: 1 }, 2);
console.log(coyote, c.length, near?.distance.distance, body.ground().onGround, world.profile.step);
world.dispose();
const level = '{}';
if (level.length > 2) {
  const made = ledge.World.fromLdtk(level, { allLevels: true, world: { gravity: { x: 0, y: -20 } },
    intgrid: [{ identifier: 'ladder', tile: 'FULL', oneWay: true }], entityBodies: [{ identifier: 'Crate', body: 'dynamic' }],
    resolve: (file: string) => file });
  const lift: LdtkEntity | null = made.result.findEntity('Platform');
  const at: Vec2 | undefined = lift?.pathPosition?.(1.5);
  const coins = made.result.entities.filter((e) => e.fields.value === 5).length;
  console.log(at, coins, made.result.levels[0].cell.x, made.world.hash());
}
`;
  const bad = good.replace("ledge.box(0.3, 0.45)", "{ type: 'hexagon' }");
  const tsconfig = { compilerOptions: { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', skipLibCheck: false } };
  fs.writeFileSync(path.join(app, 'tsconfig.json'), JSON.stringify(tsconfig));
  fs.writeFileSync(path.join(app, 'good.mts'), good);
  const ok = spawnSync(tsc, ['-p', '.'], { cwd: app, encoding: 'utf8' });
  assert.equal(ok.status, 0, `tsc: ${ok.stdout}${ok.stderr}`);
  fs.writeFileSync(path.join(app, 'good.mts'), bad);
  const refused = spawnSync(tsc, ['-p', '.'], { cwd: app, encoding: 'utf8' });
  assert.notEqual(refused.status, 0, 'tsc accepted a hexagon');
  assert.match(refused.stdout, /hexagon/);
  fs.writeFileSync(path.join(app, 'good.mts'), good.replace("'coulomb'", "'box2d'"));
  const badModel = spawnSync(tsc, ['-p', '.'], { cwd: app, encoding: 'utf8' });
  assert.notEqual(badModel.status, 0, "tsc accepted frictionLaw 'box2d'");
  assert.match(badModel.stdout, /box2d/);
});
