// The rain scene in the browser against native (docs/benchmarks.md,
// "WebAssembly in Chromium"): `replay_hashes bench N STEPS` (the native
// release build) and samples/web/bench.html in headless Chromium step the
// same scene from the same start, alternately, ROUNDS times; the best time
// of each side is kept, and the ratio wasm / native printed. Both must end
// with the same hash. Run by meson's `web` benchmark, or directly:
//   node tests/web/bench.mjs [N] [STEPS] [ROUNDS]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { nativeReplay } from './common.mjs';
import { launch, serve, webDir } from './browser.mjs';

const [n, steps, rounds] = [10000, 300, 3].map((d, k) => Number(process.argv[2 + k] || d));
if (!fs.existsSync(path.join(webDir, 'bench.html')) || !fs.existsSync(nativeReplay)) {
  console.log(`skipped: needs ${webDir} (samples/web/build.sh) and ${nativeReplay}`);
  process.exit(77);
}
const server = await serve();
const browser = await launch();
const page = await browser.context.newPage();
const native = [];
const wasm = [];
try {
  for (let r = 0; r < rounds; ++r) {
    const out = execFileSync(nativeReplay, ['bench', String(n), String(steps)], { encoding: 'utf8' }).trim().split(' ');
    native.push({ ms: Number(out[3]), hash: out[4] });
    await page.goto(`${server.url}bench.html?n=${n}&steps=${steps}`);
    await page.waitForFunction(() => window.ledgeBench, null, { timeout: 600000 });
    const b = await page.evaluate(() => window.ledgeBench);
    wasm.push({ ms: b.msPerStep, hash: b.hash });
    console.log(`round ${r + 1}: native ${native[r].ms.toFixed(3)} ms/step, wasm ${b.msPerStep.toFixed(3)} ms/step`);
  }
} finally {
  await browser.close();
  server.close();
}
const best = (a) => Math.min(...a.map((x) => x.ms));
const chromium = execFileSync('/usr/bin/chromium', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
console.log(`rain ${n} x ${steps} steps, best of ${rounds}: native ${best(native).toFixed(3)} ms/step, ` +
  `wasm (${chromium}) ${best(wasm).toFixed(3)} ms/step, ratio ${(best(wasm) / best(native)).toFixed(2)}`);
const hashes = new Set([...native, ...wasm].map((x) => x.hash));
console.log(hashes.size === 1 ? `same end hash ${[...hashes][0]}` : `HASHES DIFFER: ${[...hashes].join(' ')}`);
process.exit(hashes.size === 1 ? 0 : 1);
