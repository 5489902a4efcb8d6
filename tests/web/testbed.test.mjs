// The browser testbed (samples/web, docs/samples.md) in headless Chromium:
// every scene opens from its address and runs 120 frames at 30 drawn
// frames a second or more (the best of three tries) without a console
// error; R held takes the frame count back; P stops the frame count and O
// (or the Step button) advances it by
// exactly one; the mouse drags a crate and drops a box and a ball; in the
// sample level the arrows run and space jumps. The screenshots of docs/ are taken here: three scenes
// (docs/testbed-*.png) and the sample level (docs/web-demo.png, README).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { root } from './common.mjs';
import { launch, serve, webDir } from './browser.mjs';

const shots = process.env.LEDGE_WEB_SCREENSHOTS || path.join(root, 'docs');
const FRAMES = 120;

async function start(t) {
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
  const open = async (name) => {
    await page.goto(`${server.url}?scene=${name}`);
    await page.waitForFunction((n) => window.ledgeTestbed && window.ledgeTestbed.scene() === n &&
      window.ledgeTestbed.drawn() > 2, name, { timeout: 30000 });
  };
  return { page, errors, open, url: server.url };
}

// Frames of the page until the scene has taken `n` more steps: how long
// that took and how many frames were drawn meanwhile.
function run(page, n) {
  return page.evaluate((count) => new Promise((resolve) => {
    const tb = window.ledgeTestbed;
    const f0 = tb.frame();
    const d0 = tb.drawn();
    const t0 = performance.now();
    const poll = () => {
      if (tb.frame() >= f0 + count) {
        const s = (performance.now() - t0) / 1000;
        resolve({ frames: tb.frame() - f0, drawn: tb.drawn() - d0, seconds: s, fps: (tb.drawn() - d0) / s });
      } else if (performance.now() - t0 > 30000) {
        resolve({ frames: tb.frame() - f0, drawn: tb.drawn() - d0, seconds: 30, fps: 0 });
      } else {
        requestAnimationFrame(poll);
      }
    };
    requestAnimationFrame(poll);
  }), n);
}

test('every scene opens from its address and runs 120 frames at 30 fps or more', { timeout: 900000 }, async (t) => {
  const { page, errors, open, url } = await start(t);
  await page.goto(url);
  await page.waitForFunction(() => window.ledgeTestbed, null, { timeout: 30000 });
  const scenes = await page.evaluate(() => window.ledgeTestbed.scenes.map((s) => [s.name, s.title]));
  assert.ok(scenes.length >= 23, `${scenes.length} scenes`);
  assert.equal(await page.evaluate(() => window.ledgeTestbed.scene()), 'level', 'the sample level without ?scene=');
  const slow = [];
  for (const [name, title] of scenes) {
    const before = errors.length;
    await open(name);
    // The drawn frames per second of 120 frames; on a machine shared with
    // other jobs a scene under 30 gets two more tries, from its address
    // again, and the best counts.
    let best = 0;
    for (let attempt = 0; attempt < 3 && best < 30; ++attempt) {
      if (attempt) await open(name);
      const r = await run(page, FRAMES);
      t.diagnostic(`${name}: ${r.frames} frames in ${r.seconds.toFixed(2)} s, ${r.drawn} drawn, ${r.fps.toFixed(1)} fps`);
      assert.ok(r.frames >= FRAMES, `${name}: ${r.frames} frames in 30 s`);
      best = Math.max(best, r.fps);
    }
    const lines = await page.evaluate(() => window.ledgeTestbed.lines());
    if (best < 30) slow.push(`${name} ${best.toFixed(1)} fps`);
    assert.ok(lines[0].includes(title), `${name}: the panel names the scene (${lines[0]})`);
    assert.ok(new URL(page.url()).search === `?scene=${name}`, `${name}: the address stays`);
    assert.deepEqual(errors.slice(before), [], `${name}: no console errors`);
  }
  assert.deepEqual(slow, [], 'every scene at 30 fps or more');
});

