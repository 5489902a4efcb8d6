// Browser-safe (no node imports): used by the node tests and the benchmark page.
// The rain scene of tests/scenes.c (scene_rain) built through the binding:
// the same world def, the same circles in the same order, then the tiles.
// `def`: world def fields added to the scene's (enableSleep, frictionLaw:
// scene_sleep and scene_model of tests/scenes.c).
export function rainWorld(ledge, n, def = {}) {
  let cols = 1;
  while (cols * cols < n) ++cols;
  const rows = Math.ceil(n / cols);
  const width = cols + 2;
  const height = rows + 10;
  const world = new ledge.World({
    gravity: { x: 0, y: -10 }, tileSize: 1, width, height, origin: { x: 0, y: 0 }, bodyCapacity: n,
    ...def,
  });
  const shape = ledge.circle(0.4);
  for (let k = 0; k < n; ++k) {
    const position = { x: 1.5 + (k % cols) + 0.01 * (((7 * k) % 11) - 5), y: 7 + Math.floor(k / cols) };
    world.createBody({ type: 'dynamic', shape, position, density: 1, friction: 0.3, bounce: 0.1, gravityScale: 1, drag: 0 });
  }
  const map = world.tilemap;
  const { FULL } = ledge.Tile;
  for (let j = 0; j < height; ++j) {
    map.set(0, j, FULL);
    map.set(width - 1, j, FULL);
  }
  for (let i = 1; i <= width - 2; ++i) {
    map.set(i, 0, FULL);
    if (i % 8 === 0) map.set(i, 4, FULL);
  }
  map.set(1, 1, ledge.Tile['45DEG_PP']);
  map.set(width - 2, 1, ledge.Tile['45DEG_NP']);
  return world;
}
