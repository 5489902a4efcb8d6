// TypeScript declarations of ledge.mjs, the JavaScript binding of ledge.
// Each interface named after a C struct (WorldDef: ledge_world_def, ...)
// has that struct's fields in camelCase, with the C header's sentences;
// tests/web/types.test.mjs checks that every field the binding's table
// (ledge_js_layout.c) maps is declared here.

/** A 2D vector: plain object, world units (metres, y up unless your world says otherwise). */
export interface Vec2 {
  x: number;
  y: number;
}

/** An axis-aligned bounding box. */
export interface AABB {
  /** Smallest x and y. */
  lower: Vec2;
  /** Largest x and y. */
  upper: Vec2;
}

/**
 * How a body moves: 'static' never moves; 'kinematic' is moved by its
 * velocity only, pushes and is not pushed; 'dynamic' is moved by gravity,
 * velocity and contacts.
 */
export type BodyType = 'static' | 'kinematic' | 'dynamic';
/**
 * How a body answers a contact (bump.lua's responses). A pair uses the
 * stronger of its two bodies' (cross > bounce > touch > slide), or what the
 * world's pre-solve callback says. 'slide': N's response, bounce and
 * friction (the default); 'touch': pushed out and stopped; 'bounce': pushed
 * out and reflected (bounce 1, no friction); 'cross': passes through,
 * reported (contacts, events), not resolved.
 */
export type Response = 'slide' | 'touch' | 'bounce' | 'cross';
/**
 * What friction does at a contact (ledge_friction_law). 'n': N's friction,
 * the default: a contact removes f times the tangential speed, so a lone
 * body slides down every slope (f < 1); in a pile a contact also holds the
 * weight of the bodies resting on its upper body. 'coulomb': at least f
 * times the normal speed the contact removes, or f times the whole weight
 * it carries, never more than the tangential speed: a body rests on a slope
 * no steeper than atan(f).
 */
export type FrictionLaw = 'n' | 'coulomb';
/**
 * One-way platforms: a cell's tile (or a body) collides only with bodies
 * that come from the allowed side: 'up' solid for bodies above it (+y),
 * 'down' below it, 'left' to its left, 'right' to its right.
 */
export type OneWay = 'none' | 'up' | 'down' | 'left' | 'right';
/** ledge_query_one_way: how a query meets one-way tiles and bodies. */
export type QueryOneWay = 'asBodies' | 'always' | 'never';
/** What a cast or move hit: a tile (cell, tile), a body, or a chain (chain, segment). */
export type HitKind = 'none' | 'tile' | 'body' | 'chain';
/**
 * What leaving a moving body (jumping or walking off) does to the
 * character's velocity (Godot's platform_on_leave): add the body's whole
 * velocity (default), only its part along up when it goes up, or nothing.
 */
export type PlatformLeave = 'addVelocity' | 'addUpward' | 'nothing';

/**
 * ledge_friction_mix: how a surface's friction mixes with the other
 * surface's at a contact. The contact uses the stronger mode of its two
 * surfaces: 'max' over 'min' over 'mean'. 'mean': the geometric mean
 * sqrt(fa * fb) (Box2D's rule), the default of bodies; 'min': the lower of
 * the two, the default of level surfaces (tiles), so that a tile of
 * friction 1 leaves a body its own friction and an icy tile makes every
 * body slide; 'max': the higher of the two, a grippy surface holds every
 * body.
 */
export type FrictionMix = 'mean' | 'min' | 'max';

/**
 * ledge_material: what a surface is made of (a tile id's, a cell's, a
 * body's). A contact uses the mix of its two surfaces (mixMaterials):
 * friction by the stronger mix mode, bounce the larger, surface speed the
 * sum. Fields left out are the default material's.
 */
export interface Material {
  /**
   * f, 0..1: the fraction of the tangential speed (relative to the surface)
   * a contact removes each substep while a body moves into it, before mixing.
   */
  friction?: number;
  /** b, 0..1: the fraction of the normal speed a contact returns, before mixing. */
  bounce?: number;
  /**
   * Speed of the surface along its tangent (ny, -nx) of its outward normal
   * n, world units per second, finite, within MAX_COORDINATE: a conveyor
   * belt. 0 for a surface at rest. Clockwise around the solid in a y-up
   * view (a floor carries toward +x); in a y-down world a floor with s > 0
   * carries toward -x.
   */
  surfaceSpeed?: number;
  /** How the friction mixes (FrictionMix). */
  frictionMix?: FrictionMix;
}

/** A material as ledge reports it: every field present. */
export type MaterialInfo = Required<Material>;

/**
 * ledge_joint_type: what a joint keeps, with d = anchor b - anchor a.
 * 'rod': |d| = length; 'rope': minLength <= |d| <= length; 'spring': a force
 * toward |d| = length (hertz, dampingRatio), with optional limits; 'weld':
 * d = 0; 'slider': d stays along axis (limits, motor); 'pulley': two ropes
 * over groundA and groundB: |a - groundA| + ratio * |b - groundB| <= length.
 */
export type JointType = 'rod' | 'rope' | 'spring' | 'weld' | 'slider' | 'pulley';

/**
 * ledge_joint_def: what a joint is made from. `type` picks the
 * ledge_default_*_def that fills the fields left out; fields a kind does
 * not read are ignored.
 */
export interface JointDef {
  /** What it keeps. Default 'rope'. */
  type?: JointType;
  /** The first body, or null: anchorA is then a world point. */
  bodyA?: Body | null;
  /** The second body, or null (not both null, not bodyA). */
  bodyB?: Body | null;
  /**
   * Offset of anchor a from body a's position (bodies do not rotate, so it
   * stays in world axes), or a world point. Default (0, 0).
   */
  anchorA?: Vec2;
  /** Likewise for body b. Default (0, 0). */
  anchorB?: Vec2;
  /**
   * Rod: the distance kept; rope: the most; spring: the rest length;
   * pulley: the most of length_a + ratio * length_b. >= 0. Default 1 (a
   * pulley's 4).
   */
  length?: number;
  /** Rope and spring: the least distance (0: none). Default 0. */
  minLength?: number;
  /** Spring: the most distance. Default JOINT_MAX_LENGTH (none). */
  maxLength?: number;
  /** Spring: its frequency, > 0 (default 2); weld: 0 rigid (default) or soft. */
  hertz?: number;
  /** Spring and soft weld: 0 none, 1 critical, >= 0. Default 0.3 for a spring, 1 for a weld. */
  dampingRatio?: number;
  /** Slider: the direction it slides along (any length > 0). Default (1, 0). */
  axis?: Vec2;
  /** Slider: keep lower <= d . axis <= upper. Default false. */
  enableLimit?: boolean;
  /** Slider: the least translation. Default -1. */
  lower?: number;
  /** Slider: the most translation. Default 1. */
  upper?: number;
  /** Slider: drive body b along the axis at motorSpeed. Default false. */
  enableMotor?: boolean;
  /** Slider: the motor's speed along the unit axis (m/s). Default 0. */
  motorSpeed?: number;
  /** Slider: the most force the motor uses (N), >= 0. Default 0. */
  maxMotorForce?: number;
  /** Pulley: the fixed point rope a runs over. Default (-1, 1). */
  groundA?: Vec2;
  /** Pulley: the fixed point rope b runs over. Default (1, 1). */
  groundB?: Vec2;
  /** Pulley: how much rope b counts, > 0. Default 1. */
  ratio?: number;
  /** The two bodies collide with each other. Default false. */
  collideConnected?: boolean;
  /** Yours, kept on the Joint object; ledge never reads it. */
  userData?: unknown;
}

/**
 * ledge_chain_def: a chain, one-sided free-form ground (docs/chains.md).
 * Each segment's surface faces right of the direction from one point to
 * the next (y up: a floor runs from right to left; y down: from left to
 * right); bodies pass through it from behind.
 */
