// Tiled JSON maps for ledge's JavaScript binding (ledge.mjs): tile layers
// into a tilemap, object layers into bodies, with the rules of the C loader
// (ledge_tiled, include/ledge/tiled.h, docs/tiled.md). The C loader parses
// JSON with jansson and inflates layers with zlib; in JavaScript, JSON.parse
// is the engine's own, so the loader is this module instead of those two
// libraries in the .wasm. Its arithmetic follows the C loader's (doubles for
// pixels, floats where C stores floats), and ledge's tests compare its
// cells, objects, bodies and chains with the C loader's on the same maps.
//
// Polylines become open chains and polygons with the property `chain`
// closed ones (static or kinematic), their points relative to the object's
// position, turned so that the surface faces as the map asks (`facing`,
// `solid`); polylines and polygons of class `path` make nothing and keep
// their points for the game. Chains are made after the bodies.

const FLIP_H = 0x80000000;
const FLIP_V = 0x40000000;
const FLIP_D = 0x20000000;
const FLIP_HEX = 0x10000000;
const PX_LIMIT = 1e9;
const MAX_GROUP_DEPTH = 16;
const MAX_OBJECTS = 65536;
const MAX_CHAIN_POINTS = 4096; // LEDGE_TILED_MAX_CHAIN_POINTS
const PROPERTY_TYPES = ['string', 'int', 'float', 'bool', 'class', 'color', 'file', 'object'];
const fr = Math.fround;

