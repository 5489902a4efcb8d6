// The sample level on a canvas (docs/web.md): the game of samples/game.c,
// compiled into the page's WebAssembly module with the binding, stepped at
// a fixed 60 Hz and drawn interpolated between the last two steps.
// window.ledgeDemo exposes { frame(), player() } for automated checks.
import { bind } from './ledge.mjs';
import createDemo from './ledge_demo.mjs';

const DT = 1 / 60;
const SCALE = 30; // pixels per metre
const BODY_FLOATS = 5;
const COLORS = { box: '#e6b366', ball: '#e69a66', player: '#5fb3ff', platform: '#8080e6', tile: '#596273' };

const canvas = document.getElementById('view');
const ctx = canvas.getContext('2d');
const hud = document.getElementById('hud');
const debugBox = document.getElementById('debug');
const autoBox = document.getElementById('autopilot');

const M = await createDemo();
const ledge = bind(M);
const game = M._web_game_create();
if (!game) throw new Error(`the sample game could not be made: ${M.UTF8ToString(M._ledge_js_error())}`);
const world = ledge.World._adopt(M._web_game_world(game));
const mapDef = world.tilemap.def;
const tiles = drawTiles();

// Input: held keys, plus a latch so that a tap shorter than a frame still jumps.
const held = { left: false, right: false, jump: false, drop: false };
let jumpLatch = false;
let dropLatch = false;
const KEYS = { ArrowLeft: 'left', ArrowRight: 'right', ArrowUp: 'jump', ' ': 'jump', ArrowDown: 'drop' };
function press(name, down) {
  if (down && !held[name]) {
    if (name === 'jump') jumpLatch = true;
    if (name === 'drop') dropLatch = true;
  }
  held[name] = down;
}
addEventListener('keydown', (e) => {
  if (KEYS[e.key]) {
    press(KEYS[e.key], true);
    e.preventDefault();
  } else if (e.key === 'd' || e.key === 'D') {
    debugBox.checked = !debugBox.checked;
  } else if (e.key === 'a' || e.key === 'A') {
    autoBox.checked = !autoBox.checked;
  }
});
addEventListener('keyup', (e) => {
  if (KEYS[e.key]) press(KEYS[e.key], false);
});
addEventListener('blur', () => Object.keys(held).forEach((k) => (held[k] = false)));
for (const b of document.querySelectorAll('#touch button')) {
  const set = (down) => (e) => {
    press(b.dataset.key, down);
    b.classList.toggle('on', down);
    e.preventDefault();
  };
  b.addEventListener('pointerdown', set(true));
  b.addEventListener('pointerup', set(false));
  b.addEventListener('pointerleave', set(false));
  b.addEventListener('pointercancel', set(false));
}

// Clicks drop a box (a ball with shift or the right button) where they land.
let camera = { x: 0, y: 0 };
function toWorld(e) {
  const r = canvas.getBoundingClientRect();
  const px = ((e.clientX - r.left) * canvas.width) / r.width;
  const py = ((e.clientY - r.top) * canvas.height) / r.height;
  return { x: camera.x + px / SCALE, y: camera.y + (canvas.height - py) / SCALE };
}
canvas.addEventListener('pointerdown', (e) => {
  const p = toWorld(e);
  M._web_game_spawn(game, p.x, p.y, e.shiftKey || e.button === 2 ? 1 : 0);
});
canvas.addEventListener('contextmenu', (e) => e.preventDefault());

// Body snapshots of the last two steps, for interpolation.
function snapshot() {
  const n = M._web_game_bodies(game);
  const at = M._web_game_body_buffer() >> 2;
  return M.HEAPF32.slice(at, at + n * BODY_FLOATS);
}
let prev = snapshot();
let curr = prev;
let stepMs = 0; // the fixed step's cost (move + ledge_world_step), smoothed
let stepMsMax = 0;

function update() {
  const t0 = performance.now();
  if (autoBox.checked) {
    M._web_game_autopilot(game);
  } else {
    const run = (held.right ? 1 : 0) - (held.left ? 1 : 0);
    M._web_game_update(game, run, held.jump || jumpLatch ? 1 : 0, held.drop || dropLatch ? 1 : 0);
    jumpLatch = false;
    dropLatch = false;
  }
  const ms = performance.now() - t0;
  stepMs = stepMs ? 0.95 * stepMs + 0.05 * ms : ms;
  stepMsMax = Math.max(stepMsMax * 0.999, ms);
  prev = curr;
  curr = snapshot();
}

function player() {
  const p = M._web_game_player(game) >> 2;
  const F = M.HEAPF32;
  return { x: F[p], y: F[p + 1], vx: F[p + 2], vy: F[p + 3], onGround: F[p + 4] !== 0, onWall: F[p + 5] !== 0 };
}

// The tiles never change: drawn once, filled, into an offscreen canvas.
function drawTiles() {
  const c = document.createElement('canvas');
  c.width = mapDef.width * SCALE;
  c.height = mapDef.height * SCALE;
  const g = c.getContext('2d');
  g.fillStyle = COLORS.tile;
  g.strokeStyle = '#7b8596';
  g.lineWidth = 1;
  for (const poly of world.debugDraw({ bodies: false, contacts: false, normals: false }).polygons) {
    g.beginPath();
    poly.vertices.forEach((v, i) => {
      const x = (v.x - mapDef.origin.x) * SCALE;
      const y = c.height - (v.y - mapDef.origin.y) * SCALE;
      if (i) g.lineTo(x, y);
      else g.moveTo(x, y);
    });
    g.closePath();
    g.fill();
    g.stroke();
  }
  return c;
}

