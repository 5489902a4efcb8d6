// TypeScript declarations of ledge.mjs, the JavaScript binding of ledge.

/** A 2D vector: plain object, world units (metres, y up unless your world says otherwise). */
export interface Vec2 {
  x: number;
  y: number;
}

/** Axis-aligned box. */
export interface AABB {
  lower: Vec2;
  upper: Vec2;
}

export type BodyType = 'static' | 'kinematic' | 'dynamic';
export type Response = 'slide' | 'touch' | 'bounce' | 'cross';
/** ledge_friction_law: N's friction (a fraction of the tangential speed; Coulomb's within piles), or Coulomb's everywhere (bodies rest on slopes no steeper than atan f). */
export type FrictionLaw = 'n' | 'coulomb';
export type OneWay = 'none' | 'up' | 'down' | 'left' | 'right';

export interface CircleShape {
  type: 'circle';
  radius: number;
  center?: Vec2;
}
export interface BoxShape {
  type: 'box';
  halfExtents?: Vec2;
  halfWidth?: number;
  halfHeight?: number;
  center?: Vec2;
}
export interface PolygonShape {
  type: 'polygon';
  /** 3..8 points of a convex polygon. */
  points: Vec2[];
}
export type Shape = CircleShape | BoxShape | PolygonShape;

/** What `body.shape` reads back. */
export interface ShapeInfo {
  type: 'circle' | 'box' | 'polygon';
  center: Vec2;
  radius?: number;
  halfExtents?: Vec2;
  points?: Vec2[];
}

/** ledge_world_def: omitted fields keep ledge's defaults. */
export interface WorldDef {
  gravity?: Vec2;
  tileSize?: number;
  /** Tilemap cells along x (default 64). */
  width?: number;
  /** Tilemap cells along y (default 64). */
  height?: number;
  /** World position of cell (0, 0)'s lower corner. */
  origin?: Vec2;
  bodyCapacity?: number;
  iterations?: number;
  substeps?: number;
  linearSlop?: number;
  bounceThreshold?: number;
  cellSize?: number;
  /** How contacts change velocities (default 'n'; 'stacking': piles and slopes rest). */
  frictionLaw?: FrictionLaw;
  /** Resting dynamic bodies fall asleep and leave the step until woken (default false). */
  enableSleep?: boolean;
  /** Speed under which a dynamic body counts as resting, 0..1e6 (default 0.05). */
  sleepSpeed?: number;
  /** Seconds a body (and every dynamic body it touches) must rest before it sleeps, 0..1e6 (default 0.5). */
  sleepTime?: number;
}

export interface Filter {
  /** Low 32 bits of the category bits (default 1). */
  category?: number;
  /** Low 32 bits of the mask (default all). */
  mask?: number;
  group?: number;
}

/** ledge_body_def. */
export interface BodyDef {
  type?: BodyType;
  shape: Shape;
  position?: Vec2;
  velocity?: Vec2;
  density?: number;
  friction?: number;
  bounce?: number;
  gravityScale?: number;
  drag?: number;
  bullet?: boolean;
  sensor?: boolean;
  enableEvents?: boolean;
  oneWay?: OneWay;
  maxFloorAngle?: number;
  response?: Response;
  filter?: Filter;
  userData?: unknown;
}

export interface QueryFilter {
  category?: number;
  mask?: number;
  /** Whether tiles are hit (casts). Default true. */
  includeTiles?: boolean;
  /** A body never reported (the caller's own). */
  ignore?: Body;
}

/** What a cast or a move met. */
export interface Hit {
  kind: 'tile' | 'body';
  /** kind 'body'. */
  body?: Body;
  /** kind 'tile': the cell (may lie outside the map). */
  cell?: Vec2;
  /** kind 'tile': the tile id. */
  tile?: number;
}

export interface CastHit extends Hit {
  point: Vec2;
  normal: Vec2;
  /** At origin + fraction * translation. */
  fraction: number;
}

export interface MoveHit extends Hit {
  normal: Vec2;
  point: Vec2;
  /** Unit direction the mover was pushed out along. */
  push: Vec2;
  fraction: number;
}

/** ledge_move_def. */
export interface MoveOptions {
  maxSlides?: number;
  maxFloorSlope?: number;
  snapLength?: number;
  skin?: number;
  stopOnSlope?: boolean;
  setVelocity?: boolean;
  up?: Vec2;
}

/** ledge_move_result: where the character is and what it stands on. */
export interface MoveResult {
  position: Vec2;
  displacement: Vec2;
  velocity: Vec2;
  onGround: boolean;
  onWall: boolean;
  onCeiling: boolean;
  snapped: boolean;
  stuck: boolean;
  /** +1: the wall is on the right, -1: on the left, 0: none. */
  wallSide: number;
  groundNormal: Vec2;
  wallNormal: Vec2;
  ceilingNormal: Vec2;
  up: Vec2;
  /** Index in hits of the floor stood on, or -1. */
  groundHit: number;
  hits: MoveHit[];
}

export interface DrawOptions {
  tiles?: boolean;
  bodies?: boolean;
  contacts?: boolean;
  normals?: boolean;
  bounds?: boolean;
}

