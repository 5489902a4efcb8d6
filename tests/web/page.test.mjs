// The playable page in a real browser (docs/web.md): headless Chromium
// loads build/web/index.html, logs no console error, runs the player right
// on the ground while the right arrow is held for a second, jumps on
// space, and saves a screenshot (docs/web-demo.png, shown by the README);
// clicks drop a box and a ball, and the debug draw turns on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { root } from './common.mjs';
import { launch, serve, webDir } from './browser.mjs';

const screenshot = process.env.LEDGE_WEB_SCREENSHOT || path.join(root, 'docs/web-demo.png');

test('the page plays the sample level in Chromium', { timeout: 120000 }, async (t) => {
  assert.ok(fs.existsSync(path.join(webDir, 'ledge_demo.wasm')), `build the page first (samples/web/build.sh ${webDir})`);
  const server = await serve();
  const browser = await launch();
  t.after(async () => {
    await browser.close();
    server.close();
  });
  const page = await browser.context.newPage();
  const errors = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(server.url);
  await page.waitForFunction(() => window.ledgeDemo && window.ledgeDemo.drawn() > 5, null, { timeout: 30000 });
  const firstFrame = await page.evaluate(() => window.ledgeDemo.firstFrameMs());
  t.diagnostic(`first frame ${firstFrame.toFixed(0)} ms after navigation start`);
  await page.waitForFunction(() => window.ledgeDemo.player().onGround, null, { timeout: 10000 });
  const demo = () => page.evaluate(() => ({ frame: window.ledgeDemo.frame(), ...window.ledgeDemo.player() }));

  // Right arrow held one second: the player runs right, on the ground.
  const before = await demo();
  await page.keyboard.down('ArrowRight');
  const samples = [];
  const t0 = Date.now();
  while (Date.now() - t0 < 1000) {
    samples.push(await demo());
    await page.waitForTimeout(50);
  }
  await page.keyboard.up('ArrowRight');
  const after = await demo();
  const frames = after.frame - before.frame;
  t.diagnostic(`held right: x ${before.x.toFixed(2)} -> ${after.x.toFixed(2)} over ${frames} frames`);
  assert.ok(frames >= 30, `the game stepped ${frames} frames in a second`);
  // 6 m/s for the frames stepped, less what the hill's slope takes.
  assert.ok(after.x - before.x > 0.5 * 6 * frames / 60, `moved right ${after.x - before.x} m`);
  const grounded = samples.filter((s) => s.onGround).length;
  assert.ok(grounded >= 0.8 * samples.length, `on the ground in ${grounded} of ${samples.length} samples`);
  for (let k = 1; k < samples.length; ++k) assert.ok(samples[k].x >= samples[k - 1].x - 1e-4, 'never moved left');

  // Space: the player leaves the ground and rises.
  await page.waitForFunction(() => window.ledgeDemo.player().onGround, null, { timeout: 5000 });
  const standing = await demo();
  await page.keyboard.press(' ');
  let top = standing;
  let airborne = false;
  const t1 = Date.now();
  while (Date.now() - t1 < 1500) {
    const s = await demo();
    if (!s.onGround) airborne = true;
    if (s.y > top.y) top = s;
    if (airborne && top.y > standing.y + 1 && !s.onGround) break;
    await page.waitForTimeout(20);
  }
  t.diagnostic(`jump: y ${standing.y.toFixed(2)} -> ${top.y.toFixed(2)}`);
  assert.ok(airborne, 'left the ground');
  assert.ok(top.y > standing.y + 1, `rose ${top.y - standing.y} m`);

  await page.locator('#stage').screenshot({ path: screenshot });
  assert.ok(fs.statSync(screenshot).size > 10000, 'the screenshot has content');

  // A click drops a box, a shift-click a ball, into the sky above the
  // player; after frame 160, when the game's three scripted bullets are out.
  await page.waitForFunction(() => window.ledgeDemo.frame() > 170, null, { timeout: 20000 });
  const count = () => page.evaluate(() => window.ledgeDemo.world.bodyCount);
  const bodies = await count();
  const box = await page.locator('#view').boundingBox();
  await page.mouse.click(box.x + box.width / 2, box.y + box.height * 0.2);
  await page.keyboard.down('Shift');
  await page.mouse.click(box.x + box.width / 2 + 40, box.y + box.height * 0.2);
  await page.keyboard.up('Shift');
  assert.equal(await count(), bodies + 2, 'two bodies dropped');
  const dropped = await page.evaluate(() => {
    const w = window.ledgeDemo.world;
    const p = window.ledgeDemo.player();
    return w.queryAABB({ x: p.x - 20, y: 10 }, { x: p.x + 20, y: 18 }).map((b) => b.shape.type).sort();
  });
  assert.deepEqual(dropped, ['box', 'circle']);

  // D turns the debug draw on; the page keeps drawing without errors.
  await page.keyboard.press('d');
  assert.equal(await page.isChecked('#debug'), true);
  const drawn = await page.evaluate(() => window.ledgeDemo.drawn());
  await page.waitForFunction((n) => window.ledgeDemo.drawn() > n + 10, drawn, { timeout: 10000 });
  assert.deepEqual(errors, [], 'no console errors');
});
