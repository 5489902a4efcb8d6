// ledge.d.ts declares what the binding maps: every field of every struct
// in the binding's table (ledge_js_layout.c) is declared, with a comment,
// in the interface of that struct, and every enum's values in its type. A
// field added to the table without its declaration fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { bindingDir, loadLedge } from './common.mjs';

const INTERFACES = {
  world_def: 'WorldDef', filter: 'Filter', body_def: 'BodyDef', query_filter: 'QueryFilter',
  move_def: 'MoveOptions', move_hit: 'MoveHit', move_result: 'MoveResult', character_def: 'CharacterDef',
  character_state: 'CharacterState', contact_data: 'Contact', ground: 'Ground', touch_event: 'TouchEvent',
  sensor_event: 'SensorEvent', crush_event: 'CrushEvent', profile: 'Profile', raycast_result: 'CastHit',
  distance_result: 'DistanceResult', nearest_result: 'NearestResult', tilemap_distance_result: 'TilemapDistanceResult',
  tile_hit: 'TileHit', ray_hit: 'RayHit', tile_outline: 'TileOutline',
  material: 'Material', joint_def: 'JointDef', chain_def: 'ChainDef',
  shape: null, // read by the binding itself (decompose, body.shape: ShapeInfo)
};
const ENUMS = {
  body_type: 'BodyType', response: 'Response', friction_law: 'FrictionLaw', one_way: 'OneWay',
  hit_kind: 'HitKind', platform_leave: 'PlatformLeave', shape_type: null, query_one_way: 'QueryOneWay',
  friction_mix: 'FrictionMix', joint_type: 'JointType',
};

test('every struct field and enum value the binding maps is declared in ledge.d.ts', async () => {
  const ledge = await loadLedge();
  const dts = fs.readFileSync(path.join(bindingDir, 'ledge.d.ts'), 'utf8');
  for (const [name, s] of Object.entries(ledge.structs)) {
    assert.ok(name in INTERFACES, `the table's struct ${name} has no interface in this test's list (and so none in ledge.d.ts)`);
    const iface = INTERFACES[name];
    if (!iface) continue;
    const m = dts.match(new RegExp(`export interface ${iface}(?: extends \\w+)? \\{([\\s\\S]*?)\\n\\}`));
    assert.ok(m, `ledge.d.ts has interface ${iface}`);
    for (const f of s.fields) {
      const decl = new RegExp(`/\\*\\*(?:(?!\\*/)[\\s\\S])*\\*/\\s*${f.js}\\??:`);
      assert.match(m[1], decl, `${iface}.${f.js} (${name}.${f.c}) is declared with its comment`);
    }
  }
  const table = JSON.parse(ledge.module.UTF8ToString(ledge.module._ledge_js_layout()));
  for (const [name, values] of Object.entries(table.enums)) {
    assert.ok(name in ENUMS, `the table's enum ${name} is in this test's list`);
    if (!ENUMS[name]) continue;
    const m = dts.match(new RegExp(`export type ${ENUMS[name]} = ([^;]*);`));
    assert.ok(m, `ledge.d.ts has type ${ENUMS[name]}`);
    for (const v of values.split(',')) assert.ok(m[1].includes(`'${v}'`), `${ENUMS[name]} has '${v}'`);
  }
});
