// TypeScript declarations of ledge-phaser (ledge-phaser.mjs). Phaser's own
// types are not required: game objects are anything with x, y and a display
// size, the scene is Phaser's.
import type { Ledge, World, Body, Character, CharacterState, CharacterDef, BodyDef, WorldDef, TiledResult, LdtkOptions, LdtkResult, DrawOptions, Vec2, Joint, JointDef, FrictionMix, Chain, ChainDef } from 'ledge-physics';

/** What the plugin needs of a game object: a position (its centre) and a display size. */
export interface GameObjectLike {
  x: number;
  y: number;
  displayWidth: number;
  displayHeight: number;
  ledgeBody?: Body;
  ledgeCharacter?: PluginCharacter;
}

/** createWorld's def: ledge's WorldDef in tile units, plus pixels and gravity in pixels. */
export interface PluginWorldDef extends Omit<WorldDef, 'gravity' | 'origin' | 'tileSize'> {
  /** Pixels per world unit. Default 16. */
  pixelsPerUnit?: number;
  /** Pixels per second squared, downward (a number), or a Vec2 in units. Default 1000. */
  gravity?: number | Vec2;
  /** Where world (0, 0) is, in pixels. */
  offset?: Vec2;
}

export interface TilemapLayerOptions extends Omit<PluginWorldDef, 'width' | 'height' | 'pixelsPerUnit' | 'offset'> {
  /**
   * The ledge shape of tiles without a `ledge_tile` property: by tileset
   * name, then by the tile's id in its tileset; or a function of the tile.
   */
  tileShapes?: Record<string, Record<number, string | number>> | ((tile: unknown) => string | number | undefined | null);
}

/** A character of the plugin: ledge's Character plus its velocity in pixels per second and gravity. */
export interface PluginCharacter {
  readonly go: GameObjectLike;
  readonly body: Body;
  /** ledge's Character. */
  readonly character: Character;
  /** Multiplies the world's gravity for this character. */
  gravityScale: number;
  /** Pixels per second; clipped against what each move meets. */
  velocity: Vec2;
  /** ledge's state after the last step (units). */
  readonly state: CharacterState;
  readonly onFloor: boolean;
  readonly onWall: boolean;
  readonly onCeiling: boolean;
  /** Seconds since the character last stood on a floor (coyote time). */
  readonly timeSinceFloor: number;
  setVelocityX(x: number): this;
  setVelocityY(y: number): this;
  /** Jumps at `speed` pixels per second when on the floor or within `coyote` seconds of it (default 0.1). */
  jump(speed: number, coyote?: number): boolean;
  /** Falls through the one-way platform stood on. */
  dropThrough(): void;
}

/**
 * addJoint's def: ledge's JointDef in pixels. a and b (or bodyA, bodyB) are
 * game objects with bodies, ledge Bodies, or null for a fixed point of the
 * scene; anchors are offsets from the object's centre in pixels, or points
 * of the scene where the body is null; length, minLength, maxLength, lower
 * and upper are pixels, motorSpeed pixels per second, groundA and groundB
 * points of the scene.
 */
export interface PluginJointDef extends Omit<JointDef, 'bodyA' | 'bodyB'> {
  a?: GameObjectLike | Body | null;
  b?: GameObjectLike | Body | null;
  bodyA?: GameObjectLike | Body | null;
  bodyB?: GameObjectLike | Body | null;
}

/**
 * A material in the plugin's units: surfaceSpeed in pixels per second as
 * seen on screen (a floor with a positive speed carries to the right).
 * Tiles of a layer get one from their properties ledge_friction,
 * ledge_bounce, ledge_surface_speed and ledge_friction_mix.
 */
export interface PluginMaterial {
  friction?: number;
  bounce?: number;
  surfaceSpeed?: number;
  frictionMix?: FrictionMix;
}

/**
 * addChain's def: ledge's ChainDef in pixels, points of the scene (the
 * chain's frame at the centre of their bounds), turned to face as asked.
 */
export interface PluginChainDef extends Omit<ChainDef, 'position' | 'velocity' | 'material'> {
  /** Points of the scene in pixels: 2 or more, 3 for a loop. */
  points: Vec2[];
  /** An open chain's surface as seen on screen. Default 'up'. */
  facing?: 'up' | 'down' | 'left' | 'right';
  /** A loop's solid side. Default 'inside'. */
  solid?: 'inside' | 'outside';
  /** A kinematic chain's velocity, pixels per second. */
  velocity?: Vec2;
  /** A kinematic chain's route: points of the scene it goes back and forth along (with speed). */
  path?: Vec2[];
  /** Pixels per second along path. */
  speed?: number;
  /** As setMaterial's. */
  material?: PluginMaterial;
}

/** The physics state of save(): ledge's snapshot and the plugin's own. */
export interface PluginSnapshot {
  world: Uint8Array;
  steps: number;
  characters: Vec2[];
  movers: { index: number; dir: number; at: Vec2 }[];
}

