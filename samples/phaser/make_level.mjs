// Writes level.tmj, the sample's Tiled map (run: node make_level.mjs): a
// 100 x 24 map of 16 px tiles with a hill of each slope group (45, 22 and
// 67 degrees, up and down), one-way planks, a wall behind three crates,
// and an object layer with the player's spawn, the crates and the moving
// platform. Its tileset names every tile's ledge shape in the property
// `ledge_tile` (tile id i is ledge's tile i; tile 34 is a one-way plank).
import fs from 'node:fs';

const W = 100;
const H = 24;
const G = 20; // the ground's top row
const NAMES = ['EMPTY', 'FULL', '45DEG_PN', '45DEG_NN', '45DEG_NP', '45DEG_PP', 'CONCAVE_PN', 'CONCAVE_NN', 'CONCAVE_NP',
  'CONCAVE_PP', 'CONVEX_PN', 'CONVEX_NN', 'CONVEX_NP', 'CONVEX_PP', '22DEG_SMALL_PN', '22DEG_SMALL_NN', '22DEG_SMALL_NP',
  '22DEG_SMALL_PP', '22DEG_BIG_PN', '22DEG_BIG_NN', '22DEG_BIG_NP', '22DEG_BIG_PP', '67DEG_SMALL_PN', '67DEG_SMALL_NN',
  '67DEG_SMALL_NP', '67DEG_SMALL_PP', '67DEG_BIG_PN', '67DEG_BIG_NN', '67DEG_BIG_NP', '67DEG_BIG_PP', 'HALF_D', 'HALF_R',
  'HALF_U', 'HALF_L'];
const PLANK = 34;
const cells = Array.from({ length: H }, () => new Array(W).fill(0));
const put = (x, y, name) => { cells[y][x] = typeof name === 'number' ? name : NAMES.indexOf(name); };
const fill = (x, y0, y1) => { for (let y = y0; y <= y1; ++y) put(x, y, 'FULL'); };

for (let x = 0; x < W; ++x) fill(x, G, H - 1);
for (let y = 0; y < H; ++y) { put(0, y, 'FULL'); put(W - 1, y, 'FULL'); }
// 45 degrees: up three rows, a plateau, down.
put(6, 19, '45DEG_NN');
fill(7, 19, 19); put(7, 18, '45DEG_NN');
fill(8, 18, 19); put(8, 17, '45DEG_NN');
fill(9, 17, 19); fill(10, 17, 19);
put(11, 17, '45DEG_PN'); fill(11, 18, 19);
put(12, 18, '45DEG_PN'); fill(12, 19, 19);
put(13, 19, '45DEG_PN');
// 22 degrees: two tiles a row.
put(16, 19, '22DEG_SMALL_NN'); put(17, 19, '22DEG_BIG_NN');
put(18, 18, '22DEG_SMALL_NN'); fill(18, 19, 19); put(19, 18, '22DEG_BIG_NN'); fill(19, 19, 19);
fill(20, 18, 19); fill(21, 18, 19);
put(22, 18, '22DEG_BIG_PN'); fill(22, 19, 19); put(23, 18, '22DEG_SMALL_PN'); fill(23, 19, 19);
put(24, 19, '22DEG_BIG_PN'); put(25, 19, '22DEG_SMALL_PN');
// 67 degrees: two rows a tile.
put(28, 19, '67DEG_BIG_NN'); put(28, 18, '67DEG_SMALL_NN');
fill(29, 18, 19); put(29, 17, '67DEG_BIG_NN'); put(29, 16, '67DEG_SMALL_NN');
fill(30, 16, 19); fill(31, 16, 19);
put(32, 16, '67DEG_SMALL_PN'); put(32, 17, '67DEG_BIG_PN'); fill(32, 18, 19);
put(33, 18, '67DEG_SMALL_PN'); put(33, 19, '67DEG_BIG_PN');
// One-way planks, four rows up.
for (let x = 38; x <= 43; ++x) put(x, 16, PLANK);
// The wall behind the crates.
for (let x = 67; x <= 68; ++x) fill(x, 12, 19);

const T = 16;
const tiles = NAMES.map((name, id) => ({ id, properties: [{ name: 'ledge_tile', type: 'string', value: name }] }));
tiles.push({ id: PLANK, properties: [{ name: 'ledge_tile', type: 'string', value: 'FULL' }, { name: 'ledge_one_way', type: 'string', value: 'up' }] });
let id = 1;
const obj = (o) => ({ id: id++, rotation: 0, visible: true, type: '', ...o });
const map = {
  type: 'map', version: '1.10', tiledversion: '1.10.2', orientation: 'orthogonal', renderorder: 'right-down',
  infinite: false, width: W, height: H, tilewidth: T, tileheight: T, nextlayerid: 3, nextobjectid: 10,
  tilesets: [{
    firstgid: 1, name: 'ledge', image: 'ledge_tiles.png', imagewidth: 35 * T, imageheight: T, tilewidth: T, tileheight: T,
    tilecount: 35, columns: 35, margin: 0, spacing: 0, tiles,
  }],
  layers: [
    { id: 1, name: 'ground', type: 'tilelayer', x: 0, y: 0, width: W, height: H, opacity: 1, visible: true,
      data: cells.flat().map((t) => (t ? t + 1 : 0)) },
    { id: 2, name: 'things', type: 'objectgroup', x: 0, y: 0, opacity: 1, visible: true, draworder: 'topdown', objects: [
      obj({ name: 'spawn', point: true, x: 3 * T, y: (G - 0.5) * T, width: 0, height: 0 }),
      obj({ name: 'platform', x: 46 * T, y: 17.25 * T, width: 3 * T, height: 0.5 * T,
        properties: [{ name: 'to_x', type: 'float', value: 56 * T }] }),
      ...[62, 63.2, 64.4].map((x) => obj({ name: 'crate', x: x * T, y: (G - 1) * T, width: T, height: T })),
    ] },
  ],
};
fs.writeFileSync(new URL('./level.tmj', import.meta.url), `${JSON.stringify(map)}\n`);
console.log('wrote level.tmj');
