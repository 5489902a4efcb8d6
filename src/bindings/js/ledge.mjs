// ledge for JavaScript: the WebAssembly build of ledge (dist/ledge_wasm.wasm)
// behind objects with methods. See README.md and ledge.d.ts.
//
//   import { init } from 'ledge-physics';
//   const ledge = await init();
//   const world = new ledge.World({ gravity: { x: 0, y: -10 }, width: 32, height: 16 });
//
// Values are plain { x, y } objects; a refused call throws an Error whose
// message is ledge's own; worlds hold wasm memory until dispose().
//
// The C structs (defs in; states, events and results out) are read and
// written through the table the module describes (ledge_js_layout.c): a
// C field `tile_size` is the property `tileSize`, enums are strings, ids
// are Body objects (or null), joint ids Joint objects (or null), chain ids
// Chain objects (or null), `cell_x`
// and `cell_y` are one `cell` {x, y}.

import { tiledLoader } from './tiled.mjs';
import { ldtkLoader } from './ldtk.mjs';

const DRAW_KINDS = [null, 'polygon', 'solidPolygon', 'circle', 'solidCircle', 'segment', 'point'];
const EDGES = ['off', 'solid', 'interesting'];
const TILE_GROUPS = ['empty', 'full', '45deg', 'concave', 'convex', '22degSmall', '22degBig', '67degSmall',
  '67degBig', 'half'];
const INT_MIN = -2147483648;

/**
 * Loads the WebAssembly module and returns the API bound to it.
 * options.factory: an emscripten module factory other than the package's
 * own (the demo page's module adds the sample game); options.wasmBinary:
 * the .wasm bytes (Node: fs.readFileSync of dist/ledge_wasm.wasm);
 * options.locateFile: where the browser fetches the .wasm from.
 */
export async function init(options = {}) {
  let factory = options.factory;
  const moduleOptions = {};
  if (options.wasmBinary) moduleOptions.wasmBinary = options.wasmBinary;
  if (!factory) {
    factory = (await import('./dist/ledge_wasm.mjs')).default;
    // Node: emscripten's browser loader cannot fetch a file, so the bytes are read here.
    const node = typeof process === 'object' && process.versions && process.versions.node;
    if (node && !moduleOptions.wasmBinary) {
      const fs = await import('node:fs');
      moduleOptions.wasmBinary = fs.readFileSync(new URL('./dist/ledge_wasm.wasm', import.meta.url));
    }
  }
  if (options.locateFile) moduleOptions.locateFile = options.locateFile;
  const M = await factory(moduleOptions);
  return bind(M);
}

