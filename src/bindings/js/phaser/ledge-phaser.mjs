// ledge-phaser: ledge's platformer physics as a Phaser scene plugin (Phaser
// 3.60+ and 4). See README.md.
//
//   import { init } from 'ledge-physics';
//   import { createLedgePlugin } from 'ledge-phaser';
//   const ledge = await init();
//   new Phaser.Game({ ..., plugins: { scene: [{ key: 'LedgePlugin', plugin: createLedgePlugin(ledge), mapping: 'ledge' }] } });
//   // in a scene: this.ledge.fromTilemapLayer(layer); this.ledge.add.character(sprite);
//
// The world is ledge's, in tile units with y down (Phaser's frame): one
// unit is one tile of the map the world was made from (or `pixelsPerUnit`
// pixels), gravity points to +y. Positions and velocities the plugin
// hands to Phaser are pixels. The plugin never imports Phaser: it uses the
// scene it is installed in, so one build serves Phaser 3 and Phaser 4.

const DT = 1 / 60;

// Tiled's flip flags (horizontal, vertical, diagonal) as the matrix they
// apply to a tile drawn y down, and the matrix Phaser's tile rotation and
// flips apply: a tile whose rotation and flips give matrix m is the tile
// flipped by the flags with the same matrix.
const FLIPS = [];
for (let f = 0; f < 8; ++f) {
  const h = f & 1, v = (f >> 1) & 1, d = (f >> 2) & 1;
  let m = d ? [0, 1, 1, 0] : [1, 0, 0, 1];
  if (h) m = [-m[0], -m[1], m[2], m[3]];
  if (v) m = [m[0], m[1], -m[2], -m[3]];
  FLIPS.push({ flags: f, m });
}
/**
 * Tiled's flip flags (1 horizontal, 2 vertical, 4 diagonal) of a Phaser
 * tile drawn with `rotation` (a multiple of 90 degrees) and flips, as
 * Phaser turns Tiled's flags into them.
 */
export function phaserTileFlips(rotation, flipX, flipY) {
  const q = ((Math.round((rotation || 0) / (Math.PI / 2)) % 4) + 4) % 4;
  const c = [1, 0, -1, 0][q];
  const s = [0, 1, 0, -1][q];
  const sx = flipX ? -1 : 1;
  const sy = flipY ? -1 : 1;
  const m = [c * sx, -s * sy, s * sx, c * sy]; // rotate(q * 90 deg, y down) . scale(sx, sy)
  return FLIPS.find((e) => e.m.every((x, i) => x === m[i])).flags;
}

// A one-way direction as seen on screen ('up': solid for what comes from
// above) in ledge's y-down world, where screen up is -y.
// Tile properties that give a cell its material (ledge-phaser's units).
const MATERIAL_PROPS = [['ledge_friction', 'friction'], ['ledge_bounce', 'bounce'],
  ['ledge_surface_speed', 'surfaceSpeed'], ['ledge_friction_mix', 'frictionMix']];
const SCREEN_WAYS = { none: 'none', up: 'down', down: 'up', left: 'left', right: 'right' };

/**
 * The plugin class bound to an initialised ledge-physics module (the
 * plugin needs the module before Phaser makes scenes, so it is made by
 * this function rather than imported as a class).
 */
