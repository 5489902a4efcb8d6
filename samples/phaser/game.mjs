// The sample platformer of ledge-phaser (docs/phaser.md): a Tiled map
// loaded by Phaser (level.tmj) with a hill of each slope group, one-way
// planks, a moving platform and crates, played with the arrows and space
// (down: drop through a plank; D: the debug view; S / L: save and load the
// physics state). ?phaser=3 runs it on Phaser 3, ?autopilot=1 plays the
// scripted run the browser test checks (window.ledgeSample; ?speed=3
// runs it three fixed steps a frame, ?renderer=canvas without WebGL).
import { init } from 'ledge-physics';
import { createLedgePlugin } from 'ledge-phaser';

const T = 16;
const RUN = 8 * T; // pixels per second
const JUMP = 22.5 * T;
const params = new URLSearchParams(location.search);
const ledge = await init();
const report = { phase: 'start', steps: 0, airborneOnSlopes: 0, slopeSteps: 0, passes: 0, landedOnPlank: false,
  droppedThrough: false, rodeSteps: 0, rideDistance: 0, crateInWall: false, crateMaxRight: 0, playerPassedCrates: false,
  crateTouches: 0, done: false, fps: [], errors: [] };

// The tileset's picture, drawn from ledge's own outlines (tile i is ledge's tile i; 34 a plank).
function tilesetCanvas() {
  const c = document.createElement('canvas');
  c.width = 35 * T;
  c.height = T;
  const g = c.getContext('2d');
  for (let t = 1; t < 35; ++t) {
    const o = ledge.tileOutline(t === 34 ? ledge.Tile.HALF_U : t, { x: 0, y: 0 }, 1);
    g.fillStyle = t === 34 ? '#b08040' : '#5a6b8c';
    g.strokeStyle = '#9fb4d9';
    g.beginPath();
    o.points.forEach((p, i) => (i ? g.lineTo : g.moveTo).call(g, t * T + p.x * T, p.y * T));
    g.closePath();
    g.fill();
    g.stroke();
  }
  return c;
}