export interface ChainDef {
  /** The polyline in the chain's frame (copied): 2 or more points, 3 for a loop. Required. */
  points: Vec2[];
  /** Closed: the last point joins the first. Default false. */
  loop?: boolean;
  /** 'static' (default) or 'kinematic' ('dynamic' is refused). */
  type?: BodyType;
  /** Where the chain's frame lies in the world. Default (0, 0). */
  position?: Vec2;
  /** A kinematic chain's velocity. Default (0, 0). */
  velocity?: Vec2;
  /** Which bodies meet it (as two bodies' filters match). Default: the default filter. */
  filter?: Filter;
  /**
   * Its surface: friction, bounce, a surface speed (a belt along each
   * segment's tangent (ny, -nx)) and how its friction mixes, mixed with a
   * body's at each contact as a tile's is. Default: the default material.
   */
  material?: Material;
  /** Yours, kept on the Chain object; ledge never reads it. */
  userData?: unknown;
}

/** A chain segment in the world (chain.segment(i)). */
export interface ChainSegment {
  /** Its first end (the chain's order). */
  from: Vec2;
  /** Its second end. */
  to: Vec2;
  /** The unit normal of its surface. */
  normal: Vec2;
}

/** A segment found by world.queryChainsAABB. */
export interface ChainSegmentHit {
  chain: Chain;
  /** From 0. */
  segment: number;
}

export interface CircleShape {
  type: 'circle';
  /** > 0. */
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
  /** 3..8 points of a convex polygon (any winding). */
  points: Vec2[];
}
/** A collision shape in local coordinates: ledge.circle(), ledge.box(), ledge.polygon(). */
export type Shape = CircleShape | BoxShape | PolygonShape;

/** What `body.shape` reads back. */
export interface ShapeInfo {
  type: 'circle' | 'box' | 'polygon';
  center: Vec2;
  radius?: number;
  halfExtents?: Vec2;
  points?: Vec2[];
}

/** ledge_world_def: what a world is made from; omitted fields keep ledge's defaults. */
export interface WorldDef {
  /** Acceleration of dynamic bodies. Default (0, -10). */
  gravity?: Vec2;
  /** Side of a tilemap cell. Default 1. */
  tileSize?: number;
  /** Tilemap cells along x (map_width). Default 64. */
  width?: number;
  /** Tilemap cells along y (map_height). Default 64. */
  height?: number;
  /** World position of cell (0, 0)'s lower corner (map_origin). Default (0, 0). */
  origin?: Vec2;
  /** Bodies to reserve room for up front (0: grow as needed). */
  bodyCapacity?: number;
  /** Relaxation passes per substep, 1..64 (piles sink less with more). Default 4. */
  iterations?: number;
  /** Substeps per step, 1..64 (stiffer stacks). Default 1. */
  substeps?: number;
  /** Overlap left in place so that resting contacts persist, 0..1. Default 0.005. */
  linearSlop?: number;
  /** Approach speed (|v . n|) at or below which b counts as 0, so that resting bodies do not jitter. Default 0.5. */
  bounceThreshold?: number;
  /**
   * Broad-phase cell side: 0 follows the largest dynamic body's extent,
   * else 0.001..1e6 (larger bodies are handled apart). Default 0.
   */
  cellSize?: number;
  /** What friction does (FrictionLaw). Default 'n': a lone body slides down every slope as in N, piles stand. */
  frictionLaw?: FrictionLaw;
  /** Resting dynamic bodies fall asleep and leave the step until something wakes them. Default false. */
  enableSleep?: boolean;
  /** Speed (m/s) under which a dynamic body counts as resting, 0..1e6. Default 0.05. */
  sleepSpeed?: number;
  /** Seconds a body must rest, and every dynamic body it touches be resting, before it falls asleep, 0..1e6. Default 0.5. */
  sleepTime?: number;
}

/**
 * Which bodies may touch (Box2D's rule): two bodies collide when each one's
 * category bits meet the other's mask, unless they share a nonzero group:
 * a positive shared group always collides, a negative one never does.
 * Bits: a number (exact up to 2^53; 0xffffffff means all 64 bits) or a BigInt.
 */
export interface Filter {
  /** What this body is (bits). Default 1. */
  category?: number | bigint;
  /** What this body collides with (bits). Default all. */
  mask?: number | bigint;
  /** Shared group override (0: none). */
  group?: number;
}

/** What `body.filter` reads back. */
export interface FilterInfo {
  category: bigint;
  mask: bigint;
  group: number;
}

/** ledge_body_def: what a body is made from. */
export interface BodyDef {
  /** Default 'dynamic'. */
  type?: BodyType;
  /** Local shape. Required. */
  shape: Shape;
  /** World position of the shape's local origin. */
  position?: Vec2;
  /** Initial velocity (units per second). */
  velocity?: Vec2;
  /** Mass per area, > 0 for dynamic bodies. Default 1. */
  density?: number;
  /**
   * f, 0..1: the fraction of the tangential speed a contact removes each
   * substep while the body moves into it. Pairs use sqrt(fa * fb). Default 0.
   */
  friction?: number;
  /** b, 0..1: the fraction of the normal speed a contact returns. Pairs use max(ba, bb). Default 0. */
  bounce?: number;
  /** Multiplies the world's gravity. Default 1. */
  gravityScale?: number;
  /** Linear damping per second, >= 0: v *= 1 / (1 + dt * drag). Default 0. */
  drag?: number;
  /** Swept against walls and bodies: never tunnels. Default false. */
  bullet?: boolean;
  /** Reports overlaps (sensor events), never collides. Default false. */
  sensor?: boolean;
  /** Its touches begin and end events (world.events). Default false. */
  enableEvents?: boolean;
  /** A one-way platform body (static or kinematic). Default 'none'. */
  oneWay?: OneWay;
  /** Steepest surface (radians from up) that counts as ground for body.ground(). Default 50 degrees. */
  maxFloorAngle?: number;
  /** Default 'slide'. */
  response?: Response;
  /** Default: category 1, mask all, group 0. */
  filter?: Filter;
  /**
   * Speed of the body's surface along the tangent (ny, -nx) of its outward
   * normal n: a conveyor belt (a static or kinematic body carries what
   * rests on it), or a tread. Finite, within MAX_COORDINATE. Default 0.
   */
  surfaceSpeed?: number;
  /** How its friction mixes with another surface's. Default 'mean'. */
  frictionMix?: FrictionMix;
  /** Yours, kept on the Body object; ledge never reads it. */
  userData?: unknown;
}

/**
 * ledge_query_filter: which bodies (and whether tiles) a query sees. A body
 * is seen when (category & body.mask) != 0 && (body.category & mask) != 0.
 */
export interface QueryFilter {
  /** What the query is (bits). Default 1. */
  category?: number | bigint;
  /** What it sees (bits). Default all. */
  mask?: number | bigint;
  /** Whether tiles are hit (casts only). Default true. */
  includeTiles?: boolean;
  /**
   * Whether chains are seen (category and mask matched against the chain's
   * filter as against a body's). Default true. Chains are one-sided under
   * every oneWay rule: hit from the front only.
   */
  includeChains?: boolean;
  /**
   * One-way tiles and bodies in ray and shape casts and nearest: 'asBodies'
   * (default) hits them only where the ray or shape enters through a surface
   * facing the platform's allowed side (within 60 degrees), as bodies meet
   * them; 'always' is solid from every side; 'never' passes them.
   */
  oneWay?: QueryOneWay;
  /** A body never reported (the caller's own); null for none. */
  ignore?: Body | null;
}

/** ledge_raycast_result: one hit of a ray or shape cast. */
export interface CastHit {
  /** Tile, body, chain or none. */
  kind: HitKind;
  /** The body hit (kind 'body'), else null. */
  body: Body | null;
  /** The chain hit (kind 'chain'), else null. */
  chain: Chain | null;
  /** Its segment, from 0 (kind 'chain'), else 0. */
  segment: number;
  /** The cell hit (kind 'tile'; may lie outside the map). */
  cell: Vec2;
  /** The tile id hit (kind 'tile'; FULL outside the map). */
  tile: number;
  /** Where: on the surface hit (shape casts: the contact point). */
  point: Vec2;
  /** Unit surface normal facing the incoming ray or shape. */
  normal: Vec2;
  /** At origin + fraction * translation, in [0, 1]. */
  fraction: number;
}