const css = (color) => `#${color.toString(16).padStart(6, '0')}`;
const sx = (x) => (x - camera.x) * SCALE;
const sy = (y) => canvas.height - (y - camera.y) * SCALE;

function drawBodies(alpha) {
  const n = curr.length / BODY_FLOATS;
  for (let k = 0; k < n; ++k) {
    const o = k * BODY_FLOATS;
    const fresh = o >= prev.length;
    const x = fresh ? curr[o] : prev[o] + (curr[o] - prev[o]) * alpha;
    const y = fresh ? curr[o + 1] : prev[o + 1] + (curr[o + 1] - prev[o + 1]) * alpha;
    const kind = curr[o + 2];
    const hx = curr[o + 3];
    const hy = curr[o + 4];
    if (kind === 1) {
      ctx.fillStyle = COLORS.ball;
      ctx.beginPath();
      ctx.arc(sx(x), sy(y), hx * SCALE, 0, 2 * Math.PI);
      ctx.fill();
    } else {
      ctx.fillStyle = kind === 2 ? COLORS.player : kind === 3 ? COLORS.platform : COLORS.box;
      ctx.fillRect(sx(x - hx), sy(y + hy), 2 * hx * SCALE, 2 * hy * SCALE);
    }
  }
}

function drawDebug() {
  const view = { lower: { x: camera.x, y: camera.y }, upper: { x: camera.x + canvas.width / SCALE, y: camera.y + canvas.height / SCALE } };
  const d = world.debugDraw({ tiles: true, bodies: true, contacts: true, normals: true, bounds: true }, view);
  ctx.lineWidth = 1;
  for (const p of d.polygons) {
    ctx.strokeStyle = css(p.color);
    ctx.beginPath();
    p.vertices.forEach((v, i) => (i ? ctx.lineTo(sx(v.x), sy(v.y)) : ctx.moveTo(sx(v.x), sy(v.y))));
    ctx.closePath();
    ctx.stroke();
  }
  for (const c of d.circles) {
    ctx.strokeStyle = css(c.color);
    ctx.beginPath();
    ctx.arc(sx(c.center.x), sy(c.center.y), c.radius * SCALE, 0, 2 * Math.PI);
    ctx.stroke();
  }
  for (const s of d.segments) {
    ctx.strokeStyle = css(s.color);
    ctx.beginPath();
    ctx.moveTo(sx(s.p1.x), sy(s.p1.y));
    ctx.lineTo(sx(s.p2.x), sy(s.p2.y));
    ctx.stroke();
  }
  for (const p of d.points) {
    ctx.fillStyle = css(p.color);
    ctx.fillRect(sx(p.point.x) - 2, sy(p.point.y) - 2, 4, 4);
  }
}

function render(alpha) {
  const o = 0;
  const px = curr[o] + (o < prev.length ? (prev[o] - curr[o]) * (1 - alpha) : 0);
  const viewW = canvas.width / SCALE;
  const viewH = canvas.height / SCALE;
  camera = {
    x: Math.min(Math.max(px - viewW / 2, mapDef.origin.x), mapDef.origin.x + mapDef.width - viewW),
    y: mapDef.origin.y + Math.max(0, (mapDef.height - viewH) / 2),
  };
  ctx.fillStyle = '#20242c';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.drawImage(tiles, -camera.x * SCALE, canvas.height - tiles.height + camera.y * SCALE);
  drawBodies(alpha);
  if (debugBox.checked) drawDebug();
}

let frames = 0;
let fps = 0;
let fpsFrames = 0;
let fpsT = performance.now();
let firstFrameMs = null;
function showHud() {
  const p = player();
  hud.textContent =
    `step ${stepMs.toFixed(3)} ms (max ${stepMsMax.toFixed(2)})  ${fps.toFixed(0)} fps  frame ${M._web_game_frame(game)}\n` +
    `bodies ${world.bodyCount}  player (${p.x.toFixed(2)}, ${p.y.toFixed(2)})` +
    `${p.onGround ? ' ground' : ''}${p.onWall ? ' wall' : ''}` +
    (firstFrameMs !== null ? `\nfirst frame ${firstFrameMs.toFixed(0)} ms after load` : '');
}

let acc = 0;
let last = performance.now();
function tick(now) {
  acc += Math.min(now - last, 250) / 1000; // a hidden tab does not replay minutes
  last = now;
  while (acc >= DT) {
    update();
    acc -= DT;
  }
  render(acc / DT);
  if (firstFrameMs === null) firstFrameMs = performance.now();
  ++frames;
  ++fpsFrames;
  if (now - fpsT >= 500) {
    fps = (fpsFrames * 1000) / (now - fpsT);
    fpsFrames = 0;
    fpsT = now;
  }
  showHud();
  requestAnimationFrame(tick);
}
requestAnimationFrame(tick);

window.ledgeDemo = {
  /** Fixed steps taken so far. */
  frame: () => M._web_game_frame(game),
  /** The player: position, velocity, whether it stands on the ground. */
  player,
  /** Milliseconds from navigation start to the first drawn frame (null before it). */
  firstFrameMs: () => firstFrameMs,
  /** Frames drawn. */
  drawn: () => frames,
  world,
  ledge,
};
