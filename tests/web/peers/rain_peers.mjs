// Browser-safe: the rain scene of the shared benchmark spec (tests/web/
// rain.mjs for ledge) built in the JavaScript physics engines a web game
// can pick: Rapier 2D (the -compat packages, float and deterministic
// builds), matter-js and planck.js. The same map (each solid tile one
// static box, each slope one static triangle), the same circles in the
// same order (radius 0.4, density 1, friction 0.3, restitution 0.1),
// rotation locked where the engine allows, sleeping off; y up and metres,
// except matter-js, which works in pixels with y down (20 px a metre).

// The rain's solid cells and slopes: { boxes: [[i, j]], slopes: [[x0, y0, x1, y1, x2, y2]] }.
export function rainMap(n) {
  let cols = 1;
  while (cols * cols < n) ++cols;
  const rows = Math.ceil(n / cols);
  const W = cols + 2;
  const H = rows + 10;
  const boxes = [];
  for (let j = 0; j < H; ++j) boxes.push([0, j], [W - 1, j]);
  for (let i = 1; i <= W - 2; ++i) {
    boxes.push([i, 0]);
    if (i % 8 === 0) boxes.push([i, 4]);
  }
  const slopes = [[1, 1, 2, 1, 1, 2], [W - 2, 1, W - 1, 1, W - 1, 2]];
  const circles = [];
  for (let k = 0; k < n; ++k) circles.push([1.5 + (k % cols) + 0.01 * (((7 * k) % 11) - 5), 7 + Math.floor(k / cols)]);
  return { boxes, slopes, circles, W, H };
}

export function rapierRain(RAPIER, n) {
  const m = rainMap(n);
  const world = new RAPIER.World({ x: 0, y: -10 });
  world.timestep = 1 / 60;
  const ground = world.createRigidBody(RAPIER.RigidBodyDesc.fixed());
  for (const [i, j] of m.boxes) world.createCollider(RAPIER.ColliderDesc.cuboid(0.5, 0.5).setTranslation(i + 0.5, j + 0.5).setFriction(0.3), ground);
  for (const s of m.slopes) {
    world.createCollider(RAPIER.ColliderDesc.triangle({ x: s[0], y: s[1] }, { x: s[2], y: s[3] }, { x: s[4], y: s[5] }).setFriction(0.3), ground);
  }
  const bodies = m.circles.map(([x, y]) => {
    const b = world.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(x, y).lockRotations().setCanSleep(false));
    world.createCollider(RAPIER.ColliderDesc.ball(0.4).setDensity(1).setFriction(0.3).setRestitution(0.1), b);
    return b;
  });
  return { step: () => world.step(), count: () => bodies.length, positions: () => bodies.map((b) => b.translation()), free: () => world.free() };
}

export function matterRain(Matter, n) {
  const S = 20; // pixels a metre
  const m = rainMap(n);
  const engine = Matter.Engine.create({ enableSleeping: false });
  engine.gravity.x = 0;
  engine.gravity.y = 1;
  engine.gravity.scale = (10 * S) / 1e6; // 10 m/s^2 = 200 px/s^2 = 2e-4 px/ms^2 (matter's unit)
  const statics = m.boxes.map(([i, j]) => Matter.Bodies.rectangle((i + 0.5) * S, -(j + 0.5) * S, S, S, { isStatic: true, friction: 0.3 }));
  for (const s of m.slopes) {
    const cx = (s[0] + s[2] + s[4]) / 3;
    const cy = (s[1] + s[3] + s[5]) / 3;
    const verts = [[s[0], s[1]], [s[2], s[3]], [s[4], s[5]]].map(([x, y]) => ({ x: x * S, y: -y * S }));
    statics.push(Matter.Bodies.fromVertices(cx * S, -cy * S, [verts], { isStatic: true, friction: 0.3 }));
  }
  const balls = m.circles.map(([x, y]) => Matter.Bodies.circle(x * S, -y * S, 0.4 * S, {
    friction: 0.3, frictionAir: 0, restitution: 0.1, density: 1 / (S * S), inertia: Infinity,
  }));
  Matter.Composite.add(engine.world, [...statics, ...balls]);
  return {
    step: () => Matter.Engine.update(engine, 1000 / 60),
    count: () => balls.length,
    positions: () => balls.map((b) => ({ x: b.position.x / S, y: -b.position.y / S })),
    free: () => Matter.Engine.clear(engine),
  };
}

export function planckRain(planck, n) {
  const m = rainMap(n);
  const world = new planck.World({ gravity: planck.Vec2(0, -10) });
  const ground = world.createBody();
  for (const [i, j] of m.boxes) ground.createFixture(planck.Box(0.5, 0.5, planck.Vec2(i + 0.5, j + 0.5), 0), { friction: 0.3 });
  for (const s of m.slopes) {
    ground.createFixture(planck.Polygon([planck.Vec2(s[0], s[1]), planck.Vec2(s[2], s[3]), planck.Vec2(s[4], s[5])]), { friction: 0.3 });
  }
  const bodies = m.circles.map(([x, y]) => {
    const b = world.createBody({ type: 'dynamic', position: planck.Vec2(x, y), fixedRotation: true, allowSleep: false });
    b.createFixture(planck.Circle(0.4), { density: 1, friction: 0.3, restitution: 0.1 });
    return b;
  });
  return { step: () => world.step(1 / 60, 8, 3), count: () => bodies.length, positions: () => bodies.map((b) => b.getPosition()), free: () => {} };
}