/** ledge_move_hit: one obstacle a move met. */
export interface MoveHit {
  /** 'tile', 'chain' or 'body'. */
  kind: HitKind;
  /** The body (kind 'body'), else null. */
  body: Body | null;
  /** The chain (kind 'chain'), else null. */
  chain: Chain | null;
  /** Its segment (kind 'chain'; the first met), else 0. */
  segment: number;
  /** The cell (kind 'tile'; may lie outside the map, as FULL). */
  cell: Vec2;
  /** The tile id (kind 'tile'). */
  tile: number;
  /** Unit, from the obstacle toward the mover, when first met. */
  normal: Vec2;
  /** A contact point when first met. */
  point: Vec2;
  /**
   * Unit direction the mover was pushed out along: up for floors, the
   * normal (or its part across up) for walls, the normal for ceilings.
   * clipVelocity clips along it.
   */
  push: Vec2;
  /** Part of the (floor-following) move done when first met, 0..1; 1 for a floor found only by the final probe. */
  fraction: number;
}

/** ledge_move_def: how a move behaves. Lengths are world units (the defaults suit 1-unit tiles). */
export interface MoveOptions {
  /** Rounds of contact solving per sub-move, 1..16. Default 4. */
  maxSlides?: number;
  /** Largest floor angle from up, radians, 0..80 degrees. Default 50 degrees: 45 is a floor, 63.43 a wall. */
  maxFloorSlope?: number;
  /** Ground snapping reach, >= 0 (0: no snapping). Default 0.25. */
  snapLength?: number;
  /** Contact offset, > 0: the ground probe's reach is twice it, and no overlap deeper than it is left. Default 0.01. */
  skin?: number;
  /** On a floor, a move's downward part is absorbed rather than slid down the slope. Default true. */
  stopOnSlope?: boolean;
  /** Also clip the body's velocity (clipVelocity). Default false. */
  setVelocity?: boolean;
  /** "Up": (0, 0) means opposite to the world's gravity ((0, 1) without gravity); else a nonzero vector. Default (0, 0). */
  up?: Vec2;
  /**
   * Off the ground, a surface facing up but steeper than maxFloorSlope
   * pushes along its normal: the body slides down it instead of falling
   * past it. On the ground it still blocks. Default false.
   */
  slideOnSteep?: boolean;
  /**
   * A grounded move blocked by a wall steps up onto a ledge up to this high
   * (along up) when it then stands on a floor further on, e.g. 0.55 for
   * HALF tiles. Default 0 (none).
   */
  stepHeight?: number;
  /**
   * On a floor, the move's part across up is kept whole and the height
   * follows the floor: the speed across up is the same on every slope.
   * False: that part is projected onto the floor. Default true.
   */
  constantSpeedOnSlopes?: boolean;
  /**
   * A wall (neither floor nor ceiling) pushes the body straight across up:
   * walking or falling into a steep face stops against it, never climbs it
   * (Godot's floor_block_on_wall). Default true.
   */
  blockOnWall?: boolean;
}

/** ledge_move_result: what a move did. */
export interface MoveResult {
  /** Where the body is now. */
  position: Vec2;
  /** position minus the position before the call (bit-exact). */
  displacement: Vec2;
  /** The body's velocity clipped against the hits (clipVelocity); stored in the body with setVelocity. */
  velocity: Vec2;
  /** A floor is within 2 * skin below (or was snapped to). */
  onGround: boolean;
  /** The move pushed against a wall (neither floor nor ceiling). */
  onWall: boolean;
  /** The move pushed against a ceiling (normal within maxFloorSlope of down). */
  onCeiling: boolean;
  /** Ground snapping lowered the body. */
  snapped: boolean;
  /** A sub-move could not be solved and was undone. */
  stuck: boolean;
  /**
   * +1: the wall is on the right (its normal points left), -1: on the left,
   * 0: no wall. Right is the perpendicular of up with a positive x part, the
   * same on screen y up or down.
   */
  wallSide: number;
  /** The floor's normal (the one closest to up), or (0, 0). */
  groundNormal: Vec2;
  /** The wall's normal (the first met), or (0, 0). */
  wallNormal: Vec2;
  /** The ceiling's normal (the first met), or (0, 0). */
  ceilingNormal: Vec2;
  /** The up direction used (unit). */
  up: Vec2;
  /** Index in hits of the floor stood on, or -1. */
  groundHit: number;
  /** Obstacles in hits, in the order they were met. */
  hitCount: number;
  /** Each obstacle once (at most 8). */
  hits: MoveHit[];
}

/** ledge_character_def: how a character moves. */
export interface CharacterDef {
  /** The mover's options (slopes, snapping, skin, up, ...). */
  move?: MoveOptions;
  /** Default 'addVelocity'. */
  platformOnLeave?: PlatformLeave;
  /**
   * Carried by the body stood on in each step, and by the floor's surface
   * speed in each move (a belt). Default true.
   */
  ridePlatforms?: boolean;
  /**
   * Pushes the dynamic bodies it walks into, is shoved by those that move
   * into it from the side and pinned by those landing on it. False: they
   * are walls to it and it is a wall to them. Default true.
   */
  pushBodies?: boolean;
  /**
   * The mass it pushes and is shoved as, 0..1e30 (0, the default: the mass
   * of its own shape at density 1, so that it meets a crate of its own size
   * and density 1 as its equal). Its weight under the world's gravity is
   * the most it pushes with against what holds a row back.
   */
  pushMass?: number;
}

/**
 * ledge_character_state: a character's state after its last move (and the
 * carries of the steps since). Floors, walls and ceilings are told apart by
 * the move's maxFloorSlope against its up.
 */
export interface CharacterState {
  /** Where the body is. */
  position: Vec2;
  /**
   * The velocity of the last move without its parts into the surfaces met
   * (clipVelocity), plus the platform's on leaving it: what the game keeps
   * for the next frame.
   */
  velocity: Vec2;
  /** (position now - position after the previous move) / dt of the last move: carries and collisions included. */
  realVelocity: Vec2;
  /** A floor is within 2 * skin below. */
  onFloor: boolean;
  /** The last move pushed against a wall. */
  onWall: boolean;
  /** The last move pushed against a ceiling. */
  onCeiling: boolean;
  /** +1 wall on the right, -1 on the left, 0 none (the same on screen y up or y down). */
  wallSide: number;
  /** The floor's normal, or (0, 0). */
  floorNormal: Vec2;
  /** The wall's normal, or (0, 0). */
  wallNormal: Vec2;
  /** The ceiling's normal, or (0, 0). */
  ceilingNormal: Vec2;
  /** The body stood on, or null (a tile, a chain, or no floor). */
  floorBody: Body | null;
  /** The chain stood on, or null. */
  floorChain: Chain | null;
  /** The floor is a tile: floorCell and floorTile say which. */
  floorIsTile: boolean;
  /** The tile cell stood on (floorIsTile). */
  floorCell: Vec2;
  /** Its tile id. */
  floorTile: number;
  /** The velocity of floorBody (the platform), or (0, 0). */
  platformVelocity: Vec2;
  /** Seconds since a move last ended on a floor (0 while on one; counts the dt of the moves off it): coyote time. */
  timeSinceFloor: number;
  /** The last move's full result (hits, flags, displacement). */
  lastMove: MoveResult;
  /**
   * The body it rode (crushedBy) was carried into it by more than skin: the
   * carry stopped it against a wall or ceiling and the body moved on. Stays
   * true while that body overlaps it; its moves pass through that body
   * meanwhile.
   */
  crushed: boolean;
  /** The body that crushed it, or null. */
  crushedBy: Body | null;
  /**
   * The last move walked into a dynamic body it pushes: the next step moves
   * that body, and the character on behind it.
   */
  pushing: boolean;
  /** The body the last move pushed (the first met), or null. */
  pushedBody: Body | null;
  /**
   * A dynamic body resting on it from above (onCeiling is then set too), or
   * null: found by each step, kept by the moves while it still touches.
   */
  ceilingBody: Body | null;
  /**
   * The material of the floor stood on (the cell's, or floorBody's), what
   * a game's acceleration reads on ice; the default material off the floor.
   */
  floorMaterial: MaterialInfo;
  /** It hangs from a rope or rod (hangJoint): its moves swing. */
  hanging: boolean;
  /** The rope or rod it hangs from, or null. */
  hangJoint: Joint | null;
  /** The point it hangs from (the joint's other anchor), or (0, 0). */
  hangAnchor: Vec2;
}