/** Debug draw output; colours are 0xRRGGBB numbers. */
export interface DrawList {
  polygons: { vertices: Vec2[]; color: number; solid: boolean }[];
  circles: { center: Vec2; radius: number; color: number; solid: boolean }[];
  segments: { p1: Vec2; p2: Vec2; color: number }[];
  points: { point: Vec2; size: number; color: number }[];
}

export interface TiledOptions {
  /** Load only the tile layer of this name. */
  layer?: string;
  /** Keep Tiled's y-down rows and tile ids (no mirroring). */
  yDown?: boolean;
  /** External tilesets: `source` as written in the map -> the parsed tileset JSON. */
  tilesets?: Record<string, unknown>;
}

/** A body (world.createBody). Ids are generational: a destroyed body stays invalid. */
export interface Body {
  readonly world: World;
  /** Yours; ledge never reads it. */
  userData: unknown;
  /** False once destroyed or once its world is disposed. */
  readonly valid: boolean;
  position: Vec2;
  velocity: Vec2;
  readonly type: BodyType;
  /** The step froze it: its position or velocity left the finite range (ledge_body_is_frozen); not sleeping. */
  readonly frozen: boolean;
  /**
   * False only for a sleeping dynamic body. Set true to wake it, false to put
   * a dynamic body to sleep now (throws in a world without enableSleep, for
   * static and kinematic bodies).
   */
  awake: boolean;
  readonly mass: number;
  readonly shape: ShapeInfo;
  /** Write-only. */
  gravityScale: number;
  /** Write-only. */
  friction: number;
  /** Write-only. */
  bounce: number;
  /** Write-only. */
  drag: number;
  /** Write-only. */
  filter: Filter;
  applyImpulse(impulse: Vec2): void;
  /** Kinematic bodies: the velocity that reaches target in dt seconds. */
  setTarget(target: Vec2, dt: number): void;
  dropThrough(): void;
  /** The character move (ledge_body_move). Throws on refusal. */
  move(displacement: Vec2, options?: MoveOptions): MoveResult;
  destroy(): void;
  equals(other: unknown): boolean;
}

/** The world's tilemap (world.tilemap). */
export interface Tilemap {
  readonly world: World;
  readonly def: { width: number; height: number; tileSize: number; origin: Vec2 };
  readonly width: number;
  readonly height: number;
  set(x: number, y: number, tile: number): void;
  get(x: number, y: number): number;
  setOneWay(x: number, y: number, way: OneWay): void;
  oneWay(x: number, y: number): OneWay;
  loadN(text: string): void;
  loadAscii(text: string): void;
  /** Tile layers of a Tiled JSON map (object or text); see README. */
  loadTiled(map: object | string, options?: TiledOptions): void;
}

/** A world: tilemap, bodies, the step. */
export interface World {
  readonly tilemap: Tilemap;
  readonly bodyCount: number;
  step(dt: number): void;
  /** ledge_world_hash: equal in wasm and native builds for equal runs. */
  hash(): bigint;
  /** The world's state as a snapshot (ledge_world_save; docs/rollback.md). */
  save(): Uint8Array;
  /** Puts the world back to a snapshot of save(); throws ledge's message when refused. */
  restore(snapshot: Uint8Array): void;
  createBody(def: BodyDef): Body;
  raycast(origin: Vec2, translation: Vec2, filter?: QueryFilter): CastHit | null;
  shapeCast(shape: Shape, position: Vec2, translation: Vec2, filter?: QueryFilter): CastHit | null;
  queryAABB(lower: Vec2, upper: Vec2, filter?: QueryFilter): Body[];
  queryPoint(point: Vec2, filter?: QueryFilter): Body[];
  debugDraw(options?: DrawOptions, region?: AABB): DrawList;
  /** Frees the world's wasm memory; every method throws afterwards. */
  dispose(): void;
  /** Same as dispose(). */
  free(): void;
}

/** Tile ids by ledge's names: Tile.FULL, Tile['45DEG_PN'], Tile.HALF_D, ... */
export type TileTable = Readonly<Record<string, number>>;

export interface WorldConstructor {
  new (def?: WorldDef): World;
}

export interface Ledge {
  World: WorldConstructor;
  /** For instanceof checks. */
  Body: Function;
  /** For instanceof checks. */
  Tilemap: Function;
  Tile: TileTable;
  /** Names by id, 0..33. */
  tileNames: string[];
  /** ledge_move_clip_velocity. */
  clipVelocity(result: MoveResult, velocity: Vec2): Vec2;
  circle(radius: number, center?: Vec2): CircleShape;
  box(halfWidth: number, halfHeight: number, center?: Vec2): BoxShape;
  polygon(points: Vec2[]): PolygonShape;
  /** Bytes of C heap in use (for finding leaks). */
  heapInUse(): number;
  /** The emscripten module. */
  module: unknown;
}

export interface InitOptions {
  /** The .wasm bytes (otherwise fetched next to the module; read from disk in Node). */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /** Where the browser finds the .wasm file. */
  locateFile?: (path: string, prefix: string) => string;
  /** Another emscripten factory with the same exports (ledge's demo page). */
  factory?: (options: object) => Promise<unknown>;
}

/** Loads the WebAssembly module; resolves to the API. */
export declare function init(options?: InitOptions): Promise<Ledge>;

/** The API over an instantiated module. */
export declare function bind(module: unknown): Ledge;
