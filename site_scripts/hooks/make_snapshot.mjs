// make_snapshot.mjs: makes the built site's Python memory snapshot, under Node, at build time.
// Usage: node site_scripts/hooks/make_snapshot.mjs <built site folder>   (run by hooks/snapshot.py)
// What it is: it boots the very Pyodide the site ships (assets/vendor/pyodide/) with `_makeSnapshot`,
// installs the site's own wheels (assets/wheels/, with the browser worker's wheels.mjs), imports
// what pages need at once (the engine `tinygrad`, the runtime `tutor.runtime` and every figure model
// `tutor.figures.*`), runs one block as a page would (tutor.runtime.warm_up), zeroes memory nobody
// uses (free malloc blocks, the dead part of the stack) so it compresses away, and writes
// assets/snapshot/python-snapshot.bin in the format of site_scripts/browser/runtime/snapshot.mjs.
// It then decodes the file with that module's browser code and checks it gives back the same bytes.
// Prints one JSON line of sizes and times. Exits non-zero, saying why, on any failure.
// What it is not: part of the site (the browser never loads it) nor the decision to use a snapshot
// (the worker's, through snapshot.mjs). The snapshot API is private to Pyodide; see snapshot.mjs.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";

import {
  FORMAT, PAGE_SIZE, SNAPSHOT_PATH, dataSegments, gunzip, headerBytes, placePages, wheelsDigest, xorDataSegments,
} from "../browser/runtime/snapshot.mjs";
import { installWheel, readWheel } from "../browser/runtime/wheels.mjs";

const LARGEST_FILL_BLOCK = 64 << 20;
const STACK_IN_USE_MARGIN = 1024; // bytes just below the stack pointer left alone (JS frames calling in)

async function main(siteFolder) {
  const started = performance.now();
  const assets = join(resolve(siteFolder), "assets");
  const pyodideFolder = join(assets, "vendor", "pyodide") + "/";
  const { loadPyodide, version } = await import(pathToFileURL(join(pyodideFolder, "pyodide.mjs")).href);
  const wheelsFolder = join(assets, "wheels");
  const wheelNames = JSON.parse(readFileSync(join(wheelsFolder, "wheels.json"), "utf8")).packages;
  const wheels = wheelNames.map((name) => new Uint8Array(readFileSync(join(wheelsFolder, name))));
  const engine = readFileSync(join(resolve(siteFolder), "tinygrad.py"));

  const pyodide = await loadPyodide({ indexURL: pyodideFolder, _makeSnapshot: true });
  const booted = performance.now();
  for (const wheel of wheels) installWheel(pyodide, await readWheel(wheel));
  const { modules, warmUp } = prepareSnapshot(pyodide);
  zeroFreeMemory(pyodide._module);
  zeroDeadStack(pyodide._module);
  const raw = pyodide.makeMemorySnapshot();

  const wasm = new Uint8Array(readFileSync(join(pyodideFolder, "pyodide.asm.wasm")));
  const header = {
    format: FORMAT,
    pyodide: version,
    wheels: await wheelsDigest(wheels),
    engine: createHash("sha256").update(engine).digest("hex"),
    modules,
    warmUp, // what the warm-up block printed (tests compare it with CPython's)
    rawLength: raw.length,
    heapOffset: new DataView(raw.buffer, raw.byteOffset).getUint32(4, true), // Pyodide's own header size
    pages: "gzip", // the build's .br copy holds them stored (site_scripts/hooks/gzip_copies.py)
  };
  const body = encodeMemory(raw, header.heapOffset, wasm);
  const decoded = new Uint8Array(raw.length);
  placePages(decoded, await gunzip(new Blob([body]).stream()), header);
  xorDataSegments(decoded, header.heapOffset, dataSegments(wasm));
  if (Buffer.compare(decoded, raw) !== 0) {
    throw new Error("the encoded snapshot does not decode to the same bytes");
  }
  const target = join(assets, ...SNAPSHOT_PATH.split("/"));
  mkdirSync(join(target, ".."), { recursive: true });
  const file = Buffer.concat([headerBytes(header), body]);
  writeFileSync(target, file);
  console.log(JSON.stringify({
    file: target, bytes: file.length, rawBytes: raw.length, modules: modules.length,
    bootSeconds: round((booted - started) / 1000), totalSeconds: round((performance.now() - started) / 1000),
  }));
}

/** Import what the pages need, run one small block the way a page does (a reader's first run then finds
 *  that work done) and name the lesson modules now in memory: tutor.runtime.warm_up.prepare_snapshot().
 *  Every proxy of a Python object is released before the snapshot is taken. */
function prepareSnapshot(pyodide) {
  const warmUpModule = pyodide.pyimport("tutor.runtime.warm_up");
  const prepared = warmUpModule.prepare_snapshot();
  const { modules, warmUp } = prepared.toJs({ dict_converter: Object.fromEntries });
  prepared.destroy();
  warmUpModule.destroy();
  return { modules, warmUp };
}

/** Fill every free malloc block with zeros: cap the heap at its size, take all its free memory in
 *  blocks as large as malloc grants (64 MiB down to 8 bytes), zero them, give them back, lift the cap. */
function zeroFreeMemory(module) {
  const limit = module._malloc_footprint_limit();
  module._malloc_set_footprint_limit(module._malloc_footprint());
  const taken = [];
  for (let size = LARGEST_FILL_BLOCK; size >= 8; size >>>= 1) {
    for (let block = module._malloc(size); block; block = module._malloc(size)) {
      module.HEAPU8.fill(0, block, block + size);
      taken.push(block);
    }
  }
  for (const block of taken) module._free(block);
  module._malloc_set_footprint_limit(limit);
}

/** Zero the stack below the current stack pointer: frames that returned long ago. */
function zeroDeadStack(module) {
  const lowest = module._emscripten_stack_get_end();
  const current = module._emscripten_stack_get_current();
  module.HEAPU8.fill(0, lowest, current - STACK_IN_USE_MARGIN);
}

/** The gzip body of the snapshot file: XOR the data segments out, keep a bitmap and the non-zero pages. */
function encodeMemory(raw, heapOffset, wasm) {
  const memory = Uint8Array.from(raw);
  xorDataSegments(memory, heapOffset, dataSegments(wasm));
  const pages = Math.ceil(memory.length / PAGE_SIZE);
  const bitmap = new Uint8Array(Math.ceil(pages / 8));
  const kept = [bitmap];
  for (let page = 0; page < pages; page++) {
    const content = memory.subarray(page * PAGE_SIZE, (page + 1) * PAGE_SIZE);
    if (content.every((byte) => byte === 0)) continue;
    bitmap[page >> 3] |= 1 << (page & 7);
    kept.push(content);
  }
  return gzipSync(Buffer.concat(kept), { level: 9 });
}

function round(seconds) {
  return Math.round(seconds * 100) / 100;
}

if (process.argv.length !== 3) {
  console.error("usage: node make_snapshot.mjs <built site folder>");
  process.exit(2);
}
main(process.argv[2]).catch((error) => {
  console.error(`make_snapshot.mjs: ${error?.stack ?? error}`.slice(0, 4000));
  process.exit(1);
});