/** ledge_contact_data: one contact of a body after the last step. */
export interface Contact {
  /** The other body, or null for a tile or a chain. */
  other: Body | null;
  /** The chain (chain contacts: one per segment), else null. */
  chain: Chain | null;
  /** The chain's segment (chain contacts), else 0. */
  segment: number;
  /** The tile cell (tile contacts). */
  cell: Vec2;
  /** Unit, from the other body (or tile) toward this body. */
  normal: Vec2;
  /** World point midway between the two surfaces. */
  point: Vec2;
  /** Overlap when found (0 for a bullet stopped short of it). */
  depth: number;
  /** How it was answered. */
  response: Response;
}

/** ledge_ground: where a body touches, from its last-step contacts (a character: its last move). */
export interface Ground {
  /** Standing on a floor (tile or body). */
  onGround: boolean;
  /** Touching a ceiling. */
  onCeiling: boolean;
  /** A wall on its left (the normal points right). */
  onWallLeft: boolean;
  /** A wall on its right. */
  onWallRight: boolean;
  /** The floor's normal most aligned with up; (0, 0) when none. */
  groundNormal: Vec2;
  /** A wall's normal; (0, 0) when none. */
  wallNormal: Vec2;
  /** The body stood on, or null for a tile (or none). */
  groundBody: Body | null;
  /** The tile stood on (when groundBody is null and onGround). */
  groundCell: Vec2;
  /** The chain stood on, or null. */
  groundChain: Chain | null;
}

/** ledge_touch_event: a touch between two bodies (or a body and a tile cell) that began or ended in the last step. */
export interface TouchEvent {
  /** The body with the lower index. */
  a: Body;
  /** The other body, or null for a tile or a chain. */
  b: Body | null;
  /** The tile cell (tile touches). */
  cell: Vec2;
  /** The chain (chain touches: once per chain, whatever segments), else null. */
  chain: Chain | null;
}

/** ledge_sensor_event: a body that began or stopped overlapping a sensor in the last step. */
export interface SensorEvent {
  /** The sensor body. */
  sensor: Body;
  /** The body (not static, not a sensor) that entered or left. */
  visitor: Body;
}

/**
 * ledge_crush_event: a dynamic body squeezed between a kinematic or static
 * body and the tiles. The tiles win (it is never pushed through them); what
 * happens next is the game's.
 */
export interface CrushEvent {
  /** The squeezed body. */
  body: Body;
  /** The kinematic (or static) body pressing it. */
  crusher: Body;
  /** Their overlap after the step. */
  depth: number;
}

/**
 * An array of C structs in wasm memory, viewed without copying (events,
 * contacts). `get(i)` returns one record object reused by every get() of
 * the list (copy what you keep); `toArray()` makes new objects. The raw
 * view: the record i starts at byte `byteOffset + i * stride` of the views
 * `f32`, `i32`, `u32` (the whole wasm memory, re-made when memory grows),
 * and `fields` gives each field's byte offset in a record.
 */
export interface StructList<T> {
  readonly length: number;
  get(i: number): T;
  toArray(): T[];
  readonly byteOffset: number;
  readonly stride: number;
  readonly fields: Readonly<Record<string, number>>;
  readonly f32: Float32Array;
  readonly i32: Int32Array;
  readonly u32: Uint32Array;
}

/** The last step's events, each list sorted as in C; valid until the next step. */
export interface Events {
  /** Touches that began (bodies made with enableEvents), sorted by (a, b, cell). */
  touchBegin: StructList<TouchEvent>;
  /** Touches that ended; ids may name bodies destroyed since. */
  touchEnd: StructList<TouchEvent>;
  /** Visitors that began overlapping a sensor, sorted by (sensor, visitor). */
  sensorBegin: StructList<SensorEvent>;
  /** Visitors that stopped overlapping a sensor. */
  sensorEnd: StructList<SensorEvent>;
  /** The crushed bodies, sorted by (body, crusher). */
  crush: StructList<CrushEvent>;
}

/** ledge_profile: milliseconds of the last step, whole and per stage, in the order the step runs them. */
export interface Profile {
  /** The whole step call. */
  step: number;
  /** Platforms' carry, gravity and drag, the replayed contacts' response. */
  integrate: number;
  /** Positions integrate. */
  move: number;
  /** Bounding boxes, the broad phase's grid filed, fast bodies moved. */
  grid: number;
  /** Candidate pairs and the bodies near tiles. */
  pairs: number;
  /** The relaxation passes: narrow phase and projection. */
  relax: number;
  /** The contacts sorted for the response. */
  sort: number;
  /** The response: bounce and friction. */
  response: number;
  /** Positions out of range frozen. */
  check: number;
  /** After the step: events, contacts per body, queries, characters. */
  events: number;
  /** Sleeping: wakes before the step, rest timers after it. */
  sleep: number;
}

/**
 * ledge_distance_result: the closest points of two shapes. For separated
 * shapes `distance` is the exact distance and pointB - pointA = normal *
 * distance; touching or overlapping shapes give 0 (overlapping: the
 * normal of the minimum translation, the points the deepest of that push).
 */
export interface DistanceResult {
  /** >= 0; 0 when the shapes touch or overlap. */
  distance: number;
  /** On a's boundary (world space). */
  pointA: Vec2;
  /** On b's boundary (world space). */
  pointB: Vec2;
  /** Unit, from a toward b; for overlapping shapes the MTV's normal. */
  normal: Vec2;
  /** GJK support steps; 0 for a closed form. */
  iterations: number;
}

/** ledge_nearest_result: the nearest thing to a query. */
export interface NearestResult {
  /** Tile, body, chain or none. */
  kind: HitKind;
  /** The body (kind 'body'), else null. */
  body: Body | null;
  /** The chain (kind 'chain'), else null. */
  chain: Chain | null;
  /** Its segment (kind 'chain'), else 0. */
  segment: number;
  /** The cell (kind 'tile'). */
  cell: Vec2;
  /** The tile id (kind 'tile'). */
  tile: number;
  /** a = the tile or body found, b = the query. */
  distance: DistanceResult;
}

/** ledge_tilemap_distance_result: the nearest solid tile to a shape. */
export interface TilemapDistanceResult {
  /** a = the tile, b = the query shape. */
  distance: DistanceResult;
  /** The cell of the tile (may lie outside the map). */
  cell: Vec2;
  /** Its tile id (FULL outside the map). */
  tile: number;
}

/** ledge_tile_hit: a cell found by a query. */
export interface TileHit {
  /** Cell (may be outside the map: those are FULL). */
  cell: Vec2;
  /** The tile id there. */
  tile: number;
}

/** ledge_ray_hit: where a ray hits the tilemap. */
export interface RayHit {
  /** World-space hit point. */
  point: Vec2;
  /** Unit surface normal at the hit, facing the incoming ray. */
  normal: Vec2;
  /** Hit at origin + fraction * translation, in [0, 1]. */
  fraction: number;
  /** The cell hit (may lie outside the map). */
  cell: Vec2;
  /** The tile id hit. */
  tile: number;
}

/**
 * ledge_tile_outline: a tile's outline for drawing: a closed loop of
 * points, counter-clockwise with y up, where the edge from points[arcEdge]
 * to points[arcEdge + 1] (wrapping) is a circular arc.
 */
export interface TileOutline {
  /** Points in the loop (0 for EMPTY). */
  count: number;
  /** World-space corners of the solid region. */
  points: Vec2[];
  /** Index of the arc edge, or -1 when all edges are straight. */
  arcEdge: number;
  /** Centre of the arc. */
  arcCenter: Vec2;
  /** Radius of the arc (the cell's side). */
  arcRadius: number;
  /** True when the solid lies outside the arc's circle. */
  arcConcave: boolean;
}