/** The scene plugin (mapped on the scene, e.g. `this.ledge`). */
export interface LedgePlugin {
  readonly ledge: Ledge;
  readonly world: World | null;
  pixelsPerUnit: number;
  offset: Vec2;
  gravity: Vec2;
  /** Fixed steps of 1/60 s; at most this many a drawn frame. Default 5. */
  maxStepsPerFrame: number;
  /** Game seconds per real second. Default 1. */
  timeScale: number;
  running: boolean;
  readonly steps: number;
  /**
   * Phaser's EventEmitter: 'prestep', 'poststep', 'touchstart' and
   * 'touchend' (a, b, cell, chain: the Chain touched or null),
   * 'sensorenter', 'sensorleave', 'crush'.
   */
  readonly events: { on(event: string, fn: (...args: any[]) => void, context?: unknown): unknown; off(event: string, fn?: (...args: any[]) => void): unknown };
  readonly add: {
    body(go: GameObjectLike, def?: Partial<BodyDef> | { shape?: 'box' | 'circle' }): Body;
    character(go: GameObjectLike, def?: CharacterDef & { gravityScale?: number; shape?: BodyDef['shape'] }): PluginCharacter;
    mover(go: GameObjectLike, options: { points: Vec2[]; speed: number; oneWay?: 'up' | 'down' | 'left' | 'right' } & Partial<BodyDef>): Body;
    joint(def: PluginJointDef): Joint;
    chain(def: PluginChainDef): Chain;
  };
  createWorld(def?: PluginWorldDef): World;
  fromTilemapLayer(layer: unknown, options?: TilemapLayerOptions): World;
  /** Tiles, bodies and chains of a Tiled map in Phaser's cache; a kinematic chain with a path and a `speed` property (px/s) follows its path. */
  fromTiledMap(key: string, options?: { gravity?: number | Vec2; tilesets?: Record<string, unknown>; layer?: string } & Omit<WorldDef, 'gravity'>): TiledResult;
  /**
   * Tiles and bodies of an LDtk project (a key of Phaser's JSON cache, or the project's text or object), y down, one grid
   * cell a world unit, world (0, 0) at `offset` pixels; entities with a path follow it. Returns ledge's LdtkResult.
   */
  fromLdtk(project: string | object, options?: LdtkOptions & { gravity?: number | Vec2; offset?: Vec2 } & Omit<WorldDef, 'gravity' | 'origin' | 'tileSize'>): LdtkResult;
  addBody(go: GameObjectLike, def?: Partial<BodyDef> | { shape?: 'box' | 'circle' }): Body;
  addCharacter(go: GameObjectLike, def?: CharacterDef & { gravityScale?: number }): PluginCharacter;
  addMover(go: GameObjectLike, options: { points: Vec2[]; speed: number; oneWay?: 'up' | 'down' | 'left' | 'right' }): Body;
  remove(go: GameObjectLike): void;
  /** A joint between game objects (or one and a point of the scene), in pixels; dies with either body. */
  addJoint(def: PluginJointDef): Joint;
  /** A chain through points of the scene (pixels), turned to face as asked; with path and speed it goes back and forth. */
  addChain(def: PluginChainDef): Chain;
  /** Removes a chain (and its path). */
  removeChain(chain: Chain): void;
  /** Sets a game object's (or Body's) material; what is left out is ledge's default material's. */
  setMaterial(go: GameObjectLike | Body, material: PluginMaterial): void;
  /** Gives every cell of a tile shape (a ledge tile name or id) a material: a belt, ice. */
  setTileMaterial(tile: string | number, material: PluginMaterial): void;
  /** Gives cell (tileX, tileY) a material of its own, or with null takes it away. */
  setCellMaterial(tileX: number, tileY: number, material: PluginMaterial | null): void;
  /** One fixed step of 1/60 s (the plugin takes them by itself each frame). */
  step(): void;
  toWorld(x: number, y: number): Vec2;
  toPixels(p: Vec2): Vec2;
  /** Draws ledge's debug view (chains included) into a Graphics object every frame; debug(false) stops. */
  debug(on?: boolean, options?: DrawOptions & { graphics?: unknown }): unknown;
  save(): PluginSnapshot;
  restore(snapshot: PluginSnapshot): void;
}

/** The plugin class for Phaser's config: plugins: { scene: [{ key, plugin: createLedgePlugin(ledge), mapping: 'ledge' }] }. */
export declare function createLedgePlugin(ledge: Ledge): new (scene: unknown, pluginManager: unknown, pluginKey: string) => LedgePlugin;

/** Tiled's flip flags (1 horizontal, 2 vertical, 4 diagonal) of a Phaser tile drawn with `rotation` and flips. */
export declare function phaserTileFlips(rotation: number, flipX: boolean, flipY: boolean): number;
