// A Tiled map with every kind of object the loaders read (tests/web/
// binding.test.mjs compares the JavaScript loader's world with the C
// loader's on it): rectangles plain and rotated (by 30 and by 90 degrees),
// a tile object, a circle, a concave polygon and one of 12 points (both
// cut into convex pieces), a triangle, a point, a text (skipped), a
// sensor by class, a one-way platform, every property type, materials
// (a belt of tiles drawn plain and flipped, objects with a surface speed
// and a friction mix), object layers inside an offset group, and chains:
// a hill polyline whose ends lie on the tile floor with a crate falling on
// it, a ceiling facing down, a closed rock (solid inside) and a room
// (solid outside) with material properties, a kinematic raft that names
// its path (a polyline of class path) with a crate falling on it.
export function objectsMap() {
  const W = 24;
  const H = 12;
  const data = [];
  for (let row = 0; row < H; ++row) {
    for (let col = 0; col < W; ++col) {
      const y = H - 1 - row;
      const belt = y === 0 && col >= 2 && col <= 6 ? (col >= 5 ? (4 | 0x80000000) >>> 0 : 4) : 0;
      data.push(belt || (y === 0 || col === 0 || col === W - 1 ? 1 : y === 1 && col === 8 ? 2 : y === 1 && col === 12 ? 3 : 0));
    }
  }
  const px = 16;
  const circle12 = Array.from({ length: 12 }, (_, k) => ({ x: 20 * Math.cos((k * Math.PI) / 6), y: 20 * Math.sin((k * Math.PI) / 6) }));
  const props = [
    { name: 'i', type: 'int', value: 7 }, { name: 'f', type: 'float', value: 0.25 }, { name: 's', type: 'string', value: 'x' },
    { name: 'c', type: 'color', value: '#ff00ff00' }, { name: 'file', type: 'file', value: 'a.png' },
    { name: 'o', type: 'object', value: 3 }, { name: 'b', type: 'bool', value: true },
    { name: 'k', type: 'class', value: { a: 1 } },
  ];
  return {
    type: 'map', orientation: 'orthogonal', infinite: false, width: W, height: H, tilewidth: px, tileheight: px,
    tilesets: [{
      firstgid: 1, name: 'tiles', tilewidth: px, tileheight: px, tilecount: 4, columns: 4,
      tiles: [
        { id: 0, properties: [{ name: 'ledge_tile', type: 'string', value: 'FULL' }] },
        { id: 1, properties: [{ name: 'ledge_tile', type: 'string', value: '45DEG_PN' }] },
        { id: 2, properties: [{ name: 'ledge_tile', type: 'int', value: 30 }] },
        {
          id: 3, properties: [{ name: 'ledge_tile', type: 'string', value: 'FULL' }, { name: 'friction', type: 'float', value: 0.5 },
            { name: 'surface_speed', type: 'float', value: 2 }, { name: 'friction_mix', type: 'string', value: 'max' }],
        },
      ],
    }],
    layers: [
      { type: 'tilelayer', name: 'ground', width: W, height: H, x: 0, y: 0, data },
      {
        type: 'objectgroup', name: 'things', objects: [
          { id: 1, name: 'box', x: 32, y: 96, width: 16, height: 16, properties: [{ name: 'body', type: 'string', value: 'dynamic' }, { name: 'friction', type: 'float', value: 0.4 }, { name: 'friction_mix', type: 'string', value: 'min' }] },
          { id: 2, name: 'tilted', type: 'dynamic', x: 64, y: 80, width: 24, height: 12, rotation: 30 },
          { id: 3, name: 'turned', x: 100, y: 90, width: 30, height: 10, rotation: 90, properties: [{ name: 'body', type: 'string', value: 'kinematic' }, { name: 'velocity_x', type: 'float', value: 1.5 }] },
          { id: 4, name: 'tile', gid: 1, x: 140, y: 120, width: 16, height: 16, properties: [{ name: 'body', type: 'string', value: 'dynamic' }, { name: 'density', type: 'int', value: 2 }] },
          { id: 5, name: 'ball', ellipse: true, x: 170, y: 60, width: 14, height: 14, properties: [{ name: 'body', type: 'string', value: 'dynamic' }, { name: 'bounce', type: 'float', value: 0.5 }] },
          { id: 6, name: 'ell', x: 200, y: 150, polygon: [{ x: 0, y: 0 }, { x: 48, y: 0 }, { x: 48, y: 16 }, { x: 16, y: 16 }, { x: 16, y: 40 }, { x: 0, y: 40 }] },
          { id: 7, name: 'round', class: 'kinematic', x: 300, y: 100, polygon: circle12, properties: [{ name: 'velocity_y', type: 'float', value: -0.5 }] },
          { id: 8, name: 'wedge', x: 260, y: 60, polygon: [{ x: 0, y: 0 }, { x: 20, y: 10 }, { x: -4, y: 18 }], properties: [{ name: 'body', type: 'string', value: 'dynamic' }] },
          { id: 9, name: 'spawn', point: true, x: 40, y: 40, properties: props },
          { id: 10, name: 'label', text: { text: 'hi' }, x: 10, y: 10, width: 40, height: 10 },
        ],
      },
      {
        type: 'group', name: 'moved', offsetx: 16, offsety: -8, layers: [
          {
            type: 'objectgroup', name: 'inner', offsetx: 4, offsety: 4, objects: [
              { id: 11, name: 'zone', class: 'sensor', x: 120, y: 150, width: 40, height: 20 },
              { id: 12, name: 'bridge', x: 60, y: 130, width: 48, height: 4, properties: [{ name: 'one_way', type: 'bool', value: true }, { name: 'surface_speed', type: 'float', value: -1.5 }, { name: 'friction', type: 'float', value: 0.3 }] },
            ],
          },
        ],
      },
      {
        type: 'objectgroup', name: 'chains', objects: [
          { id: 13, name: 'hill', x: 290, y: 176, polyline: [{ x: 0, y: 0 }, { x: 20, y: -20 }, { x: 50, y: -20 }, { x: 76, y: 0 }] },
          { id: 14, name: 'crate', x: 314, y: 120, width: 12, height: 12, properties: [{ name: 'body', type: 'string', value: 'dynamic' }] },
          { id: 15, name: 'ceiling', x: 40, y: 24, polyline: [{ x: 0, y: 0 }, { x: 60, y: -8 }], properties: [{ name: 'facing', type: 'string', value: 'down' }, { name: 'friction', type: 'float', value: 0.2 }] },
          { id: 16, name: 'rock', x: 150, y: 30, polygon: [{ x: 0, y: 0 }, { x: 20, y: -10 }, { x: 30, y: 10 }, { x: 10, y: 20 }], properties: [{ name: 'chain', type: 'bool', value: true }, { name: 'bounce', type: 'float', value: 0.3 }] },
          { id: 17, name: 'room', x: 200, y: 20, polygon: [{ x: 0, y: 0 }, { x: 40, y: 0 }, { x: 40, y: 40 }, { x: 0, y: 40 }], properties: [{ name: 'chain', type: 'bool', value: true }, { name: 'solid', type: 'string', value: 'outside' }, { name: 'surface_speed', type: 'float', value: 1 }, { name: 'friction_mix', type: 'string', value: 'max' }] },
          { id: 18, name: 'raft', x: 40, y: 140, polyline: [{ x: 50, y: 0 }, { x: 0, y: 0 }], properties: [{ name: 'body', type: 'string', value: 'kinematic' }, { name: 'velocity_x', type: 'float', value: 0.5 }, { name: 'path', type: 'object', value: 19 }] },
          { id: 19, name: 'route', class: 'path', x: 40, y: 140, polyline: [{ x: 0, y: 0 }, { x: 80, y: 0 }, { x: 80, y: -20 }] },
        ],
      },
    ],
  };
}
