// Browser-safe (no node imports): the scripted scene of tests/web/parity.c
// run through the JavaScript binding, printing the same trace (one line per
// result, floats as their bits). Every call of parity.c has its binding
// call here, in the same order; numbers the C code computes in float are
// computed with Math.fround at each operation.
const fr = Math.fround;
const fbuf = new Float32Array(1);
const ubuf = new Uint32Array(fbuf.buffer);
const HIT = ['none', 'tile', 'body'];
const RESPONSE = ['slide', 'touch', 'bounce', 'cross'];

export function parityTrace(ledge, steps) {
  const lines = [];
  let line = '';
  const tag = (t) => { line += t; };
  const end = () => { lines.push(line); line = ''; };
  const i_ = (v) => { line += ` ${v | 0}`; };
  const f_ = (v) => { fbuf[0] = v; line += ` ${ubuf[0].toString(16).padStart(8, '0')}`; };
  const b_ = (v) => { line += v ? ' T' : ' F'; };
  const v_ = (v) => { f_(v.x); f_(v.y); };
  const id_ = (b) => { line += b ? ` ${b._id[0]}:${b._id[1]}` : ' -'; };
  const h_ = (h) => { line += ` ${h.toString(16).padStart(16, '0')}`; };
  const v2 = (x, y) => ({ x, y });
  const { Tile, circle, box, polygon } = ledge;

  const world = new ledge.World({ gravity: v2(0, -20), width: 32, height: 16 });
  const m = world.tilemap;
  for (let x = 0; x < 32; ++x) m.set(x, 0, Tile.FULL);
  for (let y = 0; y < 16; ++y) {
    m.set(0, y, Tile.FULL);
    m.set(31, y, Tile.FULL);
  }
  m.set(9, 1, Tile['45DEG_PP']);
  m.set(10, 1, Tile.FULL);
  m.set(11, 1, Tile['45DEG_NP']);
  m.set(14, 1, Tile.HALF_D);
  for (let x = 3; x < 7; ++x) {
    m.set(x, 5, Tile.FULL);
    m.setOneWay(x, 5, 'up');
  }
  for (let x = 24; x < 31; ++x) m.set(x, 4, Tile.FULL);

  const body = (type, shape, position) => world.createBody({ type, shape, position, enableEvents: true });
  const player = body('kinematic', box(0.3, 0.45), v2(3, 1.46));
  const platform = body('kinematic', box(1.5, 0.2), v2(19, 3));
  const crate1 = body('dynamic', box(0.5, 0.5), v2(7, 1.5));
  let crate2 = body('dynamic', box(0.5, 0.5), v2(7.1, 2.6));
  const crate3 = body('dynamic', box(0.4, 0.4), v2(5, 7));
  const ball = body('dynamic', circle(0.3), v2(13, 8));
  const triangle = body('dynamic', polygon([v2(-0.5, -0.4), v2(0.5, -0.4), v2(0, 0.5)]), v2(13.2, 5));
  const sensor = world.createBody({ type: 'static', shape: box(1, 1), position: v2(6, 1.5), sensor: true });
  const ledgeBody = world.createBody({ type: 'static', shape: box(1, 0.1), position: v2(22, 6), oneWay: 'up' });
  const bullet = world.createBody({ shape: circle(0.1), position: v2(2, 10), velocity: v2(30, -5), bullet: true, friction: 0.2 });
  const crusher = body('kinematic', box(0.6, 0.3), v2(27, 3.2));
  const squeezed = body('dynamic', box(0.4, 0.4), v2(27, 1.4));
  const bodies = () => [player, platform, crate1, crate2, crate3, ball, triangle, sensor, ledgeBody, bullet, crusher, squeezed];

  const character = world.createCharacter(player);
  world.setPreSolve((a, b, cellX, cellY, normal, proposed) => {
    const tri = a === triangle || b === triangle;
    const isBall = a === ball || b === ball;
    if (tri && isBall) return 'cross';
    if (isBall && b === null && normal.y > fr(0.9)) return 'bounce';
    return proposed;
  });
  crate1.friction = 0.5;
  let vel = v2(0, 0);
  let snapshot = null;

  function traceMove(r) {
    v_(r.position); v_(r.displacement); v_(r.velocity);
    b_(r.onGround); b_(r.onWall); b_(r.onCeiling); b_(r.snapped); b_(r.stuck);
    i_(r.wallSide); v_(r.groundNormal); v_(r.wallNormal); v_(r.ceilingNormal); v_(r.up);
    i_(r.groundHit); i_(r.hitCount);
    for (const h of r.hits) {
      i_(HIT.indexOf(h.kind)); id_(h.body); i_(h.cell.x); i_(h.cell.y); i_(h.tile);
      v_(h.normal); v_(h.point); v_(h.push); f_(h.fraction);
    }
  }
  function traceCharacter(s) {
    tag('character');
    v_(s.position); v_(s.velocity); v_(s.realVelocity);
    b_(s.onFloor); b_(s.onWall); b_(s.onCeiling); i_(s.wallSide);
    v_(s.floorNormal); v_(s.wallNormal); v_(s.ceilingNormal);
    id_(s.floorBody); b_(s.floorIsTile); i_(s.floorCell.x); i_(s.floorCell.y);
    i_(s.floorTile); v_(s.platformVelocity); f_(s.timeSinceFloor);
    b_(s.crushed); id_(s.crushedBy);
    traceMove(s.lastMove);
    end();
  }
  function traceEvents() {
    const e = world.events;
    tag('touch');
    for (let k = 0; k < e.touchBegin.length; ++k) {
      const t = e.touchBegin.get(k);
      id_(t.a); id_(t.b); i_(t.cell.x); i_(t.cell.y);
    }
    tag(' |');
    for (let k = 0; k < e.touchEnd.length; ++k) {
      const t = e.touchEnd.get(k);
      id_(t.a); id_(t.b); i_(t.cell.x); i_(t.cell.y);
    }
    end();
    tag('sensor');
    for (let k = 0; k < e.sensorBegin.length; ++k) { const s = e.sensorBegin.get(k); id_(s.sensor); id_(s.visitor); }
    tag(' |');
    for (let k = 0; k < e.sensorEnd.length; ++k) { const s = e.sensorEnd.get(k); id_(s.sensor); id_(s.visitor); }
    end();
    tag('crush');
    for (let k = 0; k < e.crush.length; ++k) { const c = e.crush.get(k); id_(c.body); id_(c.crusher); f_(c.depth); }
    end();
  }
  function traceContacts() {
    bodies().forEach((b, k) => {
      if (!b.valid) return;
      const cs = b.contacts();
      tag('contacts'); i_(k); i_(cs.length);
      for (let i = 0; i < cs.length && i < 64; ++i) {
        const c = cs.get(i);
        id_(c.other); i_(c.cell.x); i_(c.cell.y); v_(c.normal); v_(c.point); f_(c.depth); i_(RESPONSE.indexOf(c.response));
      }
      end();
      if (b.type !== 'dynamic') return;
      const g = b.ground();
      tag('ground'); i_(k); b_(g.onGround); b_(g.onCeiling); b_(g.onWallLeft);
      b_(g.onWallRight); v_(g.groundNormal); v_(g.wallNormal); id_(g.groundBody);
      i_(g.groundCell.x); i_(g.groundCell.y);
      end();
      tag('body'); i_(k); v_(b.position); v_(b.velocity); b_(b.awake); f_(b.mass);
      end();
    });
  }
  function traceCast(what, r) {
    tag(what); b_(r !== null);
    if (r) {
      i_(HIT.indexOf(r.kind)); id_(r.body); i_(r.cell.x); i_(r.cell.y); i_(r.tile);
      v_(r.point); v_(r.normal); f_(r.fraction);
    }
    end();
  }
  const traceDistance = (d) => { f_(d.distance); v_(d.pointA); v_(d.pointB); v_(d.normal); i_(d.iterations); };
  function traceNearest(what, r) {
    tag(what); b_(r !== null);
    if (r) {
      i_(HIT.indexOf(r.kind)); id_(r.body); i_(r.cell.x); i_(r.cell.y); i_(r.tile);
      traceDistance(r.distance);
    }
    end();
  }
  function traceQueries(step) {
    const s = fr(step * fr(0.01));
    traceCast('raycast', world.raycast(v2(fr(1.5 + s), 9), v2(20, -8)));
    world.raycastAll(v2(1, 2), v2(29, 0.5), { ignore: player }, (hit) => {
      tag('rayall'); i_(HIT.indexOf(hit.kind)); id_(hit.body); v_(hit.point); f_(hit.fraction);
      end();
      return hit.kind === 'body' && hit.fraction > 0.5 ? 0 : 1;
    });
    const probe = box(0.25, 0.25);
    traceCast('shapecast', world.shapeCast(probe, v2(fr(4 + s), 9), v2(10, -8)));
    tag('aabb');
    for (const b of world.queryAABB(v2(5, 0), v2(15, 6))) id_(b);
    end();
    tag('point');
    for (const b of world.queryPoint(v2(7, 1.5))) id_(b);
    end();
    const c = circle(0.2);
    traceNearest('nearest', world.nearest(c, v2(fr(12 + s), 4), 3));
    traceNearest('nearestpoint', world.nearestPoint(v2(20, fr(5 - s)), 2));
    const td = m.distance(c, v2(9.5, fr(2.5 + s)), 2);
    tag('tiledistance'); b_(td !== null);
    if (td) { i_(td.cell.x); i_(td.cell.y); i_(td.tile); traceDistance(td.distance); }
    end();
    tag('shapedistance'); traceDistance(ledge.shapeDistance(probe, v2(s, 1), c, v2(0.3, -0.2))); end();
    tag('onetile'); traceDistance(ledge.tileDistance(Tile['45DEG_PP'], v2(0, 0), 1, 0, c, v2(fr(fr(0.6) + s), 0.7))); end();
    const tp = m.queryPoint(v2(9.7, fr(fr(1.2) + s)));
    tag('tilepoint'); b_(tp !== null);
    if (tp) { i_(tp.cell.x); i_(tp.cell.y); i_(tp.tile); }
    end();
    const cells = m.queryRegion(v2(8.5, 0.5), v2(14.5, fr(1.5 + s)));
    tag('region'); i_(cells.length);
    for (const h of cells.slice(0, 64)) { i_(h.cell.x); i_(h.cell.y); i_(h.tile); }
    end();
    const rh = m.raycast(v2(fr(8 + s), 3), v2(4, -3));
    tag('tileray'); b_(rh !== null);
    if (rh) { v_(rh.point); v_(rh.normal); f_(rh.fraction); i_(rh.cell.x); i_(rh.cell.y); i_(rh.tile); }
    end();
  }

  function script(k, dt) {
    let st = character.state;
    vel = { x: st.velocity.x, y: st.velocity.y };
    vel.x = k < 100 ? 4 : -3;
    vel.y = fr(vel.y - fr(20 * dt));
    if ((k === 30 || k === 105) && st.timeSinceFloor < fr(0.1)) vel.y = 9;
    st = character.move(vel, dt);
    traceCharacter(st);
    const phase = k % 120;
    const px = fr(19 + (phase < 60 ? fr(phase / 20) : fr((120 - phase) / 20)));
    platform.setTarget(v2(px, 3), dt);
    const cy = fr(fr(3.2) - fr((k < 90 ? k : 90) * fr(0.015)));
    crusher.setTarget(v2(27, cy), dt);
    switch (k) {
      case 20: crate1.applyImpulse(v2(3, 0)); break;
      case 40: ball.gravityScale = 0.5; break;
      case 50: ball.bounce = 0.6; break;
      case 55: crate3.drag = 0.5; break;
      case 60: triangle.filter = { category: 2, mask: 0xfffffffffffffffbn, group: -1 }; break;
      case 70: ball.position = v2(12, 9); break;
      case 75: crate2.velocity = v2(-1, 2); break;
      case 80: crate3.dropThrough(); break;
      case 85: {
        const r = crusher.move(v2(0.01, 0), { snapLength: 0.1 });
        tag('bodymove'); traceMove(r);
        v_(ledge.clipVelocity(r, v2(1, -1))); end();
        break;
      }
      case 90:
        snapshot = world.save();
        tag('saved'); i_(snapshot.length); h_(world.hash()); end();
        break;
      case 100:
        m.set(12, 1, Tile.FULL);
        m.setOneWay(12, 1, 'up');
        break;
      case 110: crate2.destroy(); break;
      case 120:
        world.restore(snapshot);
        tag('restored'); h_(world.hash()); b_(crate2.valid); end();
        break;
      case 130: character.velocity = v2(-5, 6); break;
      case 140: character.def = { move: { snapLength: 0 }, platformOnLeave: 'nothing' }; break;
      case 150: crate1.awake = true; break;
      case 160: crate2 = world.createBody({ shape: circle(0.25), position: v2(10, 10), enableEvents: true }); break;
      default: break;
    }
  }

  const dt = fr(1 / 60);
  try {
    for (let k = 0; k < steps; ++k) {
      script(k, dt);
      world.step(dt);
      tag('step'); i_(k); h_(world.hash()); i_(world.bodyCount); end();
      traceEvents();
      if (k % 10 === 0) {
        traceContacts();
        traceQueries(k);
      }
    }
  } finally {
    world.dispose();
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The objects and bodies of a world made from a Tiled map by the
 * JavaScript loader (World.fromTiled), as parity_tiled in parity.c writes
 * those of ledge_tiled_create_world.
 */
export function tiledTrace(ledge, map, yDown, tilesets) {
  const lines = [];
  let line = '';
  const end = () => { lines.push(line); line = ''; };
  const i_ = (v) => { line += ` ${v | 0}`; };
  const f_ = (v) => { fbuf[0] = v; line += ` ${ubuf[0].toString(16).padStart(8, '0')}`; };
  const b_ = (v) => { line += v ? ' T' : ' F'; };
  const v_ = (v) => { f_(v.x); f_(v.y); };
  const { world, result: r } = ledge.World.fromTiled(map, { yDown, tilesets, world: { gravity: { x: 0, y: yDown ? 10 : -10 } } });
  try {
    line = 'map';
    i_(r.width); i_(r.height); i_(r.objects.length); i_(r.bodies.length);
    r.tileCounts.forEach(i_);
    end();
    for (const o of r.objects) {
      line = `object ${o.id} [${o.name}] [${o.type}] [${o.layer}]`;
      i_(['point', 'box', 'circle', 'polygon', 'polyline'].indexOf(o.shape)); i_(['static', 'kinematic', 'dynamic'].indexOf(o.bodyType));
      b_(o.sensor); b_(o.oneWay); f_(o.friction); f_(o.bounce); v_(o.position); v_(o.bounds.lower); v_(o.bounds.upper);
      i_(Object.keys(o.properties).length);
      end();
      for (const b of o.bodies) {
        line = `body ${b._id[0]}:${b._id[1]}`;
        i_(['static', 'kinematic', 'dynamic'].indexOf(b.type)); v_(b.position); v_(b.velocity); f_(b.mass);
        const s = b.shape;
        const points = s.type === 'circle' ? [] : s.points;
        i_(['invalid', 'circle', 'box', 'polygon'].indexOf(s.type)); i_(points.length); f_(s.radius || 0); v_(s.center);
        points.forEach(v_);
        end();
      }
      if (o.points.length > 0 || o.isPath) {
        line = 'points';
        b_(o.isPath); i_(o.path); i_(o.points.length);
        o.points.forEach(v_);
        end();
      }
      if (o.chain && o.chain.valid) {
        const ch = o.chain;
        const m = ch.material;
        line = `chain ${ch._id[0]}:${ch._id[1]}`;
        i_(['static', 'kinematic', 'dynamic'].indexOf(ch.type)); b_(ch.loop);
        v_(ch.position); v_(ch.velocity);
        f_(m.friction); f_(m.bounce); f_(m.surfaceSpeed); i_(['mean', 'min', 'max'].indexOf(m.frictionMix));
        const pts = ch.points();
        i_(pts.length);
        pts.slice(0, 64).forEach(v_);
        end();
      }
    }
    for (let k = 0; k < 120; ++k) world.step(1 / 60);
    line = `stepped ${world.hash().toString(16).padStart(16, '0')}`;
    end();
  } finally {
    world.dispose();
  }
  return `${lines.join('\n')}\n`;
}

// The moving parts' scene of parity.c (parity_parts): a pushing character,
// materials of cells, tile ids and bodies, belts, joints of four kinds and
// a snapshot restored, printing the same trace.
export function partsTrace(ledge, steps) {
  const lines = [];
  let line = '';
  const tag = (t) => { line += t; };
  const end = () => { lines.push(line); line = ''; };
  const i_ = (v) => { line += ` ${v | 0}`; };
  const f_ = (v) => { fbuf[0] = v; line += ` ${ubuf[0].toString(16).padStart(8, '0')}`; };
  const b_ = (v) => { line += v ? ' T' : ' F'; };
  const v_ = (v) => { f_(v.x); f_(v.y); };
  const id_ = (b) => { line += b ? ` ${b._id[0]}:${b._id[1]}` : ' -'; };
  const h_ = (h) => { line += ` ${h.toString(16).padStart(16, '0')}`; };
  const MIX = ['mean', 'min', 'max'];
  const JOINTS = ['rod', 'rope', 'spring', 'weld', 'slider', 'pulley'];
  const mat_ = (m) => { f_(m.friction); f_(m.bounce); f_(m.surfaceSpeed); i_(MIX.indexOf(m.frictionMix)); };
  const v2 = (x, y) => ({ x, y });
  const { Tile, circle, box } = ledge;

  const world = new ledge.World({ width: 48, height: 24 });
  try {
    const m = world.tilemap;
    for (let x = 0; x < 48; ++x) m.set(x, 0, Tile.FULL);
    for (let y = 0; y < 24; ++y) {
      m.set(0, y, Tile.FULL);
      m.set(47, y, Tile.FULL);
    }
    const belt = { friction: 0.5, bounce: 0, surfaceSpeed: 2, frictionMix: 'min' };
    const ice = { friction: 0, bounce: 0, surfaceSpeed: 0, frictionMix: 'min' };
    const pad = { friction: 0.2, bounce: 0.3, surfaceSpeed: 0, frictionMix: 'max' };
    for (let x = 8; x < 12; ++x) m.setCellMaterial(x, 0, belt);
    for (let x = 12; x < 16; ++x) m.setCellMaterial(x, 0, ice);
    m.set(35, 1, Tile.HALF_D);
    m.set(36, 1, Tile.HALF_D);
    m.setTileMaterial(Tile.HALF_D, pad);

    const part = (type, shape, position, friction) => world.createBody({ type, shape, position, friction });
    const hero = part('kinematic', box(0.3, 0.45), v2(4, 1.45), 0);
    const ch = world.createCharacter(hero, { pushMass: 0.8 });
    const crate = part('dynamic', box(0.5, 0.5), v2(7, 1.5), 0.4);
    const rider = part('dynamic', box(0.4, 0.4), v2(22, 1.4), 0.5);
    const beltBody = world.createBody({
      type: 'static', shape: box(2, 0.2), position: v2(40, 4), friction: 0.6, surfaceSpeed: -1.5, frictionMix: 'max',
    });
    const parcel = part('dynamic', box(0.25, 0.25), v2(40, 4.45), 0.3);
    const bob = part('dynamic', circle(0.2), v2(9.5, 14), 0);
    const weight = part('dynamic', box(0.3, 0.3), v2(10, 11), 0.2);
    const hung = part('dynamic', box(0.3, 0.3), v2(30, 9), 0.2);
    const all = [hero, crate, rider, beltBody, parcel, bob, weight, hung];

    const j = [
      world.createJoint({ type: 'rod', anchorA: v2(8, 14), bodyB: bob, length: 1.5 }),
      world.createJoint({ type: 'spring', bodyA: bob, bodyB: weight, length: 2, hertz: 3, dampingRatio: 0.2 }),
      world.createJoint({ type: 'rope', anchorA: v2(30, 12), bodyB: hung, length: 3.5 }),
      world.createJoint({
        type: 'slider', bodyA: hung, bodyB: weight, anchorB: v2(0.1, 0), axis: v2(1, 1), enableLimit: true, lower: -30, upper: 30,
      }),
    ];

    let snap = null;
    const dt = fr(1 / 60);
    for (let k = 0; k < steps; ++k) {
      const vel = { ...ch.state.velocity };
      vel.x = k < 150 ? 5 : -2;
      vel.y = fr(vel.y - fr(10 * dt));
      const st = ch.move(vel, dt);
      tag('hero'); v_(st.position); v_(st.velocity); b_(st.onFloor); b_(st.onWall);
      b_(st.pushing); id_(st.pushedBody); id_(st.ceilingBody); b_(st.crushed);
      id_(st.crushedBy); mat_(st.floorMaterial); b_(st.hanging);
      id_(st.hangJoint); v_(st.hangAnchor); v_(st.platformVelocity); end();
      switch (k) {
        case 40:
          beltBody.surfaceSpeed = 1;
          break;
        case 60:
          crate.material = { friction: 0.9, bounce: 0.1, surfaceSpeed: 0, frictionMix: 'mean' };
          j[2].length = 2.5;
          break;
        case 80:
          j[1].setSpring(5, 0.5);
          j[3].setMotor(true, 0.5, 20);
          m.setCellMaterial(13, 0, null);
          break;
        case 100:
          snap = world.save();
          break;
        case 110:
          j[1].destroy();
          j[2].setLimits(0.5, 3);
          break;
        case 120:
          weight.destroy();
          break;
        case 130:
          world.restore(snap);
          tag('restored'); h_(world.hash()); end();
          break;
        default:
          break;
      }
      world.step(dt);
      tag('step'); i_(k); h_(world.hash()); i_(world.jointCount); end();
      for (const joint of j) {
        tag('joint'); id_(joint); b_(joint.valid);
        if (joint.valid) {
          i_(JOINTS.indexOf(joint.type)); id_(joint.bodyA); id_(joint.bodyB); v_(joint.anchorA);
          v_(joint.anchorB); f_(joint.currentLength); v_(joint.force);
        }
        end();
      }
      for (const b of all) {
        tag('body'); id_(b); b_(b.valid);
        if (b.valid) {
          v_(b.position); v_(b.velocity); mat_(b.material);
          const js = b.joints();
          i_(js.length);
          js.slice(0, 8).forEach(id_);
        }
        end();
      }
      if (k % 20 === 0) {
        tag('cells'); mat_(m.cellMaterial(13, 0)); b_(m.cellHasMaterial(13, 0));
        mat_(m.tileMaterial(Tile.HALF_D));
        mat_(ledge.mixMaterials(crate.material, m.cellMaterial(9, 0))); end();
      }
    }
  } finally {
    world.dispose();
  }
  return `${lines.join('\n')}\n`;
}

// The chains' scene of parity.c (parity_chains): a static hill whose ends
// lie on the tile floor, a kinematic platform chain (velocity, then a
// target), two crates and a walking character, events, contacts, ground
// states, rays from the front and from behind, the box query, a chain
// destroyed and brought back by a snapshot, printing the same trace.
export function chainsTrace(ledge, steps) {
  const lines = [];
  let line = '';
  const tag = (t) => { line += t; };
  const end = () => { lines.push(line); line = ''; };
  const i_ = (v) => { line += ` ${v | 0}`; };
  const f_ = (v) => { fbuf[0] = v; line += ` ${ubuf[0].toString(16).padStart(8, '0')}`; };
  const b_ = (v) => { line += v ? ' T' : ' F'; };
  const v_ = (v) => { f_(v.x); f_(v.y); };
  const id_ = (b) => { line += b ? ` ${b._id[0]}:${b._id[1]}` : ' -'; };
  const h_ = (h) => { line += ` ${h.toString(16).padStart(16, '0')}`; };
  const MIX = ['mean', 'min', 'max'];
  const KINDS = ['none', 'tile', 'body', 'chain'];
  const mat_ = (m) => { f_(m.friction); f_(m.bounce); f_(m.surfaceSpeed); i_(MIX.indexOf(m.frictionMix)); };
  const cast_ = (t, r) => {
    tag(t);
    if (r) {
      i_(KINDS.indexOf(r.kind)); id_(r.body); id_(r.chain); i_(r.segment); v_(r.point); v_(r.normal); f_(r.fraction);
    } else {
      // ledge_world_raycast's miss: kind none, fraction 1.
      i_(0); id_(null); id_(null); i_(0); v_({ x: 0, y: 0 }); v_({ x: 0, y: 0 }); f_(1);
    }
    end();
  };
  const v2 = (x, y) => ({ x, y });
  const { Tile, box } = ledge;

  const world = new ledge.World({ width: 40, height: 12 });
  try {
    const m = world.tilemap;
    for (let x = 0; x < 40; ++x) m.set(x, 0, Tile.FULL);
    const hill = world.createChain({ points: [v2(14, 1), v2(11, 3), v2(7, 3), v2(4, 1)] });
    const lift = world.createChain({
      points: [v2(2, 0), v2(-2, 0)], type: 'kinematic', position: v2(24, 4), velocity: v2(1, 0),
      material: { friction: 0.8, bounce: 0, surfaceSpeed: 0, frictionMix: 'max' },
    });
    const crateA = world.createBody({ type: 'dynamic', shape: box(0.4, 0.4), position: v2(9, 6), friction: 0.5, enableEvents: true });
    const crateB = world.createBody({ type: 'dynamic', shape: box(0.4, 0.4), position: v2(24, 5), friction: 0.8 });
    const hero = world.createBody({ type: 'kinematic', shape: box(0.3, 0.45), position: v2(2, 1.45), friction: 0 });
    const ch = world.createCharacter(hero);
    const crates = [crateA, crateB];
    let snap = null;
    const dt = fr(1 / 60);
    for (let k = 0; k < steps; ++k) {
      const vel = { ...ch.state.velocity };
      vel.x = k < 100 ? 3 : -3;
      vel.y = fr(vel.y - fr(10 * dt));
      const st = ch.move(vel, dt);
      tag('hero'); v_(st.position); v_(st.velocity); b_(st.onFloor); id_(st.floorChain);
      id_(st.floorBody); v_(st.floorNormal); v_(st.platformVelocity);
      mat_(st.floorMaterial); end();
      switch (k) {
        case 50:
          lift.velocity = v2(-1, 0);
          break;
        case 70:
          lift.setTarget(v2(23.5, 4.1), dt);
          break;
        case 71:
          lift.velocity = v2(0, 0);
          break;
        case 100:
          snap = world.save();
          break;
        case 110:
          hill.destroy();
          break;
        case 120:
          world.restore(snap);
          tag('restored'); h_(world.hash()); i_(world.chainCount); end();
          break;
        default:
          break;
      }
      world.step(dt);
      tag('step'); i_(k); h_(world.hash()); i_(world.chainCount);
      b_(hill.valid); v_(lift.position); v_(lift.velocity); end();
      for (const c of crates) {
        const g = c.ground();
        tag('crate'); v_(c.position); v_(c.velocity); b_(g.onGround); id_(g.groundChain);
        v_(g.groundNormal);
        const cs = c.contacts();
        i_(cs.length);
        for (let q = 0; q < cs.length && q < 4; ++q) {
          const r = cs.get(q);
          id_(r.chain); i_(r.segment); v_(r.normal);
        }
        end();
      }
      const te = world.events.touchBegin;
      for (let q = 0; q < te.length; ++q) {
        const e = te.get(q);
        tag('touch'); id_(e.a); id_(e.b); id_(e.chain); end();
      }
      if (k % 20 === 0) {
        cast_('down', world.raycast(v2(12.5, 8), v2(0, -10)));
        cast_('up', world.raycast(v2(12.5, 1.2), v2(0, 5), { includeTiles: false }));
        const found = world.queryChainsAABB(v2(5, 0), v2(13, 4));
        tag('query'); i_(found.length);
        for (const f of found.slice(0, 8)) { id_(f.chain); i_(f.segment); }
        end();
      }
    }
  } finally {
    world.dispose();
  }
  return `${lines.join('\n')}\n`;
}
