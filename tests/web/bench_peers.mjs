// The rain in headless Chromium beside the JavaScript engines a web game
// can pick (docs/benchmarks.md, "In the browser"): ledge-physics (the npm
// package's module), Rapier 2D (@dimforge/rapier2d-compat and
// @dimforge/rapier2d-deterministic-compat), matter-js and planck.js, from
// tests/web's npm packages, at 1,000 and 10,000 circles: each engine in a
// fresh page, 600 steps of 1/60 s or 90 s of stepping, whichever ends
// first. Prints one markdown table (mean ms a step over the steps run,
// over the last 100 of 600, and the ratio to ledge) with the machine's
// load before and after. Take it on a quiet machine:
//   node tests/web/bench_peers.mjs [N...]    (default 1000 10000)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { bindingDir, nativeReplay } from './common.mjs';
import { launch, serve } from './browser.mjs';

const here = path.dirname(new URL(import.meta.url).pathname);
const nm = path.join(here, 'node_modules');
const sizes = process.argv.slice(2).map(Number).filter(Boolean);
if (sizes.length === 0) sizes.push(1000, 10000);
const budget = Number(process.env.LEDGE_BENCH_BUDGET || 90);
const version = (p) => JSON.parse(fs.readFileSync(path.join(nm, p, 'package.json'), 'utf8')).version;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledge-bench-peers-'));
fs.mkdirSync(path.join(dir, 'dist'));
const copy = (from, to) => fs.copyFileSync(from, path.join(dir, to));
for (const f of ['ledge.mjs', 'tiled.mjs', 'ldtk.mjs', 'dist/ledge_wasm.mjs', 'dist/ledge_wasm.wasm']) copy(path.join(bindingDir, f), f);
copy(path.join(here, 'rain.mjs'), 'rain.mjs');
copy(path.join(here, 'peers/rain_peers.mjs'), 'rain_peers.mjs');
copy(path.join(here, 'peers/bench_page.mjs'), 'bench_page.mjs');
copy(path.join(nm, '@dimforge/rapier2d-compat/dist/rapier.mjs'), 'rapier.mjs');
copy(path.join(nm, '@dimforge/rapier2d-deterministic-compat/dist/rapier.mjs'), 'rapier-deterministic.mjs');
copy(path.join(nm, 'matter-js/build/matter.min.js'), 'matter.min.js');
copy(path.join(nm, 'planck/dist/planck.mjs'), 'planck.mjs');
fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">' +
  '<script src="matter.min.js"></script><script type="module" src="bench_page.mjs"></script>');

const names = {
  ledge: `ledge-physics ${JSON.parse(fs.readFileSync(path.join(bindingDir, 'package.json'), 'utf8')).version}`,
  rapier: `Rapier 2D ${version('@dimforge/rapier2d-compat')}`,
  'rapier-deterministic': `Rapier 2D deterministic ${version('@dimforge/rapier2d-deterministic-compat')}`,
  matter: `matter-js ${version('matter-js')}`,
  planck: `planck.js ${version('planck')}`,
};
const load = () => os.loadavg().map((x) => x.toFixed(1)).join(' ');
const loadBefore = load();
const server = await serve(dir);
const browser = await launch();
const rows = [];
try {
  for (const n of sizes) {
    for (const engine of Object.keys(names)) {
      const page = await browser.context.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(`${server.url}index.html?engine=${engine}&n=${n}&budget=${budget}`, { waitUntil: "commit" });
      await page.waitForFunction(() => window.result || null, null, { timeout: (budget + 120) * 1000, polling: 500 });
      const r = await page.evaluate(() => window.result);
      await page.close();
      if (errors.length) throw new Error(`${engine}: ${errors.join('; ')}`);
      rows.push(r);
      console.log(`${names[engine]}, ${n}: ${r.steps} steps, ${r.ms.toFixed(3)} ms a step${r.lastMs ? `, last 100 ${r.lastMs.toFixed(3)}` : ''}`);
    }
  }
} finally {
  await browser.close();
  server.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
const chromium = execFileSync('/usr/bin/chromium', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
console.log(`\n${chromium}, ${os.cpus()[0].model}, load average before ${loadBefore}, after ${load()}\n`);
console.log('| N | engine | steps | ms a step | last 100 of 600 | / ledge |');
console.log('|---:|---|---:|---:|---:|---:|');
for (const r of rows) {
  const base = rows.find((x) => x.n === r.n && x.engine === 'ledge');
  console.log(`| ${r.n.toLocaleString('en')} | ${names[r.engine]} | ${r.steps} | ${r.ms.toFixed(2)} | ${r.lastMs ? r.lastMs.toFixed(2) : '-'} | ${(r.ms / base.ms).toFixed(1)}x |`);
}
// ledge's hash must be native's (the same scene as replay_hashes' rain).
for (const r of rows.filter((x) => x.engine === 'ledge' && x.steps === 600 && fs.existsSync(nativeReplay))) {
  const native = execFileSync(nativeReplay, ['1', String(r.n), '600'], { encoding: 'utf8' }).match(/rain (\w+)/)[1];
  console.log(`ledge ${r.n}: ${r.hash === native ? 'the same world hash as native' : `HASH ${r.hash} differs from native ${native}`}`);
}