export interface DrawOptions {
  tiles?: boolean;
  bodies?: boolean;
  contacts?: boolean;
  normals?: boolean;
  bounds?: boolean;
  /** Joints: their segments and anchors. Default true. */
  joints?: boolean;
  /** Chain segments (light grey; kinematic ones as kinematic bodies). Default true. */
  chains?: boolean;
  /** Tiles with a material of their own, belts' directions. Default true. */
  materials?: boolean;
}

/** Debug draw output; colours are 0xRRGGBB numbers. */
export interface DrawList {
  polygons: { vertices: Vec2[]; color: number; solid: boolean }[];
  circles: { center: Vec2; radius: number; color: number; solid: boolean }[];
  segments: { p1: Vec2; p2: Vec2; color: number }[];
  points: { point: Vec2; size: number; color: number }[];
}

/**
 * The debug draw as one array of floats in wasm memory: records
 * (kind, color, count, count floats...) from `offset` for `length` floats;
 * kind 1 polygon, 2 solid polygon, 3 circle, 4 solid circle (x, y,
 * radius), 5 segment (x1, y1, x2, y2), 6 point (x, y, size).
 */
export interface DrawBuffer {
  f32: Float32Array;
  offset: number;
  length: number;
}

export interface TiledOptions {
  /** Load only the tile layer of this name. */
  layer?: string;
  /** Keep Tiled's y-down rows and tile ids (no mirroring). */
  yDown?: boolean;
  /** External tilesets: `source` as written in the map -> the parsed tileset JSON (or its text). */
  tilesets?: Record<string, unknown>;
}

export interface TiledWorldOptions extends TiledOptions {
  /** The world def (its width and height are the map's). */
  world?: WorldDef;
}

/** One object of an object layer, as loaded (ledge_tiled_object). */
export interface TiledObject {
  /** Tiled's object id. */
  id: number;
  /** Its name ("" when unnamed). */
  name: string;
  /** Its class / type ("" when none). */
  type: string;
  /** The name of its object layer. */
  layer: string;
  /**
   * Its geometry: a point (no body), a box, a circle, polygon pieces (or,
   * with the property `chain`, a closed chain), or a polyline (an open
   * chain, or a path).
   */
  shape: 'point' | 'box' | 'circle' | 'polygon' | 'polyline';
  /** The type of its bodies (static for sensors). */
  bodyType: BodyType;
  /** `body` = sensor: a static sensor body. */
  sensor: boolean;
  /** `one_way` = true: a one-way platform body (up as drawn). */
  oneWay: boolean;
  /** From the `friction` property, else 0. */
  friction: number;
  /** From the `bounce` property, else 0. */
  bounce: number;
  /** From `surface_speed`, in the world's frame (clockwise on screen as drawn), else 0. */
  surfaceSpeed: number;
  /** From `friction_mix`, else 'mean'. */
  frictionMix: FrictionMix;
  /** World centre of its bounds; every body of it sits here. */
  position: Vec2;
  /** World bounds of its geometry (a point for points). */
  bounds: AABB;
  /** Its bodies (their userData is this object). */
  bodies: Body[];
  /** The chain a polyline or `chain` polygon made (its userData is this object), else null. */
  chain: Chain | null;
  /** A polyline or polygon of class `path`: no chain, no body; its points are kept. */
  isPath: boolean;
  /** The path its `path` property names (an index in objects), or -1. */
  path: number;
  /** A chain's points in the world, in the order the chain was made, or a path's as drawn; [] for other objects. */
  points: Vec2[];
  /** Its custom properties by name. */
  properties: Record<string, unknown>;
  /** Each property's Tiled type. */
  propertyTypes: Record<string, string>;
}

/** What a Tiled load made (ledge_tiled_result). */
export interface TiledResult {
  width: number;
  height: number;
  /** Cells per tile id in the loaded tilemap. */
  tileCounts: number[];
  /** Objects loaded, in layer and file order. */
  objects: TiledObject[];
  /** Bodies created, grouped by object. */
  bodies: Body[];
  /** Chains created, in object order. */
  chains: Chain[];
  /** The first object named `name`, or null. */
  findObject(name: string): TiledObject | null;
}

/** An entry of the IntGrid table (ledge_ldtk_intgrid_tile): what an IntGrid value becomes. The first entry that matches wins; values no entry matches are read by their identifier. */
export interface LdtkIntGridTile {
  /** The IntGrid layer's identifier; omitted: any layer. */
  layer?: string;
  /** The value's identifier; "*": every value; omitted: match `value`. */
  identifier?: string;
  /** The value (1..) to match when `identifier` is omitted. */
  value?: number;
  /** The ledge tile as drawn in LDtk (y down): an id (0..33, ledge.Tile) or a name (ldtkTileFromName's: "FULL", "slope45_up_right", "half_top_one_way"); default EMPTY. */
  tile?: number | string;
  /** A one-way cell as drawn in LDtk (true: solid from above on screen); default: what the tile's name says, else none. */
  oneWay?: boolean | OneWay;
}

/** What an entity becomes (ledge_ldtk_body_kind): no body (the game's own), or a body of that kind. */
export type LdtkBodyKind = 'none' | 'static' | 'kinematic' | 'dynamic' | 'sensor';

/** An entry of the entity table (ledge_ldtk_entity_body): the body every entity of that identifier gets unless its own fields say otherwise. */
export interface LdtkEntityBody {
  /** The entity identifier (exact). */
  identifier: string;
  /** Its body kind; default 'none'. */
  body?: LdtkBodyKind;
  /** Its shape: the entity's rectangle, or a circle filling its square; default 'box'. */
  shape?: 'box' | 'circle';
  /** A one-way platform (solid from above as drawn). */
  oneWay?: boolean;
}

/** How an LDtk project is read (ledge_ldtk_def; docs/ldtk.md). */
export interface LdtkOptions {
  /** The level to load: its identifier or iid, or its index in the project's (or the world's) level array; default the first. */
  level?: string | number;
  /** The level's index when `level` is not given (ledge_ldtk_def.level_index). */
  levelIndex?: number;
  /** Load every level of the world instead, each placed at its worldX, worldY (side by side for the linear layouts). */
  allLevels?: boolean;
  /** Multi-world projects: the LDtk world to read, by identifier or iid. */
  ldtkWorld?: string;
  /** Keep LDtk's y-down frame (row 0 is y = 0, names unchanged), for games whose gravity points to +y. */
  yDown?: boolean;
  /** Read tiles only from the layers of this identifier (refused when no loaded level has one). */
  tileLayer?: string;
  /** The game's IntGrid table. */
  intgrid?: LdtkIntGridTile[];
  /** The game's entity table. */
  entityBodies?: LdtkEntityBody[];
  /**
   * Finds a separate level file ("Save levels separately"): called with its
   * `externalRelPath` (relative to the project), returns its JSON text (or
   * the parsed object, or its bytes), or null when there is none (the load
   * is then refused, naming the path). An exception it throws is thrown by
   * the load.
   */
  resolve?: (path: string) => string | object | Uint8Array | null | undefined;
}

export interface LdtkWorldOptions extends LdtkOptions {
  /** The world def (gravity, tileSize, origin, ...); its width and height are the level's. */
  world?: WorldDef;
}

/** A Point field's value: the cell in the level's grid (row 0 at the top) and its centre in the world. */
export interface LdtkPoint {
  cx: number;
  cy: number;
  x: number;
  y: number;
}

/** An EntityRef field's value. */
export interface LdtkEntityRef {
  /** The entity's iid. */
  iid: string;
  /** The iid of its layer. */
  layer: string;
  /** The iid of its level. */
  level: string;
  /** The iid of its world. */
  world: string;
  /** Its index in result.entities, -1 when it was not loaded. */
  entity: number;
}