/** The API over an already instantiated module (the demo page's). */
export function bind(M) {
  M._ledge_js_init();
  const S = M._ledge_js_scratch() >> 2; // scratch, in 32-bit words
  // Always read through M: memory growth replaces the views.
  const f32 = () => M.HEAPF32;
  const u32 = () => M.HEAPU32;
  const i32 = () => M.HEAP32;

  const errorAt = M._ledge_js_error(); // the kept message's address (fixed)
  const errorText = () => M.UTF8ToString(errorAt);
  const check = (ok, what) => {
    if (ok) return;
    throw new Error(errorText() || `${what} was refused`);
  };
  // For calls that return nothing: refused when the log hook caught an error
  // (read without making a string when there is none).
  const checkLog = () => {
    if (M.HEAPU8[errorAt] !== 0) throw new Error(errorText());
  };
  const vec = (v, name) => {
    if (v === null || typeof v !== 'object' || typeof v.x !== 'number' || typeof v.y !== 'number') {
      throw new TypeError(`${name} must be an {x, y} object of numbers`);
    }
    return v;
  };
  // A number as a C int: NaN, infinities and values beyond int's range
  // become INT_MIN, which ledge refuses with its message naming the field.
  const intOf = (v) => (typeof v === 'number' && v >= -2147483520 && v <= 2147483520 ? Math.trunc(v) : INT_MIN);
  const readVec = (at) => ({ x: f32()[S + at], y: f32()[S + at + 1] });

  // ---- the struct table ----

  const layoutText = M._ledge_js_layout();
  if (!layoutText) throw new Error('ledge: the binding\'s struct table did not fit its buffer');
  const table = JSON.parse(M.UTF8ToString(layoutText));
  const camel = (s) => s.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
  const enums = Object.fromEntries(Object.entries(table.enums).map(([k, v]) => [k, v.split(',')]));
  const structs = {};
  for (const [name, t] of Object.entries(table.structs)) {
    structs[name] = {
      name,
      size: t.size,
      fields: t.fields.map(([c, js, off, kind]) => {
        const f = { c, js: js || camel(c), off, kind, type: kind };
        const [k, a, b, n] = kind.split(':');
        if (k === 'enum') Object.assign(f, { type: 'enum', values: enums[a] });
        if (k === 'struct') Object.assign(f, { type: 'struct', sub: a });
        if (k === 'array') Object.assign(f, { type: 'array', item: a, countField: b, max: Number(n) });
        return f;
      }),
    };
  }
  for (const s of Object.values(structs)) {
    for (const f of s.fields) {
      if (f.type === 'struct') f.sub = structs[f.sub];
      if (f.type === 'array') {
        f.itemSize = f.item === 'vec2' ? 8 : structs[f.item].size;
        f.item = f.item === 'vec2' ? null : structs[f.item];
        f.countOff = s.fields.find((g) => g.c === f.countField).off;
      }
    }
  }
  const consts = table.consts;

  // One buffer of wasm memory per struct, for defs in and results out
  // (allocated once), and each def's default bytes.
  const buffers = {};
  const buffer = (name) => {
    if (!buffers[name]) {
      const p = M._malloc(structs[name].size);
      if (!p) throw new Error('ledge: out of wasm memory');
      buffers[name] = p;
    }
    return buffers[name];
  };
  const defaults = {};
  const withName = (name, fn) => {
    const len = M.lengthBytesUTF8(name) + 1;
    const p = M._malloc(len);
    M.stringToUTF8(name, p, len);
    try {
      return fn(p);
    } finally {
      M._free(p);
    }
  };
  for (const name of Object.keys(structs)) {
    const p = buffer(name);
    withName(name, (n) => M._ledge_js_default(n, p));
    defaults[name] = M.HEAPU8.slice(p, p + structs[name].size);
  }

  const enumIndex = (f, value) => {
    if (typeof value === 'number') {
      if (value < 0) throw new TypeError(`${f.js} must be one of ${f.values.join(', ')}`);
      return intOf(value);
    }
    const k = f.values.indexOf(value);
    if (k < 0) throw new TypeError(`${f.js} must be one of ${f.values.join(', ')}`);
    return k;
  };

  // 64-bit filter bits from a number (exact up to 2^53; 0xffffffff, the
  // 32-bit "all", means all 64 bits) or a BigInt.
  function putU64(p, v, name) {
    const U = u32();
    if (typeof v === 'bigint') {
      U[p >> 2] = Number(v & 0xffffffffn);
      U[(p >> 2) + 1] = Number((v >> 32n) & 0xffffffffn);
    } else if (typeof v === 'number' && v >= 0 && Number.isInteger(v)) {
      U[p >> 2] = v >>> 0;
      U[(p >> 2) + 1] = v === 0xffffffff ? 0xffffffff : Math.floor(v / 4294967296) >>> 0;
    } else {
      throw new TypeError(`${name} must be a whole number >= 0 or a BigInt`);
    }
  }

  /** Writes the fields of `obj` (JavaScript names) into the struct at `p`. */
  function writeFields(s, p, obj) {
    for (const f of s.fields) {
      const v = obj[f.js];
      if (v === undefined) continue;
      const at = p + f.off;
      switch (f.type) {
        case 'f32': f32()[at >> 2] = v; break;
        case 'i32': i32()[at >> 2] = intOf(v); break;
        case 'u32': u32()[at >> 2] = v >>> 0; break;
        case 'u8': M.HEAPU8[at] = v; break;
        case 'bool': M.HEAPU8[at] = v ? 1 : 0; break;
        case 'vec2': vec(v, f.js); f32()[at >> 2] = v.x; f32()[(at >> 2) + 1] = v.y; break;
        case 'ivec2': vec(v, f.js); i32()[at >> 2] = intOf(v.x); i32()[(at >> 2) + 1] = intOf(v.y); break;
        case 'id':
        case 'joint':
        case 'chain': u32().set(v ? v._id : [0, 0, 0], at >> 2); break;
        case 'u64': putU64(at, v, f.js); break;
        case 'enum': i32()[at >> 2] = enumIndex(f, v); break;
        case 'struct':
          if (v === null || typeof v !== 'object') throw new TypeError(`${f.js} must be an object`);
          writeFields(f.sub, at, v);
          break;
        case 'shape':
          if (v && v._bytes instanceof Uint8Array) {
            M.HEAPU8.set(v._bytes, at); // a decompose() piece: ledge's shape as made
          } else {
            putShape(v, 0);
            M._ledge_js_put_shape(at);
          }
          break;
        default: throw new TypeError(`${f.js} cannot be set`);
      }
    }
  }

  /** The struct `name` with ledge's defaults and `obj`'s fields, in its buffer. */
  function writeDef(name, obj) {
    const p = buffer(name);
    M.HEAPU8.set(defaults[name], p);
    if (obj !== undefined && obj !== null) {
      if (typeof obj !== 'object') throw new TypeError(`the ${name} must be an object`);
      writeFields(structs[name], p, obj);
    }
    return p;
  }

  const vecInto = (o, key, F, w) => {
    let v = o[key];
    if (v === undefined || v === null) v = o[key] = { x: 0, y: 0 };
    v.x = F[w];
    v.y = F[w + 1];
    return v;
  };

  /**
   * Reads the struct at `p` into `target` (reusing its nested objects and
   * arrays, so that reading every frame allocates nothing once warm); ids
   * become the world's Body objects.
   */
  function readFields(s, p, world, target = {}) {
    const F = f32(), I = i32(), U = u32(), B = M.HEAPU8;
    for (const f of s.fields) {
      const at = p + f.off;
      switch (f.type) {
        case 'f32': target[f.js] = F[at >> 2]; break;
        case 'i32': target[f.js] = I[at >> 2]; break;
        case 'u32': target[f.js] = U[at >> 2]; break;
        case 'u8': target[f.js] = B[at]; break;
        case 'bool': target[f.js] = B[at] !== 0; break;
        case 'vec2': vecInto(target, f.js, F, at >> 2); break;
        case 'ivec2': vecInto(target, f.js, I, at >> 2); break;
        case 'id': target[f.js] = world ? world._bodyOf(U[at >> 2], U[(at >> 2) + 1], U[(at >> 2) + 2]) : null; break;
        case 'joint': target[f.js] = world ? world._jointOf(U[at >> 2], U[(at >> 2) + 1], U[(at >> 2) + 2]) : null; break;
        case 'chain': target[f.js] = world ? world._chainOf(U[at >> 2], U[(at >> 2) + 1], U[(at >> 2) + 2]) : null; break;
        case 'u64': target[f.js] = (BigInt(U[(at >> 2) + 1]) << 32n) | BigInt(U[at >> 2]); break;
        case 'enum': target[f.js] = f.values[I[at >> 2]]; break;
        case 'struct': target[f.js] = readFields(f.sub, at, world, target[f.js] || {}); break;
        case 'array': {
          const n = Math.max(0, Math.min(I[(p + f.countOff) >> 2], f.max));
          const arr = target[f.js] || (target[f.js] = []);
          for (let k = 0; k < n; ++k) {
            const q = at + k * f.itemSize;
            if (f.item) arr[k] = readFields(f.item, q, world, arr[k] || {});
            else arr[k] = vecInto(arr, k, F, q >> 2);
          }
          arr.length = n;
          break;
        }
        default: break;
      }
    }
    return target;
  }

  // Readers compiled from the table: one function per struct whose stores
  // have fixed property names, so that V8 keeps each record's numbers in
  // place and reading every frame allocates nothing. Where code cannot be
  // generated (a page whose Content-Security-Policy forbids it), the
  // generic readFields above does the same work.
  function compileReader(s) {
    const body = ['const F = M.HEAPF32, I = M.HEAP32, U = M.HEAPU32, B = M.HEAPU8; let o, n;'];
    const key = (f) => JSON.stringify(f.js);
    const w = (f, d = 0) => `((p + ${f.off + d}) >> 2)`;
    for (const f of s.fields) {
      const k = key(f);
      switch (f.type) {
        case 'f32': body.push(`t[${k}] = F[${w(f)}];`); break;
        case 'i32': body.push(`t[${k}] = I[${w(f)}];`); break;
        case 'u32': body.push(`t[${k}] = U[${w(f)}];`); break;
        case 'u8': body.push(`t[${k}] = B[p + ${f.off}];`); break;
        case 'bool': body.push(`t[${k}] = B[p + ${f.off}] !== 0;`); break;
        case 'vec2':
        case 'ivec2': {
          const A = f.type === 'vec2' ? 'F' : 'I';
          body.push(`o = t[${k}]; if (o === undefined || o === null) o = t[${k}] = { x: 0, y: 0 }; o.x = ${A}[${w(f)}]; o.y = ${A}[${w(f, 4)}];`);
          break;
        }
        case 'id': body.push(`t[${k}] = world ? world._bodyOf(U[${w(f)}], U[${w(f, 4)}], U[${w(f, 8)}]) : null;`); break;
        case 'joint': body.push(`t[${k}] = world ? world._jointOf(U[${w(f)}], U[${w(f, 4)}], U[${w(f, 8)}]) : null;`); break;
        case 'chain': body.push(`t[${k}] = world ? world._chainOf(U[${w(f)}], U[${w(f, 4)}], U[${w(f, 8)}]) : null;`); break;
        case 'enum': body.push(`t[${k}] = E[${JSON.stringify(f.kind)}][I[${w(f)}]];`); break;
        case 'struct': body.push(`t[${k}] = R[${JSON.stringify(f.sub.name)}](p + ${f.off}, world, t[${k}] || {});`); break;
        case 'array':
          // The items live in a pool kept with the array, so that a count
          // that shrinks and grows again makes no new objects.
          // The array is made with room for every item (a literal of
          // `max` slots), so that V8 never trims or regrows its store.
          body.push(`n = Math.max(0, Math.min(I[((p + ${f.countOff}) >> 2)], ${f.max})); o = t[${k}]; if (o === undefined) { o = t[${k}] = [${new Array(f.max).fill('null').join(', ')}]; }`);
          body.push('let pool = o[P]; if (pool === undefined) { pool = []; Object.defineProperty(o, P, { value: pool }); }');
          if (f.item) {
            body.push(`for (let i = 0; i < n; ++i) o[i] = R[${JSON.stringify(f.item.name)}](p + ${f.off} + i * ${f.itemSize}, world, pool[i] || (pool[i] = {}));`);
          } else {
            body.push(`for (let i = 0; i < n; ++i) { const v = o[i] = pool[i] || (pool[i] = { x: 0, y: 0 }); v.x = F[((p + ${f.off} + i * 8) >> 2)]; v.y = F[((p + ${f.off} + i * 8 + 4) >> 2)]; }`);
          }
          body.push('o.length = n;');
          break;
        default: body.push(`t[${k}] = G(${JSON.stringify(s.name)}, ${JSON.stringify(f.js)}, p, world, t);`); break;
      }
    }
    body.push('return t;');
    return body.join('\n');
  }
  const readers = {};
  const POOL = Symbol('pool');
  const enumsByKind = {};
  for (const s of Object.values(structs)) for (const f of s.fields) if (f.type === 'enum') enumsByKind[f.kind] = f.values;
  const readOne = (name, js, p, world, t) => {
    const f = structs[name].fields.find((g) => g.js === js);
    return readFields({ fields: [f] }, p, world, {})[js];
  };
  try {
    for (const s of Object.values(structs)) {
      // eslint-disable-next-line no-new-func
      readers[s.name] = new Function('M', 'E', 'R', 'G', 'P', `return function read_${s.name}(p, world, t) {\n${compileReader(s)}\n};`)(
        M, enumsByKind, readers, readOne, POOL);
    }
  } catch {
    for (const s of Object.values(structs)) readers[s.name] = (p, world, t) => readFields(s, p, world, t);
  }
  const read = (name, p, world, target = {}) => readers[name](p, world, target);

  // Writes a shape description at scratch word `at` (ledge_js_shape_from).
  function putShape(shape, at) {
    if (!shape || typeof shape !== 'object') throw new TypeError('shape is required');
    const F = f32();
    const c = shape.center || { x: 0, y: 0 };
    if (shape.type === 'circle') {
      F.set([1, c.x, c.y, shape.radius], S + at);
    } else if (shape.type === 'box') {
      const h = shape.halfExtents || { x: shape.halfWidth, y: shape.halfHeight };
      F.set([2, c.x, c.y, h.x, h.y], S + at);
    } else if (shape.type === 'polygon') {
      const pts = shape.points || [];
      const max = consts.MAX_POLYGON_VERTICES;
      if (pts.length > max) throw new Error(`polygon has ${pts.length} points (ledge allows 3..${max})`);
      F[S + at] = 3;
      F[S + at + 1] = pts.length;
      pts.forEach((p, k) => {
        F[S + at + 2 + 2 * k] = p.x;
        F[S + at + 3 + 2 * k] = p.y;
      });
    } else {
      throw new TypeError("shape.type must be 'circle', 'box' or 'polygon'");
    }
  }

  const filterPtr = (filter) => writeDef('query_filter', filter || undefined);

  // ---- materials ----

  // A material in wasm memory: slot 0 is the table's buffer, slot 1 a
  // second one (mixMaterials reads two); fields left out are the default
  // material's (friction 1 mixed by 'min', bounce 0, speed 0).
  let secondMaterial = 0;
  function materialPtr(m, slot = 0) {
    if (m === null || typeof m !== 'object') throw new TypeError('a material must be an object');
    const first = writeDef('material', m);
    if (slot === 0) return first;
    if (!secondMaterial) secondMaterial = M._malloc(structs.material.size);
    if (!secondMaterial) throw new Error('ledge: out of wasm memory');
    M.HEAPU8.copyWithin(secondMaterial, first, first + structs.material.size);
    return secondMaterial;
  }
  /** The default material (ledge_default_material): friction 1 mixed by 'min', bounce 0, speed 0. */
  const defaultMaterial = () => read('material', writeDef('material', undefined), null, {});
  /** ledge_mix_materials: the material of a contact between surfaces a and b. */
  function mixMaterials(a, b) {
    const pb = materialPtr(b, 1);
    const pa = materialPtr(a, 0);
    const out = buffer('material');
    M._ledge_js_clear_error();
    M._ledge_js_mix_materials(pa, pb, out);
    checkLog();
    return read('material', out, null, {});
  }
  /** ledge_material_is_valid: whether the material's numbers are in range. */
  const materialIsValid = (m) => !!M._ledge_js_material_is_valid(materialPtr(m));

  // ---- arrays of results in wasm memory ----

  /**
   * A view of an array of C structs in wasm memory (events, contacts,
   * cells): `length`, `get(i)` (one record object, reused by every get()
   * of this list: copy what you keep), `toArray()` (fresh objects), and the
   * raw view for reading without objects: `f32`, `i32`, `u32` (the whole
   * memory's views, re-made by the module when memory grows),
   * `byteOffset`, `stride` and `fields` (byte offsets by name).
   */
  class StructList {
    constructor(world, name) {
      this.world = world;
      this._s = structs[name];
      this._read = readers[name];
      this.byteOffset = 0;
      this.length = 0;
      this._record = {};
      this.stride = this._s.size;
      this.fields = Object.fromEntries(this._s.fields.map((f) => [f.js, f.off]));
    }
    _set(ptr, count) {
      this.byteOffset = ptr;
      this.length = count;
      return this;
    }
    get(i) {
      if (!(i >= 0 && i < this.length)) throw new RangeError(`index ${i} outside 0..${this.length - 1}`);
      return this._read(this.byteOffset + i * this.stride, this.world, this._record);
    }
    toArray() {
      const out = [];
      for (let i = 0; i < this.length; ++i) out.push(this._read(this.byteOffset + i * this.stride, this.world, {}));
      return out;
    }
    get f32() {
      return M.HEAPF32;
    }
    get i32() {
      return M.HEAP32;
    }
    get u32() {
      return M.HEAPU32;
    }
  }

  // ---- bodies ----

  /** A body: a generational id into its world. */
  class Body {
    constructor(world, index1, generation, serial) {
      this.world = world;
      this._id = [index1, generation, serial];
      /** Yours; ledge never reads it. */
      this.userData = undefined;
      this._ground = null;
      this._character = null;
    }
    get _w() {
      return this.world._live();
    }
    /** Whether the body still exists (not destroyed, world not disposed). */
    get valid() {
      return this.world._ptr !== 0 && !!M._ledge_js_body_is_valid(this.world._ptr, this._id[0], this._id[1], this._id[2]);
    }
    _state() {
      M._ledge_js_clear_error();
      check(M._ledge_js_body_state(this._w, this._id[0], this._id[1], this._id[2]), 'body');
      return f32();
    }
    /** World position of the shape's origin, {x, y}. */
    get position() {
      this._state();
      return readVec(0);
    }
    set position(p) {
      this._set(0, vec(p, 'position'));
    }
    /** Velocity, {x, y} units per second. */
    get velocity() {
      this._state();
      return readVec(2);
    }
    set velocity(v) {
      this._set(1, vec(v, 'velocity'));
    }
    /** 'static', 'kinematic' or 'dynamic'. */
    get type() {
      return enums.body_type[this._state()[S + 4]];
    }
    /** Whether the step froze the body (ledge_body_is_frozen). */
    get frozen() {
      return this._state()[S + 5] !== 0;
    }
    /** False only for a sleeping dynamic body (ledge_body_is_awake / ledge_body_set_awake). */
    get awake() {
      return this._state()[S + 12 + 2 * consts.MAX_POLYGON_VERTICES] !== 0;
    }
    set awake(on) {
      if (typeof on !== 'boolean') throw new TypeError('awake must be a boolean');
      this._set(10, on ? 1 : 0);
    }
    /** Mass (0 for static and kinematic bodies). */
    get mass() {
      return this._state()[S + 6];
    }
    /** The body's shape in local coordinates (as given to createBody). */
    get shape() {
      const F = this._state();
      const type = enums.shape_type[F[S + 7]];
      const center = readVec(9);
      if (type === 'circle') return { type, radius: F[S + 8], center };
      const points = [];
      for (let k = 0; k < F[S + 11]; ++k) points.push(readVec(12 + 2 * k));
      if (type === 'box') {
        const hx = (points[1].x - points[0].x) / 2;
        const hy = (points[2].y - points[1].y) / 2;
        return { type, halfExtents: { x: hx, y: hy }, center, points };
      }
      return { type, points, center };
    }
    _set(what, v, y = 0) {
      const x = typeof v === 'object' ? v.x : v;
      const yy = typeof v === 'object' ? v.y : y;
      M._ledge_js_clear_error();
      check(M._ledge_js_body_set(this._w, this._id[0], this._id[1], this._id[2], what, x, yy), 'body setter');
    }
    /** Adds impulse / mass to the velocity (dynamic bodies). */
    applyImpulse(impulse) {
      this._set(2, vec(impulse, 'impulse'));
    }
    /** Kinematic: the velocity that reaches `target` in `dt` seconds. */
    setTarget(target, dt) {
      vec(target, 'target');
      f32()[S] = dt;
      this._set(3, target);
    }
    set gravityScale(s) {
      this._set(4, s);
    }
    set friction(s) {
      this._set(5, s);
    }
    set bounce(s) {
      this._set(6, s);
    }
    set drag(s) {
      this._set(7, s);
    }
    /**
     * Sets the speed of the body's surface along its tangent
     * (ledge_body_set_surface_speed): a conveyor belt, a static or
     * kinematic body whose surface moves while the body stays.
     */
    set surfaceSpeed(s) {
      M._ledge_js_clear_error();
      check(M._ledge_js_body_set_surface_speed(this._w, this._id[0], this._id[1], this._id[2], s), 'surfaceSpeed');
    }
    get surfaceSpeed() {
      return this.material.surfaceSpeed;
    }
    /**
     * The body's material (ledge_body_material): { friction, bounce,
     * surfaceSpeed, frictionMix }. Setting it (ledge_body_set_material)
     * sets all four at once; fields left out are the default material's.
     */
    get material() {
      const out = buffer('material');
      M._ledge_js_clear_error();
      M._ledge_js_body_material(this._w, this._id[0], this._id[1], this._id[2], out);
      checkLog();
      return read('material', out, null, {});
    }
    set material(m) {
      const p = materialPtr(m);
      M._ledge_js_clear_error();
      check(M._ledge_js_body_set_material(this._w, this._id[0], this._id[1], this._id[2], p), 'material');
    }
    /** The body's joints (ledge_body_joints), Joint objects by joint index. */
    joints() {
      M._ledge_js_clear_error();
      const n = M._ledge_js_body_joints(this._w, this._id[0], this._id[1], this._id[2]);
      check(n >= 0, 'joints');
      const U = u32();
      const at = U[S] >> 2;
      const out = [];
      for (let k = 0; k < n; ++k) out.push(this.world._jointOf(U[at + 3 * k], U[at + 3 * k + 1], U[at + 3 * k + 2]));
      return out;
    }
    /** The collision filter { category, mask (BigInt), group } (ledge_body_filter). */
    get filter() {
      const p = buffer('filter');
      M._ledge_js_clear_error();
      M._ledge_js_body_filter(this._w, this._id[0], this._id[1], this._id[2], p);
      checkLog();
      return read('filter', p, this.world);
    }
    /** Sets the collision filter: { category, mask, group } (ledge_body_set_filter). */
    set filter(fl) {
      const p = writeDef('filter', fl);
      M._ledge_js_clear_error();
      check(M._ledge_js_body_set_filter(this._w, this._id[0], this._id[1], this._id[2], p), 'filter');
    }
    /** Lets the body fall through the one-way platform it stands on. */
    dropThrough() {
      this._set(8, 0);
    }
    /**
     * The character move (ledge_body_move): moves the body by
     * `displacement`, sliding along what it meets; returns a new MoveResult.
     * options: the fields of ledge_move_def (maxSlides, maxFloorSlope, ...).
     */
    move(displacement, options) {
      vec(displacement, 'displacement');
      const def = writeDef('move_def', options);
      const out = buffer('move_result');
      M._ledge_js_clear_error();
      check(M._ledge_js_body_move(this._w, this._id[0], this._id[1], this._id[2], displacement.x, displacement.y, def, out), 'move');
      return read('move_result', out, this.world, {});
    }
    /**
     * The body's contacts of the last step (ledge_body_contacts): a
     * StructList of { other, cell, chain, segment, normal, point, depth,
     * response } (a chain contact: other null, one per segment),
     * shared by every body of the world (the next contacts() call refills
     * it).
     */
    contacts() {
      M._ledge_js_clear_error();
      const n = M._ledge_js_body_contacts(this._w, this._id[0], this._id[1], this._id[2]);
      check(n >= 0, 'contacts');
      return this.world._contacts._set(u32()[S], n);
    }
    /**
     * Where the body touches (ledge_body_ground): { onGround, onCeiling,
     * onWallLeft, onWallRight, groundNormal, wallNormal, groundBody,
     * groundCell, groundChain }; the same object, updated, on every call.
     */
    ground() {
      const p = buffer('ground');
      M._ledge_js_clear_error();
      M._ledge_js_body_ground(this._w, this._id[0], this._id[1], this._id[2], p);
      checkLog();
      this._ground = read('ground', p, this.world, this._ground || {});
      return this._ground;
    }
    /** The body's Character (world.createCharacter), or null. */
    get character() {
      return this._character && this._character.valid ? this._character : null;
    }
    /** Destroys the body; its id becomes invalid (valid again after restoring a snapshot older than this). */
    destroy() {
      M._ledge_js_clear_error();
      M._ledge_js_body_destroy(this._w, this._id[0], this._id[1], this._id[2]);
      checkLog();
    }
    /** Whether two objects name the same body. */
    equals(other) {
      return other instanceof Body && other.world === this.world && other._id[0] === this._id[0] &&
        other._id[1] === this._id[1];
    }
  }

  // ---- joints ----

  const JOINT_SETTERS = { length: 0, limits: 1, spring: 2, motor: 3, collide: 4 };

  /**
   * A joint (joint.h): a generational id into its world, the same object
   * for the same id (world._jointOf), so that it stays valid across
   * snapshots as in C.
   */
  class Joint {
    constructor(world, index1, generation, serial) {
      this.world = world;
      this._id = [index1, generation, serial];
      /** Yours; ledge never reads it. */
      this.userData = undefined;
    }
    /** Whether the joint lives (ledge_joint_is_valid). */
    get valid() {
      return this.world._ptr !== 0 && !!M._ledge_js_joint_is_valid(this.world._ptr, this._id[0], this._id[1], this._id[2]);
    }
    _state() {
      M._ledge_js_clear_error();
      check(M._ledge_js_joint_state(this.world._live(), this._id[0], this._id[1], this._id[2]), 'joint');
      return u32();
    }
    /** 'rod', 'rope', 'spring', 'weld', 'slider' or 'pulley' (ledge_joint_get_type). */
    get type() {
      this._state();
      return enums.joint_type[i32()[S]];
    }
    /** Body a, or null for a world point (ledge_joint_body_a). */
    get bodyA() {
      const U = this._state();
      return this.world._bodyOf(U[S + 1], U[S + 2], U[S + 3]);
    }
    /** Body b, or null for a world point (ledge_joint_body_b). */
    get bodyB() {
      const U = this._state();
      return this.world._bodyOf(U[S + 4], U[S + 5], U[S + 6]);
    }
    /** Anchor a in world coordinates now (ledge_joint_anchor_a). */
    get anchorA() {
      this._state();
      return readVec(7);
    }
    /** Anchor b in world coordinates now (ledge_joint_anchor_b). */
    get anchorB() {
      this._state();
      return readVec(9);
    }
    /**
     * What the joint measures now (ledge_joint_current_length): the
     * anchors' distance (rod, rope, spring, weld), the translation along
     * the axis (slider), or length_a + ratio * length_b (pulley).
     */
    get currentLength() {
      this._state();
      return f32()[S + 11];
    }
    /**
     * The force the joint applied to body b over the last step
     * (ledge_joint_force), in N; body a took the opposite.
     */
    get force() {
      this._state();
      return readVec(12);
    }
    /** The joint's def as it stands now, setters' changes in (ledge_joint_get_def). */
    get def() {
      const out = buffer('joint_def');
      M._ledge_js_clear_error();
      check(M._ledge_js_joint_get_def(this.world._live(), this._id[0], this._id[1], this._id[2], out), 'joint def');
      const d = read('joint_def', out, this.world, {});
      d.userData = this.userData;
      return d;
    }
    _set(what, x, y = 0, z = 0) {
      M._ledge_js_clear_error();
      check(M._ledge_js_joint_set(this.world._live(), this._id[0], this._id[1], this._id[2], what, x, y, z), 'joint setter');
    }
    /** Sets the length of a rod, rope, spring or pulley (ledge_joint_set_length): a grappling hook climbs by it. */
    set length(length) {
      this._set(JOINT_SETTERS.length, length);
    }
    get length() {
      return this.def.length;
    }
    /** Sets a rope's min and max length, a spring's limits, or a slider's lower and upper (ledge_joint_set_limits). */
    setLimits(lower, upper) {
      this._set(JOINT_SETTERS.limits, lower, upper);
    }
    /** Sets a spring's (hertz > 0) or a weld's (0: rigid) frequency and damping ratio (ledge_joint_set_spring). */
    setSpring(hertz, dampingRatio) {
      this._set(JOINT_SETTERS.spring, hertz, dampingRatio);
    }
    /** Sets a slider's motor (ledge_joint_set_motor): on or off, its speed along the axis, the most force it uses. */
    setMotor(enable, speed = 0, maxForce = 0) {
      this._set(JOINT_SETTERS.motor, speed, maxForce, enable ? 1 : 0);
    }
    /** Lets the joined bodies collide with each other, or not (ledge_joint_set_collide_connected). */
    set collideConnected(on) {
      this._set(JOINT_SETTERS.collide, on ? 1 : 0);
    }
    get collideConnected() {
      return this.def.collideConnected;
    }
    /** Removes the joint (ledge_joint_destroy); its bodies wake. */
    destroy() {
      M._ledge_js_clear_error();
      M._ledge_js_joint_destroy(this.world._live(), this._id[0], this._id[1], this._id[2]);
      checkLog();
    }
    /** Whether two objects name the same joint. */
    equals(other) {
      return other instanceof Joint && other.world === this.world && other._id[0] === this._id[0] &&
        other._id[1] === this._id[1];
    }
  }

  // ---- chains ----

  const CHAIN_SETTERS = { position: 0, velocity: 1, target: 2 };

  /**
   * A chain (chain.h): one-sided free-form ground, a generational id into
   * its world, the same object for the same id (world._chainOf), so that
   * it stays valid across snapshots as in C.
   */
  class Chain {
    constructor(world, index1, generation, serial) {
      this.world = world;
      this._id = [index1, generation, serial];
      /** Yours; ledge never reads it. */
      this.userData = undefined;
    }
    /** Whether the chain lives (ledge_chain_is_valid). */
    get valid() {
      return this.world._ptr !== 0 && !!M._ledge_js_chain_is_valid(this.world._ptr, this._id[0], this._id[1], this._id[2]);
    }
    _state() {
      M._ledge_js_clear_error();
      check(M._ledge_js_chain_state(this.world._live(), this._id[0], this._id[1], this._id[2]), 'chain');
      return i32();
    }
    /** 'static' or 'kinematic' (ledge_chain_get_type). */
    get type() {
      return enums.body_type[this._state()[S]];
    }
    /** Whether the chain is closed (ledge_chain_is_loop). */
    get loop() {
      return this._state()[S + 5] !== 0;
    }
    /** Its segments: points - 1 for an open chain, points for a loop (ledge_chain_segment_count). */
    get segmentCount() {
      return this._state()[S + 6];
    }
    /** Where the chain's frame lies (ledge_chain_position); set: a teleport (ledge_chain_set_position). */
    get position() {
      this._state();
      return readVec(1);
    }
    set position(p) {
      vec(p, 'position');
      this._set(CHAIN_SETTERS.position, p.x, p.y);
    }
    /** A kinematic chain's velocity ((0, 0) for a static one); set: refused for a static chain. */
    get velocity() {
      this._state();
      return readVec(3);
    }
    set velocity(v) {
      vec(v, 'velocity');
      this._set(CHAIN_SETTERS.velocity, v.x, v.y);
    }
    _set(what, x, y = 0, z = 0) {
      M._ledge_js_clear_error();
      check(M._ledge_js_chain_set(this.world._live(), this._id[0], this._id[1], this._id[2], what, x, y, z), 'chain setter');
    }
    /** Moves a kinematic chain to `target` over the next step of dt seconds (ledge_chain_set_target). */
    setTarget(target, dt) {
      vec(target, 'target');
      this._set(CHAIN_SETTERS.target, target.x, target.y, dt);
    }
    /** The chain's points in its frame, [{x, y}] (ledge_chain_points). */
    points() {
      M._ledge_js_clear_error();
      const n = M._ledge_js_chain_points(this.world._live(), this._id[0], this._id[1], this._id[2]);
      check(n >= 0, 'points');
      const F = f32();
      const at = u32()[S] >> 2;
      const out = [];
      for (let k = 0; k < n; ++k) out.push({ x: F[at + 2 * k], y: F[at + 2 * k + 1] });
      return out;
    }
    /** Segment i (from 0) in the world: { from, to, normal } (ledge_chain_segment). */
    segment(i) {
      M._ledge_js_clear_error();
      check(M._ledge_js_chain_segment(this.world._live(), this._id[0], this._id[1], this._id[2], intOf(i)), 'segment');
      return { from: readVec(0), to: readVec(2), normal: readVec(4) };
    }
    /** Which bodies meet the chain: { category, mask (BigInt), group } (ledge_chain_filter / ledge_chain_set_filter). */
    get filter() {
      const p = buffer('filter');
      M._ledge_js_clear_error();
      M._ledge_js_chain_filter(this.world._live(), this._id[0], this._id[1], this._id[2], p);
      checkLog();
      return read('filter', p, this.world);
    }
    set filter(fl) {
      const p = writeDef('filter', fl);
      M._ledge_js_clear_error();
      check(M._ledge_js_chain_set_filter(this.world._live(), this._id[0], this._id[1], this._id[2], p), 'filter');
    }
    /**
     * The chain's surface material (ledge_chain_material); setting it
     * (ledge_chain_set_material) sets all four fields, those left out the
     * default material's.
     */
    get material() {
      const out = buffer('material');
      M._ledge_js_clear_error();
      M._ledge_js_chain_material(this.world._live(), this._id[0], this._id[1], this._id[2], out);
      checkLog();
      return read('material', out, null, {});
    }
    set material(m) {
      const p = materialPtr(m);
      M._ledge_js_clear_error();
      check(M._ledge_js_chain_set_material(this.world._live(), this._id[0], this._id[1], this._id[2], p), 'material');
    }
    /** Removes the chain (ledge_chain_destroy); what it held wakes. */
    destroy() {
      M._ledge_js_clear_error();
      M._ledge_js_chain_destroy(this.world._live(), this._id[0], this._id[1], this._id[2]);
      checkLog();
    }
    /** Whether two objects name the same chain. */
    equals(other) {
      return other instanceof Chain && other.world === this.world && other._id[0] === this._id[0] &&
        other._id[1] === this._id[1];
    }
  }

  // ---- characters ----

  /**
   * A character (character.h): a kinematic body that ledge moves with the
   * mover and whose state it keeps; addressed by its body, so it stays
   * valid across snapshots as in C.
   */
  class Character {
    constructor(body) {
      this.body = body;
      this.world = body.world;
      this._id = body._id;
      this._state = {};
    }
    /** Whether the body is still a character of a living world (ledge_character_is_valid). */
    get valid() {
      return this.world._ptr !== 0 && !!M._ledge_js_character_is_valid(this.world._ptr, this._id[0], this._id[1], this._id[2]);
    }
    /**
     * Moves the character by velocity * dt (ledge_character_move) and
     * returns its state: the character's own object, updated in place by
     * every move and read of `state` (copy what you keep).
     */
    move(velocity, dt) {
      vec(velocity, 'velocity');
      const out = buffer('character_state');
      M._ledge_js_clear_error();
      check(M._ledge_js_character_move(this.world._live(), this._id[0], this._id[1], this._id[2], velocity.x, velocity.y, dt, out), 'move');
      return read('character_state', out, this.world, this._state);
    }
    /** The state after the last move and the carries since (ledge_character_get_state). */
    get state() {
      const out = buffer('character_state');
      M._ledge_js_clear_error();
      check(M._ledge_js_character_state(this.world._live(), this._id[0], this._id[1], this._id[2], out), 'state');
      return read('character_state', out, this.world, this._state);
    }
    /** Sets the velocity kept in the state (ledge_character_set_velocity), e.g. a knock-back. */
    set velocity(v) {
      vec(v, 'velocity');
      M._ledge_js_clear_error();
      check(M._ledge_js_character_set_velocity(this.world._live(), this._id[0], this._id[1], this._id[2], v.x, v.y), 'velocity');
    }
    get velocity() {
      return this.state.velocity;
    }
    /** Replaces the def (ledge_character_set_def): { move, platformOnLeave, ridePlatforms, pushBodies, pushMass }. */
    set def(def) {
      const p = writeDef('character_def', def);
      M._ledge_js_clear_error();
      check(M._ledge_js_character_set_def(this.world._live(), this._id[0], this._id[1], this._id[2], p), 'def');
    }
    /** Ends the character (ledge_character_destroy); the body stays. */
    destroy() {
      M._ledge_js_clear_error();
      M._ledge_js_character_destroy(this.world._live(), this._id[0], this._id[1], this._id[2]);
      checkLog();
    }
  }

  /** ledge_move_clip_velocity: `velocity` without its parts into what the move met. */
  function clipVelocity(result, velocity) {
    vec(velocity, 'velocity');
    const F = f32();
    const n = Math.min(result.hits.length, consts.MOVE_MAX_HITS);
    for (let k = 0; k < n; ++k) F.set([result.hits[k].push.x, result.hits[k].push.y], S + 2 * k);
    M._ledge_js_clear_error();
    M._ledge_js_clip_velocity(n, velocity.x, velocity.y);
    checkLog();
    return readVec(0);
  }

  // ---- tiles ----

  const tileNames = [];
  for (let t = 0; t < consts.TILE_COUNT; ++t) tileNames.push(M.UTF8ToString(M._ledge_js_tile_name(t)));
  const Tile = Object.freeze(Object.fromEntries(tileNames.map((n, t) => [n, t])));

  /** The outline of a tile in a cell (ledge_tile_outline_get): { count, points, arcEdge, ... }. */
  function tileOutline(tile, cellMin = { x: 0, y: 0 }, size = 1) {
    vec(cellMin, 'cellMin');
    const p = buffer('tile_outline');
    M._ledge_js_clear_error();
    check(M._ledge_js_tile_outline(tile, cellMin.x, cellMin.y, size, p), 'tileOutline');
    return read('tile_outline', p, null, {});
  }
  /** The unit normal of the tile's non-axis surface (ledge_tile_normal). */
  function tileNormal(tile) {
    M._ledge_js_tile_info(tile);
    return readVec(0);
  }
  /** The tile's shape group (ledge_tile_group_of): 'empty', 'full', '45deg', ... */
  function tileGroup(tile) {
    M._ledge_js_tile_info(tile);
    return TILE_GROUPS[i32()[S + 2]];
  }
  /** Whether the point lies in the tile's solid region (ledge_tile_contains). */
  function tileContains(tile, cellMin, size, point) {
    vec(cellMin, 'cellMin');
    vec(point, 'point');
    return !!M._ledge_js_tile_contains(tile, cellMin.x, cellMin.y, size, point.x, point.y);
  }

  // ---- distance between shapes ----

  /** ledge_shape_distance: closest points of a at pa and b at pb. Throws ledge's refusal. */
  function shapeDistance(a, pa, b, pb) {
    vec(pa, 'pa');
    vec(pb, 'pb');
    putShape(a, 8);
    putShape(b, 40);
    const out = buffer('distance_result');
    M._ledge_js_clear_error();
    M._ledge_js_shape_distance(pa.x, pa.y, pb.x, pb.y, out);
    checkLog();
    return read('distance_result', out, null, {});
  }
  /** ledge_tile_distance: a tile in the cell at cellMin of side size, and a shape at position. */
  function tileDistance(tile, cellMin, size, blocked, shape, position) {
    vec(cellMin, 'cellMin');
    vec(position, 'position');
    putShape(shape, 8);
    const out = buffer('distance_result');
    M._ledge_js_clear_error();
    M._ledge_js_tile_distance(tile, cellMin.x, cellMin.y, size, blocked >>> 0, position.x, position.y, out);
    checkLog();
    return read('distance_result', out, null, {});
  }

  /**
   * ledge_decompose: a simple polygon (any winding, up to 256 points) as
   * convex polygon shapes, for createBody. Throws ledge's refusal.
   */
  function decompose(points) {
    if (!Array.isArray(points)) throw new TypeError('points must be an array of {x, y}');
    const p = M._malloc(8 * Math.max(points.length, 1));
    if (!p) throw new Error('out of wasm memory');
    try {
      const F = f32();
      points.forEach((q, k) => {
        vec(q, `points[${k}]`);
        F[(p >> 2) + 2 * k] = q.x;
        F[(p >> 2) + 2 * k + 1] = q.y;
      });
      M._ledge_js_clear_error();
      const n = M._ledge_js_decompose(p, points.length);
      check(n > 0, 'decompose');
      const at = u32()[S];
      const out = [];
      for (let k = 0; k < n; ++k) {
        const q = at + k * consts.SHAPE_BYTES;
        const s = read('shape', q, null, {});
        const piece = { type: 'polygon', points: s.points };
        Object.defineProperty(piece, '_bytes', { value: M.HEAPU8.slice(q, q + consts.SHAPE_BYTES) });
        out.push(piece);
      }
      return out;
    } finally {
      M._free(p);
    }
  }

  /** The world's tilemap (world.tilemap). */
  class Tilemap {
    constructor(world) {
      this.world = world;
    }
    /** { width, height, tileSize, origin }. */
    get def() {
      M._ledge_js_tilemap_def(this.world._live());
      const F = f32();
      return { width: F[S], height: F[S + 1], tileSize: F[S + 2], origin: readVec(3) };
    }
    get width() {
      return this.def.width;
    }
    get height() {
      return this.def.height;
    }
    /** Sets cell (x, y) to a tile id (0..33, ledge.Tile). */
    set(x, y, tile) {
      M._ledge_js_clear_error();
      check(M._ledge_js_tilemap_set(this.world._live(), x, y, tile), 'tilemap.set');
    }
    /** The tile id at (x, y); FULL outside the map. */
    get(x, y) {
      return M._ledge_js_tilemap_get(this.world._live(), x, y);
    }
    /** Makes cell (x, y) one-way: 'none', 'up', 'down', 'left' or 'right'. */
    setOneWay(x, y, way) {
      M._ledge_js_clear_error();
      const k = way === undefined ? 0 : enumIndex({ js: 'way', values: enums.one_way }, way);
      check(M._ledge_js_tilemap_set_one_way(this.world._live(), x, y, k), 'setOneWay');
    }
    oneWay(x, y) {
      return enums.one_way[M._ledge_js_tilemap_one_way(this.world._live(), x, y)];
    }
    /** The state of one side of cell (x, y): 'off', 'solid' or 'interesting' (side: 1 -x, 2 +x, 4 -y, 8 +y). */
    edge(x, y, side) {
      return EDGES[M._ledge_js_tilemap_edge(this.world._live(), x, y, side)];
    }
    /** The cell holding a world point (may lie outside the map). */
    cellAt(point) {
      vec(point, 'point');
      M._ledge_js_tilemap_cell_at(this.world._live(), point.x, point.y);
      return { x: i32()[S], y: i32()[S + 1] };
    }
    /** Whether the point lies in a solid part of the map: { cell, tile }, or null. */
    queryPoint(point) {
      vec(point, 'point');
      const p = buffer('tile_hit');
      const hit = M._ledge_js_tilemap_query_point(this.world._live(), point.x, point.y, p);
      return hit ? read('tile_hit', p, null, {}) : null;
    }
    /** The non-empty cells overlapping the box, row by row: [{ cell, tile }]. */
    queryRegion(lower, upper) {
      vec(lower, 'lower');
      vec(upper, 'upper');
      const n = M._ledge_js_tilemap_query_region(this.world._live(), lower.x, lower.y, upper.x, upper.y);
      check(n >= 0, 'queryRegion');
      return this.world._cells._set(u32()[S], n).toArray();
    }
    /** The first tile along origin -> origin + translation (ledge_tilemap_raycast), or null. */
    raycast(origin, translation) {
      vec(origin, 'origin');
      vec(translation, 'translation');
      const p = buffer('ray_hit');
      const r = M._ledge_js_tilemap_raycast(this.world._live(), origin.x, origin.y, translation.x, translation.y, p);
      check(r >= 0, 'tilemap.raycast');
      return r ? read('ray_hit', p, null, {}) : null;
    }
    /**
     * The nearest solid tile surface to `shape` at `position`, no farther
     * than maxDistance (ledge_tilemap_distance): { distance, cell, tile },
     * or null.
     */
    distance(shape, position, maxDistance) {
      vec(position, 'position');
      putShape(shape, 8);
      const p = buffer('tilemap_distance_result');
      const r = M._ledge_js_tilemap_distance(this.world._live(), position.x, position.y, maxDistance, p);
      check(r >= 0, 'tilemap.distance');
      return r ? read('tilemap_distance_result', p, null, {}) : null;
    }
    /**
     * Sets the material of every cell holding tile id `tile`, except cells
     * given their own (ledge_tilemap_set_tile_material); fields left out
     * are the default material's.
     */
    setTileMaterial(tile, material) {
      const p = materialPtr(material);
      M._ledge_js_clear_error();
      check(M._ledge_js_tilemap_set_tile_material(this.world._live(), intOf(tile), p), 'setTileMaterial');
    }
    /** The material of tile id `tile` (ledge_tilemap_tile_material). */
    tileMaterial(tile) {
      const out = buffer('material');
      M._ledge_js_clear_error();
      M._ledge_js_tilemap_tile_material(this.world._live(), intOf(tile), out);
      checkLog();
      return read('material', out, null, {});
    }
    /**
     * Gives cell (x, y) a material of its own, whatever tile it holds, or
     * with `material` null takes it away (ledge_tilemap_set_cell_material).
     */
    setCellMaterial(x, y, material) {
      const p = material === null || material === undefined ? 0 : materialPtr(material);
      M._ledge_js_clear_error();
      check(M._ledge_js_tilemap_set_cell_material(this.world._live(), intOf(x), intOf(y), p), 'setCellMaterial');
    }
    /** The material contacts with cell (x, y) use: its own, else its tile id's (ledge_tilemap_cell_material). */
    cellMaterial(x, y) {
      const out = buffer('material');
      M._ledge_js_clear_error();
      M._ledge_js_tilemap_cell_material(this.world._live(), intOf(x), intOf(y), out);
      checkLog();
      return read('material', out, null, {});
    }
    /** Whether cell (x, y) has a material of its own (ledge_tilemap_cell_has_material). */
    cellHasMaterial(x, y) {
      return !!M._ledge_js_tilemap_cell_has_material(this.world._live(), intOf(x), intOf(y));
    }
    /** Takes every cell's own material away (ledge_tilemap_clear_cell_materials). */
    clearCellMaterials() {
      M._ledge_js_tilemap_clear_cell_materials(this.world._live());
    }
    /** Makes room for `count` cells with a material of their own (ledge_tilemap_reserve_cell_materials). */
    reserveCellMaterials(count) {
      M._ledge_js_clear_error();
      check(M._ledge_js_tilemap_reserve_cell_materials(this.world._live(), intOf(count)), 'reserveCellMaterials');
    }
    _load(text, n) {
      if (typeof text !== 'string') throw new TypeError('level text must be a string');
      const len = M.lengthBytesUTF8(text) + 1;
      const p = M._malloc(len);
      if (!p) throw new Error('out of wasm memory for the level text');
      try {
        M.stringToUTF8(text, p, len);
        M._ledge_js_clear_error();
        check(M._ledge_js_tilemap_load(this.world._live(), p, n), n ? 'loadN' : 'loadAscii');
      } finally {
        M._free(p);
      }
    }
    /** Loads N's level text (ledge_tilemap_load_n). */
    loadN(text) {
      this._load(text, 1);
    }
    /** Loads ledge's ASCII form (ledge_tilemap_load_ascii; docs/tilemap.md). */
    loadAscii(text) {
      this._load(text, 0);
    }
    /**
     * Loads the tile layers of a Tiled JSON map (ledge_tiled_load_tilemap's
     * rules, docs/tiled.md). The whole map is checked before any cell changes.
     */
    loadTiled(map, options = {}) {
      const { width } = this.def;
      const grid = tiled.cells(typeof map === 'string' ? JSON.parse(map) : map, options, this.def);
      tiled.setCells(this, width, grid);
    }
    /**
     * Loads the tiles of an LDtk project (ledge_ldtk_load_tilemap's rules,
     * docs/ldtk.md) into this tilemap, which must have the level's size:
     * every cell's tile, one-way direction and own material.
     */
    loadLdtk(project, options = {}) {
      ldtk.loadTilemap(this.world, project, options);
    }
  }

  // ---- worlds ----

  const worlds = new Map(); // wasm address -> World, for the pre-solve callback

  M.ledgePreSolve = (w, serial, a, b, oa, ob, cx, cy, nx, ny, proposed) => {
    const world = worlds.get(w);
    if (!world || !world._preSolve || world._preSolveError) return -1;
    try {
      const n = world._normal;
      n.x = nx;
      n.y = ny;
      // EM_JS passes unsigned ints as signed: >>> 0 gives the ids' words back.
      const r = world._preSolve(world._bodyOf(a >>> 0, b >>> 0, serial >>> 0), world._bodyOf(oa >>> 0, ob >>> 0, serial >>> 0), cx, cy, n,
        enums.response[proposed]);
      if (r === undefined) return -1;
      const k = typeof r === 'number' ? r : enums.response.indexOf(r);
      if (!(k >= 0 && k <= 3)) throw new TypeError(`the pre-solve callback returned ${String(r)} (a response: ${enums.response.join(', ')})`);
      return k;
    } catch (e) {
      world._preSolveError = e;
      return -1;
    }
  };

  /** A world: the tilemap, its bodies and the step. Call dispose() when done. */
  class World {
    /**
     * def: the fields of ledge_world_def (gravity, tileSize, width,
     * height, origin, bodyCapacity, iterations, substeps, linearSlop,
     * bounceThreshold, cellSize, frictionLaw, enableSleep, sleepSpeed,
     * sleepTime); omitted fields keep ledge's defaults.
     */
    constructor(def = {}) {
      const p = writeDef('world_def', def);
      M._ledge_js_clear_error();
      const ptr = M._ledge_js_world_create(p);
      check(ptr !== 0, 'World');
      World._setup(this, ptr, true);
    }
    static _setup(w, ptr, owned) {
      w._ptr = ptr;
      w._owned = owned;
      w._slots = []; // Body wrappers by slot (index1): the newest generation seen
      w._older = new Map(); // "index1:generation" -> WeakRef of wrappers of other generations
      w._jointSlots = []; // Joint wrappers by slot, as _slots
      w._jointOlder = new Map();
      w._chainSlots = []; // Chain wrappers by slot, as _slots
      w._chainOlder = new Map();
      w._serial = 0;
      w._preSolve = null;
      w._preSolveError = null;
      w._normal = { x: 0, y: 0 };
      w._contacts = new StructList(w, 'contact_data');
      w._cells = new StructList(null, 'tile_hit');
      w._hits = new StructList(w, 'raycast_result');
      w._events = {
        touchBegin: new StructList(w, 'touch_event'),
        touchEnd: new StructList(w, 'touch_event'),
        sensorBegin: new StructList(w, 'sensor_event'),
        sensorEnd: new StructList(w, 'sensor_event'),
        crush: new StructList(w, 'crush_event'),
      };
      w._profile = {};
      w._ldtkResults = []; // C results of LDtk loads, kept for pathPosition
      /** The world's tilemap. */
      w.tilemap = new Tilemap(w);
      worlds.set(ptr, w);
    }
    /** Adopts a world made in C (the demo page's game); not owned unless `owned`. */
    static _adopt(ptr, owned = false) {
      const w = Object.create(World.prototype);
      World._setup(w, ptr, owned);
      return w;
    }
    _live() {
      if (!this._ptr) throw new Error('the world has been disposed');
      return this._ptr;
    }
    // The one wrapper of an id: the same Body object for the same id for as
    // long as anything holds it (found without allocating on the hot path).
    _bodyOf(a, b, c) {
      if (a === 0) return null;
      if (c) this._serial = c;
      const cur = this._slots[a];
      if (cur !== undefined && cur._id[1] === b) return cur;
      const key = `${a}:${b}`;
      const ref = this._older.get(key);
      let body = ref && ref.deref();
      if (body) this._older.delete(key);
      else body = new Body(this, a, b, c || this._serial);
      if (cur !== undefined) this._older.set(`${a}:${cur._id[1]}`, new WeakRef(cur));
      this._slots[a] = body;
      return body;
    }
    // The one wrapper of a joint id, as _bodyOf.
    _jointOf(a, b, c) {
      if (a === 0) return null;
      const cur = this._jointSlots[a];
      if (cur !== undefined && cur._id[1] === b) return cur;
      const key = `${a}:${b}`;
      const ref = this._jointOlder.get(key);
      let joint = ref && ref.deref();
      if (joint) this._jointOlder.delete(key);
      else joint = new Joint(this, a, b, c || this._serial);
      if (cur !== undefined) this._jointOlder.set(`${a}:${cur._id[1]}`, new WeakRef(cur));
      this._jointSlots[a] = joint;
      return joint;
    }
    // The one wrapper of a chain id, as _bodyOf.
    _chainOf(a, b, c) {
      if (a === 0) return null;
      const cur = this._chainSlots[a];
      if (cur !== undefined && cur._id[1] === b) return cur;
      const key = `${a}:${b}`;
      const ref = this._chainOlder.get(key);
      let chain = ref && ref.deref();
      if (chain) this._chainOlder.delete(key);
      else chain = new Chain(this, a, b, c || this._serial);
      if (cur !== undefined) this._chainOlder.set(`${a}:${cur._id[1]}`, new WeakRef(cur));
      this._chainSlots[a] = chain;
      return chain;
    }
    /** Frees the world and its bodies (wasm memory). Safe to call twice. */
    dispose() {
      if (this._ptr) {
        worlds.delete(this._ptr);
        if (this._owned !== false) M._ledge_js_world_destroy(this._ptr);
      }
      for (const r of this._ldtkResults) M._ledge_js_ldtk_result_destroy(r);
      this._ldtkResults = [];
      this._ptr = 0;
      this._slots = [];
      this._older.clear();
      this._jointSlots = [];
      this._jointOlder.clear();
      this._chainSlots = [];
      this._chainOlder.clear();
    }
    /** Same as dispose(). */
    free() {
      this.dispose();
    }
    /**
     * Advances the world by dt seconds (0 < dt <= 1). An exception thrown by
     * the pre-solve callback is thrown here, after the step (the callback
     * is not called again in that step).
     */
    step(dt) {
      M._ledge_js_clear_error();
      this._preSolveError = null;
      M._ledge_js_world_step(this._live(), dt);
      if (this._preSolveError) {
        const e = this._preSolveError;
        this._preSolveError = null;
        throw e;
      }
      checkLog();
    }
    /** ledge_world_hash as a BigInt: equal runs give equal hashes, in wasm and native. */
    hash() {
      const low = M._ledge_js_world_hash(this._live()) >>> 0;
      return (BigInt(u32()[S]) << 32n) | BigInt(low);
    }
    /**
     * The world's state as a snapshot (ledge_world_save): restore it with
     * restore(), here or in a world made the same way (also natively: the
     * bytes are the C library's).
     */
    save() {
      M._ledge_js_clear_error();
      const p = M._ledge_js_world_save(this._live());
      check(p !== 0, 'save');
      const n = u32()[S];
      const bytes = M.HEAPU8.slice(p, p + n);
      M._free(p);
      return bytes;
    }
    /**
     * Puts the world back to a snapshot of save() (a Uint8Array); throws
     * ledge's message, the world unchanged, when it is refused. Body,
     * Joint, Chain and Character objects keep naming the same ids, valid
     * or not as in C.
     */
    restore(bytes) {
      if (!(bytes instanceof Uint8Array)) throw new TypeError('restore needs a Uint8Array');
      const p = M._malloc(bytes.length || 1);
      if (!p) throw new Error('out of wasm memory for the snapshot');
      M.HEAPU8.set(bytes, p);
      M._ledge_js_clear_error();
      const ok = M._ledge_js_world_restore(this._live(), p, bytes.length);
      M._free(p);
      check(ok, 'restore');
    }
    /** Live bodies. */
    get bodyCount() {
      return M._ledge_js_world_body_count(this._live());
    }
    /**
     * Creates a body from the fields of ledge_body_def: type, shape
     * (required: ledge.circle(), ledge.box(), ledge.polygon()), position,
     * velocity, density, friction, bounce, gravityScale, drag, bullet,
     * sensor, enableEvents, oneWay, maxFloorAngle, response, filter,
     * surfaceSpeed, frictionMix ('mean', 'min', 'max'); and
     * userData (kept on the Body object).
     */
    createBody(def) {
      if (!def || typeof def !== 'object') throw new TypeError('createBody needs a def object');
      if (!def.shape || typeof def.shape !== 'object') throw new TypeError('shape is required');
      M._ledge_js_clear_error();
      const p = writeDef('body_def', def);
      const ok = M._ledge_js_body_create(this._live(), p);
      check(ok, 'createBody');
      const U = u32();
      const body = this._bodyOf(U[S], U[S + 1], U[S + 2]);
      body.userData = def.userData;
      return body;
    }
    /**
     * Makes a living kinematic body a character (ledge_character_create).
     * def: { move: MoveOptions, platformOnLeave, ridePlatforms, pushBodies, pushMass }.
     */
    createCharacter(body, def) {
      if (!(body instanceof Body) || body.world !== this) throw new TypeError('createCharacter needs a Body of this world');
      const p = writeDef('character_def', def);
      M._ledge_js_clear_error();
      check(M._ledge_js_character_create(this._live(), body._id[0], body._id[1], body._id[2], p), 'createCharacter');
      if (!body._character) body._character = new Character(body);
      return body._character;
    }
    /**
     * Adds a joint (ledge_joint_create) from the fields of ledge_joint_def:
     * type ('rod', 'rope', 'spring', 'weld', 'slider' or 'pulley'; default
     * 'rope'), whose ledge_default_*_def fills what is left out; bodyA,
     * bodyB (Body objects, or null for a world point), anchorA, anchorB,
     * length, minLength, maxLength, hertz, dampingRatio, axis, enableLimit,
     * lower, upper, enableMotor, motorSpeed, maxMotorForce, groundA,
     * groundB, ratio, collideConnected; and userData (kept on the Joint).
     */
    createJoint(def) {
      if (!def || typeof def !== 'object') throw new TypeError('createJoint needs a def object');
      const type = def.type === undefined ? 'rope' : def.type;
      const k = enums.joint_type.indexOf(type);
      if (k < 0) throw new TypeError(`type must be one of ${enums.joint_type.join(', ')}`);
      for (const key of ['bodyA', 'bodyB']) {
        const b = def[key];
        if (b !== undefined && b !== null && !(b instanceof Body)) throw new TypeError(`${key} must be a Body or null`);
      }
      const p = buffer('joint_def');
      M._ledge_js_joint_default(k, p);
      writeFields(structs.joint_def, p, def);
      M._ledge_js_clear_error();
      check(M._ledge_js_joint_create(this._live(), p), 'createJoint');
      const U = u32();
      const joint = this._jointOf(U[S], U[S + 1], U[S + 2]);
      joint.userData = def.userData;
      return joint;
    }
    /** The number of living joints (ledge_world_joint_count). */
    get jointCount() {
      return M._ledge_js_world_joint_count(this._live());
    }
    /**
     * Adds a chain (ledge_chain_create): one-sided free-form ground. def:
     * points (required: [{x, y}], in the chain's frame; its surface faces
     * right of the direction from one point to the next, y up), loop, type
     * ('static' or 'kinematic'), position, velocity, filter ({ category,
     * mask, group }), material ({ friction, bounce, surfaceSpeed,
     * frictionMix }); and userData (kept on the Chain). Throws ledge's
     * refusal, nothing made.
     */
    createChain(def) {
      if (!def || typeof def !== 'object') throw new TypeError('createChain needs a def object');
      const pts = def.points;
      if (!Array.isArray(pts)) throw new TypeError('points must be an array of {x, y}');
      if (pts.length > consts.MAX_CHAIN_POINTS) throw new Error(`ledge_chain_create: ${pts.length} points (at most ${consts.MAX_CHAIN_POINTS})`);
      pts.forEach((q, k) => vec(q, `points[${k}]`));
      const p = writeDef('chain_def', def);
      const at = M._malloc(8 * Math.max(pts.length, 1));
      if (!at) throw new Error('out of wasm memory for the chain\'s points');
      try {
        const F = f32();
        pts.forEach((q, k) => {
          F[(at >> 2) + 2 * k] = q.x;
          F[(at >> 2) + 2 * k + 1] = q.y;
        });
        M._ledge_js_clear_error();
        check(M._ledge_js_chain_create(this._live(), p, at, pts.length), 'createChain');
      } finally {
        M._free(at);
      }
      const U = u32();
      const chain = this._chainOf(U[S], U[S + 1], U[S + 2]);
      chain.userData = def.userData;
      return chain;
    }
    /** The number of living chains (ledge_world_chain_count). */
    get chainCount() {
      return M._ledge_js_world_chain_count(this._live());
    }
    _queryChains(lower, upper, point, filter) {
      const q = filterPtr(filter);
      M._ledge_js_clear_error();
      const n = M._ledge_js_query_chains(this._live(), lower.x, lower.y, upper.x, upper.y, point, q);
      check(n >= 0, point ? 'queryChainsPoint' : 'queryChainsAABB');
      const U = u32(), I = i32();
      const ids = U[S] >> 2;
      const segs = U[S + 1] >> 2;
      const out = [];
      for (let k = 0; k < n; ++k) {
        const chain = this._chainOf(U[ids + 3 * k], U[ids + 3 * k + 1], U[ids + 3 * k + 2]);
        out.push(point ? chain : { chain, segment: I[segs + k] });
      }
      return out;
    }
    /**
     * The chain segments that meet the box (ledge_world_query_chains_aabb):
     * [{ chain, segment }], by chain index then segment.
     */
    queryChainsAABB(lower, upper, filter) {
      return this._queryChains(vec(lower, 'lower'), vec(upper, 'upper'), 0, filter);
    }
    /**
     * The closed chains whose solid holds the point
     * (ledge_world_query_chains_point): inside a counter-clockwise loop,
     * outside a clockwise one; Chain objects by chain index.
     */
    queryChainsPoint(point, filter) {
      vec(point, 'point');
      return this._queryChains(point, point, 1, filter);
    }
    /**
     * Sets (or with null clears) the pre-solve filter
     * (ledge_world_set_pre_solve): fn(body, other, cellX, cellY, normal,
     * proposed) is called inside the step for each new contact and returns
     * a response ('slide', 'touch', 'bounce', 'cross') or undefined for
     * `proposed`; `other` is null for a tile. The normal object is reused.
     * It must not call into the world.
     */
    setPreSolve(fn) {
      if (fn !== null && typeof fn !== 'function') throw new TypeError('setPreSolve needs a function or null');
      this._live();
      this._preSolve = fn;
      M._ledge_js_set_pre_solve(this._ptr, fn ? 1 : 0);
    }
    /**
     * The last step's events (ledge_world_touch_events, _sensor_events,
     * _crush_events): { touchBegin, touchEnd, sensorBegin, sensorEnd,
     * crush }, each a StructList over the world's own arrays, valid until
     * the next step. The same objects on every call: nothing is allocated.
     */
    get events() {
      M._ledge_js_events(this._live());
      const U = u32(), I = i32(), e = this._events;
      e.touchBegin._set(U[S], I[S + 1]);
      e.touchEnd._set(U[S + 2], I[S + 3]);
      e.sensorBegin._set(U[S + 4], I[S + 5]);
      e.sensorEnd._set(U[S + 6], I[S + 7]);
      e.crush._set(U[S + 8], I[S + 9]);
      return e;
    }
    /** Whether the step is timed (ledge_world_enable_profile). */
    enableProfile(on) {
      M._ledge_js_clear_error();
      M._ledge_js_enable_profile(this._live(), on ? 1 : 0);
      checkLog();
    }
    /** Milliseconds of the last step's stages (ledge_world_profile); the same object, updated. */
    get profile() {
      const p = buffer('profile');
      M._ledge_js_profile(this._live(), p);
      return read('profile', p, this, this._profile);
    }
    /**
     * The closest hit along origin + translation (a tile, a chain from its
     * front, or a body), or null. filter: category, mask, includeTiles,
     * includeChains, oneWay, ignore (a Body).
     */
    raycast(origin, translation, filter) {
      vec(origin, 'origin');
      vec(translation, 'translation');
      const q = filterPtr(filter);
      const out = buffer('raycast_result');
      const r = M._ledge_js_raycast(this._live(), origin.x, origin.y, translation.x, translation.y, q, out);
      check(r >= 0, 'raycast');
      return r ? read('raycast_result', out, this, {}) : null;
    }
    /**
     * Every hit of the segment in order (ledge_world_raycast_all): fn(hit)
     * returns as Box2D's cast callback (< 0 ignore, 0 stop, (0, 1) clip the
     * ray there, >= 1 or undefined go on). Returns the hits delivered.
     */
    raycastAll(origin, translation, filter, fn) {
      vec(origin, 'origin');
      vec(translation, 'translation');
      if (typeof fn !== 'function') throw new TypeError('raycastAll needs a callback');
      const q = filterPtr(filter);
      const n = M._ledge_js_raycast_all(this._live(), origin.x, origin.y, translation.x, translation.y, q);
      check(n >= 0, 'raycastAll');
      const hits = this._hits._set(u32()[S], n).toArray();
      let clip = 1;
      let delivered = 0;
      for (const hit of hits) {
        if (hit.fraction > clip) break;
        ++delivered;
        const r = fn(hit);
        if (r === undefined || r >= 1 || r < 0) continue;
        if (!(r > 0)) break; // 0 or NaN
        clip = r;
      }
      return delivered;
    }
    /** The first hit of `shape` moved from position by translation, or null. */
    shapeCast(shape, position, translation, filter) {
      vec(position, 'position');
      vec(translation, 'translation');
      const q = filterPtr(filter);
      putShape(shape, 8);
      const out = buffer('raycast_result');
      const r = M._ledge_js_shape_cast(this._live(), position.x, position.y, translation.x, translation.y, q, out);
      check(r >= 0, 'shapeCast');
      return r ? read('raycast_result', out, this, {}) : null;
    }
    _query(lower, upper, point, filter) {
      const q = filterPtr(filter);
      const n = M._ledge_js_query(this._live(), lower.x, lower.y, upper.x, upper.y, point, q);
      check(n >= 0, point ? 'queryPoint' : 'queryAABB');
      const U = u32();
      const ids = U[S] >> 2;
      const out = [];
      for (let k = 0; k < n; ++k) out.push(this._bodyOf(U[ids + 3 * k], U[ids + 3 * k + 1], U[ids + 3 * k + 2]));
      return out;
    }
    /** Bodies whose bounding box overlaps the box. */
    queryAABB(lower, upper, filter) {
      return this._query(vec(lower, 'lower'), vec(upper, 'upper'), 0, filter);
    }
    /** Bodies whose shape contains the point. */
    queryPoint(point, filter) {
      vec(point, 'point');
      return this._query(point, point, 1, filter);
    }
    /**
     * The nearest tile surface, chain or body to `shape` at `position`, no
     * farther than maxDistance (ledge_world_nearest): { kind, body, chain,
     * segment, cell, tile,
     * distance: { distance, pointA, pointB, normal, iterations } }, or null.
     */
    nearest(shape, position, maxDistance, filter) {
      vec(position, 'position');
      const q = filterPtr(filter);
      putShape(shape, 8);
      const out = buffer('nearest_result');
      const r = M._ledge_js_nearest(this._live(), position.x, position.y, maxDistance, 0, q, out);
      check(r >= 0, 'nearest');
      return r ? read('nearest_result', out, this, {}) : null;
    }
    /** ledge_world_nearest_point: nearest() for a point. */
    nearestPoint(point, maxDistance, filter) {
      vec(point, 'point');
      const q = filterPtr(filter);
      const out = buffer('nearest_result');
      const r = M._ledge_js_nearest(this._live(), point.x, point.y, maxDistance, 1, q, out);
      check(r >= 0, 'nearestPoint');
      return r ? read('nearest_result', out, this, {}) : null;
    }
    /**
     * Debug draw inside region {lower, upper} (default: the whole map) as
     * plain arrays a canvas can draw: { polygons, circles, segments, points },
     * each item with a `color` (0xRRGGBB number). options: tiles, bodies,
     * contacts, normals, bounds, joints, materials, chains (booleans; all
     * but bounds default true).
     */
    debugDraw(options = {}, region) {
      const list = this.debugDrawList(options, region);
      const F = list.f32;
      const out = { polygons: [], circles: [], segments: [], points: [] };
      for (let k = list.offset; k < list.offset + list.length;) {
        const kind = DRAW_KINDS[F[k]];
        const color = F[k + 1];
        const count = F[k + 2];
        const v = F.subarray(k + 3, k + 3 + count);
        if (kind === 'polygon' || kind === 'solidPolygon') {
          const vertices = [];
          for (let i = 0; i < count; i += 2) vertices.push({ x: v[i], y: v[i + 1] });
          out.polygons.push({ vertices, color, solid: kind === 'solidPolygon' });
        } else if (kind === 'circle' || kind === 'solidCircle') {
          out.circles.push({ center: { x: v[0], y: v[1] }, radius: v[2], color, solid: kind === 'solidCircle' });
        } else if (kind === 'segment') {
          out.segments.push({ p1: { x: v[0], y: v[1] }, p2: { x: v[2], y: v[3] }, color });
        } else {
          out.points.push({ point: { x: v[0], y: v[1] }, size: v[2], color });
        }
        k += 3 + count;
      }
      return out;
    }
    /**
     * The debug draw as one array of floats in wasm memory, for drawing
     * every frame without allocating: { f32, offset, length } where records
     * follow each other as (kind, color, count, count floats...); kind 1
     * polygon, 2 solid polygon, 3 circle, 4 solid circle (x, y, radius),
     * 5 segment (x1, y1, x2, y2), 6 point (x, y, size). Valid until the
     * next draw.
     */
    debugDrawList(options = {}, region) {
      let r = region;
      if (!r) {
        const d = this.tilemap.def;
        r = {
          lower: { x: d.origin.x - d.tileSize, y: d.origin.y - d.tileSize },
          upper: { x: d.origin.x + (d.width + 1) * d.tileSize, y: d.origin.y + (d.height + 1) * d.tileSize },
        };
      }
      const on = (v, dflt) => (v === undefined ? dflt : !!v);
      const flags = (on(options.tiles, true) ? 1 : 0) | (on(options.bodies, true) ? 2 : 0) |
        (on(options.contacts, true) ? 4 : 0) | (on(options.normals, true) ? 8 : 0) | (on(options.bounds, false) ? 16 : 0) |
        (on(options.joints, true) ? 32 : 0) | (on(options.materials, true) ? 64 : 0) | (on(options.chains, true) ? 128 : 0);
      const n = M._ledge_js_draw(this._live(), flags, r.lower.x, r.lower.y, r.upper.x, r.upper.y);
      check(n >= 0, 'debugDraw');
      return { f32: f32(), offset: u32()[S] >> 2, length: n };
    }
    /**
     * Loads a Tiled map's tiles and objects into this world (the rules of
     * ledge_tiled_load_world, docs/tiled.md): returns { width, height,
     * tileCounts, objects, bodies } with findObject(name).
     */
    loadTiled(map, options = {}) {
      return tiled.loadWorld(this, typeof map === 'string' ? JSON.parse(map) : map, options);
    }
    /**
     * A new world made from a Tiled map (ledge_tiled_create_world):
     * options.world is the world def (width and height are the map's);
     * returns { world, result }.
     */
    static fromTiled(map, options = {}) {
      return tiled.createWorld(typeof map === 'string' ? JSON.parse(map) : map, options);
    }
    /**
     * Loads an LDtk project's level(s) into this world (the rules of
     * ledge_ldtk_load_world, docs/ldtk.md): its tilemap, which must have
     * the level's size, and a body per entity that asks for one. Returns
     * the LdtkResult; options.world is not used.
     */
    loadLdtk(project, options = {}) {
      return ldtk.loadWorld(this, project, options);
    }
    /**
     * A new world made from an LDtk project (ledge_ldtk_create_world):
     * options.world is the world def (width and height are the level's);
     * returns { world, result }.
     */
    static fromLdtk(project, options = {}) {
      return ldtk.createWorld(project, options);
    }
  }

  const circle = (radius, center = { x: 0, y: 0 }) => ({ type: 'circle', radius, center });
  const box = (halfWidth, halfHeight, center = { x: 0, y: 0 }) => ({ type: 'box', halfExtents: { x: halfWidth, y: halfHeight }, center });
  const polygon = (points) => ({ type: 'polygon', points });

  const tiled = tiledLoader({
    M, World, Tile, tileNames, check, checkLog, writeDef, putShape, structs, consts,
    flip: (tile, flags) => M._ledge_js_tiled_flip(tile, flags),
    decompose,
  });
  const ldtk = ldtkLoader({ M, S, World, check, checkLog, writeDef, enums });

  return {
    World,
    Body,
    Joint,
    Chain,
    Character,
    Tilemap,
    StructList,
    Tile,
    tileNames,
    clipVelocity,
    circle,
    box,
    polygon,
    decompose,
    defaultMaterial,
    mixMaterials,
    materialIsValid,
    shapeDistance,
    tileDistance,
    tileOutline,
    tileNormal,
    tileGroup,
    tileContains,
    /**
     * ledge_ldtk_tile_from_name: { tile, oneWay } for a tile name as drawn
     * in LDtk (ledge's names or the friendly vocabulary), or null.
     */
    ldtkTileFromName: (name) => ldtk.tileFromName(name),
    /** The library's version, e.g. "0.1.0". */
    version: table.version,
    /** Limits of the C library: MAX_POLYGON_VERTICES, MOVE_MAX_HITS, MAX_STEP, SNAPSHOT_VERSION, ... */
    limits: Object.freeze({ ...consts }),
    /** The binding's struct table (C field, JavaScript name, offset, kind), for tools. */
    structs,
    /** Bytes of wasm heap in use by C allocations (for finding leaks). */
    heapInUse: () => M._ledge_js_heap_in_use(),
    /** The emscripten module. */
    module: M,
  };
}