class Level extends Phaser.Scene {
  constructor() {
    super('level');
  }
  preload() {
    this.load.tilemapTiledJSON('level', 'level.tmj');
  }
  create() {
    this.textures.addCanvas('ledge_tiles', tilesetCanvas());
    const map = this.make.tilemap({ key: 'level' });
    const tiles = map.addTilesetImage('ledge', 'ledge_tiles');
    const layer = map.createLayer('ground', tiles, 0, 0);
    // The world from the layer: each tile's shape from its tileset property ledge_tile.
    this.ledge.fromTilemapLayer(layer, { gravity: 50 * T });
    const things = map.getObjectLayer('things').objects;
    const spawn = things.find((o) => o.name === 'spawn');
    this.player = this.add.rectangle(spawn.x, spawn.y - 0.5 * T, 0.6 * T, 0.9 * T, 0x6ee07a);
    this.hero = this.ledge.add.character(this.player, { move: { maxFloorSlope: 1.15, stepHeight: 0.55 } });
    this.crates = things.filter((o) => o.name === 'crate').map((o) => {
      const r = this.add.rectangle(o.x + o.width / 2, o.y + o.height / 2, o.width, o.height, 0xd9a441);
      this.ledge.add.body(r, { friction: 0.5, enableEvents: true });
      return r;
    });
    const p = things.find((o) => o.name === 'platform');
    const toX = p.properties.find((q) => q.name === 'to_x').value;
    this.platform = this.add.rectangle(p.x + p.width / 2, p.y + p.height / 2, p.width, p.height, 0x8080e6);
    this.platformBody = this.ledge.add.mover(this.platform, {
      points: [{ x: this.platform.x, y: this.platform.y }, { x: toX + p.width / 2, y: this.platform.y }], speed: 3 * T, oneWay: 'up',
    });
    this.cameras.main.setBounds(0, 0, map.widthInPixels, map.heightInPixels);
    this.cameras.main.startFollow(this.player, true);
    this.keys = this.input.keyboard.addKeys('LEFT,RIGHT,UP,DOWN,SPACE,D,S,L');
    this.hud = this.add.text(4, 4, '', { fontFamily: 'monospace', fontSize: '10px', color: '#ffffff' }).setScrollFactor(0);
    this.input.keyboard.on('keydown-D', () => this.ledge.debug(!this.ledge._graphics));
    this.input.keyboard.on('keydown-S', () => { this.saved = this.ledge.save(); });
    this.input.keyboard.on('keydown-L', () => this.saved && this.ledge.restore(this.saved));
    this.autopilot = params.get('autopilot') === '1';
    this.ledge.timeScale = Number(params.get('speed') || 1); // the test runs the autopilot at 3x
    this.ledge.events.on('prestep', () => (this.autopilot ? this.pilot() : this.play()));
    this.ledge.events.on('poststep', () => this.record());
    // ledge's events arrive in Phaser's emitter, with the game objects.
    this.ledge.events.on('touchstart', (a, b) => {
      if (this.crates.includes(a) || this.crates.includes(b)) report.crateTouches++;
    });
    window.ledgeSample = { report, plugin: this.ledge, scene: this, phaser: Phaser.VERSION };
  }
  play() {
    const k = this.keys;
    this.hero.setVelocityX((k.RIGHT.isDown ? RUN : 0) - (k.LEFT.isDown ? RUN : 0));
    if (Phaser.Input.Keyboard.JustDown(k.SPACE) || Phaser.Input.Keyboard.JustDown(k.UP)) this.hero.jump(JUMP);
    if (Phaser.Input.Keyboard.JustDown(k.DOWN)) this.hero.dropThrough();
  }
  // The scripted run: slopes right, left and right again; up through the
  // planks and down through them; onto the moving platform; into the crates.
  pilot() {
    const s = this.hero.state;
    const x = s.position.x;
    const ph = report.phase;
    const go = (vx) => this.hero.setVelocityX(vx);
    if (ph === 'start') report.phase = 'right1';
    else if (ph === 'right1') { go(RUN); if (x >= 36) report.phase = 'left'; }
    else if (ph === 'left') { go(-RUN); if (x <= 4) report.phase = 'right2'; }
    else if (ph === 'right2') { go(RUN); if (x >= 36.5) report.phase = 'toPlank'; }
    else if (ph === 'toPlank') { go(RUN); if (x >= 40.5) { go(0); report.phase = 'jump'; } }
    else if (ph === 'jump') { go(0); if (s.onFloor && this.hero.jump(JUMP)) report.phase = 'rise'; }
    else if (ph === 'rise') {
      if (s.onFloor && s.position.y < 16.1) {
        report.landedOnPlank = s.floorIsTile && s.floorCell.y === 16;
        report.phase = 'drop';
        this.wait = 20;
      }
    } else if (ph === 'drop') {
      if (--this.wait === 0) { this.hero.dropThrough(); report.phase = 'falling'; }
    } else if (ph === 'falling') {
      if (s.onFloor && s.position.y > 19) { report.droppedThrough = true; report.phase = 'toPlatform'; }
    } else if (ph === 'toPlatform') {
      go(x < 48.5 ? RUN : 0);
      const px = this.platformBody.position.x;
      if (x >= 48.5 && s.onFloor && Math.abs(px - x) < 0.4) { this.hero.jump(JUMP * 0.8); report.phase = 'boarding'; }
    } else if (ph === 'boarding') {
      go(0);
      if (s.onFloor && s.floorBody === this.platformBody) { report.phase = 'ride'; this.rideFrom = x; this.wait = 150; }
      else if (s.onFloor && s.position.y > 19 && s.velocity.y >= 0 && this.hero.state.timeSinceFloor === 0 && ++this.missed > 30) report.phase = 'toPlatform';
    } else if (ph === 'ride') {
      go(0);
      if (s.floorBody === this.platformBody) report.rodeSteps++;
      report.rideDistance = Math.max(report.rideDistance, Math.abs(x - this.rideFrom));
      if (--this.wait === 0) report.phase = 'crates';
    } else if (ph === 'crates') {
      go(RUN);
      if (x >= 60) { report.phase = 'push'; this.wait = 120; }
    } else if (ph === 'push') {
      go(RUN);
      if (--this.wait === 0) { go(0); report.phase = 'done'; report.done = true; }
    }
  }
  record() {
    const s = this.hero.state;
    report.steps = this.ledge.steps;
    const x = s.position.x;
    if ((report.phase === 'right1' || report.phase === 'left' || report.phase === 'right2') && x > 5.5 && x < 34.5) {
      report.slopeSteps++;
      if (!s.onFloor) report.airborneOnSlopes++;
    }
    for (const c of this.crates) {
      const b = c.ledgeBody.position;
      report.crateMaxRight = Math.max(report.crateMaxRight, b.x + 0.5);
      // The player pushes the crates against the wall: they rest in contact,
      // overlapping it by at most twice the world's linear slop (0.005).
      if (b.x + 0.5 > 67.01) report.crateInWall = true;
      if (x > b.x) report.playerPassedCrates = true;
    }
  }
  update() {
    const s = this.hero.state;
    this.hud.setText(`ledge-phaser on Phaser ${Phaser.VERSION}  fps ${this.game.loop.actualFps.toFixed(0)}  step ${this.ledge.steps}\n` +
      `on floor ${s.onFloor}  wall ${s.onWall}  coyote ${s.timeSinceFloor.toFixed(2)}  ${this.autopilot ? `autopilot: ${report.phase}` : 'arrows, space, down, D, S/L'}`);
    if (this.game.loop.frame % 30 === 0) report.fps.push(this.game.loop.actualFps);
  }
}

window.addEventListener('error', (e) => report.errors.push(String(e.message)));
new Phaser.Game({
  type: params.get('renderer') === 'canvas' ? Phaser.CANVAS : Phaser.AUTO,
  width: 800,
  height: 384,
  backgroundColor: '#1c2330',
  parent: 'game',
  pixelArt: true,
  scene: [Level],
  plugins: { scene: [{ key: 'LedgePlugin', plugin: createLedgePlugin(ledge), mapping: 'ledge' }] },
});