test('R held runs the scene backwards, then it plays on', { timeout: 120000 }, async (t) => {
  const { page, errors, open } = await start(t);
  await open('pyramid');
  const frame = () => page.evaluate(() => window.ledgeTestbed.frame());
  await run(page, 90);
  const before = await frame();
  await page.keyboard.down('r');
  await page.waitForTimeout(500);
  const held = await frame();
  await page.keyboard.up('r');
  t.diagnostic(`R held half a second: frame ${before} -> ${held}`);
  assert.ok(held < before - 5, `R: back from frame ${before} to ${held}`);
  const r = await run(page, 20);
  assert.ok(r.frames >= 20, 'playing on after the rewind');
  assert.deepEqual(errors, [], 'no console errors');
});

test('pause stops the frame count, a single step advances it by one', { timeout: 120000 }, async (t) => {
  const { page, errors, open } = await start(t);
  await open('pyramid');
  const frame = () => page.evaluate(() => window.ledgeTestbed.frame());
  await page.setViewportSize({ width: 1280, height: 800 });
  await run(page, 90);
  await page.screenshot({ path: path.join(shots, 'testbed-pyramid.png') });
  await page.keyboard.press('p');
  await page.waitForFunction(() => window.ledgeTestbed.paused());
  const paused = await frame();
  await page.waitForTimeout(700);
  assert.equal(await frame(), paused, 'no steps while paused');
  await page.keyboard.press('o');
  await page.waitForFunction((f) => window.ledgeTestbed.frame() > f, paused);
  await page.waitForTimeout(300);
  assert.equal(await frame(), paused + 1, 'O: one step');
  await page.click('#step');
  await page.waitForFunction((f) => window.ledgeTestbed.frame() > f, paused + 1);
  await page.waitForTimeout(300);
  assert.equal(await frame(), paused + 2, 'the Step button: one step');
  assert.equal(await page.textContent('#pause'), 'Run');
  await page.click('#pause');
  const r = await run(page, 30);
  assert.ok(r.frames >= 30, 'running again');
  assert.equal(await page.evaluate(() => window.ledgeTestbed.paused()), false);
  // F3 turns the contact points off and on; the checkbox follows.
  const contacts = () => page.isChecked('#toolbar input[data-flag="4"]');
  const was = await contacts();
  await page.keyboard.press('F3');
  await page.waitForFunction((w) => ((window.ledgeTestbed.flags() & 4) !== 0) !== w, was);
  assert.equal(await contacts(), !was);
  assert.deepEqual(errors, [], 'no console errors');
});

