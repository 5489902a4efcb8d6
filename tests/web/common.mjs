// Shared by the node tests of the browser build (docs/web.md): where the
// built modules are, and how to load them under node (emcc 3.1.6's loader
// cannot fetch a file path, so the .wasm bytes are passed in).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const bindingDir = path.join(root, 'src/bindings/js');
// The wasm test module (build.sh test) and the native replay program.
export const wasmDir = process.env.LEDGE_WASM_DIR || path.join(root, 'build/wasm');
export const nativeReplay =
  process.env.LEDGE_REPLAY_HASHES || path.join(root, 'build/release/tests/replay_hashes');

export async function loadLedge() {
  const { init } = await import(path.join(bindingDir, 'ledge.mjs'));
  return init({ wasmBinary: fs.readFileSync(path.join(bindingDir, 'dist/ledge_wasm.wasm')) });
}

export async function loadReplay() {
  const create = (await import(path.join(wasmDir, 'ledge_replay.mjs'))).default;
  return create({ wasmBinary: fs.readFileSync(path.join(wasmDir, 'ledge_replay.wasm')) });
}

export const hex = (high, low) =>
  (high >>> 0).toString(16).padStart(8, '0') + (low >>> 0).toString(16).padStart(8, '0');

export { rainWorld } from './rain.mjs';
