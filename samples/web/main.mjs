// The testbed in the browser (docs/samples.md, docs/web.md): the scenes of
// samples/scenes, compiled with the library into the page's WebAssembly
// module (web_testbed.c), stepped at a fixed 60 Hz and painted on a
// canvas from the draw list the module records each frame. The address
// names the scene (?scene=pyramid). window.ledgeTestbed is for automated
// checks (tests/web/testbed.test.mjs).
import { bind } from './ledge.mjs';
import createDemo from './ledge_demo.mjs';

const DT = 1 / 60;
const MAX_STEPS = 2; // fixed steps a drawn frame may take: a slow scene slows down
const TILE = 0x9a9a9a; // LEDGE_COLOR_TILE: tile outlines, filled as ground
const DRAW = { polygon: 1, solidPolygon: 2, circle: 3, solidCircle: 4, segment: 5, point: 6, text: 7 };
const KEYS = { ArrowLeft: 1, ArrowRight: 2, ArrowUp: 3, ArrowDown: 4, ' ': 5, F1: 256, F2: 257, F3: 258, F4: 259, F5: 260,
  Backspace: 261, '[': 262, ']': 263 };

const canvas = document.getElementById('view');
// Opaque: every frame paints the whole canvas, and the compositor need not
// blend it with the page (in headless Chromium the rain's 1,000 balls went
// from 47-56 to 57 drawn frames a second).
const ctx = canvas.getContext('2d', { alpha: false });
const hud = document.getElementById('hud');
const nav = document.getElementById('scenes');
const aspect = canvas.width / canvas.height;

const M = await createDemo();
const ledge = bind(M);
const str = (p) => M.UTF8ToString(p);

const scenes = [];
for (let i = 0; i < M._tb_scene_count(); ++i) {
  scenes.push({ index: i, name: str(M._tb_scene_name(i)), category: str(M._tb_scene_category(i)),
    title: str(M._tb_scene_title(i)), caption: str(M._tb_scene_caption(i)), keys: str(M._tb_scene_keys(i)) });
}

// The list, by category; each entry a link to its address.
const links = new Map();
let category = '';
for (const s of scenes) {
  if (s.category !== category) {
    category = s.category;
    const h = document.createElement('h2');
    h.textContent = category;
    nav.append(h);
  }
  const a = document.createElement('a');
  a.href = `?scene=${s.name}`;
  a.textContent = s.title;
  a.title = s.caption;
  a.addEventListener('click', (e) => {
    e.preventDefault();
    open(s);
  });
  nav.append(a);
  links.set(s.index, a);
}

let current = null;
let world = null; // the scene's world through the binding (adopted, not owned)
let worldPtr = 0;
let message = '';

function open(scene) {
  worldPtr = 0; // a new world, even where the old one's memory is reused
  if (!M._tb_open(scene.index)) message = `the scene ${scene.name} could not be made: ${str(M._ledge_js_error())}`;
  shown(scene);
}

// The page follows the scene the module runs (the list, [ ] keys, links).
function shown(scene) {
  worldPtr = 0;
  if (current) links.get(current.index).classList.remove('on');
  current = scene;
  links.get(scene.index).classList.add('on');
  document.title = `ledge testbed: ${scene.title}`;
  const url = `?scene=${scene.name}`;
  if (location.search !== url) history.replaceState(null, '', url);
  syncSwitches();
}

function sceneFromAddress() {
  const name = new URLSearchParams(location.search).get('scene') || location.hash.slice(1) || 'level';
  const s = scenes.find((x) => x.name === name);
  if (!s) console.warn(`ledge testbed: no scene "${name}"; the sample level instead`);
  return s || scenes.find((x) => x.name === 'level') || scenes[0];
}

// --- controls -----------------------------------------------------------------

const switches = [...document.querySelectorAll('#toolbar input[data-flag]')];
function syncSwitches() {
  const flags = M._tb_flags();
  for (const box of switches) box.checked = (flags & Number(box.dataset.flag)) !== 0;
  document.getElementById('pause').textContent = M._tb_paused() ? 'Run' : 'Pause';
}
for (const box of switches) {
  box.addEventListener('change', () => {
    const bit = Number(box.dataset.flag);
    M._tb_set_flags(box.checked ? M._tb_flags() | bit : M._tb_flags() & ~bit);
  });
}
const press = (key) => {
  M._tb_key(key, 1);
  M._tb_key(key, 0);
};
document.getElementById('pause').addEventListener('click', () => press(112)); // 'p'
document.getElementById('step').addEventListener('click', () => press(111)); // 'o'
document.getElementById('restart').addEventListener('click', () => press(KEYS.Backspace));
{ // held: R, the scene runs backwards (samples/scenes/rewind.c)
  const rewind = document.getElementById('rewind'), r = 'r'.charCodeAt(0);
  const hold = (down) => (e) => {
    M._tb_key(r, down ? 1 : 0);
    e.preventDefault();
  };
  rewind.addEventListener('pointerdown', hold(true));
  for (const up of ['pointerup', 'pointerleave', 'pointercancel']) rewind.addEventListener(up, hold(false));
}

