// Run by api.test.mjs in a child process (node --expose-gc, a young
// generation large enough that no collection runs while measuring): a
// world of 200 bodies with events on, a sensor and a character, stepped
// and read through the binding. For each kind of call it prints the bytes
// the JavaScript heap grew by per call, the least of six rounds of 2,000
// calls after a collection: "step N", "events N", "contacts N", "move N".
import { loadLedge } from './common.mjs';

const ledge = await loadLedge();
const { World, Tile, circle, box } = ledge;
const world = new World({ gravity: { x: 0, y: -10 }, width: 40, height: 20 });
for (let x = 0; x < 40; ++x) world.tilemap.set(x, 0, Tile.FULL);
for (let y = 0; y < 20; ++y) {
  world.tilemap.set(0, y, Tile.FULL);
  world.tilemap.set(39, y, Tile.FULL);
}
const bodies = [];
for (let k = 0; k < 200; ++k) {
  bodies.push(world.createBody({ shape: k % 2 ? circle(0.3) : box(0.3, 0.3), position: { x: 2 + (k % 30), y: 2 + Math.floor(k / 30) },
    enableEvents: true, bounce: 0.3 }));
}
world.createBody({ type: 'static', shape: box(2, 2), position: { x: 20, y: 3 }, sensor: true });
const player = world.createBody({ type: 'kinematic', shape: box(0.3, 0.45), position: { x: 5, y: 15 } });
const character = world.createCharacter(player);
const velocity = { x: 2, y: -1 };
const sink = new Float64Array(1); // a number kept in a variable would be boxed on every +=

function readEvents() {
  const e = world.events;
  for (let i = 0; i < e.touchBegin.length; ++i) sink[0] += e.touchBegin.get(i).cell.x;
  for (let i = 0; i < e.touchEnd.length; ++i) sink[0] += e.touchEnd.get(i).cell.y;
  for (let i = 0; i < e.sensorBegin.length; ++i) sink[0] += e.sensorBegin.get(i).visitor._id[0];
  for (let i = 0; i < e.sensorEnd.length; ++i) sink[0] += e.sensorEnd.get(i).visitor._id[0];
  for (let i = 0; i < e.crush.length; ++i) sink[0] += e.crush.get(i).depth;
}
function readContacts() {
  for (let b = 0; b < bodies.length; b += 7) {
    const c = bodies[b].contacts();
    for (let i = 0; i < c.length; ++i) sink[0] += c.get(i).normal.y;
    sink[0] += bodies[b].ground().onGround ? 1 : 0;
  }
}
const calls = {
  step: () => world.step(1 / 60),
  events: () => {
    world.step(1 / 60);
    readEvents();
  },
  contacts: () => {
    world.step(1 / 60);
    readContacts();
  },
  move: (k) => {
    velocity.x = k % 200 < 100 ? 3 : -3;
    sink[0] += character.move(velocity, 1 / 60).onFloor ? 1 : 0;
    world.step(1 / 60);
  },
};
// Warm every kind of call (buffers grown, code optimised), then let V8's
// background compilations finish and be installed: their code and
// metadata land on the heap, and the first kind measured took them for
// its own (up to 85 bytes a call, whichever kind came first).
for (let k = 0; k < 600; ++k) calls.move(k);
for (const fn of Object.values(calls)) for (let k = 0; k < 1000; ++k) fn(k);
await new Promise((resolve) => setTimeout(resolve, 200));
// The rounds go through the kinds in turn, so that what V8 still does in
// the background is spread over all of them, and the least round counts.
const least = Object.fromEntries(Object.keys(calls).map((name) => [name, Infinity]));
for (let round = 0; round < 6; ++round) {
  for (const [name, fn] of Object.entries(calls)) {
    for (let k = 0; k < 500; ++k) fn(k);
    global.gc();
    const before = process.memoryUsage().heapUsed;
    for (let k = 0; k < 2000; ++k) fn(k);
    least[name] = Math.min(least[name], (process.memoryUsage().heapUsed - before) / 2000);
  }
}
for (const [name, bytes] of Object.entries(least)) console.log(`${name} ${bytes.toFixed(1)}`);
world.dispose();