export function createLedgePlugin(ledge) {
  return class LedgePlugin {
    constructor(scene, pluginManager, pluginKey) {
      this.scene = scene;
      this.systems = scene.sys;
      this.pluginManager = pluginManager;
      this.pluginKey = pluginKey;
      /** The ledge-physics module. */
      this.ledge = ledge;
      /** The ledge World (null until createWorld or fromTilemapLayer). */
      this.world = null;
      /** Pixels per world unit (the tile size of the map the world was made from). */
      this.pixelsPerUnit = 16;
      /** The world's gravity in units / s^2. */
      this.gravity = { x: 0, y: 0 };
      /** Where world (0, 0) is, in pixels. */
      this.offset = { x: 0, y: 0 };
      /** Fixed steps of 1/60 s; at most this many a drawn frame (the rest of the time is dropped). */
      this.maxStepsPerFrame = 5;
      /** Steps taken since the world was made. */
      this.steps = 0;
      /** Game seconds per real second (slow motion below 1); the steps stay 1/60 s of game time. */
      this.timeScale = 1;
      /** Set false to stop stepping (the sprites stay where they are). */
      this.running = true;
      this._acc = 0;
      this._links = []; // sprites with bodies
      this._characters = [];
      this._movers = [];
      this._graphics = null;
      this._debugOptions = null;
      /**
       * The plugin's events (Phaser's EventEmitter): 'prestep' (step) before
       * each fixed step, 'poststep' (step) after it, and the step's ledge
       * events: 'touchstart' / 'touchend' (a, b, cell, chain: the ledge
       * Chain touched, else null), 'sensorenter' /
       * 'sensorleave' (sensor, visitor), 'crush' (body, crusher, depth),
       * where bodies are given as their game objects when they have one
       * (else the ledge Body; b is null for a tile).
       */
      this.events = new scene.sys.events.constructor();
      /**
       * Factories: add.body(gameObject, def), add.character(gameObject, def),
       * add.mover(gameObject, options), add.joint(def), add.chain(def).
       */
      this.add = {
        body: (go, def) => this.addBody(go, def),
        character: (go, def) => this.addCharacter(go, def),
        mover: (go, options) => this.addMover(go, options),
        joint: (def) => this.addJoint(def),
        chain: (def) => this.addChain(def),
      };
      // As Phaser's ScenePlugin: listen to the scene once it has booted.
      if (scene.sys.settings && scene.sys.settings.isBooted) this.boot();
      else scene.sys.events.once('boot', this.boot, this);
    }

    /** Called by Phaser when the scene boots (and on every restart of the scene). */
    boot() {
      const ev = this.systems.events;
      ev.on('update', this._update, this);
      ev.on('postupdate', this._sync, this);
      ev.once('shutdown', this._shutdown, this);
      ev.once('destroy', this._destroy, this);
    }

    /** Phaser's scene-plugin hook for a scene started again: listen again. */
    start() {
      const ev = this.systems.events;
      if (!ev.listeners('update').some((l) => l === this._update)) {
        ev.on('update', this._update, this);
        ev.on('postupdate', this._sync, this);
        ev.once('shutdown', this._shutdown, this);
      }
    }

    // ---- the world ----

    /**
     * Makes an empty world: def is ledge's WorldDef in tile units (width,
     * height in cells), plus `pixelsPerUnit` and `gravity` (a number: pixels
     * per second squared, downward, or a Vec2 in units).
     */
    createWorld(def = {}) {
      this._clearWorld();
      const { pixelsPerUnit = 16, gravity = 1000, offset = { x: 0, y: 0 }, ...rest } = def;
      this.pixelsPerUnit = pixelsPerUnit;
      this.offset = { x: offset.x, y: offset.y };
      const g = typeof gravity === 'number' ? { x: 0, y: gravity / pixelsPerUnit } : gravity;
      this.gravity = g;
      this.world = new ledge.World({ ...rest, gravity: g, origin: { x: 0, y: 0 }, tileSize: 1 });
      this.steps = 0;
      this._acc = 0;
      return this.world;
    }

    /**
     * Makes the world from a Phaser tilemap layer (a Tiled map loaded by
     * Phaser, or any map): each tile's ledge shape comes from the tile's
     * (or its tileset tile's) property `ledge_tile` (a tile name such as
     * 'FULL' or '45DEG_PN', as drawn, or an id), or from
     * options.tileShapes: { [tilesetName]: { [tileId in the tileset]: name } }
     * or a function (tile) => name; Tiled's flips and Phaser's tile
     * rotation and flips turn the shape as the tile is drawn. A
     * `ledge_one_way` property ('up', 'down', 'left', 'right' as seen on
     * screen) makes the cell one-way. options: the world def of
     * createWorld (gravity in pixels / s^2 downward).
     */
    fromTilemapLayer(layer, options = {}) {
      const data = layer.layer;
      const map = layer.tilemap;
      const size = (map.tileWidth || data.baseTileWidth) * (layer.scaleX || 1);
      const { tileShapes, ...def } = options;
      this.createWorld({ ...def, width: data.width, height: data.height, pixelsPerUnit: size, offset: { x: layer.x || 0, y: layer.y || 0 } });
      const tm = this.world.tilemap;
      for (let y = 0; y < data.height; ++y) {
        for (let x = 0; x < data.width; ++x) {
          const tile = data.data[y][x];
          if (!tile || tile.index < 0) continue;
          const name = this._shapeOf(tile, tileShapes);
          if (name === undefined || name === null) continue;
          let id = typeof name === 'number' ? name : ledge.Tile[String(name).toUpperCase()];
          if (id === undefined) throw new Error(`ledge-phaser: tile ${tile.index} at (${x}, ${y}) names the shape ${JSON.stringify(name)}`);
          const flags = phaserTileFlips(tile.rotation, tile.flipX, tile.flipY);
          if (flags) id = ledge.module._ledge_js_tiled_flip(id, flags);
          tm.set(x, y, id);
          const way = this._prop(tile, 'ledge_one_way');
          if (way) tm.setOneWay(x, y, SCREEN_WAYS[way] || way);
          const material = this._tileMaterial(tile);
          if (material) tm.setCellMaterial(x, y, this._material(material));
        }
      }
      return this.world;
    }

    // The material a tile's properties give (ledge_friction, ledge_bounce,
    // ledge_surface_speed in pixels per second on screen, ledge_friction_mix),
    // or null when it has none.
    _tileMaterial(tile) {
      const m = {};
      for (const [prop, key] of MATERIAL_PROPS) {
        const v = this._prop(tile, prop);
        if (v !== undefined && v !== null && v !== '') m[key] = v;
      }
      return Object.keys(m).length ? m : null;
    }

    _prop(tile, name) {
      if (tile.properties && tile.properties[name] !== undefined) return tile.properties[name];
      const ts = tile.tileset;
      const p = ts && ts.getTileProperties ? ts.getTileProperties(tile.index) : null;
      return p ? p[name] : undefined;
    }

    _shapeOf(tile, table) {
      const own = this._prop(tile, 'ledge_tile');
      if (own !== undefined) return own;
      if (typeof table === 'function') return table(tile);
      if (table && tile.tileset) {
        const t = table[tile.tileset.name];
        if (t) return t[tile.index - tile.tileset.firstgid];
      }
      return undefined;
    }

    /**
     * Makes the world from a Tiled map in Phaser's cache
     * (this.load.tilemapTiledJSON(key, url)) with ledge's own Tiled loader:
     * tiles from the `ledge_tile` properties and bodies from the object
     * layers, as the C library reads maps (docs/tiled.md), in Phaser's y-down
     * frame: polylines and polygons with the property `chain` become
     * chains. A kinematic chain whose object names a path (its `path`
     * property) and has a `speed` property (pixels per second) goes back
     * and forth along the path's points as addMover's platforms do.
     * Returns ledge's TiledResult (objects, bodies, chains).
     */
    fromTiledMap(key, options = {}) {
      const entry = this.systems.cache.tilemap.get(key);
      if (!entry) throw new Error(`ledge-phaser: no tilemap "${key}" in the cache`);
      const json = entry.data;
      this._clearWorld();
      const { gravity = 1000, tilesets, layer, ...rest } = options;
      this.pixelsPerUnit = json.tilewidth;
      this.offset = { x: 0, y: 0 };
      const g = typeof gravity === 'number' ? { x: 0, y: gravity / json.tilewidth } : gravity;
      this.gravity = g;
      const { world, result } = ledge.World.fromTiled(json, { yDown: true, tilesets, layer, world: { ...rest, gravity: g } });
      this.world = world;
      this.steps = 0;
      this._acc = 0;
      for (const o of result.objects) {
        const speed = o.properties.speed;
        if (!o.chain || o.path < 0 || o.chain.type !== 'kinematic' || typeof speed !== 'number') continue;
        this._addMover(o.chain, result.objects[o.path].points, speed / json.tilewidth);
      }
      return result;
    }

    /**
     * Makes the world from an LDtk project with ledge's LDtk loader
     * (docs/ldtk.md) in Phaser's y-down frame: `project` is a key of
     * Phaser's JSON cache (this.load.json(key, url)) or the project itself
     * (its text or the parsed object). One LDtk grid cell is one world unit
     * (pixelsPerUnit is the grid size in pixels); world (0, 0) is the map's
     * top-left corner (the level's, or with allLevels the corner of the
     * levels' bounds), drawn at options.offset (pixels, default 0, 0).
     * Entities with a path (moving platforms) follow it as
     * entity.pathPosition says. options: ledge's LdtkOptions (level,
     * allLevels, intgrid, entityBodies, resolve, ...), gravity (pixels per
     * second squared downward, or a Vec2 in units) and the rest of the
     * world def. Returns ledge's LdtkResult: the levels, and the entities
     * with their fields and bodies for the game to give sprites.
     */
    fromLdtk(project, options = {}) {
      let json = project;
      if (typeof json === 'string' && !json.trimStart().startsWith('{')) {
        json = this.systems.cache.json && this.systems.cache.json.get(project);
        if (json === undefined || json === null) throw new Error(`ledge-phaser: no JSON "${project}" in the cache`);
      }
      if (typeof json === 'string') json = JSON.parse(json);
      this._clearWorld();
      const { gravity = 1000, offset = { x: 0, y: 0 }, level, levelIndex, allLevels, ldtkWorld, tileLayer, intgrid, entityBodies, resolve, ...rest } = options;
      const load = (grid) => {
        const g = typeof gravity === 'number' ? { x: 0, y: gravity / grid } : gravity;
        const made = ledge.World.fromLdtk(json, {
          level, levelIndex, allLevels, ldtkWorld, tileLayer, intgrid, entityBodies, resolve, yDown: true,
          world: { ...rest, gravity: g, tileSize: 1, origin: { x: 0, y: 0 } },
        });
        return { ...made, g };
      };
      // The grid size is known after the load; the project's default is
      // almost always it (else the world is made again with the gravity in
      // the right units).
      let made = load(json.defaultGridSize || 16);
      if (typeof gravity === 'number' && made.result.gridPx !== (json.defaultGridSize || 16)) {
        made.world.dispose();
        made = load(made.result.gridPx);
      }
      const { world, result, g } = made;
      this.world = world;
      this.pixelsPerUnit = result.gridPx;
      this.offset = { x: offset.x, y: offset.y };
      this.gravity = g;
      this.steps = 0;
      this._acc = 0;
      for (const e of result.entities) {
        if (e.pathPosition && e.bodies.length > 0) this._movers.push({ body: e.bodies[0], position: e.pathPosition, index: 0, dir: 1, at: e.position });
      }
      return result;
    }

    // ---- units ----

    /** Pixels to world units (a point). */
    toWorld(x, y) {
      const k = this.pixelsPerUnit;
      return { x: (x - this.offset.x) / k, y: (y - this.offset.y) / k };
    }
    /** World units to pixels (a point). */
    toPixels(p) {
      const k = this.pixelsPerUnit;
      return { x: p.x * k + this.offset.x, y: p.y * k + this.offset.y };
    }

    // ---- bodies ----

    _live() {
      if (!this.world) throw new Error('ledge-phaser: make the world first (createWorld, fromTilemapLayer, fromTiledMap or fromLdtk)');
      return this.world;
    }

    /**
     * Gives a game object a ledge body at its position: def is ledge's
     * BodyDef (units) without position; its shape defaults to a box of the
     * object's display size (shape: 'circle' for a circle of its width).
     * The object follows the body every frame. Returns the ledge Body
     * (body.userData is the game object).
     */
    addBody(go, def = {}) {
      const world = this._live();
      const k = this.pixelsPerUnit;
      let shape = def.shape;
      if (shape === undefined || shape === 'box') shape = ledge.box(go.displayWidth / k / 2, go.displayHeight / k / 2);
      else if (shape === 'circle') shape = ledge.circle(go.displayWidth / k / 2);
      const body = world.createBody({ ...def, shape, position: this.toWorld(go.x, go.y), userData: go });
      const link = { go, body, prev: body.position, cur: null };
      link.cur = link.prev;
      this._links.push(link);
      go.ledgeBody = body;
      return body;
    }

    /**
     * A player or enemy: a kinematic body with ledge's character
     * (CharacterDef: move options, platformOnLeave, ridePlatforms) and a
     * velocity in pixels per second that the plugin moves it by each fixed
     * step, with gravity (gravityScale) while off the floor. Returns a
     * PluginCharacter.
     */
    addCharacter(go, def = {}) {
      const { gravityScale = 1, shape, ...cdef } = def;
      const body = this.addBody(go, { type: 'kinematic', shape });
      const ch = this.world.createCharacter(body, cdef);
      const pc = new PluginCharacter(this, go, body, ch, gravityScale);
      this._characters.push(pc);
      go.ledgeCharacter = pc;
      return pc;
    }

    /**
     * A moving platform: a kinematic body that goes back and forth along
     * options.points (pixels) at options.speed (pixels per second),
     * options.oneWay ('up' as seen on screen) for a platform to jump
     * through. Returns the ledge Body.
     */
    addMover(go, options) {
      const { points, speed, oneWay, ...def } = options;
      const body = this.addBody(go, { ...def, type: 'kinematic', oneWay: oneWay ? SCREEN_WAYS[oneWay] : 'none' });
      this._addMover(body, points.map((p) => this.toWorld(p.x, p.y)), speed / this.pixelsPerUnit);
      return body;
    }

    // A kinematic body or chain moved along `path` (units) at `speed` (units per second).
    _addMover(body, path, speed) {
      this._movers.push({ body, path, speed, index: 0, dir: 1, at: body.position });
    }

    // ---- chains ----

    /**
     * A chain (ledge's one-sided free-form ground, docs/chains.md) through
     * points of the scene in pixels: def.points ([{x, y}], 2 or more, 3 for
     * a loop), loop, facing (an open chain's surface as seen on screen: 'up',
     * the default, 'down', 'left' or 'right'), solid (a loop's solid side:
     * 'inside', the default, or 'outside'), type ('static' or 'kinematic'),
     * velocity (pixels per second), path and speed (a kinematic chain that
     * goes back and forth along points of the scene at pixels per second,
     * as addMover's platforms), material (as setMaterial's), filter and
     * userData as ledge's ChainDef. The chain's frame sits at the centre of
     * its points' bounds. Returns ledge's Chain (units).
     */
    addChain(def) {
      const world = this._live();
      const k = this.pixelsPerUnit;
      const { points, facing = 'up', solid = 'inside', velocity, path, speed, material, ...rest } = def;
      if (!Array.isArray(points)) throw new TypeError('ledge-phaser: addChain needs points, an array of {x, y} in pixels');
      const p = points.map((q) => this.toWorld(q.x, q.y));
      const n = p.length;
      // Turned so that the surface faces as asked (the y-down frame's rule:
      // the surface faces right of the direction, as seen on screen left).
      let turn;
      if (rest.loop) {
        if (!['inside', 'outside'].includes(solid)) throw new TypeError("ledge-phaser: solid must be 'inside' or 'outside'");
        let area = 0;
        for (let i = 0; i < n; ++i) area += p[i].x * p[(i + 1) % n].y - p[i].y * p[(i + 1) % n].x;
        turn = solid === 'inside' ? area : -area;
      } else {
        const f = { up: [0, -1], down: [0, 1], left: [-1, 0], right: [1, 0] }[facing];
        if (!f) throw new TypeError("ledge-phaser: facing must be 'up', 'down', 'left' or 'right'");
        let sx = 0, sy = 0;
        for (let i = 0; i + 1 < n; ++i) {
          sx += p[i + 1].y - p[i].y;
          sy -= p[i + 1].x - p[i].x;
        }
        turn = sx * f[0] + sy * f[1];
      }
      if (turn < 0) p.reverse();
      let lo = { x: Infinity, y: Infinity }, hi = { x: -Infinity, y: -Infinity };
      for (const q of p) {
        lo = { x: Math.min(lo.x, q.x), y: Math.min(lo.y, q.y) };
        hi = { x: Math.max(hi.x, q.x), y: Math.max(hi.y, q.y) };
      }
      const position = { x: (lo.x + hi.x) / 2, y: (lo.y + hi.y) / 2 };
      const cd = { ...rest, points: p.map((q) => ({ x: q.x - position.x, y: q.y - position.y })), position };
      if (velocity) cd.velocity = { x: velocity.x / k, y: velocity.y / k };
      if (material) cd.material = this._material(material);
      const chain = world.createChain(cd);
      if (path) {
        if (!Array.isArray(path) || typeof speed !== 'number') {
          chain.destroy();
          throw new TypeError('ledge-phaser: a chain\'s path needs points in pixels and a speed in pixels per second');
        }
        this._addMover(chain, path.map((q) => this.toWorld(q.x, q.y)), speed / k);
      }
      return chain;
    }

    /** Removes a chain (and its path). */
    removeChain(chain) {
      this._movers = this._movers.filter((m) => m.body !== chain);
      if (chain.valid) chain.destroy();
    }

    // ---- joints and materials ----

    _bodyOf(x, name) {
      if (x === null || x === undefined) return null;
      if (x instanceof ledge.Body) return x;
      if (x.ledgeBody instanceof ledge.Body) return x.ledgeBody;
      throw new TypeError(`ledge-phaser: ${name} must be a game object with a body, a ledge Body or null`);
    }

    /**
     * A joint between two game objects with bodies (or ledge Bodies), or
     * between one and a fixed point of the scene: def is ledge's JointDef
     * in pixels. `a` and `b` (or bodyA, bodyB) are the objects (null: a
     * point of the scene); anchorA and anchorB are offsets from the
     * object's centre in pixels, or the point of the scene where its body
     * is null; length, minLength, maxLength, lower and upper are pixels,
     * motorSpeed pixels per second, groundA and groundB points of the
     * scene; type, hertz, dampingRatio, axis, enableLimit, enableMotor,
     * maxMotorForce, ratio and collideConnected as ledge's. Returns ledge's
     * Joint (its lengths, anchors and force in world units). The joint dies
     * with either body (remove()).
     */
    addJoint(def) {
      const world = this._live();
      const k = this.pixelsPerUnit;
      const { a, b, bodyA = a, bodyB = b, anchorA, anchorB, groundA, groundB, ...rest } = def;
      const ba = this._bodyOf(bodyA, 'a');
      const bb = this._bodyOf(bodyB, 'b');
      const jd = { ...rest, bodyA: ba, bodyB: bb };
      const anchor = (body, p) => {
        if (p === undefined) return body ? undefined : { x: 0, y: 0 };
        return body ? { x: p.x / k, y: p.y / k } : this.toWorld(p.x, p.y);
      };
      const pa = anchor(ba, anchorA);
      const pb = anchor(bb, anchorB);
      if (pa) jd.anchorA = pa;
      if (pb) jd.anchorB = pb;
      for (const key of ['length', 'minLength', 'maxLength', 'lower', 'upper', 'motorSpeed']) {
        if (typeof rest[key] === 'number') jd[key] = rest[key] / k;
      }
      if (groundA) jd.groundA = this.toWorld(groundA.x, groundA.y);
      if (groundB) jd.groundB = this.toWorld(groundB.x, groundB.y);
      return world.createJoint(jd);
    }

    // A material of the plugin (surfaceSpeed in pixels per second, as seen
    // on screen: a floor with a positive speed carries to the right) as
    // ledge's (units per second along the surface's tangent, which turns
    // counter-clockwise on screen in the plugin's y-down world).
    _material(m) {
      if (m === null || m === undefined) return null;
      const out = {};
      if (m.friction !== undefined) out.friction = Number(m.friction);
      if (m.bounce !== undefined) out.bounce = Number(m.bounce);
      if (m.frictionMix !== undefined) out.frictionMix = m.frictionMix;
      if (m.surfaceSpeed !== undefined) out.surfaceSpeed = -Number(m.surfaceSpeed) / this.pixelsPerUnit;
      return out;
    }

    /**
     * Sets a game object's (or a ledge Body's) material: { friction,
     * bounce, surfaceSpeed (pixels per second as seen on screen: a
     * positive speed carries what rests on top to the right), frictionMix
     * ('mean', 'min', 'max') }; what is left out is ledge's default
     * material's.
     */
    setMaterial(go, material) {
      this._live();
      this._bodyOf(go, 'the object').material = this._material(material);
    }

    /**
     * Gives every cell of a tile shape (a ledge tile name such as 'FULL' or
     * an id) a material, as setMaterial's; a belt: surfaceSpeed.
     */
    setTileMaterial(tile, material) {
      const id = typeof tile === 'number' ? tile : ledge.Tile[String(tile).toUpperCase()];
      if (id === undefined) throw new Error(`ledge-phaser: no tile shape ${JSON.stringify(tile)}`);
      this._live().tilemap.setTileMaterial(id, this._material(material));
    }

    /** Gives cell (tileX, tileY) a material of its own (null: takes it away), as setMaterial's. */
    setCellMaterial(tileX, tileY, material) {
      this._live().tilemap.setCellMaterial(tileX, tileY, this._material(material));
    }

    /** Removes a game object's body (and character). */
    remove(go) {
      const i = this._links.findIndex((l) => l.go === go);
      if (i < 0) return;
      const { body } = this._links[i];
      this._links.splice(i, 1);
      this._characters = this._characters.filter((c) => c.go !== go);
      this._movers = this._movers.filter((m) => m.body !== body);
      if (body.valid) body.destroy();
    }

    // ---- the step ----

    _update(time, delta) {
      if (!this.world || !this.running) return;
      this._acc += (Math.min(delta, 250) / 1000) * this.timeScale;
      let n = 0;
      while (this._acc >= DT && n < this.maxStepsPerFrame) {
        this.step();
        this._acc -= DT;
        ++n;
      }
      if (n === this.maxStepsPerFrame) this._acc = Math.min(this._acc, DT);
    }

    /** One fixed step of 1/60 s: movers, characters, the world, events. */
    step() {
      const world = this._live();
      this.events.emit('prestep', this.steps);
      for (const m of this._movers) this._moveMover(m);
      for (const c of this._characters) c._step();
      for (const l of this._links) l.prev = l.cur;
      world.step(DT);
      ++this.steps;
      for (const l of this._links) l.cur = l.body.valid ? l.body.position : l.cur;
      this._emitEvents();
      this.events.emit('poststep', this.steps);
    }

    // A mover goes from point to point at its speed and turns back at either
    // end; an LDtk platform goes where its path puts it at the step's end.
    _moveMover(m) {
      if (m.position) {
        m.body.setTarget(m.position((this.steps + 1) * DT), DT);
        return;
      }
      let left = m.speed * DT;
      let at = m.at;
      while (left > 0 && m.path.length > 1) {
        const to = m.path[m.index + m.dir];
        const dx = to.x - at.x;
        const dy = to.y - at.y;
        const d = Math.hypot(dx, dy);
        if (d <= left) {
          at = to;
          left -= d;
          m.index += m.dir;
          if (m.index === 0 || m.index === m.path.length - 1) m.dir = -m.dir;
          if (d === 0) break;
        } else {
          at = { x: at.x + (dx / d) * left, y: at.y + (dy / d) * left };
          left = 0;
        }
      }
      m.at = at;
      m.body.setTarget(at, DT);
    }

    _emitEvents() {
      const e = this.world.events;
      if (this.events.listenerCount('touchstart')) for (let i = 0; i < e.touchBegin.length; ++i) this._touch('touchstart', e.touchBegin.get(i));
      if (this.events.listenerCount('touchend')) for (let i = 0; i < e.touchEnd.length; ++i) this._touch('touchend', e.touchEnd.get(i));
      if (this.events.listenerCount('sensorenter')) for (let i = 0; i < e.sensorBegin.length; ++i) this._sensor('sensorenter', e.sensorBegin.get(i));
      if (this.events.listenerCount('sensorleave')) for (let i = 0; i < e.sensorEnd.length; ++i) this._sensor('sensorleave', e.sensorEnd.get(i));
      if (this.events.listenerCount('crush')) {
        for (let i = 0; i < e.crush.length; ++i) {
          const c = e.crush.get(i);
          this.events.emit('crush', this._of(c.body), this._of(c.crusher), c.depth);
        }
      }
    }
    _of(body) {
      return body && body.userData !== undefined ? body.userData : body;
    }
    _touch(name, t) {
      this.events.emit(name, this._of(t.a), this._of(t.b), { x: t.cell.x, y: t.cell.y }, t.chain);
    }
    _sensor(name, s) {
      this.events.emit(name, this._of(s.sensor), this._of(s.visitor));
    }

    // Sprites follow their bodies, between the last two steps.
    _sync() {
      if (!this.world) return;
      const a = Math.min(this._acc / DT, 1);
      const k = this.pixelsPerUnit;
      for (const l of this._links) {
        l.go.x = (l.prev.x + (l.cur.x - l.prev.x) * a) * k + this.offset.x;
        l.go.y = (l.prev.y + (l.cur.y - l.prev.y) * a) * k + this.offset.y;
      }
      if (this._graphics) this._drawDebug();
    }

    // ---- debug view ----

    /**
     * Draws ledge's debug view (tiles, bodies, chains, contacts, normals,
     * joints, materials) into a
     * Graphics object every frame (made when not given); options as
     * World.debugDraw's. debug(false) stops.
     */
    debug(on = true, options = {}) {
      if (!on) {
        if (this._graphics && this._ownGraphics) this._graphics.destroy();
        this._graphics = null;
        return null;
      }
      this._ownGraphics = !options.graphics;
      this._graphics = options.graphics || this.scene.add.graphics().setDepth(1e6);
      this._debugOptions = options;
      return this._graphics;
    }

    _drawDebug() {
      const g = this._graphics;
      g.clear();
      const list = this.world.debugDrawList(this._debugOptions);
      const F = list.f32;
      const k = this.pixelsPerUnit;
      const ox = this.offset.x;
      const oy = this.offset.y;
      for (let i = list.offset; i < list.offset + list.length;) {
        const kind = F[i];
        const color = F[i + 1];
        const n = F[i + 2];
        const v = i + 3;
        if (kind === 1 || kind === 2) {
          g.lineStyle(1, color, 1);
          if (kind === 2) g.fillStyle(color, 0.35);
          g.beginPath();
          g.moveTo(F[v] * k + ox, F[v + 1] * k + oy);
          for (let j = 2; j < n; j += 2) g.lineTo(F[v + j] * k + ox, F[v + j + 1] * k + oy);
          g.closePath();
          if (kind === 2) g.fillPath();
          g.strokePath();
        } else if (kind === 3 || kind === 4) {
          g.lineStyle(1, color, 1);
          if (kind === 4) g.fillStyle(color, 0.35).fillCircle(F[v] * k + ox, F[v + 1] * k + oy, F[v + 2] * k);
          g.strokeCircle(F[v] * k + ox, F[v + 1] * k + oy, F[v + 2] * k);
        } else if (kind === 5) {
          g.lineStyle(1, color, 1).lineBetween(F[v] * k + ox, F[v + 1] * k + oy, F[v + 2] * k + ox, F[v + 3] * k + oy);
        } else {
          g.fillStyle(color, 1).fillRect(F[v] * k + ox - 1.5, F[v + 1] * k + oy - 1.5, 3, 3);
        }
        i += 3 + n;
      }
    }

    // ---- rollback ----

    /**
     * The whole physics state: the world's snapshot (ledge's bytes) and
     * what the plugin keeps (characters' velocities, movers' legs, the
     * step count). restore() puts it back; the sprites follow at once.
     */
    save() {
      return {
        world: this._live().save(),
        steps: this.steps,
        characters: this._characters.map((c) => ({ x: c.velocity.x, y: c.velocity.y })),
        movers: this._movers.map((m) => ({ index: m.index, dir: m.dir, at: { ...m.at } })),
      };
    }

    restore(snapshot) {
      this._live().restore(snapshot.world);
      this.steps = snapshot.steps;
      this._characters.forEach((c, i) => {
        c.velocity.x = snapshot.characters[i].x;
        c.velocity.y = snapshot.characters[i].y;
      });
      this._movers.forEach((m, i) => {
        m.index = snapshot.movers[i].index;
        m.dir = snapshot.movers[i].dir;
        m.at = { ...snapshot.movers[i].at };
      });
      for (const l of this._links) {
        if (l.body.valid) l.prev = l.cur = l.body.position;
      }
      this._acc = 0;
      this._sync();
    }

    // ---- the scene's end ----

    _clearWorld() {
      for (const l of this._links) {
        delete l.go.ledgeBody;
        delete l.go.ledgeCharacter;
      }
      this._links = [];
      this._characters = [];
      this._movers = [];
      if (this.world) this.world.dispose();
      this.world = null;
    }

    _shutdown() {
      this._clearWorld();
      if (this._graphics && this._ownGraphics) this._graphics.destroy();
      this._graphics = null;
      const ev = this.systems.events;
      ev.off('update', this._update, this);
      ev.off('postupdate', this._sync, this);
    }

    _destroy() {
      this._shutdown();
      this.events.removeAllListeners();
      this.scene = null;
      this.systems = null;
    }
  };
}

