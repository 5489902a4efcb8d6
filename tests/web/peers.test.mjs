// The peer engines' rain (tests/web/peers/rain_peers.mjs, the scenes of
// the browser benchmark bench_peers.mjs) is the rain: in Node, 400 circles
// in Rapier 2D (both packages), matter-js and planck.js fall under 10 m/s^2
// (after 0.5 s the top row has dropped 1.25 m give or take, before
// anything lands on it) and after 3 s every circle is inside the map and
// above the floor, as in ledge's rain of the same size.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { createRequire } from 'node:module';
import { rainMap, rapierRain, matterRain, planckRain } from './peers/rain_peers.mjs';

const here = path.dirname(new URL(import.meta.url).pathname);
const nm = (p) => path.join(here, 'node_modules', p);
const N = 400;

test('the peers\' rain scenes fall as the rain does and stay in the map', async (t) => {
  const RAPIER = (await import(nm('@dimforge/rapier2d-compat/dist/rapier.mjs'))).default;
  const RAPIER_D = (await import(nm('@dimforge/rapier2d-deterministic-compat/dist/rapier.mjs'))).default;
  await RAPIER.init();
  await RAPIER_D.init();
  const Matter = createRequire(import.meta.url)(nm('matter-js/build/matter.js'));
  const planck = await import(nm('planck/dist/planck.mjs'));
  const map = rainMap(N);
  const top = Math.max(...map.circles.map((c) => c[1]));
  for (const [name, make] of [['rapier', () => rapierRain(RAPIER, N)], ['rapier-deterministic', () => rapierRain(RAPIER_D, N)],
    ['matter', () => matterRain(Matter, N)], ['planck', () => planckRain(planck, N)]]) {
    const sim = make();
    for (let k = 0; k < 30; ++k) sim.step();
    const highest = Math.max(...sim.positions().map((p) => p.y));
    const drop = top - highest;
    assert.ok(drop > 1.0 && drop < 1.5, `${name}: the top row fell ${drop.toFixed(3)} m in 0.5 s (1.25 under 10 m/s^2)`);
    for (let k = 30; k < 180; ++k) sim.step();
    const out = sim.positions().filter((p) => !(p.x > 1 && p.x < map.W - 1 && p.y > 1 && p.y < map.H));
    assert.equal(out.length, 0, `${name}: ${out.length} circles left the map`);
    assert.equal(sim.count(), N);
    sim.free();
    t.diagnostic(`${name}: top row fell ${drop.toFixed(3)} m`);
  }
});
