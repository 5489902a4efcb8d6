// The rain scene stepped in the browser (docs/benchmarks.md, "WebAssembly"):
// bench.html?n=N&steps=S builds tests/scenes.c's rain scene through the
// binding and times S steps of 1/60 s from the start, as `replay_hashes
// bench N S` does natively. The result lands in window.ledgeBench.
import { bind } from './ledge.mjs';
import createDemo from './ledge_demo.mjs';
import { rainWorld } from './rain.mjs';

const q = new URLSearchParams(location.search);
const n = Number(q.get('n') || 10000);
const steps = Number(q.get('steps') || 300);
const ledge = bind(await createDemo());
const world = rainWorld(ledge, n);
const t0 = performance.now();
for (let k = 0; k < steps; ++k) world.step(1 / 60);
const ms = (performance.now() - t0) / steps;
const hash = world.hash().toString(16).padStart(16, '0');
world.dispose();
window.ledgeBench = { n, steps, msPerStep: ms, hash };
document.getElementById('out').textContent = `bench ${n} ${steps} ${ms.toFixed(4)} ${hash}`;