/** The loader bound to one module's API (ledge.mjs calls it once). */
export function tiledLoader(api) {
  const { Tile, tileNames, flip, decompose, consts } = api;

  const fail = (message) => {
    throw new Error(`tiled: ${message}`);
  };

  function tileOfProperty(value, where) {
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < tileNames.length) return value;
    if (typeof value === 'string') {
      const t = tileNames.indexOf(value.toUpperCase());
      if (t >= 0) return t;
    }
    return fail(`${where}: ledge_tile is ${JSON.stringify(value)} (an id 0..33 or a tile name)`);
  }

  const MIXES = ['mean', 'min', 'max'];

  // A tileset tile's material properties (friction, bounce, surface_speed,
  // friction_mix; docs/tiled.md) over the default material, or null when
  // it has none.
  function tileMaterial(tile, where) {
    const props = Array.isArray(tile.properties) ? tile.properties : [];
    const find = (name) => props.find((q) => q.name === name);
    const m = { friction: 1, bounce: 0, surfaceSpeed: 0, frictionMix: 'min' };
    let has = false;
    const v = consts.MAX_COORDINATE;
    for (const [name, key, min, max] of [['friction', 'friction', 0, 1], ['bounce', 'bounce', 0, 1], ['surface_speed', 'surfaceSpeed', -v, v]]) {
      const q = find(name);
      if (!q) continue;
      if (typeof q.value !== 'number' || !(q.value >= min && q.value <= max)) {
        fail(`${where}: property '${name}' is ${JSON.stringify(q.value)} (must be a number ${min}..${max})`);
      }
      m[key] = fr(q.value);
      has = true;
    }
    const mix = find('friction_mix');
    if (mix) {
      if (!MIXES.includes(mix.value)) fail(`${where}: property 'friction_mix' is ${JSON.stringify(mix.value)} (must be "mean", "min" or "max")`);
      m.frictionMix = mix.value;
      has = true;
    }
    return has ? m : null;
  }

  function gidTable(map, options) {
    const table = new Map(); // gid -> tile id
    table.materials = new Map(); // gid -> material, for the tiles with material properties
    for (const [k, ts0] of (map.tilesets || []).entries()) {
      let ts = ts0;
      if (ts.source !== undefined) {
        ts = options.tilesets && options.tilesets[ts.source];
        if (!ts) fail(`tileset ${k}: external tileset "${ts0.source}" not given in options.tilesets`);
        if (typeof ts === 'string') ts = JSON.parse(ts);
      }
      for (const tile of ts.tiles || []) {
        const prop = (tile.properties || []).find((p) => p.name === 'ledge_tile');
        if (!prop) continue; // a decoration tile: its material properties are the game's own
        table.set(ts0.firstgid + tile.id, tileOfProperty(prop.value, `tileset ${k} tile ${tile.id}`));
        const material = tileMaterial(tile, `tileset ${k}, tile ${tile.id}`);
        if (material) table.materials.set(ts0.firstgid + tile.id, material);
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
        out[i] = (bin.charCodeAt(4 * i) | (bin.charCodeAt(4 * i + 1) << 8) | (bin.charCodeAt(4 * i + 2) << 16) |
          (bin.charCodeAt(4 * i + 3) << 24)) >>> 0;
      }
      return out;
    }
    return fail(`layer "${layer.name}": ${layer.compression || layer.encoding} data is not supported by the JavaScript loader (save as CSV or uncompressed base64)`);
  }

  // The layers in file order, groups walked into, with their summed offsets.
  function walk(layers, depth, ox, oy, out) {
    for (const l of layers || []) {
      const x = ox + (l.offsetx || 0);
      const y = oy + (l.offsety || 0);
      if (l.type === 'group') {
        if (depth + 1 > MAX_GROUP_DEPTH) fail(`layer '${l.name}': group layers nest deeper than ${MAX_GROUP_DEPTH}`);
        walk(l.layers, depth + 1, x, y, out);
      } else if (l.type === 'tilelayer' || l.type === 'objectgroup') {
        out.push({ layer: l, ox: x, oy: y });
      } else if (l.type !== 'imagelayer') {
        fail(`layer '${l.name}': type "${l.type}" is unknown (must be tilelayer, objectgroup, group or imagelayer)`);
      }
    }
    return out;
  }

  function header(map, target) {
    if (map === null || typeof map !== 'object') fail('the map is not a JSON object');
    if (map.orientation !== 'orthogonal') fail(`orientation is "${map.orientation}" (must be orthogonal)`);
    if (map.infinite) fail('infinite maps are not supported');
    if (map.tilewidth !== map.tileheight) fail(`the map's tiles are ${map.tilewidth} x ${map.tileheight} pixels (must be square)`);
    if (target.width && (map.width !== target.width || map.height !== target.height)) {
      fail(`map is ${map.width} x ${map.height} cells, the tilemap ${target.width} x ${target.height}`);
    }
  }

  /** Every cell of the map's tile layers (ledge cell (x, y) at y * width + x), checked whole. */
  function cells(map, options, def) {
    header(map, def);
    const table = gidTable(map, options);
    let layers = walk(map.layers, 0, 0, 0, []).filter((l) => l.layer.type === 'tilelayer');
    if (options.layer !== undefined) {
      layers = layers.filter((l) => l.layer.name === options.layer);
      if (layers.length === 0) fail(`no tile layer named "${options.layer}"`);
    }
    if (layers.length === 0) fail('the map has no tile layer');
    const grid = new Uint8Array(map.width * map.height);
    const from = new Int32Array(map.width * map.height).fill(-1); // the layer that set it
    const materials = new Map(); // cell -> material
    layers.forEach(({ layer, ox, oy }, index) => {
      if (ox !== 0 || oy !== 0) fail(`layer "${layer.name}" is offset by (${ox}, ${oy}) pixels (tile layers must be aligned with the map's grid)`);
      const data = layerData(layer);
      if (data.length !== map.width * map.height) fail(`layer "${layer.name}" has ${data.length} cells, not ${map.width * map.height}`);
      data.forEach((raw, k) => {
        const gid = raw & 0x0fffffff;
        if (gid === 0) return;
        if (raw & FLIP_HEX) fail(`layer "${layer.name}" cell ${k}: hexagonal rotation flag on an orthogonal map`);
        let tile = table.get(gid) || 0;
        if (tile === 0) return;
        const col = k % map.width;
        const row = (k / map.width) | 0;
        const flags = (raw & FLIP_H ? 1 : 0) | (raw & FLIP_V ? 2 : 0) | (raw & FLIP_D ? 4 : 0);
        if (flags) tile = flip(tile, flags);
        const y = options.yDown ? row : map.height - 1 - row;
        if (!options.yDown) tile = flip(tile, 2);
        const at = y * map.width + col;
        if (from[at] >= 0 && from[at] !== index && grid[at] !== tile) {
          fail(`cell (${col}, ${row}) has different tiles in layers "${layers[from[at]].layer.name}" and "${layer.name}"`);
        }
        grid[at] = tile;
        from[at] = index;
        const drawn = table.materials.get(gid);
        if (drawn) {
          // A surface speed turns clockwise around the tile on screen: each
          // mirror (a flip, and keeping Tiled's y-down frame) turns it the
          // other way round in ledge's terms.
          const mirrors = (raw & FLIP_H ? 1 : 0) + (raw & FLIP_V ? 1 : 0) + (raw & FLIP_D ? 1 : 0) + (options.yDown ? 1 : 0);
          const m = { ...drawn, surfaceSpeed: mirrors & 1 ? -drawn.surfaceSpeed : drawn.surfaceSpeed };
          const had = materials.get(at);
          if (had && (had.friction !== m.friction || had.bounce !== m.bounce || had.surfaceSpeed !== m.surfaceSpeed ||
            had.frictionMix !== m.frictionMix)) {
            fail(`the tile layers give the cell at column ${col}, row ${row} two different materials`);
          }
          materials.set(at, m);
        }
      });
    });
    // The cells' own materials, by cell (the order a tilemap keeps them in).
    grid.materials = [...materials.entries()].sort((a, b) => a[0] - b[0]);
    return grid;
  }

  // ---- objects ----

  const num = (obj, key, where, required, min, max, fallback) => {
    const v = obj[key];
    if (v === undefined) {
      if (required) fail(`${where}: '${key}' is missing`);
      return fallback;
    }
    if (typeof v !== 'number' || !(v >= min && v <= max)) fail(`${where}: '${key}' is ${JSON.stringify(v)} (must be a number ${min}..${max})`);
    return v;
  };

  function readProperties(obj, where) {
    const list = [];
    for (const p of obj.properties || []) {
      const type = p.type === undefined ? 'string' : p.type;
      if (typeof p.name !== 'string') fail(`${where}: a property has no name`);
      if (!PROPERTY_TYPES.includes(type)) fail(`${where}: property '${p.name}' has type "${type}" (must be string, int, float, bool, color, file, object or class)`);
      const v = p.value;
      const ok = ['string', 'color', 'file'].includes(type) ? typeof v === 'string'
        : type === 'int' || type === 'object' ? Number.isInteger(v)
          : type === 'float' ? typeof v === 'number'
            : type === 'bool' ? typeof v === 'boolean' : true;
      if (!ok) fail(`${where}: property '${p.name}' of type ${type} has the value ${JSON.stringify(v)}`);
      list.push({ name: p.name, type, value: v });
    }
    return list;
  }

  function mixOf(p, where) {
    if (!p) return 'mean';
    if (!['string', 'color', 'file'].includes(p.type)) fail(`${where}: property 'friction_mix' must be a string`);
    if (!MIXES.includes(p.value)) fail(`${where}: property 'friction_mix' is "${p.value}" (must be "mean", "min" or "max")`);
    return p.value;
  }

  function bodyProps(o, list, where) {
    const find = (name) => list.find((p) => p.name === name);
    const ow = find('one_way');
    if (ow && ow.type !== 'bool') fail(`${where}: property 'one_way' must be a bool`);
    const names = ['static', 'kinematic', 'dynamic', 'sensor'];
    const bp = find('body');
    const s = bp ? bp.value : o.type;
    const k = names.indexOf(s);
    if (bp && (typeof bp.value !== 'string' || !['string', 'color', 'file'].includes(bp.type) || k < 0)) {
      fail(`${where}: property 'body' is "${s}" (must be static, kinematic, dynamic or sensor)`);
    }
    const number = (name, min, max, fallback) => {
      const p = find(name);
      if (!p) return fallback;
      if (!['int', 'float', 'object'].includes(p.type) || !(p.value >= min && p.value <= max)) {
        fail(`${where}: property '${name}' must be a number ${min}..${max}`);
      }
      return p.value;
    };
    const v = consts.MAX_COORDINATE;
    return {
      type: k === 1 ? 'kinematic' : k === 2 ? 'dynamic' : 'static',
      sensor: k === 3,
      oneWay: !!(ow && ow.value),
      frictionMix: mixOf(find('friction_mix'), where),
      surfaceSpeed: number('surface_speed', -v, v, 0),
      friction: number('friction', 0, 1, 0),
      bounce: number('bounce', 0, 1, 0),
      density: number('density', 1e-6, 1e6, 1),
      vx: number('velocity_x', -v, v, 0),
      vy: number('velocity_y', -v, v, 0),
    };
  }

  // Rotates the points by `deg` clockwise on screen (y down) about (x, y);
  // multiples of 90 degrees use exact sines, so that boxes stay boxes.
  function rotate(g, x, y, deg) {
    const turns = deg / 90;
    const right = turns === Math.floor(turns);
    const rad = (deg * 3.14159265358979323846) / 180;
    const q = right ? (((turns % 4) + 4) % 4) | 0 : 0;
    const cs = right ? [1, 0, -1, 0][q] : Math.cos(rad);
    const sn = right ? [0, 1, 0, -1][q] : Math.sin(rad);
    for (let i = 0; i < g.px.length; ++i) {
      const dx = g.px[i] - x;
      const dy = g.py[i] - y;
      g.px[i] = x + dx * cs - dy * sn;
      g.py[i] = y + dx * sn + dy * cs;
    }
    if (!right && g.kind === 'box') {
      g.kind = 'polygon';
      g.box = false;
    }
  }

  function geometry(obj, where) {
    const x = num(obj, 'x', where, true, -PX_LIMIT, PX_LIMIT, 0);
    const y = num(obj, 'y', where, true, -PX_LIMIT, PX_LIMIT, 0);
    const w = num(obj, 'width', where, false, 0, PX_LIMIT, 0);
    const h = num(obj, 'height', where, false, 0, PX_LIMIT, 0);
    const rot = num(obj, 'rotation', where, false, -1e6, 1e6, 0);
    const g = { kind: 'box', box: false, px: [], py: [], radius: 0 };
    const add = (px, py) => {
      g.px.push(px);
      g.py.push(py);
    };
    if (obj.point) {
      g.kind = 'point';
      add(x, y);
    } else if (obj.polygon || obj.polyline) {
      const line = !obj.polygon;
      const pts = line ? obj.polyline : obj.polygon;
      const what = line ? 'polyline' : 'polygon';
      const least = line ? 2 : 3;
      if (!Array.isArray(pts)) fail(`${where}: '${what}' is not an array`);
      const n = pts.length;
      if (n < least || n > MAX_CHAIN_POINTS) fail(`${where}: ${what} has ${n} points (must be ${least}..${MAX_CHAIN_POINTS})`);
      pts.forEach((p, i) => {
        const pw = `${where}: ${what} point ${i}`;
        add(x + num(p, 'x', pw, true, -PX_LIMIT, PX_LIMIT, 0), y + num(p, 'y', pw, true, -PX_LIMIT, PX_LIMIT, 0));
      });
      g.kind = what;
    } else if (w <= 0 || h <= 0) {
      fail(`${where}: size is ${w} x ${h} pixels (must be > 0)`);
    } else if (obj.ellipse) {
      if (Math.abs(w - h) > 1e-4 * Math.max(w, h)) fail(`${where}: ellipse is ${w} x ${h} pixels (only circles, with equal width and height, are supported; use a polygon)`);
      g.kind = 'circle';
      g.radius = (w + h) / 4;
      add(x + w / 2, y + h / 2);
    } else {
      g.box = true;
      const y0 = obj.gid !== undefined ? y - h : y; // tile objects hang from their bottom-left corner
      add(x, y0);
      add(x + w, y0);
      add(x + w, y0 + h);
      add(x, y0 + h);
    }
    if (rot !== 0) rotate(g, x, y, rot);
    return g;
  }

  function isConvex(p) {
    const n = p.length;
    let sign = 0;
    for (let i = 0; i < n; ++i) {
      const a = p[i], b = p[(i + 1) % n], d = p[(i + 2) % n];
      const cr = (b.x - a.x) * (d.y - b.y) - (b.y - a.y) * (d.x - b.x);
      const s = cr > 0 ? 1 : cr < 0 ? -1 : 0;
      if (s === 0 || (sign !== 0 && s !== sign)) return false;
      sign = s;
    }
    return true;
  }

  // A string property that must be one of `names` (the first when absent): its index.
  function choiceProp(list, where, name, names) {
    const p = list.find((q) => q.name === name);
    if (!p) return 0;
    const k = ['string', 'color', 'file'].includes(p.type) ? names.indexOf(p.value) : -1;
    if (k >= 0) return k;
    const words = names.map((n, i) => (i === 0 ? n : i + 1 === names.length ? ` or ${n}` : `, ${n}`)).join('');
    return fail(`${where}: property '${name}' must be ${words}`);
  }

  // Turns the points (world) so that the chain's surface faces as the map
  // asks: an open chain the way `facing` says (up as drawn by default), a
  // closed one with its solid inside (counter-clockwise in the world frame)
  // unless `solid` is "outside".
  function orient(list, where, p, closed, yDown) {
    let turn;
    const n = p.length;
    if (closed) {
      const k = choiceProp(list, where, 'solid', ['inside', 'outside']);
      let area = 0;
      for (let i = 0; i < n; ++i) {
        const a = p[i], b = p[(i + 1) % n];
        area += a.x * b.y - a.y * b.x;
      }
      turn = k === 0 ? area : -area;
    } else {
      const k = choiceProp(list, where, 'facing', ['up', 'down', 'left', 'right']);
      const up = yDown ? -1 : 1; // as drawn in Tiled
      const fx = k === 2 ? -1 : k === 3 ? 1 : 0;
      const fy = k === 0 ? up : k === 1 ? -up : 0;
      let sx = 0, sy = 0; // the segments' normals (right of the direction)
      for (let i = 0; i + 1 < n; ++i) {
        sx += p[i + 1].y - p[i].y;
        sy -= p[i + 1].x - p[i].x;
      }
      turn = sx * fx + sy * fy;
    }
    if (turn < 0) p.reverse();
  }

  // The `path` property: Tiled's object reference (0: none), or -1.
  function pathProp(list, where) {
    const p = list.find((q) => q.name === 'path');
    const isInt = p && (p.type === 'int' || p.type === 'object');
    if (!p || (isInt && p.value === 0)) return -1;
    if (!isInt || !(p.value >= 1) || !(p.value <= 2147483647)) fail(`${where}: property 'path' must be an object (a path's id)`);
    return p.value;
  }

  // The objects, their body defs and their chain defs (bodies and chains
  // are made once the whole map is accepted).
  function objects(map, options, target) {
    const c = {
      yDown: !!options.yDown,
      height: map.height,
      tilePx: map.tilewidth,
      origin: { x: fr(target.origin.x), y: fr(target.origin.y) },
      scale: fr(target.tileSize) / map.tilewidth,
    };
    const toWorld = (px, py) => {
      const y = c.yDown ? py : c.height * c.tilePx - py;
      return { x: fr(c.origin.x + px * c.scale), y: fr(c.origin.y + y * c.scale) };
    };
    const out = [];
    const defs = [];
    const chains = [];
    const pathIds = [];
    walk(map.layers, 0, 0, 0, []).filter((l) => l.layer.type === 'objectgroup').forEach(({ layer, ox, oy }) => {
      if (!Array.isArray(layer.objects)) fail(`layer '${layer.name}': 'objects' is missing`);
      for (const obj of layer.objects) {
        if (!Number.isInteger(obj.id) || obj.id < 0) fail(`layer '${layer.name}': an object's id is ${JSON.stringify(obj.id)}`);
        const where = `layer '${layer.name}', object ${obj.id} '${obj.name || ''}'`;
        if (obj.template !== undefined) fail(`${where} uses a template (not supported: detach it, or export with templates resolved)`);
        if (obj.text !== undefined) continue;
        if (out.length >= MAX_OBJECTS) fail(`${where}: the map has more than ${MAX_OBJECTS} objects`);
        const o = {
          id: obj.id,
          name: obj.name || '',
          type: obj.type !== undefined ? obj.type : obj.class || '',
          layer: layer.name || '',
        };
        const list = readProperties(obj, where);
        const b = bodyProps(o, list, where);
        const g = geometry(obj, where);
        for (let i = 0; i < g.px.length; ++i) {
          g.px[i] += ox;
          g.py[i] += oy;
        }
        let lo = toWorld(g.px[0], g.py[0]);
        let hi = { ...lo };
        for (let i = 0; i < g.px.length; ++i) {
          const p = toWorld(g.px[i], g.py[i]);
          lo = { x: Math.min(lo.x, p.x), y: Math.min(lo.y, p.y) };
          hi = { x: Math.max(hi.x, p.x), y: Math.max(hi.y, p.y) };
        }
        const r = fr(g.radius * c.scale);
        if (g.kind === 'circle') {
          lo = { x: fr(lo.x - r), y: fr(lo.y - r) };
          hi = { x: fr(hi.x + r), y: fr(hi.y + r) };
        }
        const inRange = (p) => Math.abs(p.x) <= consts.MAX_COORDINATE && Math.abs(p.y) <= consts.MAX_COORDINATE;
        if (!inRange(lo) || !inRange(hi)) fail(`${where}: lies beyond ${consts.MAX_COORDINATE} world units`);
        const position = { x: fr(fr(lo.x + hi.x) / 2), y: fr(fr(lo.y + hi.y) / 2) };
        Object.assign(o, {
          shape: g.kind,
          bodyType: b.type,
          sensor: b.sensor,
          oneWay: b.oneWay,
          friction: fr(b.friction),
          bounce: fr(b.bounce),
          surfaceSpeed: fr(c.yDown ? -b.surfaceSpeed : b.surfaceSpeed),
          frictionMix: b.frictionMix,
          position,
          bounds: { lower: lo, upper: hi },
          properties: Object.fromEntries(list.map((p) => [p.name, p.value])),
          propertyTypes: Object.fromEntries(list.map((p) => [p.name, p.type])),
          bodies: [],
          chain: null,
          isPath: (g.kind === 'polyline' || g.kind === 'polygon') && o.type === 'path',
          path: -1,
          points: [],
        });
        const chainProp = list.find((p) => p.name === 'chain');
        if (chainProp && chainProp.type !== 'bool') fail(`${where}: property 'chain' must be a bool`);
        if (chainProp && chainProp.value && g.kind !== 'polygon' && g.kind !== 'polyline') fail(`${where}: only a polygon or polyline can be a chain`);
        if (chainProp && !chainProp.value && g.kind === 'polyline') fail(`${where}: a polyline is always a chain (or a path)`);
        pathIds.push(pathProp(list, where));
        if (g.kind === 'polyline' || (chainProp && chainProp.value) || o.isPath) {
          const p = g.px.map((px, i) => toWorld(px, g.py[i]));
          if (o.isPath) {
            o.points = p;
          } else if (b.type === 'dynamic' || b.sensor || b.oneWay) {
            fail(`${where}: a chain is static or kinematic, never ${b.oneWay ? 'one-way' : b.sensor ? 'a sensor' : 'dynamic'} (a chain is one-sided already)`);
          } else {
            orient(list, where, p, g.kind === 'polygon', c.yDown);
            o.points = p;
            const has = (name) => list.some((q) => q.name === name);
            chains.push({
              object: o,
              def: {
                points: p.map((q) => ({ x: fr(q.x - position.x), y: fr(q.y - position.y) })),
                loop: g.kind === 'polygon',
                type: b.type,
                position,
                velocity: { x: b.vx, y: b.vy },
                // The level's default material with the object's material properties, as a tileset tile's.
                material: {
                  friction: has('friction') ? b.friction : 1,
                  bounce: has('bounce') ? b.bounce : 0,
                  surfaceSpeed: has('surface_speed') ? fr(c.yDown ? -b.surfaceSpeed : b.surfaceSpeed) : 0,
                  frictionMix: has('friction_mix') ? b.frictionMix : 'min',
                },
              },
            });
          }
          out.push(o);
          continue;
        }
        const def = {
          type: b.type,
          position,
          velocity: { x: b.vx, y: b.vy },
          density: b.density,
          friction: b.friction,
          bounce: b.bounce,
          // Clockwise on screen as drawn: Tiled's y-down frame, when kept,
          // turns it the other way round in ledge's terms.
          surfaceSpeed: c.yDown ? -b.surfaceSpeed : b.surfaceSpeed,
          frictionMix: b.frictionMix,
          sensor: b.sensor,
          oneWay: b.oneWay ? (c.yDown ? 'down' : 'up') : 'none',
        };
        const add = (shape) => defs.push({ object: o, def: { ...def, shape } });
        if (g.kind === 'polygon' && g.px.length > consts.MAX_DECOMPOSE_POINTS) {
          fail(`${where}: polygon has ${g.px.length} points (a polygon of bodies has 3..${consts.MAX_DECOMPOSE_POINTS}; make it a chain with the property 'chain')`);
        }
        if (g.kind === 'circle') {
          add({ type: 'circle', radius: r, center: { x: 0, y: 0 } });
        } else if (g.box) {
          add({ type: 'box', halfExtents: { x: fr(fr(hi.x - lo.x) / 2), y: fr(fr(hi.y - lo.y) / 2) }, center: { x: 0, y: 0 } });
        } else if (g.kind === 'polygon') {
          const local = g.px.map((px, i) => {
            const w = toWorld(px, g.py[i]);
            return { x: fr(w.x - position.x), y: fr(w.y - position.y) };
          });
          if (local.length > consts.MAX_POLYGON_VERTICES || !isConvex(local)) {
            let pieces;
            try {
              pieces = decompose(local);
            } catch {
              fail(`${where}: polygon is not simple (it crosses itself, repeats a point or has no area)`);
            }
            if (pieces.length > 1 && b.type === 'dynamic') {
              fail(`${where}: a dynamic polygon must be convex with at most ${consts.MAX_POLYGON_VERTICES} points (its ${pieces.length} pieces would fall apart)`);
            }
            pieces.forEach(add);
          } else {
            add({ type: 'polygon', points: local });
          }
        }
        out.push(o);
      }
    });
    // Each `path` property to the path object it names (a path may come later in the file).
    out.forEach((o, i) => {
      const want = pathIds[i];
      if (want < 0) return;
      const j = out.findIndex((q) => q.id === want);
      if (j < 0 || !out[j].isPath) {
        fail(`object ${o.id} '${o.name}': property 'path' names object ${want}, which ${j < 0 ? 'the map does not have' : 'is not a path (a polyline or polygon of class path)'}`);
      }
      o.path = j;
    });
    return { objects: out, defs, chains };
  }

  function result(map, grid, objs, bodies, chains) {
    const tileCounts = new Array(tileNames.length).fill(0);
    for (const t of grid) tileCounts[t]++;
    return {
      width: map.width,
      height: map.height,
      tileCounts,
      objects: objs,
      bodies,
      chains,
      /** The first object named `name`, or null. */
      findObject(name) {
        return objs.find((o) => o.name === name) || null;
      },
    };
  }

  // The cells and their materials into the map: its cells then hold exactly
  // the map's tiles, its cells' own materials exactly those of the tiles
  // with material properties.
  function setCells(tilemap, width, grid) {
    tilemap.reserveCellMaterials(grid.materials.length);
    for (let k = 0; k < grid.length; ++k) tilemap.set(k % width, (k / width) | 0, grid[k]);
    tilemap.clearCellMaterials();
    for (const [k, m] of grid.materials) tilemap.setCellMaterial(k % width, (k / width) | 0, m);
  }

  // Makes the bodies, then the chains (all or none), then sets the tiles,
  // as the C loader does.
  function apply(world, map, grid, parsed) {
    const bodies = [];
    const chains = [];
    const undo = () => {
      for (const ch of chains) ch.destroy();
      for (const b of bodies) b.destroy();
      for (const o of parsed.objects) {
        o.bodies.length = 0;
        o.chain = null;
      }
    };
    try {
      for (const { object, def } of parsed.defs) {
        const body = world.createBody({ ...def, userData: object });
        object.bodies.push(body);
        bodies.push(body);
      }
    } catch (e) {
      undo();
      throw new Error(`tiled: the world refused a body: ${e.message}`);
    }
    for (const { object, def } of parsed.chains) {
      try {
        const chain = world.createChain({ ...def, userData: object });
        object.chain = chain;
        chains.push(chain);
      } catch (e) {
        undo();
        throw new Error(`tiled: the world refused the chain of object ${object.id}: ${e.message}`);
      }
    }
    setCells(world.tilemap, map.width, grid);
    return result(map, grid, parsed.objects, bodies, chains);
  }

  function loadWorld(world, map, options) {
    const target = world.tilemap.def;
    const grid = cells(map, options, target);
    return apply(world, map, grid, objects(map, options, target));
  }

  function createWorld(map, options) {
    const def = { ...(options.world || {}) };
    const target = { width: 0, height: 0, tileSize: def.tileSize === undefined ? 1 : def.tileSize, origin: def.origin || { x: 0, y: 0 } };
    header(map, target);
    const grid = cells(map, options, { ...target, width: map.width, height: map.height });
    const parsed = objects(map, options, target);
    const world = new api.World({ ...def, width: map.width, height: map.height });
    try {
      return { world, result: apply(world, map, grid, parsed) };
    } catch (e) {
      world.dispose();
      throw e;
    }
  }

  return { cells, setCells, loadWorld, createWorld, Tile };
}
