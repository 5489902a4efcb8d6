// ledge for JavaScript: the WebAssembly build of ledge (dist/ledge_wasm.wasm)
// behind objects with methods. See README.md and ledge.d.ts.
//
//   import { init } from 'ledge-physics';
//   const ledge = await init();
//   const world = new ledge.World({ gravity: { x: 0, y: -10 }, width: 32, height: 16 });
//
// Values are plain { x, y } objects; a refused call throws an Error whose
// message is ledge's own; worlds hold wasm memory until dispose().

const TYPES = ['static', 'kinematic', 'dynamic'];
const RESPONSES = ['slide', 'touch', 'bounce', 'cross'];
const FRICTION_LAWS = ['n', 'coulomb'];
const ONE_WAYS = ['none', 'up', 'down', 'left', 'right'];
const HIT_KINDS = ['none', 'tile', 'body'];
const SHAPE_TYPES = [null, 'circle', 'box', 'polygon'];
const DRAW_KINDS = [null, 'polygon', 'solidPolygon', 'circle', 'solidCircle', 'segment', 'point'];
const MOVE_HEAD = 24;
const MOVE_HIT_WORDS = 16;
const BODY_AWAKE_AT = 28; // ledge_js.c's BODY_AWAKE_AT: after the shape's 8 vertices
const FLIP_H = 0x80000000;
const FLIP_V = 0x40000000;
const FLIP_D = 0x20000000;
const FLIP_HEX = 0x10000000;

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
  const f32 = () => M.HEAPF32; // re-read: memory growth replaces the views
  const u32 = () => M.HEAPU32;
  const i32 = () => M.HEAP32;

  const check = (ok, what) => {
    if (ok) return;
    const message = M.UTF8ToString(M._ledge_js_error());
    throw new Error(message || `${what} was refused`);
  };
  // For calls that return nothing: refused when the log hook caught an error.
  const checkLog = () => {
    const message = M.UTF8ToString(M._ledge_js_error());
    if (message) throw new Error(message);
  };
  const num = (v, fallback) => (v === undefined ? fallback : v);
  const vec = (v, name) => {
    if (v === null || typeof v !== 'object' || typeof v.x !== 'number' || typeof v.y !== 'number') {
      throw new TypeError(`${name} must be an {x, y} object of numbers`);
    }
    return v;
  };
  const enumIndex = (table, value, name, fallback) => {
    if (value === undefined) return fallback;
    const k = typeof value === 'number' ? value : table.indexOf(value);
    if (k < 0) throw new TypeError(`${name} must be one of ${table.filter(Boolean).join(', ')}`);
    return k;
  };
  const readVec = (at) => ({ x: f32()[S + at], y: f32()[S + at + 1] });

  // Writes a shape description at scratch word `at`.
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
      if (pts.length > 8) throw new Error(`polygon has ${pts.length} points (ledge allows 3..8)`);
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

  function putFilter(filter = {}, at = 0) {
    const U = u32();
    U[S + at] = num(filter.category, 1) >>> 0;
    U[S + at + 1] = num(filter.mask, 0xffffffff) >>> 0;
    U[S + at + 2] = filter.includeTiles === false ? 0 : 1;
    const ig = filter.ignore ? filter.ignore._id : [0, 0, 0];
    U.set(ig, S + at + 3);
  }

  function readHit(world, at) {
    const I = i32();
    const U = u32();
    const F = f32();
    const kind = HIT_KINDS[I[S + at]];
    const hit = { kind };
    if (kind === 'body') hit.body = world._bodyOf(U[S + at + 1], U[S + at + 2], U[S + at + 3]);
    if (kind === 'tile') {
      hit.cell = { x: I[S + at + 4], y: I[S + at + 5] };
      hit.tile = I[S + at + 6];
    }
    return { hit, F, at };
  }

  /** A body: a generational id into its world. */
  class Body {
    constructor(world, index1, generation, serial) {
      this.world = world;
      this._id = [index1, generation, serial];
      /** Yours; ledge never reads it. */
      this.userData = undefined;
    }
    get _w() {
      return this.world._live();
    }
    /** Whether the body still exists (not destroyed, world not disposed). */
    get valid() {
      return this.world._ptr !== 0 && !!M._ledge_js_body_is_valid(this.world._ptr, ...this._id);
    }
    _state() {
      M._ledge_js_clear_error();
      check(M._ledge_js_body_state(this._w, ...this._id), 'body');
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
      return TYPES[this._state()[S + 4]];
    }
    /**
     * Whether the step froze the body: its position or velocity left the
     * finite range (beyond 1e6), so it was put back and left out of the
     * step until its position or velocity is set (ledge_body_is_frozen).
     * Not sleeping: see `awake`.
     */
    get frozen() {
      return this._state()[S + 5] !== 0;
    }
    /**
     * Whether the body takes part in the step: false only for a sleeping
     * dynamic body (ledge_body_is_awake). Setting true wakes it; setting
     * false puts a dynamic body to sleep now (velocity 0), refused (throws
     * ledge's message) in a world without enableSleep, for static and
     * kinematic bodies and during a step (ledge_body_set_awake).
     */
    get awake() {
      return this._state()[S + BODY_AWAKE_AT] !== 0;
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
      const type = SHAPE_TYPES[F[S + 7]];
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
      check(M._ledge_js_body_set(this._w, ...this._id, what, x, yy), 'body setter');
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
    /** Collision filter: { category, mask, group } (category and mask: low 32 bits). */
    set filter(fl) {
      const U = u32();
      U[S] = num(fl.category, 1) >>> 0;
      U[S + 1] = num(fl.mask, 0xffffffff) >>> 0;
      i32()[S + 2] = num(fl.group, 0);
      this._set(9, 0);
    }
    /** Lets the body fall through the one-way platform it stands on. */
    dropThrough() {
      this._set(8, 0);
    }
    /**
     * The character move (ledge_body_move): moves this kinematic body by
     * `displacement`, sliding along what it meets; returns the MoveResult.
     * options: maxSlides, maxFloorSlope, snapLength, skin, stopOnSlope,
     * setVelocity, up.
     */
    move(displacement, options = {}) {
      vec(displacement, 'displacement');
      const F = f32();
      F.set(moveDefaults, S);
      if (options.maxSlides !== undefined) F[S] = options.maxSlides;
      if (options.maxFloorSlope !== undefined) F[S + 1] = options.maxFloorSlope;
      if (options.snapLength !== undefined) F[S + 2] = options.snapLength;
      if (options.skin !== undefined) F[S + 3] = options.skin;
      let flags = F[S + 4];
      if (options.stopOnSlope !== undefined) flags = (flags & ~1) | (options.stopOnSlope ? 1 : 0);
      if (options.setVelocity !== undefined) flags = (flags & ~2) | (options.setVelocity ? 2 : 0);
      F[S + 4] = flags;
      if (options.up) F.set([options.up.x, options.up.y], S + 5);
      M._ledge_js_clear_error();
      check(M._ledge_js_body_move(this._w, ...this._id, displacement.x, displacement.y), 'move');
      return readMove(this.world);
    }
    /** Destroys the body; its id becomes invalid. */
    destroy() {
      M._ledge_js_clear_error();
      M._ledge_js_body_destroy(this._w, ...this._id);
      checkLog();
      this.world._bodies.delete(this._key());
    }
    _key() {
      return `${this._id[0]}:${this._id[1]}`;
    }
    /** Whether two objects name the same body. */
    equals(other) {
      return other instanceof Body && other.world === this.world && other._key() === this._key();
    }
  }

  function readMove(world) {
    const F = f32();
    const I = i32();
    const flags = I[S + 6];
    const r = {
      position: readVec(0),
      displacement: readVec(2),
      velocity: readVec(4),
      onGround: (flags & 1) !== 0,
      onWall: (flags & 2) !== 0,
      onCeiling: (flags & 4) !== 0,
      snapped: (flags & 8) !== 0,
      stuck: (flags & 16) !== 0,
      wallSide: I[S + 7],
      groundNormal: readVec(8),
      wallNormal: readVec(10),
      ceilingNormal: readVec(12),
      up: readVec(14),
      groundHit: I[S + 16],
      hits: [],
    };
    for (let k = 0; k < I[S + 17]; ++k) {
      const at = MOVE_HEAD + MOVE_HIT_WORDS * k;
      const { hit } = readHit(world, at);
      hit.normal = readVec(at + 7);
      hit.point = readVec(at + 9);
      hit.push = readVec(at + 11);
      hit.fraction = F[S + at + 13];
      r.hits.push(hit);
    }
    return r;
  }

  /** ledge_move_clip_velocity: `velocity` without its parts into what the move met. */
  function clipVelocity(result, velocity) {
    vec(velocity, 'velocity');
    const F = f32();
    const n = Math.min(result.hits.length, 8);
    for (let k = 0; k < n; ++k) F.set([result.hits[k].push.x, result.hits[k].push.y], S + 2 * k);
    M._ledge_js_clear_error();
    M._ledge_js_clip_velocity(n, velocity.x, velocity.y);
    checkLog();
    return readVec(0);
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
      const k = enumIndex(ONE_WAYS, way, 'way', 0);
      check(M._ledge_js_tilemap_set_one_way(this.world._live(), x, y, k), 'setOneWay');
    }
    oneWay(x, y) {
      return ONE_WAYS[M._ledge_js_tilemap_one_way(this.world._live(), x, y)];
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
     * Loads the tile layers of a Tiled JSON map (an object or its text) as
     * the C loader does (docs/tiled.md): tiles carrying the `ledge_tile`
     * property collide, flips are applied, and the map is mirrored into
     * ledge's y-up frame unless options.yDown. options.layer picks one
     * layer by name; options.tilesets maps an external tileset's `source`
     * to its parsed JSON. Layer data: CSV arrays or uncompressed base64.
     * The whole map is checked before any cell changes.
     */
    loadTiled(map, options = {}) {
      const { width } = this.def;
      const grid = tiledCells(typeof map === 'string' ? JSON.parse(map) : map, options, this.def);
      for (let k = 0; k < grid.length; ++k) this.set(k % width, (k / width) | 0, grid[k]);
    }
  }

  const tileNames = [];
  for (let t = 0; t < 34; ++t) tileNames.push(M.UTF8ToString(M._ledge_js_tile_name(t)));
  const Tile = Object.freeze(Object.fromEntries(tileNames.map((n, t) => [n, t])));

  function tileOfProperty(value, where) {
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < 34) return value;
    if (typeof value === 'string') {
      const t = tileNames.indexOf(value.toUpperCase());
      if (t >= 0) return t;
    }
    throw new Error(`tiled: ${where}: ledge_tile is ${JSON.stringify(value)} (an id 0..33 or a tile name)`);
  }

  function gidTable(map, options) {
    const table = new Map(); // gid -> tile id
    for (const [k, ts0] of (map.tilesets || []).entries()) {
      let ts = ts0;
      if (ts.source !== undefined) {
        ts = options.tilesets && options.tilesets[ts.source];
        if (!ts) throw new Error(`tiled: tileset ${k}: external tileset "${ts0.source}" not given in options.tilesets`);
      }
      for (const tile of ts.tiles || []) {
        const prop = (tile.properties || []).find((p) => p.name === 'ledge_tile');
        if (prop) table.set(ts0.firstgid + tile.id, tileOfProperty(prop.value, `tileset ${k} tile ${tile.id}`));
      }
    }
    return table;
  }

  function layerData(layer) {
    if (Array.isArray(layer.data)) return layer.data;
    if (layer.encoding === 'base64' && !layer.compression) {
      const bin = typeof atob === 'function' ? atob(layer.data) : Buffer.from(layer.data, 'base64').toString('binary');
      const out = new Array(bin.length >> 2);
      for (let i = 0; i < out.length; ++i) {
        out[i] = (bin.charCodeAt(4 * i) | (bin.charCodeAt(4 * i + 1) << 8) | (bin.charCodeAt(4 * i + 2) << 16) | (bin.charCodeAt(4 * i + 3) << 24)) >>> 0;
      }
      return out;
    }
    throw new Error(`tiled: layer "${layer.name}": ${layer.compression || layer.encoding} data is not supported by the JavaScript loader (save as CSV or uncompressed base64)`);
  }

  function tileLayers(layers, out) {
    for (const l of layers || []) {
      if (l.type === 'group') tileLayers(l.layers, out);
      else if (l.type === 'tilelayer') out.push(l);
    }
    return out;
  }

  function tiledCells(map, options, def) {
    if (map.orientation !== 'orthogonal') throw new Error(`tiled: orientation is "${map.orientation}" (must be orthogonal)`);
    if (map.infinite) throw new Error('tiled: infinite maps are not supported');
    if (map.width !== def.width || map.height !== def.height) {
      throw new Error(`tiled: map is ${map.width} x ${map.height} cells, the tilemap ${def.width} x ${def.height}`);
    }
    const table = gidTable(map, options);
    let layers = tileLayers(map.layers, []);
    if (options.layer !== undefined) {
      layers = layers.filter((l) => l.name === options.layer);
      if (layers.length === 0) throw new Error(`tiled: no tile layer named "${options.layer}"`);
    }
    // Every cell, as the C loader writes them: empty ones clear what was there.
    const grid = new Uint8Array(map.width * map.height); // ledge cell (x, y) at y * width + x
    const from = new Int32Array(map.width * map.height).fill(-1); // the layer that set it
    layers.forEach((layer, index) => {
      const data = layerData(layer);
      if (data.length !== map.width * map.height) throw new Error(`tiled: layer "${layer.name}" has ${data.length} cells, not ${map.width * map.height}`);
      data.forEach((raw, k) => {
        const gid = raw & 0x0fffffff;
        if (gid === 0) return;
        if (raw & FLIP_HEX) throw new Error(`tiled: layer "${layer.name}" cell ${k}: hexagonal rotation flag on an orthogonal map`);
        let tile = table.get(gid) || 0;
        if (tile === 0) return;
        const col = k % map.width;
        const row = (k / map.width) | 0;
        const flags = (raw & FLIP_H ? 1 : 0) | (raw & FLIP_V ? 2 : 0) | (raw & FLIP_D ? 4 : 0);
        if (flags) tile = M._ledge_js_tiled_flip(tile, flags);
        const y = options.yDown ? row : map.height - 1 - row;
        if (!options.yDown) tile = M._ledge_js_tiled_flip(tile, 2);
        const at = y * map.width + col;
        if (from[at] >= 0 && from[at] !== index && grid[at] !== tile) {
          throw new Error(`tiled: cell (${col}, ${row}) has different tiles in layers "${layers[from[at]].name}" and "${layer.name}"`);
        }
        grid[at] = tile;
        from[at] = index;
      });
    });
    return grid;
  }

  const worldDefaults = (() => {
    M._ledge_js_default_world_def();
    return Array.from(f32().subarray(S, S + 17));
  })();
  const bodyDefaults = (() => {
    M._ledge_js_default_body_def();
    return Array.from(f32().subarray(S, S + 14));
  })();
  const moveDefaults = (() => {
    M._ledge_js_default_move_def();
    return Array.from(f32().subarray(S, S + 7));
  })();

  /** A world: the tilemap, its bodies and the step. Call dispose() when done. */
  class World {
    /**
     * def: gravity {x, y}, tileSize, width, height (tilemap cells), origin
     * {x, y}, bodyCapacity, iterations, substeps, linearSlop,
     * bounceThreshold, cellSize, frictionLaw ('n' | 'coulomb'),
     * enableSleep, sleepSpeed, sleepTime (ledge_world_def; omitted fields
     * keep ledge's defaults).
     */
    constructor(def = {}) {
      const F = f32();
      F.set(worldDefaults, S);
      if (def.gravity) F.set([vec(def.gravity, 'gravity').x, def.gravity.y], S);
      if (def.tileSize !== undefined) F[S + 2] = def.tileSize;
      if (def.width !== undefined) F[S + 3] = def.width;
      if (def.height !== undefined) F[S + 4] = def.height;
      if (def.origin) F.set([vec(def.origin, 'origin').x, def.origin.y], S + 5);
      if (def.bodyCapacity !== undefined) F[S + 7] = def.bodyCapacity;
      if (def.iterations !== undefined) F[S + 8] = def.iterations;
      if (def.substeps !== undefined) F[S + 9] = def.substeps;
      if (def.linearSlop !== undefined) F[S + 10] = def.linearSlop;
      if (def.bounceThreshold !== undefined) F[S + 11] = def.bounceThreshold;
      if (def.cellSize !== undefined) F[S + 12] = def.cellSize;
      F[S + 13] = enumIndex(FRICTION_LAWS, def.frictionLaw, 'frictionLaw', worldDefaults[13]);
      if (def.enableSleep !== undefined) F[S + 14] = def.enableSleep ? 1 : 0;
      if (def.sleepSpeed !== undefined) F[S + 15] = def.sleepSpeed;
      if (def.sleepTime !== undefined) F[S + 16] = def.sleepTime;
      M._ledge_js_clear_error();
      this._ptr = M._ledge_js_world_create();
      check(this._ptr !== 0, 'World');
      this._bodies = new Map();
      /** The world's tilemap. */
      this.tilemap = new Tilemap(this);
    }
    /** Adopts a world made in C (the demo page's game); not owned unless `owned`. */
    static _adopt(ptr, owned = false) {
      const w = Object.create(World.prototype);
      w._ptr = ptr;
      w._owned = owned;
      w._bodies = new Map();
      w.tilemap = new Tilemap(w);
      return w;
    }
    _live() {
      if (!this._ptr) throw new Error('the world has been disposed');
      return this._ptr;
    }
    _bodyOf(a, b, c) {
      const key = `${a}:${b}`;
      let body = this._bodies.get(key);
      if (!body) {
        body = new Body(this, a, b, c);
        this._bodies.set(key, body);
      }
      return body;
    }
    /** Frees the world and its bodies (wasm memory). Safe to call twice. */
    dispose() {
      if (this._ptr && this._owned !== false) M._ledge_js_world_destroy(this._ptr);
      this._ptr = 0;
      this._bodies.clear();
    }
    /** Same as dispose(). */
    free() {
      this.dispose();
    }
    /** Advances the world by dt seconds (0 < dt <= 1). */
    step(dt) {
      M._ledge_js_clear_error();
      M._ledge_js_world_step(this._live(), dt);
      checkLog();
    }
    /** ledge_world_hash as a BigInt: equal runs give equal hashes, in wasm and native. */
    hash() {
      const low = M._ledge_js_world_hash(this._live()) >>> 0;
      return (BigInt(u32()[S]) << 32n) | BigInt(low);
    }
    /**
     * The world's state as a snapshot (ledge_world_save): restore it with
     * restore(), here or in a world made the same way (also natively:
     * the bytes are the C library's).
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
     * ledge's message, the world unchanged, when it is refused (truncated,
     * corrupted, another world's def, another format version).
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
     * Creates a body. def: type ('static' | 'kinematic' | 'dynamic',
     * default dynamic), shape (required: ledge.circle(), ledge.box(),
     * ledge.polygon()), position, velocity, density, friction, bounce,
     * gravityScale, drag, bullet, sensor, enableEvents, oneWay,
     * maxFloorAngle, response, filter, userData.
     */
    createBody(def) {
      if (!def || typeof def !== 'object') throw new TypeError('createBody needs a def object');
      const F = f32();
      F.set(bodyDefaults, S);
      F[S] = enumIndex(TYPES, def.type, 'type', bodyDefaults[0]);
      if (def.position) F.set([vec(def.position, 'position').x, def.position.y], S + 1);
      if (def.velocity) F.set([vec(def.velocity, 'velocity').x, def.velocity.y], S + 3);
      if (def.density !== undefined) F[S + 5] = def.density;
      if (def.friction !== undefined) F[S + 6] = def.friction;
      if (def.bounce !== undefined) F[S + 7] = def.bounce;
      if (def.gravityScale !== undefined) F[S + 8] = def.gravityScale;
      if (def.drag !== undefined) F[S + 9] = def.drag;
      F[S + 10] = (def.bullet ? 1 : 0) | (def.sensor ? 2 : 0) | (def.enableEvents ? 4 : 0);
      F[S + 11] = enumIndex(ONE_WAYS, def.oneWay, 'oneWay', 0);
      if (def.maxFloorAngle !== undefined) F[S + 12] = def.maxFloorAngle;
      F[S + 13] = enumIndex(RESPONSES, def.response, 'response', 0);
      const fl = def.filter || {};
      u32()[S + 14] = num(fl.category, 1) >>> 0;
      u32()[S + 15] = num(fl.mask, 0xffffffff) >>> 0;
      putShape(def.shape, 16);
      M._ledge_js_clear_error();
      const ok = M._ledge_js_body_create(this._live());
      check(ok, 'createBody');
      const U = u32();
      const body = this._bodyOf(U[S], U[S + 1], U[S + 2]);
      body.userData = def.userData;
      return body;
    }
    /** The closest hit along origin + translation, or null. filter: category, mask, includeTiles, ignore (a Body). */
    raycast(origin, translation, filter) {
      vec(origin, 'origin');
      vec(translation, 'translation');
      putFilter(filter);
      const r = M._ledge_js_raycast(this._live(), origin.x, origin.y, translation.x, translation.y);
      check(r >= 0, 'raycast');
      return r ? this._cast() : null;
    }
    /** The first hit of `shape` moved from position by translation, or null. */
    shapeCast(shape, position, translation, filter) {
      vec(position, 'position');
      vec(translation, 'translation');
      putFilter(filter);
      putShape(shape, 8);
      const r = M._ledge_js_shape_cast(this._live(), position.x, position.y, translation.x, translation.y);
      check(r >= 0, 'shapeCast');
      return r ? this._cast() : null;
    }
    _cast() {
      const { hit } = readHit(this, 0);
      hit.point = readVec(7);
      hit.normal = readVec(9);
      hit.fraction = f32()[S + 11];
      return hit;
    }
    _query(lower, upper, point, filter) {
      putFilter(filter);
      const n = M._ledge_js_query(this._live(), lower.x, lower.y, upper.x, upper.y, point);
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
     * Debug draw inside region {lower, upper} (default: the whole map) as
     * plain arrays a canvas can draw: { polygons, circles, segments, points },
     * each item with a `color` (0xRRGGBB number). options: tiles, bodies,
     * contacts, normals, bounds (booleans; the first four default true).
     */
    debugDraw(options = {}, region) {
      const d = this.tilemap.def;
      const r = region || {
        lower: { x: d.origin.x - d.tileSize, y: d.origin.y - d.tileSize },
        upper: { x: d.origin.x + (d.width + 1) * d.tileSize, y: d.origin.y + (d.height + 1) * d.tileSize },
      };
      const on = (v, dflt) => (v === undefined ? dflt : !!v);
      const flags = (on(options.tiles, true) ? 1 : 0) | (on(options.bodies, true) ? 2 : 0) |
        (on(options.contacts, true) ? 4 : 0) | (on(options.normals, true) ? 8 : 0) | (on(options.bounds, false) ? 16 : 0);
      const n = M._ledge_js_draw(this._live(), flags, r.lower.x, r.lower.y, r.upper.x, r.upper.y);
      check(n >= 0, 'debugDraw');
      const base = u32()[S] >> 2;
      const F = f32();
      const out = { polygons: [], circles: [], segments: [], points: [] };
      for (let k = base; k < base + n;) {
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
  }

  const circle = (radius, center = { x: 0, y: 0 }) => ({ type: 'circle', radius, center });
  const box = (halfWidth, halfHeight, center = { x: 0, y: 0 }) => ({ type: 'box', halfExtents: { x: halfWidth, y: halfHeight }, center });
  const polygon = (points) => ({ type: 'polygon', points });

  return {
    World,
    Body,
    Tilemap,
    Tile,
    tileNames,
    clipVelocity,
    circle,
    box,
    polygon,
    /** Bytes of wasm heap in use by C allocations (for finding leaks). */
    heapInUse: () => M._ledge_js_heap_in_use(),
    /** The emscripten module. */
    module: M,
  };
}