/** A Tile field's value: a rectangle of a tileset image, in pixels. */
export interface LdtkTileRect {
  /** The tileset's uid. */
  tileset: number;
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * One value of an LDtk field: Int and Float a number, Bool a boolean,
 * String, Multilines, FilePath and enums a string (an enum's value id), Color
 * a string "#rrggbb", Point, EntityRef and Tile an object; null for a null
 * value or a type this version does not read.
 */
export type LdtkValue = number | boolean | string | LdtkPoint | LdtkEntityRef | LdtkTileRect | null;

/** One loaded level (ledge_ldtk_level). */
export interface LdtkLevel {
  /** Its identifier. */
  identifier: string;
  /** Its iid. */
  iid: string;
  /** Its index in the project's (or world's) level array. */
  index: number;
  /** Its left on LDtk's world map, pixels. */
  worldX: number;
  /** Its top on LDtk's world map, pixels. */
  worldY: number;
  /** Its width in pixels. */
  pxWidth: number;
  /** Its height in pixels. */
  pxHeight: number;
  /** The tilemap cell of its corner nearest cell (0, 0) (lower-left in y up). */
  cell: Vec2;
  /** Its width in cells. */
  width: number;
  /** Its height in cells. */
  height: number;
  /** Its world bounds. */
  bounds: AABB;
  /** Its fields by identifier (arrays as arrays). */
  fields: Record<string, LdtkValue | LdtkValue[]>;
  /** Each field's LDtk type as written ("Int", "Array<Point>", "LocalEnum.Item"). */
  fieldTypes: Record<string, string>;
}

/** One entity, as loaded (ledge_ldtk_entity). */
export interface LdtkEntity {
  /** The entity's identifier ("Player", "Crate"). */
  identifier: string;
  /** Its iid. */
  iid: string;
  /** The identifier of its layer. */
  layer: string;
  /** Its level: an index in result.levels. */
  level: number;
  /** Its pivot's x in its level, pixels (LDtk's `px`). */
  pxX: number;
  /** Its pivot's y in its level, pixels (y down). */
  pxY: number;
  /** Its width in pixels. */
  pxWidth: number;
  /** Its height in pixels. */
  pxHeight: number;
  /** Its cell's column in its layer's grid. */
  cx: number;
  /** Its cell's row (0 at the top). */
  cy: number;
  /** World position of its pivot. */
  position: Vec2;
  /** World bounds of its rectangle. */
  bounds: AABB;
  /** What it became ('none': the game's own). */
  body: LdtkBodyKind;
  /** Its body's shape. */
  shape: 'box' | 'circle';
  /** Its body's type (static for a sensor without a path). */
  bodyType: BodyType;
  /** A sensor body: reports overlaps, never collides. */
  sensor: boolean;
  /** A one-way platform body (up as drawn). */
  oneWay: boolean;
  /** From `friction`, else 0. */
  friction: number;
  /** From `bounce`, else 0. */
  bounce: number;
  /** From `density`, else 1. */
  density: number;
  /** From `surface_speed`, else 0 (negated with yDown). */
  surfaceSpeed: number;
  /** From `material`, else "": the game's name (not applied). */
  material: string;
  /** From `friction_mix`, else 'mean'. */
  frictionMix: FrictionMix;
  /** Its bodies (0 or 1; their userData is this entity). */
  bodies: Body[];
  /** Its path: the body centre at each stop, its own position first; [] without a path. */
  path: Vec2[];
  /** World units per second along the path. */
  speed: number;
  /** Back to the first stop after the last; else back and forth. */
  loop: boolean;
  /** Its fields by identifier (arrays as arrays). */
  fields: Record<string, LdtkValue | LdtkValue[]>;
  /** Each field's LDtk type as written. */
  fieldTypes: Record<string, string>;
  /**
   * Entities with a path (moving platforms): where the body is `time`
   * seconds after the load (ledge_ldtk_path_position); move it there with
   * body.setTarget(entity.pathPosition(t + dt), dt) before each step.
   * Throws once the world is disposed.
   */
  pathPosition?(time: number): Vec2;
}

/** What an LDtk load made (ledge_ldtk_result). */
export interface LdtkResult {
  /** Tilemap width in cells. */
  width: number;
  /** Tilemap height in cells. */
  height: number;
  /** LDtk's grid size in pixels (one cell). */
  gridPx: number;
  /** Cells per tile id in the loaded tilemap. */
  tileCounts: number[];
  /** Cells made one-way. */
  oneWayCells: number;
  /** Cells given a material of their own. */
  materialCells: number;
  /** The levels, in the project's order. */
  levels: LdtkLevel[];
  /** The entities, in level, layer and file order. */
  entities: LdtkEntity[];
  /** Bodies created, grouped by entity. */
  bodies: Body[];
  /** The first level whose identifier or iid is `name`, or null. */
  findLevel(name: string): LdtkLevel | null;
  /** The first entity whose identifier or iid is `name`, or null. */
  findEntity(name: string): LdtkEntity | null;
}

/** A body (world.createBody). Ids are generational: a destroyed body stays invalid. */
export interface Body {
  readonly world: World;
  /** Yours; ledge never reads it. */
  userData: unknown;
  /** False once destroyed or once its world is disposed (true again after restoring a snapshot older than that). */
  readonly valid: boolean;
  /** World position of the shape's origin (a teleport when set: the body's contacts are forgotten). */
  position: Vec2;
  /** Velocity (units per second; setting it forgets the body's contacts). */
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
  /** Mass (0 for static and kinematic bodies). */
  readonly mass: number;
  readonly shape: ShapeInfo;
  /** Write-only: the multiplier of the world's gravity. */
  gravityScale: number;
  /** Write-only: friction 0..1. */
  friction: number;
  /** Write-only: bounce 0..1. */
  bounce: number;
  /** Write-only: linear damping per second, >= 0. */
  drag: number;
  /**
   * The speed of the body's surface (set: ledge_body_set_surface_speed):
   * turns a belt on, off or around. Wakes the body and the sleeping bodies
   * it touches.
   */
  surfaceSpeed: number;
  /**
   * The body's friction, bounce, surface speed and friction mix (get:
   * ledge_body_material; set: ledge_body_set_material, all four at once,
   * fields left out the default material's).
   */
  get material(): MaterialInfo;
  set material(material: Material);
  /** The body's joints (ledge_body_joints), by joint index. */
  joints(): Joint[];
  /** The collision filter (set: ledge_body_set_filter; get: ledge_body_filter). */
  get filter(): FilterInfo;
  set filter(filter: Filter);
  /** Changes a dynamic body's velocity by impulse / mass. */
  applyImpulse(impulse: Vec2): void;
  /** Kinematic bodies: moves to target over the next step of dt seconds (a moving platform driven by positions). */
  setTarget(target: Vec2, dt: number): void;
  /** Lets the body fall through the one-way platforms it stands on, until it no longer overlaps any of them. */
  dropThrough(): void;
  /** The character move (ledge_body_move): moves by displacement, sliding along what it meets. */
  move(displacement: Vec2, options?: MoveOptions): MoveResult;
  /** Its contacts of the last step (one list shared by the world's bodies: the next contacts() refills it). */
  contacts(): StructList<Contact>;
  /** Its ground, wall and ceiling state (ledge_body_ground): the body's own object, updated by every call. */
  ground(): Ground;
  /** Its Character, or null. */
  readonly character: Character | null;
  destroy(): void;
  equals(other: unknown): boolean;
}

/**
 * A character (ledge_character_*): a kinematic body that ledge moves with
 * the mover and whose state it keeps; the world carries it on the body it
 * stands on in every step. Addressed by its body, so it stays valid across
 * snapshots as in C.
 */
export interface Character {
  readonly body: Body;
  readonly world: World;
  /** Whether the body is still a character of a living world. */
  readonly valid: boolean;
  /**
   * Moves by velocity * dt with the mover and returns the state: the
   * character's own object, updated in place by every move and read of
   * `state` (copy what you keep). Ends a drop-through as soon as the
   * character is clear of the one-way platforms.
   */
  move(velocity: Vec2, dt: number): CharacterState;
  /** The state after the last move and the carries since. */
  readonly state: CharacterState;
  /** The velocity kept in the state; set it for a knock-back (ledge_character_set_velocity). */
  velocity: Vec2;
  /** Write-only: replaces the def (ledge_character_set_def). */
  def: CharacterDef;
  /** Ends the character (the body stays). */
  destroy(): void;
}

/**
 * A joint (ledge_joint_*): a generational id into its world, the same
 * object for the same id, so that it stays valid across snapshots as in C.
 * A joint dies with either body or with destroy().
 */
export interface Joint {
  readonly world: World;
  /** Yours; ledge never reads it. */
  userData: unknown;
  /** Whether the joint lives (ledge_joint_is_valid). */
  readonly valid: boolean;
  /** The joint's type. */
  readonly type: JointType;
  /** Body a (null for a world point). */
  readonly bodyA: Body | null;
  /** Body b (null for a world point). */
  readonly bodyB: Body | null;
  /** Anchor a in world coordinates now. */
  readonly anchorA: Vec2;
  /** Anchor b in world coordinates now. */
  readonly anchorB: Vec2;
  /**
   * What the joint measures now: the anchors' distance (rod, rope, spring,
   * weld), the translation d . axis (slider, unit axis), or length_a +
   * ratio * length_b (pulley).
   */
  readonly currentLength: number;
  /**
   * The force the joint applied to body b over the last step (the impulses
   * of its substeps over dt, in N): a rope's tension along it, a weld's
   * hold. Body a took the opposite.
   */
  readonly force: Vec2;
  /** The joint's def as it stands now (its setters' changes in; ledge_joint_get_def). */
  readonly def: Required<Omit<JointDef, 'userData'>> & { userData: unknown };
  /**
   * The length of a rod, rope, spring or pulley (set: ledge_joint_set_length,
   * a grappling hook climbs or pays out by it); >= 0, and not below a
   * rope's minLength. The bodies wake.
   */
  length: number;
  /**
   * Sets a joint's limits: a rope's minLength and length (lower, upper); a
   * spring's minLength and maxLength; a slider's lower and upper (and turns
   * its limit on). Throws for a rod, weld or pulley, or bad values.
   */
  setLimits(lower: number, upper: number): void;
  /** Sets a spring's (hertz > 0) or a weld's (hertz 0: rigid) frequency and damping ratio (>= 0). */
  setSpring(hertz: number, dampingRatio: number): void;
  /** Sets a slider's motor: on or off, its speed along the unit axis and the most force it uses (>= 0). */
  setMotor(enable: boolean, speed?: number, maxForce?: number): void;
  /** Whether the joined bodies collide with each other (ledge_joint_set_collide_connected). */
  collideConnected: boolean;
  /** Removes the joint (its bodies wake). */
  destroy(): void;
  equals(other: unknown): boolean;
}

/**
 * A chain (ledge_chain_*): one-sided free-form ground, a generational id
 * into its world, the same object for the same id, so that it stays valid
 * across snapshots as in C.
 */
export interface Chain {
  readonly world: World;
  /** Yours; ledge never reads it. */
  userData: unknown;
  /** Whether the chain lives (ledge_chain_is_valid). */
  readonly valid: boolean;
  /** 'static' or 'kinematic'. */
  readonly type: BodyType;
  /** Whether it is closed. */
  readonly loop: boolean;
  /** Its segments: points - 1 for an open chain, points for a loop. */
  readonly segmentCount: number;
  /** Where its frame lies (set: a teleport; bodies are not pushed along). */
  position: Vec2;
  /** A kinematic chain's velocity ((0, 0) for a static chain; setting it throws for a static chain). */
  velocity: Vec2;
  /** Moves a kinematic chain to target over the next step of dt seconds. */
  setTarget(target: Vec2, dt: number): void;
  /** Its points in its frame. */
  points(): Vec2[];
  /** Segment i (0 .. segmentCount - 1) in the world; throws for another index. */
  segment(i: number): ChainSegment;
  /** Which bodies meet it (ledge_chain_filter / ledge_chain_set_filter). */
  filter: Filter;
  /** Its material (set: every field; those left out are the default material's). */
  material: Material;
  /** Removes the chain (what it held wakes). */
  destroy(): void;
  equals(other: unknown): boolean;
}

/** The world's tilemap (world.tilemap). */
export interface Tilemap {
  readonly world: World;
  readonly def: { width: number; height: number; tileSize: number; origin: Vec2 };
  readonly width: number;
  readonly height: number;
  /** Sets cell (x, y) to a tile id (0..33, ledge.Tile) and updates the edge states around it. */
  set(x: number, y: number, tile: number): void;
  /** The tile at cell (x, y); FULL outside the map. */
  get(x: number, y: number): number;
  /** Makes cell (x, y) one-way (or ordinary again with 'none'), whatever tile it holds. */
  setOneWay(x: number, y: number, way: OneWay): void;
  /** The one-way direction of cell (x, y) ('none' outside the map). */
  oneWay(x: number, y: number): OneWay;
  /** The state of one side of cell (x, y) (side: 1 -x, 2 +x, 4 -y, 8 +y). */
  edge(x: number, y: number, side: number): 'off' | 'solid' | 'interesting';
  /** The cell holding a world point (floor division; may lie outside the map). */
  cellAt(point: Vec2): Vec2;
  /** Whether point lies in a solid part of the map (tiles and the solid outside): its cell and tile, or null. */
  queryPoint(point: Vec2): TileHit | null;
  /** The non-empty cells of the map overlapping the box, in row-major order. */
  queryRegion(lower: Vec2, upper: Vec2): TileHit[];
  /** Casts the segment origin -> origin + translation through the map. */
  raycast(origin: Vec2, translation: Vec2): RayHit | null;
  /** The nearest solid tile surface to shape at position, no farther than maxDistance (ledge_tilemap_distance). */
  distance(shape: Shape, position: Vec2, maxDistance: number): TilemapDistanceResult | null;
  /** Fills the map from N's level string (y-down levels). */
  loadN(text: string): void;
  /** Fills the map from ledge's readable ASCII form (docs/tilemap.md). */
  loadAscii(text: string): void;
  /** Tile layers of a Tiled JSON map (object or text); see docs/tiled.md. */
  loadTiled(map: object | string, options?: TiledOptions): void;
  /** The tiles of an LDtk project (text, object or bytes; ledge_ldtk_load_tilemap's rules, docs/ldtk.md): the map must have the level's size. */
  loadLdtk(project: string | object | Uint8Array, options?: LdtkOptions): void;
  /**
   * Sets the material of every cell holding tile id `tile`, except the
   * cells given their own (setCellMaterial). Every id starts with the
   * default material. Throws for EMPTY or an id that is no tile, or a
   * material out of range.
   */
  setTileMaterial(tile: number, material: Material): void;
  /** The material of tile id `tile`. */
  tileMaterial(tile: number): MaterialInfo;
  /**
   * Gives cell (x, y) a material of its own, whatever tile it holds (an icy
   * cell, a bouncy pad, the cells of a belt), or with null takes it away
   * (the tile id's material applies again).
   */
  setCellMaterial(x: number, y: number, material: Material | null): void;
  /** The material of cell (x, y) that contacts use: its own, else its tile id's. */
  cellMaterial(x: number, y: number): MaterialInfo;
  /** Whether cell (x, y) has a material of its own (false outside the map). */
  cellHasMaterial(x: number, y: number): boolean;
  /** Takes every cell's own material away (the tile ids' apply again). */
  clearCellMaterials(): void;
  /** Makes room for `count` cells with a material of their own in all, so that setting them allocates nothing. */
  reserveCellMaterials(count: number): void;
}

/** A pre-solve callback: the response for a new contact, or undefined for `proposed`. */
export type PreSolve = (
  body: Body,
  other: Body | null,
  cellX: number,
  cellY: number,
  normal: Vec2,
  proposed: Response,
) => Response | undefined | void;

/** A world: tilemap, bodies, the step. */
export interface World {
  readonly tilemap: Tilemap;
  /** Number of living bodies. */
  readonly bodyCount: number;
  /** Advances the world by dt seconds (0 < dt <= 1); throws what the pre-solve callback threw. */
  step(dt: number): void;
  /** ledge_world_hash: equal in wasm and native builds for equal runs. */
  hash(): bigint;
  /** The world's state as a snapshot (ledge_world_save; docs/rollback.md). */
  save(): Uint8Array;
  /** Puts the world back to a snapshot of save(); throws ledge's message when refused. */
  restore(snapshot: Uint8Array): void;
  createBody(def: BodyDef): Body;
  /** Makes a living kinematic body a character (ledge_character_create). */
  createCharacter(body: Body, def?: CharacterDef): Character;
  /**
   * Adds a joint (ledge_joint_create). Throws (nothing changed) for two null
   * bodies, a destroyed body, a body joined to itself, a non-finite anchor,
   * axis or ground point, a zero axis, a negative length or limit (or min
   * above max, lower above upper), a spring's hertz <= 0, a pulley's ratio
   * <= 0. Both bodies wake.
   */
  createJoint(def: JointDef): Joint;
  /** The number of living joints. */
  readonly jointCount: number;
  /**
   * Adds a chain (ledge_chain_create). Throws (nothing changed) for fewer
   * than 2 points (3 for a loop), a point not finite or beyond 1e6, a
   * repeated point, a fold back, segments that cross or touch, a dynamic
   * type, a material that is not valid.
   */
  createChain(def: ChainDef): Chain;
  /** The number of living chains. */
  readonly chainCount: number;
  /** The chain segments the filter sees that meet the box, by chain index then segment. */
  queryChainsAABB(lower: Vec2, upper: Vec2, filter?: QueryFilter): ChainSegmentHit[];
  /** The closed chains whose solid holds the point (inside a counter-clockwise loop, outside a clockwise one). */
  queryChainsPoint(point: Vec2, filter?: QueryFilter): Chain[];
  /**
   * Sets (or with null clears) the pre-solve contact filter, called inside
   * the step once per body pair and substep at their first overlap, for
   * tiles at every overlap found; the normal points toward `body`. It must
   * not call back into the world.
   */
  setPreSolve(fn: PreSolve | null): void;
  /** The last step's events: the same objects every time, valid until the next step. */
  readonly events: Events;
  /** Turns the profile on or off (ledge_world_enable_profile). */
  enableProfile(on: boolean): void;
  /** The stage times of the last step: the world's own object, updated. */
  readonly profile: Profile;
  /** The closest hit of the segment among the tiles, chains and bodies the filter sees, or null. */
  raycast(origin: Vec2, translation: Vec2, filter?: QueryFilter): CastHit | null;
  /**
   * Every hit of the segment in order; fn returns as Box2D's cast callback:
   * < 0 ignore, 0 stop, (0, 1) clip the ray there, >= 1 (or nothing) go on.
   * Returns the number of hits delivered.
   */
  raycastAll(origin: Vec2, translation: Vec2, filter: QueryFilter | undefined, fn: (hit: CastHit) => number | void): number;
  /** The first time of impact of shape at position moved by translation, or null. */
  shapeCast(shape: Shape, position: Vec2, translation: Vec2, filter?: QueryFilter): CastHit | null;
  /** Every body the filter sees whose bounding box overlaps the box, in increasing body index. */
  queryAABB(lower: Vec2, upper: Vec2, filter?: QueryFilter): Body[];
  /** Every body the filter sees whose shape contains the point. */
  queryPoint(point: Vec2, filter?: QueryFilter): Body[];
  /** The nearest tile surface or body to shape at position, no farther than maxDistance (ledge_world_nearest), or null. */
  nearest(shape: Shape, position: Vec2, maxDistance: number, filter?: QueryFilter): NearestResult | null;
  /** nearest() for a point: pointB is the point itself. */
  nearestPoint(point: Vec2, maxDistance: number, filter?: QueryFilter): NearestResult | null;
  debugDraw(options?: DrawOptions, region?: AABB): DrawList;
  /** The debug draw as floats in wasm memory, for drawing every frame without allocating. */
  debugDrawList(options?: DrawOptions, region?: AABB): DrawBuffer;
  /** Loads a Tiled map's tiles and objects into this world (ledge_tiled_load_world's rules). */
  loadTiled(map: object | string, options?: TiledOptions): TiledResult;
  /** Loads an LDtk project's level(s) into this world (ledge_ldtk_load_world's rules): its tilemap, which must have the level's size, and a body per entity that asks for one. */
  loadLdtk(project: string | object | Uint8Array, options?: LdtkOptions): LdtkResult;
  /** Frees the world's wasm memory; every method throws afterwards. */
  dispose(): void;
  /** Same as dispose(). */
  free(): void;
}

/** Tile ids by ledge's names: Tile.FULL, Tile['45DEG_PN'], Tile.HALF_D, ... */
export type TileTable = Readonly<Record<string, number>>;

export interface WorldConstructor {
  new (def?: WorldDef): World;
  /** A new world made from a Tiled map (ledge_tiled_create_world): its tiles and one or more bodies per object. */
  fromTiled(map: object | string, options?: TiledWorldOptions): { world: World; result: TiledResult };
  /** A new world made from an LDtk project (ledge_ldtk_create_world; docs/ldtk.md): the level's size, tiles, and a body per entity that asks for one. */
  fromLdtk(project: string | object | Uint8Array, options?: LdtkWorldOptions): { world: World; result: LdtkResult };
}

export interface Ledge {
  World: WorldConstructor;
  /** For instanceof checks. */
  Body: Function;
  /** For instanceof checks. */
  Character: Function;
  /** For instanceof checks. */
  Joint: Function;
  /** For instanceof checks. */
  Chain: Function;
  /** For instanceof checks. */
  Tilemap: Function;
  /** For instanceof checks. */
  StructList: Function;
  Tile: TileTable;
  /** Names by id, 0..33. */
  tileNames: string[];
  /** ledge_move_clip_velocity: velocity without its parts into the surfaces the move met. */
  clipVelocity(result: MoveResult, velocity: Vec2): Vec2;
  circle(radius: number, center?: Vec2): CircleShape;
  box(halfWidth: number, halfHeight: number, center?: Vec2): BoxShape;
  polygon(points: Vec2[]): PolygonShape;
  /** ledge_decompose: a simple polygon (any winding, up to 256 points) as convex pieces. */
  decompose(points: Vec2[]): PolygonShape[];
  /** ledge_default_material: friction 1 mixed by 'min', bounce 0, speed 0. */
  defaultMaterial(): MaterialInfo;
  /**
   * ledge_mix_materials: the material of a contact between surfaces a and
   * b: friction by the stronger mix mode (returned as that mode), bounce the
   * larger, surface speed the sum. Symmetric.
   */
  mixMaterials(a: Material, b: Material): MaterialInfo;
  /** ledge_material_is_valid: friction and bounce 0..1, surfaceSpeed finite within MAX_COORDINATE. */
  materialIsValid(material: Material): boolean;
  /** ledge_shape_distance: the closest points of a at pa and b at pb. */
  shapeDistance(a: Shape, pa: Vec2, b: Shape, pb: Vec2): DistanceResult;
  /** ledge_tile_distance: a tile in the cell at cellMin of side size (blocked: seam sides) and a shape at position. */
  tileDistance(tile: number, cellMin: Vec2, size: number, blocked: number, shape: Shape, position: Vec2): DistanceResult;
  /** ledge_tile_outline_get: the outline of a tile in a cell, for drawing. */
  tileOutline(tile: number, cellMin?: Vec2, size?: number): TileOutline;
  /** ledge_tile_normal: the unit normal of the tile's non-axis surface; (0, 0) for EMPTY and FULL. */
  tileNormal(tile: number): Vec2;
  /** ledge_tile_group_of: the tile's shape group. */
  tileGroup(tile: number): string;
  /** ledge_tile_contains: whether point lies in the tile's solid region (boundary included). */
  tileContains(tile: number, cellMin: Vec2, size: number, point: Vec2): boolean;
  /** ledge_ldtk_tile_from_name: the tile a name says as drawn in LDtk (ledge's names in any case, or "full", "slope45_up_right", "half_top", "one_way", ...) and the one-way direction it names, or null. */
  ldtkTileFromName(name: string): { tile: number; oneWay: OneWay } | null;
  /** The library's version, e.g. "0.1.0". */
  version: string;
  /** Limits of the C library (MAX_POLYGON_VERTICES, MOVE_MAX_HITS, MAX_STEP, SNAPSHOT_VERSION, ...). */
  limits: Readonly<Record<string, number>>;
  /** The binding's struct table (C field, JavaScript name, offset, kind), for tools. */
  structs: Record<string, { name: string; size: number; fields: { c: string; js: string; off: number; kind: string }[] }>;
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
