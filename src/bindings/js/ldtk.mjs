// LDtk projects in the JavaScript binding (docs/ldtk.md): the C loader,
// ledge_ldtk, compiled into the module with its JSON parser, behind
// World.fromLdtk, world.loadLdtk and tilemap.loadLdtk (ledge.mjs). The
// options are checked here and handed to C as a JSON text; the result
// comes back as one and becomes plain objects whose bodies are the
// world's Body objects. The C result is kept (until the world is disposed)
// only when an entity has a path, for pathPosition.

const BODY_KINDS = ['none', 'static', 'kinematic', 'dynamic', 'sensor'];
const SHAPES = ['box', 'circle'];
const LOAD_TILEMAP = 0;
const CREATE_WORLD = 1;
const LOAD_WORLD = 2;

export function ldtkLoader(api) {
  const { M, S, World, check, checkLog, writeDef, enums } = api;

  // ---- text into wasm memory (freed by the caller, or by C for resolved files) ----

  // A string, bytes or a parsed project as bytes in wasm memory: [pointer, length].
  function bytesOf(project, what) {
    let text = project;
    if (text !== null && typeof text === 'object' && !(text instanceof Uint8Array)) text = JSON.stringify(text);
    if (text instanceof Uint8Array) {
      const p = M._malloc(text.length + 1);
      if (!p) throw new Error(`out of wasm memory for ${what}`);
      M.HEAPU8.set(text, p);
      M.HEAPU8[p + text.length] = 0;
      return [p, text.length];
    }
    if (typeof text !== 'string') throw new TypeError(`${what} must be a JSON string, an object or a Uint8Array`);
    const n = M.lengthBytesUTF8(text);
    const p = M._malloc(n + 1);
    if (!p) throw new Error(`out of wasm memory for ${what}`);
    M.stringToUTF8(text, p, n + 1);
    return [p, n];
  }

  // The resolve callback of the load under way, and what it threw.
  let resolveFn = null;
  let resolveError = null;
  M.ledgeLdtkResolve = (path) => {
    if (!resolveFn) return 0;
    try {
      const name = M.UTF8ToString(path);
      const text = resolveFn(name);
      if (text === null || text === undefined) return 0;
      const [p, n] = bytesOf(text, `the level file ${name}`);
      M.HEAPU32[S] = n; // ledge_js_ldtk.c reads the length here, and frees p after the load
      return p;
    } catch (e) {
      if (!resolveError) resolveError = e;
      return 0;
    }
  };

  // ---- the options ----

  const isInt = (v) => typeof v === 'number' && Number.isInteger(v) && v >= -2147483648 && v <= 2147483647;

  function str(v, name) {
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string') throw new TypeError(`${name} must be a string`);
    return v;
  }

  function oneWayOf(v, name) {
    if (v === undefined || v === null || v === false) return 0;
    if (v === true) return enums.one_way.indexOf('up');
    const k = enums.one_way.indexOf(v);
    if (k < 0) throw new TypeError(`${name} must be a boolean or one of ${enums.one_way.join(', ')}`);
    return k;
  }

  /** ledge_ldtk_tile_from_name: { tile, oneWay } for a name (ledge's or the friendly vocabulary), or null. */
  function tileFromName(name) {
    if (typeof name !== 'string') throw new TypeError('a tile name must be a string');
    const n = M.lengthBytesUTF8(name) + 1;
    const p = M._malloc(n);
    if (!p) throw new Error('out of wasm memory for the tile name');
    try {
      M.stringToUTF8(name, p, n);
      const tile = M._ledge_js_ldtk_tile_from_name(p);
      return tile < 0 ? null : { tile, oneWay: enums.one_way[M.HEAP32[S]] };
    } finally {
      M._free(p);
    }
  }

  function intgridEntry(e, k) {
    const at = `intgrid[${k}]`;
    if (e === null || typeof e !== 'object') throw new TypeError(`${at} must be an object`);
    const out = { layer: str(e.layer, `${at}.layer`), identifier: str(e.identifier, `${at}.identifier`) };
    if (e.value !== undefined) {
      if (!isInt(e.value)) throw new TypeError(`${at}.value must be an integer`);
      out.value = e.value;
    }
    let oneWay = oneWayOf(e.oneWay, `${at}.oneWay`);
    if (typeof e.tile === 'string') {
      const t = tileFromName(e.tile);
      if (!t) throw new TypeError(`${at}.tile: "${e.tile}" is no tile name (docs/ldtk.md)`);
      out.tile = t.tile;
      if (e.oneWay === undefined) oneWay = enums.one_way.indexOf(t.oneWay);
    } else if (e.tile === undefined || e.tile === null) {
      out.tile = 0;
    } else if (isInt(e.tile)) {
      out.tile = e.tile; // ledge refuses ids out of range, naming the entry
    } else {
      throw new TypeError(`${at}.tile must be a tile id or a tile name`);
    }
    out.oneWay = oneWay;
    return out;
  }

  function entityBodyEntry(e, k) {
    const at = `entityBodies[${k}]`;
    if (e === null || typeof e !== 'object') throw new TypeError(`${at} must be an object`);
    if (typeof e.identifier !== 'string') throw new TypeError(`${at}.identifier must be a string`);
    const body = BODY_KINDS.indexOf(e.body === undefined ? 'none' : e.body);
    if (body < 0) throw new TypeError(`${at}.body must be one of ${BODY_KINDS.join(', ')}`);
    const shape = SHAPES.indexOf(e.shape === undefined ? 'box' : e.shape);
    if (shape < 0) throw new TypeError(`${at}.shape must be one of ${SHAPES.join(', ')}`);
    return { identifier: e.identifier, body, shape, oneWay: !!e.oneWay };
  }

  // The options as the JSON text ledge_js_ldtk_load reads.
  function optionsText(options) {
    if (options === null || typeof options !== 'object') throw new TypeError('the LDtk options must be an object');
    const o = { yDown: !!options.yDown, allLevels: !!options.allLevels };
    const { level } = options;
    if (typeof level === 'string') o.level = level;
    else if (isInt(level)) o.levelIndex = level;
    else if (level !== undefined && level !== null) throw new TypeError('level must be an identifier, an iid or an index');
    if (options.levelIndex !== undefined) {
      if (!isInt(options.levelIndex)) throw new TypeError('levelIndex must be an integer');
      o.levelIndex = options.levelIndex;
    }
    o.ldtkWorld = str(options.ldtkWorld, 'ldtkWorld');
    o.tileLayer = str(options.tileLayer, 'tileLayer');
    for (const [key, entry] of [['intgrid', intgridEntry], ['entityBodies', entityBodyEntry]]) {
      const list = options[key];
      if (list === undefined || list === null) continue;
      if (!Array.isArray(list)) throw new TypeError(`${key} must be an array`);
      o[key] = list.map(entry);
    }
    if (options.resolve !== undefined && options.resolve !== null && typeof options.resolve !== 'function') {
      throw new TypeError('resolve must be a function (path) => text or null');
    }
    o.resolve = typeof options.resolve === 'function';
    return JSON.stringify(o);
  }

  // ---- the load ----

  // Runs ledge_js_ldtk_load: the world it returned (0: refused, thrown) and
  // the addresses of the C result and its JSON text (0 for the tilemap).
  function run(mode, target, project, options, what) {
    options = options || {};
    const text = optionsText(options);
    const def = mode === CREATE_WORLD ? writeDef('world_def', options.world) : 0;
    const [p, n] = bytesOf(project, 'the project');
    let o = 0;
    let ptr = 0;
    try {
      [o] = bytesOf(text, 'the options');
      resolveFn = typeof options.resolve === 'function' ? options.resolve : null;
      resolveError = null;
      M._ledge_js_clear_error();
      ptr = M._ledge_js_ldtk_load(mode, target, p, n, o, def);
    } finally {
      resolveFn = null;
      M._free(p);
      if (o) M._free(o);
    }
    const result = M.HEAPU32[S];
    const json = M.HEAPU32[S + 1];
    if (ptr === 0 && resolveError) {
      const e = resolveError;
      resolveError = null;
      throw e;
    }
    check(ptr !== 0, what);
    return { ptr, result, json };
  }

  // The C result's JSON as the binding's objects (its bodies the world's).
  function makeResult(world, result, json) {
    let raw;
    try {
      raw = JSON.parse(M.UTF8ToString(json));
    } catch (e) {
      M._ledge_js_ldtk_result_destroy(result);
      throw e;
    } finally {
      M._free(json);
    }
    const keep = raw.entities.some((e) => e.path.length > 0);
    if (keep) world._ldtkResults.push(result);
    else M._ledge_js_ldtk_result_destroy(result);
    const bodies = [];
    raw.entities.forEach((e, i) => {
      e.body = BODY_KINDS[e.body];
      e.shape = SHAPES[e.shape];
      e.bodyType = enums.body_type[e.bodyType];
      e.frictionMix = enums.friction_mix[e.frictionMix];
      e.bodies = e.bodies.map(([a, b, c]) => {
        const body = world._bodyOf(a, b, c);
        body.userData = e;
        bodies.push(body);
        return body;
      });
      if (e.path.length > 0) {
        Object.defineProperty(e, 'pathPosition', {
          enumerable: false,
          value: (time) => {
            if (!world._ptr) throw new Error('the world of this entity has been disposed');
            if (typeof time !== 'number') throw new TypeError('time must be a number');
            M._ledge_js_clear_error();
            M._ledge_js_ldtk_path_position(result, i, time);
            checkLog();
            return { x: M.HEAPF32[S], y: M.HEAPF32[S + 1] };
          },
        });
      }
    });
    const { levels, entities } = raw;
    return {
      width: raw.width,
      height: raw.height,
      gridPx: raw.gridPx,
      tileCounts: raw.tileCounts,
      oneWayCells: raw.oneWayCells,
      materialCells: raw.materialCells,
      levels,
      entities,
      bodies,
      /** The first level whose identifier or iid is `name`, or null. */
      findLevel(name) {
        return levels.find((l) => l.identifier === name || l.iid === name) || null;
      },
      /** The first entity whose identifier or iid is `name`, or null. */
      findEntity(name) {
        return entities.find((e) => e.identifier === name || e.iid === name) || null;
      },
    };
  }

  /** ledge_ldtk_load_tilemap into the world's tilemap. */
  function loadTilemap(world, project, options) {
    run(LOAD_TILEMAP, world._live(), project, options, 'loadLdtk');
  }

  /** ledge_ldtk_load_world: the result. */
  function loadWorld(world, project, options) {
    const { result, json } = run(LOAD_WORLD, world._live(), project, options, 'loadLdtk');
    return makeResult(world, result, json);
  }

  /** ledge_ldtk_create_world: { world, result }. */
  function createWorld(project, options) {
    const { ptr, result, json } = run(CREATE_WORLD, 0, project, options, 'fromLdtk');
    const world = World._adopt(ptr, true);
    try {
      return { world, result: makeResult(world, result, json) };
    } catch (e) {
      world.dispose();
      throw e;
    }
  }

  return { loadTilemap, loadWorld, createWorld, tileFromName };
}
