// The npm packages in a page without a bundler: ledge-physics and
// ledge-phaser packed (`npm pack`, offline), installed from their tarballs
// with Phaser into an empty folder (offline, from npm's cache, which the
// sample's `npm ci` filled), and their READMEs' examples run in Chromium:
// ledge-physics's example as a module script of a page (its console lines
// read back), ledge-phaser's page as written (its character runs up the
// slope onto the ledge).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { bindingDir, root } from './common.mjs';
import { launch, serve } from './browser.mjs';

const npm = (args, cwd) => execFileSync('npm', [...args, '--offline', '--no-audit', '--no-fund'], { cwd, encoding: 'utf8' });
const phaserVersion = JSON.parse(fs.readFileSync(path.join(root, 'samples/phaser/package.json'), 'utf8')).devDependencies.phaser;

test('ledge-physics and ledge-phaser from their tarballs: the README examples in a page', { timeout: 600000 }, async (t) => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ledge-pack-phaser-'));
  t.after(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const pack = (dir) => JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', tmp], dir))[0];
  const physics = pack(bindingDir);
  const plugin = pack(path.join(bindingDir, 'phaser'));
  assert.deepEqual(plugin.files.map((f) => f.path).sort(), ['README.md', 'ledge-phaser.d.ts', 'ledge-phaser.mjs', 'package.json']);
  const app = path.join(tmp, 'app');
  fs.mkdirSync(app);
  fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  npm(['install', path.join(tmp, physics.filename), path.join(tmp, plugin.filename), `phaser@${phaserVersion}`], app);

  // The plugin's declarations compile against ledge-physics's.
  const tsc = path.join(path.dirname(new URL(import.meta.url).pathname), 'node_modules/.bin/tsc');
  fs.writeFileSync(path.join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022' } }));
  fs.writeFileSync(path.join(app, 'use.mts'), `import { init } from 'ledge-physics';
import { createLedgePlugin, type LedgePlugin, type PluginCharacter } from 'ledge-phaser';
const Plugin = createLedgePlugin(await init());
declare const plugin: LedgePlugin;
const hero: PluginCharacter = plugin.add.character({ x: 0, y: 0, displayWidth: 10, displayHeight: 14 }, { move: { maxFloorSlope: 1.1 } });
hero.setVelocityX(60).jump(300, 0.1);
const coyote: number = hero.timeSinceFloor;
plugin.events.on('touchstart', (a: unknown, b: unknown) => console.log(a, b, coyote));
const snap = plugin.save();
plugin.restore(snap);
console.log(Plugin, hero.state.floorBody);
`);
  const typed = execFileSync(tsc, ['-p', '.'], { cwd: app, encoding: 'utf8' });
  assert.equal(typed, '');

  // ledge-phaser's README page, as written.
  const readme = fs.readFileSync(path.join(bindingDir, 'phaser/README.md'), 'utf8');
  fs.writeFileSync(path.join(app, 'index.html'), readme.match(/```html\n([\s\S]*?)```/)[1]);
  // ledge-physics's README example as a page's module.
  const example = fs.readFileSync(path.join(bindingDir, 'README.md'), 'utf8').match(/```js\n([\s\S]*?)```/)[1];
  fs.writeFileSync(path.join(app, 'physics.html'), `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="importmap">{ "imports": { "ledge-physics": "./node_modules/ledge-physics/ledge.mjs" } }</script>
<script type="module">
${example}
window.done = true;
</script>`);
  const server = await serve(app);
  const browser = await launch();
  try {
    const page = await browser.context.newPage();
    const errors = [];
    const logs = [];
    page.on('console', (m) => (m.type() === 'error' ? errors.push(m.text()) : logs.push(m.text())));
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${server.url}physics.html`);
    await page.waitForFunction(() => window.done === true, null, { timeout: 30000 });
    const [player] = logs.join(' ').match(/\{[^}]*\}/g).map((s) => Function(`return (${s})`)());
    assert.ok(player.x > 7 && player.y > 3.4, `the README's player ran up the slope: ${logs.join(' ')}`);

    await page.goto(`${server.url}index.html`);
    await page.waitForFunction(() => window.ledgeExample && window.ledgeExample.steps > 240, null, { timeout: 60000 });
    const e = await page.evaluate(() => window.ledgeExample);
    assert.ok(e.onFloor && e.x > 7 * 16 && e.y < 3 * 16, `the character ran up the slope onto the ledge: ${JSON.stringify(e)}`);
    const favicon = (s) => /favicon/.test(s) || /404/.test(s);
    assert.deepEqual(errors.filter((s) => !favicon(s)), []);
  } finally {
    await browser.close();
    server.close();
  }
});