function keyCode(e) {
  if (KEYS[e.key] !== undefined) return KEYS[e.key];
  if (e.key.length === 1 && /[a-z0-9]/i.test(e.key) && !e.ctrlKey && !e.metaKey && !e.altKey) {
    return e.key.toLowerCase().charCodeAt(0);
  }
  return 0;
}
addEventListener('keydown', (e) => {
  const code = keyCode(e);
  if (!code) return;
  if (!e.repeat) M._tb_key(code, 1);
  e.preventDefault();
});
addEventListener('keyup', (e) => {
  const code = keyCode(e);
  if (code) M._tb_key(code, 0);
});
addEventListener('blur', () => M._tb_keys_up());
for (const b of document.querySelectorAll('#touch button')) {
  const key = Number(b.dataset.key);
  const set = (down) => (e) => {
    M._tb_key(key, down ? 1 : 0);
    e.preventDefault();
  };
  b.addEventListener('pointerdown', set(true));
  b.addEventListener('pointerup', set(false));
  b.addEventListener('pointerleave', set(false));
  b.addEventListener('pointercancel', set(false));
}

// The pointer in world units, through the view of the last frame drawn.
let view = { x0: 0, y0: 0, x1: 1, y1: 1 };
let scale = 1; // canvas pixels per metre
function toWorld(e) {
  const r = canvas.getBoundingClientRect();
  const px = ((e.clientX - r.left) * canvas.width) / r.width;
  const py = ((e.clientY - r.top) * canvas.height) / r.height;
  return { x: view.x0 + px / scale, y: view.y1 - py / scale };
}
function pointer(e, inside = true) {
  const p = toWorld(e);
  M._tb_pointer(p.x, p.y, inside ? 1 : 0, e.shiftKey ? 1 : 0);
}
canvas.addEventListener('pointermove', (e) => pointer(e));
canvas.addEventListener('pointerleave', (e) => pointer(e, false));
canvas.addEventListener('pointerdown', (e) => {
  pointer(e);
  canvas.setPointerCapture(e.pointerId);
  M._tb_button(e.button, 1);
  e.preventDefault();
});
canvas.addEventListener('pointerup', (e) => {
  pointer(e);
  M._tb_button(e.button, 0);
});
canvas.addEventListener('contextmenu', (e) => e.preventDefault());
canvas.addEventListener('wheel', (e) => {
  const p = toWorld(e);
  M._tb_zoom(e.deltaY < 0 ? 0.9 : 1 / 0.9, p.x, p.y);
  e.preventDefault();
}, { passive: false });

// --- painting -------------------------------------------------------------------

const css = (c, alpha = 1) => `rgba(${(c >> 16) & 255},${(c >> 8) & 255},${c & 255},${alpha})`;
const sx = (x) => (x - view.x0) * scale;
const sy = (y) => (view.y1 - y) * scale;

// Consecutive commands of one kind and colour (the tiles, a scene's bodies)
// go into one path, filled and stroked once: a thousand balls are one
// fill() and one stroke(), not a thousand of each.
let batch = null; // { kind, color }
function flush() {
  if (!batch) return;
  const { kind, color } = batch;
  if (kind === DRAW.polygon && color === TILE) {
    ctx.fillStyle = '#4a5263';
    ctx.fill();
    ctx.strokeStyle = '#7b8596';
    ctx.stroke();
  } else if (kind === DRAW.point) {
    ctx.fillStyle = css(color);
    ctx.fill();
  } else {
    if (kind === DRAW.solidPolygon || kind === DRAW.solidCircle) {
      ctx.fillStyle = css(color, 0.45);
      ctx.fill();
    }
    ctx.strokeStyle = css(color);
    ctx.stroke();
  }
  batch = null;
}
function begin(kind, color) {
  if (batch && batch.kind === kind && batch.color === color) return;
  flush();
  batch = { kind, color };
  ctx.beginPath();
}