/**
 * A character of the plugin: ledge's Character plus the velocity the
 * plugin moves it by (pixels per second) and gravity.
 */
class PluginCharacter {
  constructor(plugin, go, body, character, gravityScale) {
    this.plugin = plugin;
    this.go = go;
    this.body = body;
    /** ledge's Character. */
    this.character = character;
    /** Multiplies the world's gravity for this character. */
    this.gravityScale = gravityScale;
    /** Pixels per second; the plugin clips it against what the move meets. */
    this.velocity = { x: 0, y: 0 };
    this._v = { x: 0, y: 0 };
  }
  /** ledge's CharacterState after the last step (units). */
  get state() {
    return this.character.state;
  }
  get onFloor() {
    return this.character.state.onFloor;
  }
  get onWall() {
    return this.character.state.onWall;
  }
  get onCeiling() {
    return this.character.state.onCeiling;
  }
  /** Seconds since the character last stood on a floor (coyote time). */
  get timeSinceFloor() {
    return this.character.state.timeSinceFloor;
  }
  setVelocityX(x) {
    this.velocity.x = x;
    return this;
  }
  setVelocityY(y) {
    this.velocity.y = y;
    return this;
  }
  /** Jumps (velocity.y = -speed, pixels per second) when on the floor or within `coyote` seconds of it. */
  jump(speed, coyote = 0.1) {
    if (this.character.state.timeSinceFloor <= coyote) {
      this.velocity.y = -speed;
      return true;
    }
    return false;
  }
  /** Falls through the one-way platform stood on. */
  dropThrough() {
    this.body.dropThrough();
  }
  _step() {
    const p = this.plugin;
    const k = p.pixelsPerUnit;
    this._v.x = this.velocity.x / k + p.gravity.x * this.gravityScale * DT;
    this._v.y = this.velocity.y / k + p.gravity.y * this.gravityScale * DT;
    const s = this.character.move(this._v, DT);
    this.velocity.x = s.velocity.x * k;
    this.velocity.y = s.velocity.y * k;
  }
}
