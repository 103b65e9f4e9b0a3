// snapshot.mjs: starts Pyodide from the memory snapshot the site build made, and defines that file's format.
// What it is: the only code of the site that touches Pyodide's private snapshot API (`loadPyodide`'s
// `_loadSnapshot` option; the build uses `_makeSnapshot` and `makeMemorySnapshot()` in
// site_scripts/hooks/make_snapshot.mjs, which imports the format from here). Private means it may
// change in any release: Pyodide is pinned (package.json, 314.0.7), the build fails when it cannot make
// and re-read a snapshot, and tests/site/test_snapshot.py fails when a page no longer boots from it.
// A snapshot is the interpreter's memory after start-up with the engine and the lesson's modules already
// imported, so a page skips most of Python's start-up. It holds memory only: the worker still unpacks
// the wheels into the file system on every boot.
// The file (assets/snapshot/python-snapshot.bin): MAGIC, a little-endian u32 header length, the JSON
// header (format, Pyodide version, sha256 of the wheels and of the engine, sizes), then a gzip stream
// of: a bitmap of the non-zero PAGE_SIZE pages of the raw snapshot, followed by those pages. Before the
// pages are cut, the raw snapshot is XORed with the WebAssembly module's own data segments (which
// start-up mostly leaves as they are) and the build zeroes free and dead memory, so most pages are zero:
// 31 MB of memory become about 3.6 MB to download. gzip because it is what DecompressionStream reads in
// every browser; the decoder gets the wasm bytes by reading a copy of Pyodide's own wasm download.
// What it is not: the worker (worker.mjs decides what happens when this gives up) nor the maker.
// Anything unexpected (no file, another build's or Pyodide's snapshot, corrupt bytes, an API that
// changed) makes bootFromSnapshot return null, and the worker boots Python the plain way.

export const FORMAT = "lesson-python-snapshot/1";
export const SNAPSHOT_PATH = "snapshot/python-snapshot.bin"; // under assets/
export const PAGE_SIZE = 4096;
const MAGIC = new TextEncoder().encode("PYSNAP01");
const HEADER_START = MAGIC.length + 4; // magic, then the JSON header's length
const MAX_HEADER_BYTES = 1 << 16;
const WASM_REQUEST_TIMEOUT_MS = 10_000; // Pyodide asks for its wasm at once; if not, the API changed

/**
 * Boot Pyodide from the snapshot at `snapshotURL`, or return null (the caller then boots plainly).
 * `lessonWheels`: promise of the wheels' bytes (ArrayBuffers, wheels.json order); the snapshot must
 * have been made from exactly these. `loadPyodide` and `version` come from the site's pyodide.mjs.
 */
export async function bootFromSnapshot({ loadPyodide, version, indexURL, snapshotURL, lessonWheels }) {
  let snapshot;
  try {
    snapshot = await openSnapshot(snapshotURL, version);
  } catch (error) {
    console.info(`Python starts without its snapshot: ${error.message}`);
    return null;
  }
  const wasm = copyOfWasmDownload(new URL("pyodide.asm.wasm", indexURL).href);
  const memory = (async () => {
    const [pages, wasmBytes, wheels] = await Promise.all([snapshot.pages, wasm.bytes, lessonWheels]);
    if (await wheelsDigest(wheels) !== snapshot.header.wheels) throw new Error("it was made from other wheels");
    return decodeMemory(pages, snapshot.header, wasmBytes);
  })();
  memory.catch(() => {}); // Pyodide awaits it; a rejection is reported below
  try {
    const pyodide = await loadPyodide({ indexURL, _loadSnapshot: memory });
    // Pyodide copied the 31 MB into its own memory but keeps our promise: empty its buffer by
    // transferring it to a copy nobody holds.
    const loaded = await memory;
    structuredClone(loaded.buffer, { transfer: [loaded.buffer] });
    pyodide.runPython("__import__('random').seed()"); // else every boot would draw the build's numbers
    return pyodide;
  } catch (error) {
    console.warn(`Python starts without its snapshot: ${error.message}`);
    return null;
  } finally {
    wasm.stop();
  }
}

/** Fetch the snapshot and check its header as soon as it arrives; resolves to { header, pages } where
 *  pages is a promise of the un-gzipped rest (decompressed while it downloads), or throws saying why
 *  this snapshot cannot be used. */