function paint() {
  const at = M._tb_draw(aspect) >> 2;
  const n = M._tb_draw_count();
  const F = M.HEAPF32; // after the call: the memory may have grown
  const v = M._tb_view() >> 2;
  view = { x0: F[v], y0: F[v + 1], x1: F[v + 2], y1: F[v + 3] };
  scale = canvas.height / (view.y1 - view.y0);
  const text = M._tb_draw_text();
  ctx.fillStyle = '#20242c';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.lineWidth = 1.25;
  for (let k = at, end = at + n; k < end;) {
    const kind = F[k];
    const color = F[k + 1];
    if (kind === DRAW.polygon || kind === DRAW.solidPolygon) {
      const count = F[k + 2];
      begin(kind, color);
      for (let i = 0; i < count; ++i) {
        const x = sx(F[k + 3 + 2 * i]);
        const y = sy(F[k + 4 + 2 * i]);
        if (i) ctx.lineTo(x, y);
        else ctx.moveTo(x, y);
      }
      ctx.closePath();
      k += 3 + 2 * count;
    } else if (kind === DRAW.circle || kind === DRAW.solidCircle) {
      begin(kind, color);
      const x = sx(F[k + 2]);
      const y = sy(F[k + 3]);
      const r = F[k + 4] * scale;
      ctx.moveTo(x + r, y);
      ctx.arc(x, y, r, 0, 2 * Math.PI);
      k += 5;
    } else if (kind === DRAW.segment) {
      begin(kind, color);
      ctx.moveTo(sx(F[k + 2]), sy(F[k + 3]));
      ctx.lineTo(sx(F[k + 4]), sy(F[k + 5]));
      k += 6;
    } else if (kind === DRAW.point) {
      begin(kind, color);
      const size = F[k + 2];
      ctx.rect(sx(F[k + 3]) - size / 2, sy(F[k + 4]) - size / 2, size, size);
      k += 5;
    } else if (kind === DRAW.text) {
      flush();
      ctx.font = `${Math.max(8, F[k + 4] * scale).toFixed(1)}px system-ui, sans-serif`;
      ctx.fillStyle = css(color);
      ctx.fillText(str(text + F[k + 5]), sx(F[k + 2]), sy(F[k + 3]));
      k += 6;
    } else {
      throw new Error(`draw list: unknown command ${kind} at ${k - at}`);
    }
  }
  flush();
}

let drawn = 0;
let frameMs = 0; // the module's frame (the steps and the scene's work), smoothed
let paintMs = 0; // recording and painting the draw list, smoothed
let fps = 0;
let fpsFrames = 0;
let fpsT = performance.now();
function showHud() {
  const lines = [];
  for (let k = 0; k < M._tb_line_count(); ++k) lines.push(str(M._tb_line(k)));
  lines[M._tb_hud_count() - 1] += `  ${fps.toFixed(0)} fps (frame ${frameMs.toFixed(1)} ms, draw ${paintMs.toFixed(1)} ms)`;
  if (message) lines.push(message);
  hud.textContent = lines.join('\n');
}

let acc = 0;
let last = performance.now();
function tick(now) {
  acc += Math.min(now - last, 250) / 1000; // a hidden tab does not replay minutes
  last = now;
  let steps = Math.floor(acc / DT);
  acc -= steps * DT;
  if (steps > MAX_STEPS) {
    steps = MAX_STEPS;
    acc = 0;
  }
  const flags = M._tb_flags();
  const paused = M._tb_paused();
  const t0 = performance.now();
  M._tb_frame(steps);
  if (M._tb_index() !== current.index) shown(scenes[M._tb_index()]); // [ ] or a restart failed
  else if (flags !== M._tb_flags() || paused !== M._tb_paused()) syncSwitches();
  const t1 = performance.now();
  paint();
  const t2 = performance.now();
  frameMs = 0.9 * frameMs + 0.1 * (t1 - t0);
  paintMs = 0.9 * paintMs + 0.1 * (t2 - t1);
  showHud();
  ++drawn;
  ++fpsFrames;
  if (now - fpsT >= 500) {
    fps = (fpsFrames * 1000) / (now - fpsT);
    fpsFrames = 0;
    fpsT = now;
  }
  requestAnimationFrame(tick);
}

open(sceneFromAddress());
requestAnimationFrame(tick);

window.ledgeTestbed = {
  /** The scenes: index, name, category, title, caption, keys. */
  scenes,
  /** The running scene's name. */
  scene: () => current.name,
  /** Opens the scene named `name`, as its link does. */
  open: (name) => open(scenes.find((s) => s.name === name)),
  /** Fixed steps the scene has taken. */
  frame: () => M._tb_frame_count(),
  /** Frames drawn since the page loaded, and the drawn frames per second. */
  drawn: () => drawn,
  fps: () => fps,
  /** Milliseconds a drawn frame spends stepping and painting (smoothed). */
  timing: () => ({ frame: frameMs, paint: paintMs }),
  paused: () => M._tb_paused() !== 0,
  /** The debug draw's switches (APP_DRAW_* bits). */
  flags: () => M._tb_flags(),
  /** The world's hash after the last step, 16 hex digits. */
  hash: () => str(M._tb_hash()),
  /** The HUD's and the scene's lines of the last frame. */
  lines: () => hud.textContent.split('\n'),
  /** Index + 1 of the body the mouse drags (0: none). */
  dragged: () => M._tb_dragged(),
  /** The scene's world through the binding. */
  get world() {
    const ptr = M._tb_world();
    if (ptr !== worldPtr) {
      world = ptr ? ledge.World._adopt(ptr) : null;
      worldPtr = ptr;
    }
    return world;
  },
  /** A world point's position in the page (CSS pixels), for the mouse. */
  toPage(p) {
    const r = canvas.getBoundingClientRect();
    return { x: r.left + (sx(p.x) * r.width) / canvas.width, y: r.top + (sy(p.y) * r.height) / canvas.height };
  },
  ledge,
};
