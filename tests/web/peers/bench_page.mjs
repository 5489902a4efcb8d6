// The benchmark page's module (tests/web/bench_peers.mjs serves it): one
// engine (?engine=), one size (?n=), at most ?steps= steps of 1/60 s or
// ?budget= seconds of stepping, whichever ends first; sets window.result:
// { engine, n, steps, ms (mean a step), lastMs (mean of the last 100, when
// 600 were run), hash (ledge only) }.
import { rapierRain, matterRain, planckRain } from './rain_peers.mjs';

const q = new URLSearchParams(location.search);
const engine = q.get('engine');
const n = Number(q.get('n'));
const maxSteps = Number(q.get('steps') || 600);
const budget = Number(q.get('budget') || 90) * 1000;

async function make() {
  if (engine === 'ledge') {
    const { init } = await import('./ledge.mjs');
    const { rainWorld } = await import('./rain.mjs');
    const ledge = await init();
    const w = rainWorld(ledge, n);
    return { step: () => w.step(1 / 60), hash: () => w.hash().toString(16).padStart(16, '0'), free: () => w.dispose() };
  }
  if (engine === 'rapier' || engine === 'rapier-deterministic') {
    const RAPIER = (await import(engine === 'rapier' ? './rapier.mjs' : './rapier-deterministic.mjs')).default;
    await RAPIER.init();
    return rapierRain(RAPIER, n);
  }
  if (engine === 'matter') return matterRain(window.Matter, n);
  if (engine === 'planck') return planckRain(await import('./planck.mjs'), n);
  throw new Error(`unknown engine ${engine}`);
}

const sim = await make();
const times = [];
const t0 = performance.now();
while (times.length < maxSteps && performance.now() - t0 < budget) {
  const a = performance.now();
  sim.step();
  times.push(performance.now() - a);
}
const mean = (a) => a.reduce((s, x) => s + x, 0) / a.length;
window.result = {
  engine, n, steps: times.length, ms: mean(times),
  lastMs: times.length >= 600 ? mean(times.slice(-100)) : null,
  hash: sim.hash ? sim.hash() : null,
};
sim.free();