test('the mouse drags a crate, drops a box and a ball', { timeout: 120000 }, async (t) => {
  const { page, errors, open } = await start(t);
  await open('tower');
  await run(page, 60); // the towers settle
  const tb = (fn, arg) => page.evaluate(fn, arg);
  // The straight tower's top crate (the highest body over x = 7.5).
  const top = await tb(() => {
    const column = window.ledgeTestbed.world.queryAABB({ x: 7.4, y: 0 }, { x: 7.6, y: 16 });
    return column.map((b) => b.position).sort((a, b) => b.y - a.y)[0] || null;
  });
  assert.ok(top, 'a crate at the top of the tower');
  const at = await tb((p) => window.ledgeTestbed.toPage(p), top);
  await page.mouse.move(at.x, at.y);
  await page.mouse.down();
  await page.waitForFunction(() => window.ledgeTestbed.dragged() > 0, null, { timeout: 5000 });
  const to = { x: top.x + 3, y: top.y + 1.5 };
  const end = await tb((p) => window.ledgeTestbed.toPage(p), to);
  for (let k = 1; k <= 10; ++k) {
    await page.mouse.move(at.x + ((end.x - at.x) * k) / 10, at.y + ((end.y - at.y) * k) / 10);
    await page.waitForTimeout(30);
  }
  await run(page, 60);
  const moved = await tb((p) => {
    const [b] = window.ledgeTestbed.world.queryPoint(p);
    return b ? b.position : null;
  }, to);
  await page.mouse.up();
  t.diagnostic(`crate dragged from (${top.x.toFixed(2)}, ${top.y.toFixed(2)}) to (${moved && moved.x.toFixed(2)}, ${moved && moved.y.toFixed(2)})`);
  assert.ok(moved && Math.abs(moved.x - to.x) < 0.3 && Math.abs(moved.y - to.y) < 0.3, 'the crate follows the mouse');
  await page.waitForFunction(() => window.ledgeTestbed.dragged() === 0, null, { timeout: 5000 }); // let go
  // A click on nothing drops a box, a right click a ball.
  const count = () => tb(() => window.ledgeTestbed.world.bodyCount);
  const bodies = await count();
  const sky = await tb((p) => window.ledgeTestbed.toPage(p), { x: 3, y: 12 });
  await page.mouse.click(sky.x, sky.y);
  await page.mouse.click(sky.x + 60, sky.y, { button: 'right' });
  await page.waitForFunction((n) => window.ledgeTestbed.world.bodyCount === n + 2, bodies, { timeout: 5000 });
  const dropped = await tb(() => window.ledgeTestbed.world.queryAABB({ x: 1, y: 0 }, { x: 6.9, y: 16 })
    .map((b) => b.shape.type).sort());
  assert.deepEqual(dropped, ['box', 'circle']);
  assert.deepEqual(errors, [], 'no console errors');
});

test('the sample level plays: the arrows run, space jumps', { timeout: 120000 }, async (t) => {
  const { page, errors, open } = await start(t);
  await open('level');
  const player = async () => {
    const line = (await page.evaluate(() => window.ledgeTestbed.lines())).find((l) => l.startsWith('player ('));
    const m = /player \(([-\d.]+), ([-\d.]+)\)(.*)/.exec(line);
    return { x: Number(m[1]), y: Number(m[2]), ground: m[3].includes('ground'), frame: await page.evaluate(() => window.ledgeTestbed.frame()) };
  };
  await page.waitForFunction(() => window.ledgeTestbed.frame() > 30);
  const before = await player();
  await page.keyboard.down('ArrowRight'); // takes the controls from the autopilot
  await page.waitForTimeout(1000);
  await page.keyboard.up('ArrowRight');
  const after = await player();
  const frames = after.frame - before.frame;
  t.diagnostic(`held right: x ${before.x.toFixed(2)} -> ${after.x.toFixed(2)} over ${frames} frames`);
  assert.ok(frames >= 30, `${frames} frames in a second`);
  assert.ok(after.x - before.x > (0.5 * 6 * frames) / 60, `moved right ${after.x - before.x} m`);
  await page.waitForFunction(() => window.ledgeTestbed.lines().some((l) => l.startsWith('player (') && l.includes('ground')));
  const standing = await player();
  await page.keyboard.press(' ');
  let top = standing;
  const t1 = Date.now();
  while (Date.now() - t1 < 1000) {
    const p = await player();
    if (p.y > top.y) top = p;
    await page.waitForTimeout(20);
  }
  t.diagnostic(`jump: y ${standing.y.toFixed(2)} -> ${top.y.toFixed(2)}`);
  assert.ok(top.y > standing.y + 1, `rose ${top.y - standing.y} m`);
  await page.locator('#stage').screenshot({ path: path.join(shots, 'web-demo.png') });
  await page.setViewportSize({ width: 1280, height: 800 });
  for (const [name, frames] of [['character', 200], ['ray_cast', 150]]) {
    await open(name);
    await run(page, frames);
    await page.screenshot({ path: path.join(shots, `testbed-${name}.png`) });
  }
  assert.deepEqual(errors, [], 'no console errors');
});