async function openSnapshot(url, version) {
  const response = await fetch(url, { cache: "no-cache" }); // same name in every build: revalidate
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  const reader = response.body.getReader();
  const chunks = [];
  let received = 0;
  const receive = async (atLeast) => {
    while (received < atLeast) {
      const { done, value } = await reader.read();
      if (done) throw new Error("the snapshot file is truncated");
      chunks.push(value);
      received += value.length;
    }
    return joinBytes(chunks);
  };
  let start = await receive(HEADER_START);
  const headerLength = readHeaderLength(start);
  start = await receive(HEADER_START + headerLength);
  const header = parseHeader(start.subarray(HEADER_START, HEADER_START + headerLength));
  const mismatch = header.format !== FORMAT ? `its format is ${JSON.stringify(header.format)}`
    : header.pyodide !== version ? `it was made with Pyodide ${header.pyodide}, this is ${version}` : null;
  if (mismatch) {
    reader.cancel();
    throw new Error(mismatch);
  }
  const body = new ReadableStream({
    start(controller) {
      const cameWithTheHeader = start.subarray(HEADER_START + headerLength);
      if (cameWithTheHeader.length) controller.enqueue(cameWithTheHeader);
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  const pages = gunzip(body);
  pages.catch(() => {});
  return { header, pages };
}

/** The bytes of a gzip stream, un-gzipped by the browser (DecompressionStream; gzip is the format it
 *  reads in every browser). */
export async function gunzip(stream) {
  const unzipped = new Response(stream.pipeThrough(new DecompressionStream("gzip")));
  try {
    return new Uint8Array(await unzipped.arrayBuffer());
  } catch {
    throw new Error("the snapshot's compressed data is damaged or cut short");
  }
}

function readHeaderLength(bytes) {
  if (!MAGIC.every((byte, index) => bytes[index] === byte)) throw new Error("the file is not a lesson snapshot");
  const length = new DataView(bytes.buffer, bytes.byteOffset).getUint32(MAGIC.length, true);
  if (length > MAX_HEADER_BYTES) throw new Error("the snapshot's header is damaged");
  return length;
}

function parseHeader(bytes) {
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new Error("the snapshot's header is damaged");
  }
}

/** The snapshot file's first bytes for `header` (the maker writes them, then the gzip body). */
export function headerBytes(header) {
  const json = new TextEncoder().encode(JSON.stringify(header));
  const bytes = new Uint8Array(HEADER_START + json.length);
  bytes.set(MAGIC);
  new DataView(bytes.buffer).setUint32(MAGIC.length, json.length, true);
  bytes.set(json, HEADER_START);
  return bytes;
}

/** The raw snapshot Pyodide reads, from the un-gzipped body `plain`: put the pages back, undo the XOR. */
export function decodeMemory(plain, header, wasmBytes) {
  const memory = new Uint8Array(header.rawLength);
  const pages = Math.ceil(header.rawLength / PAGE_SIZE);
  let next = Math.ceil(pages / 8); // the pages follow the bitmap
  for (let page = 0; page < pages; page++) {
    if (!(plain[page >> 3] & (1 << (page & 7)))) continue;
    const start = page * PAGE_SIZE;
    const length = Math.min(PAGE_SIZE, header.rawLength - start);
    memory.set(plain.subarray(next, next + length), start);
    next += length;
  }
  if (next !== plain.length) throw new Error("the snapshot's pages do not add up");
  xorDataSegments(memory, header.heapOffset, dataSegments(wasmBytes));
  return memory;
}

/** XOR each data segment of the wasm into `memory` where it lies in the snapshot (the snapshot's
 *  heap starts at `heapOffset`). Applied twice it restores the original, so it encodes and decodes. */
export function xorDataSegments(memory, heapOffset, segments) {
  for (const { address, bytes } of segments) {
    const target = memory.subarray(heapOffset + address, heapOffset + address + bytes.length);
    for (let index = 0; index < bytes.length; index++) target[index] ^= bytes[index];
  }
}

/** The active data segments of a wasm module: [{ address, bytes }] (section 11 of the binary format). */
export function dataSegments(wasm) {
  const bytes = new Uint8Array(wasm);
  let at = 8; // after the magic number and version
  const unsigned = () => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = bytes[at++];
      value += (byte & 0x7f) * 2 ** shift;
      if (!(byte & 0x80)) return value;
    }
  };
  const signed32 = () => {
    let value = 0, shift = 0, byte;
    do {
      byte = bytes[at++];
      value |= (byte & 0x7f) << shift;
      shift += 7;
    } while (byte & 0x80);
    return shift < 32 && byte & 0x40 ? value | (-1 << shift) : value;
  };
  const segments = [];
  while (at < bytes.length) {
    const section = bytes[at++];
    const size = unsigned();
    const end = at + size;
    if (section === 11) {
      for (let count = unsigned(); count > 0; count--) {
        const kind = unsigned();
        if (kind !== 0) throw new Error(`wasm data segment of kind ${kind} (only active ones of memory 0 known)`);
        if (bytes[at++] !== 0x41) throw new Error("wasm data segment whose address is not an i32.const");
        const address = signed32() >>> 0;
        if (bytes[at++] !== 0x0b) throw new Error("wasm data segment address expression too long");
        const length = unsigned();
        segments.push({ address, bytes: bytes.subarray(at, at + length) });
        at += length;
      }
    }
    at = end;
  }
  return segments;
}

/** sha256 (hex) of the wheels' bytes one after the other: which wheels a snapshot was made from. */
export async function wheelsDigest(wheels) {
  const digest = await crypto.subtle.digest("SHA-256", await new Blob(wheels).arrayBuffer());
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** While Pyodide starts, its request for `wasmURL` is answered as usual and a copy of the bytes is
 *  kept for the XOR (no second download). Pyodide asks at once; a timeout covers a release that stops. */
function copyOfWasmDownload(wasmURL) {
  const plainFetch = globalThis.fetch;
  let resolve, reject;
  const bytes = new Promise((...settle) => { [resolve, reject] = settle; });
  const timeout = setTimeout(() => reject(new Error("Pyodide did not ask for its wasm")), WASM_REQUEST_TIMEOUT_MS);
  globalThis.fetch = async (resource, options) => {
    const url = resource instanceof Request ? resource.url : String(resource);
    if (url !== wasmURL) return plainFetch(resource, options);
    clearTimeout(timeout);
    globalThis.fetch = plainFetch;
    const response = await plainFetch(resource, options);
    if (!response.ok) reject(new Error(`${url} answered ${response.status}`));
    else response.clone().arrayBuffer().then(resolve, reject);
    return response;
  };
  return {
    bytes,
    stop() {
      clearTimeout(timeout);
      if (globalThis.fetch !== plainFetch) globalThis.fetch = plainFetch;
    },
  };
}

function joinBytes(chunks) {
  if (chunks.length === 1) return chunks[0];
  const joined = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    joined.set(chunk, at);
    at += chunk.length;
  }
  chunks.splice(0, chunks.length, joined);
  return joined;
}
