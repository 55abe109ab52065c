// Reads a LAS file with an independent reader, @loaders.gl/las (its LAZRsLoader, the one that
// reads LAS 1.4), and prints what it saw as JSON: the point count, positions, intensities and
// 16-bit colours. usage: node las_check.mjs FILE [--fp32]  (--fp32: the loader's float32 default)
import {readFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import {dirname, join} from 'node:path';
import {pathToFileURL} from 'node:url';
import {parse} from '@loaders.gl/core';
import {LAZRsLoader} from '@loaders.gl/las';

// The loader fetches its WebAssembly next to its own module, which Node's fetch cannot do for
// file URLs: initialise that same module instance with the bytes instead.
const wasmDir = join(dirname(createRequire(import.meta.url).resolve('@loaders.gl/las')), 'libs', 'laz-rs-wasm');
const {default: initWasm} = await import(pathToFileURL(join(wasmDir, 'laz_rs_wasm.js')).href);
await initWasm({module_or_path: readFileSync(join(wasmDir, 'laz_rs_wasm_bg.wasm'))});

const [file, mode] = process.argv.slice(2);
const bytes = readFileSync(file);
const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
const fp64 = mode !== '--fp32';
const mesh = await parse(buffer, LAZRsLoader, {worker: false, las: {fp64, colorDepth: 16, shape: 'mesh'}});
const color = mesh.attributes.COLOR_0;
process.stdout.write(JSON.stringify({
  count: mesh.header.vertexCount,
  version: mesh.loaderData.versionAsString,
  point_format: mesh.loaderData.pointsFormatId,
  position_type: mesh.attributes.POSITION.value.constructor.name,
  positions: Array.from(mesh.attributes.POSITION.value),
  intensities: Array.from(mesh.attributes.intensity.value),
  colors: color ? Array.from(color.value) : null,
}));
