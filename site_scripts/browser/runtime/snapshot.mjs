// snapshot.mjs: starts Pyodide in the worker, from the memory snapshot the site build made when it can,
// and defines that file's format.
// What it is: the only code of the site that touches Pyodide's private start-up API: `loadPyodide`'s
// `_loadSnapshot` option (the build uses `_makeSnapshot` and `makeMemorySnapshot()` in
// site_scripts/hooks/make_snapshot.mjs, which imports the format from here), its experimental
// `createPyodideModule` option and Emscripten's `instantiateWasm` setting. Private means it may change
// in any release: Pyodide is pinned (package.json, 314.0.7), the build fails when it cannot make and
// re-read a snapshot, and tests/site/test_snapshot.py fails when a page no longer boots from it.
// A snapshot is the interpreter's memory after start-up with the engine and the lesson's modules already
// imported, so a page skips most of Python's start-up. It holds memory only: the worker still writes
// the wheels' files into the file system on every boot (wheels.mjs).
// Start-up order: the wasm download (compiled while it arrives), the snapshot download and the import
// of Pyodide's JavaScript all begin at once; Pyodide prepares itself as soon as the snapshot's header
// is in; the wasm is instantiated once it is compiled and the snapshot's memory is rebuilt (which needs
// the wasm's bytes). Without a usable snapshot the same compiled wasm starts Python the plain way.
// The file (assets/snapshot/python-snapshot.bin): MAGIC, a little-endian u32 header length, the JSON
// header (format, Pyodide version, sha256 of the wheels and of the engine, sizes, how the pages are
// stored: `pages`), then the page stream: a bitmap of the non-zero PAGE_SIZE pages of the raw snapshot,
// followed by those pages. Before the pages are cut, the raw snapshot is XORed with the WebAssembly
// module's own data segments (which start-up mostly leaves as they are) and the build zeroes free and
// dead memory, so most pages are zero: 31 MB of memory become 10 MB of pages. The file the build writes
// holds them as a gzip stream (`pages: "gzip"`, about 3.9 MB), as DecompressionStream reads in every
// browser; the classroom server sends a browser that accepts Brotli the same snapshot with its pages
// stored as they are (`pages: "stored"`), Brotli-compressed as a whole (about 2.7 MB; the browser
// decodes it: site_scripts/hooks/gzip_copies.py), and the reader reads either.
// What it is not: the rest of the worker's start (worker.mjs installs the wheels) nor the maker.
// Anything unexpected (no file, another build's or Pyodide's snapshot, corrupt bytes, an API that
// changed) means the plain start (and a fresh copy of the snapshot for the next visit); if even that
// fails with the compiled wasm, Pyodide starts on its own, unless the wasm or the standard library
// could not be downloaded intact (both are checked against the build's hashes: downloads.mjs): then
// the start fails, saying why.

export const FORMAT = "lesson-python-snapshot/2";
export const PAGE_STREAMS = ["gzip", "stored"]; // the header's `pages`: how the page stream is held
export const SNAPSHOT_PATH = "snapshot/python-snapshot.bin"; // under assets/
export const PAGE_SIZE = 4096;
import { checkBuilt, fetchBuilt, integrityOf } from "./downloads.mjs";

const MAGIC = new TextEncoder().encode("PYSNAP01");
const HEADER_START = MAGIC.length + 4; // magic, then the JSON header's length
const MAX_HEADER_BYTES = 1 << 16;

/**
 * Start Pyodide: from the snapshot at `snapshotURL` when it can, else the plain way. Resolves to
 * { pyodide, boot: "snapshot" | "plain" }. The wasm is downloaded and compiled from the first moment,
 * alongside the snapshot, and both ways instantiate that compiled module (Pyodide alone would only
 * start compiling once the snapshot is decoded). `lessonWheels`: promise of the wheels' bytes
 * (ArrayBuffers, wheels.json order); the snapshot must have been made from exactly these.
 * `loadPyodide` and `version` come from the site's pyodide.mjs.
 */
export async function startPyodide({ loadPyodide, version, indexURL, snapshotURL, lessonWheels }) {
  const wasm = downloadWasm(indexURL);
  wasm.stdlib = downloadStdlib(indexURL);
  const snapshot = openSnapshot(snapshotURL, version);
  snapshot.catch(() => {}); // awaited below
  try {
    const { header, pages } = await snapshot;
    // Pyodide only needs the snapshot's length until the wasm is instantiated, and it copies the
    // bytes into its memory only after that: so it gets this array at once (and prepares its
    // JavaScript side meanwhile), and the instantiation waits until the array is filled.
    const memory = new Uint8Array(header.rawLength);
    const filled = (async () => {
      if (await wheelsDigest(await lessonWheels) !== header.wheels) throw new Error("it was made from other wheels");
      placePages(memory, await pages, header);
      xorDataSegments(memory, header.heapOffset, dataSegments(await wasm.bytes));
    })();
    filled.catch(() => {}); // awaited before the instantiation; a rejection is reported below
    const pyodide = await startWithCompiledWasm(loadPyodide, { indexURL, _loadSnapshot: memory }, wasm, filled);
    // Pyodide copied the 31 MB into its own memory but keeps the array: empty its buffer by
    // transferring it to a copy nobody holds.
    structuredClone(memory.buffer, { transfer: [memory.buffer] });
    const random = pyodide.pyimport("random");
    random.seed(); // else every boot would draw the build's numbers
    random.destroy();
    return { pyodide, boot: "snapshot" };
  } catch (error) {
    console.info(`Python starts without its snapshot: ${error.message}`);
    // A damaged copy in the browser's HTTP cache would make every later visit start this way: replace it.
    integrityOf(snapshotURL).then((integrity) => fetch(snapshotURL, { cache: "reload", integrity }))
      .then((answer) => answer.arrayBuffer()).catch(() => {});
  }
  try {
    return { pyodide: await startWithCompiledWasm(loadPyodide, { indexURL }, wasm), boot: "plain" };
  } catch (error) {
    // A wasm or standard library that could not be downloaded intact would fail Pyodide's own start the same way, and
    // there Emscripten would wait forever: say why instead.
    await wasm.module;
    await wasm.stdlib.bytes;
    console.warn(`Python starts the way Pyodide does on its own: ${error.message}`);
    return { pyodide: await loadPyodide({ indexURL }), boot: "plain" };
  }
}

/** Pyodide's wasm, downloaded once and compiled while it arrives (compileStreaming, which also lets
 *  the browser reuse its cached machine code on later visits), its bytes (for the snapshot's XOR,
 *  checked against the build's hash meanwhile; a damaged wasm is fetched again: downloads.mjs),
 *  and the JavaScript half of Pyodide (pyodide.asm.mjs, imported meanwhile). */
function downloadWasm(indexURL) {
  const url = new URL("pyodide.asm.wasm", indexURL).href;
  const download = fetchBuilt(url, async (answer) => {
    const [module, bytes] = await Promise.all([WebAssembly.compileStreaming(answer.clone()),
      answer.arrayBuffer().then(async (bytes) => { await checkBuilt(url, bytes); return bytes; })]);
    return { module, bytes };
  });
  const wasm = {
    url,
    module: download.then((got) => got.module),
    bytes: download.then((got) => got.bytes),
    createModule: import(new URL("pyodide.asm.mjs", indexURL).href).then((script) => script.default),
  };
  for (const promise of [wasm.module, wasm.bytes, wasm.createModule]) {
    promise.catch(() => {}); // each is awaited where it is used
  }
  return wasm;
}

/** Python's standard library (python_stdlib.zip), checked against the build's hash (a zip cut short
 *  would let Python start and then fail on `import fractions`), fetched again if damaged: its bytes. */
function downloadStdlib(indexURL) {
  const url = new URL("python_stdlib.zip", indexURL).href;
  const bytes = fetchBuilt(url, async (answer) => {
    const got = await answer.arrayBuffer();
    await checkBuilt(url, got);
    return got;
  });
  bytes.catch(() => {}); // awaited when Pyodide asks for it
  return { url, bytes };
}

/**
 * loadPyodide(`options`), instantiating the module `wasm` compiled instead of compiling its own:
 * through `createPyodideModule` (the function pyodide.asm.mjs exports, given the Emscripten settings)
 * it sets Emscripten's `instantiateWasm`, which also waits for the promise `before`. Pyodide's own
 * request for the wasm, made earlier, is answered with an empty response it never reads, and its
 * request for the standard library with the checked copy (wasm.stdlib). Rejects if `before` rejects or the module fails to compile or instantiate (Emscripten
 * itself would wait forever).
 */
async function startWithCompiledWasm(loadPyodide, options, wasm, before = null) {
  const createModule = await wasm.createModule;
  let failed;
  const failure = new Promise((_, reject) => { failed = reject; });
  const createPyodideModule = (settings) => {
    settings.instantiateWasm = (imports, receive) => {
      Object.assign(imports.env, errorMarkerImports());
      Promise.all([wasm.module, wasm.stdlib.bytes, before])
        .then(async ([module]) => receive(await WebAssembly.instantiate(module, imports), module))
        .catch(failed);
      return {}; // Emscripten's sign that the instance comes later, through `receive`
    };
    return createModule(settings);
  };
  const plainFetch = globalThis.fetch;
  globalThis.fetch = async (resource, init) => {
    const url = String(resource instanceof Request ? resource.url : resource);
    if (url === wasm.url) return new Response(null);
    if (url === wasm.stdlib.url) return new Response(await wasm.stdlib.bytes);
    return plainFetch(resource, init);
  };
  try {
    return await Promise.race([loadPyodide({ ...options, createPyodideModule }), failure]);
  } finally {
    globalThis.fetch = plainFetch;
  }
}

/** The two imports Pyodide adds to the wasm's own: a value that marks "a JavaScript error was thrown"
 *  and the test for it. Pyodide makes them with a tiny wasm module of its own where it can, else
 *  exactly like this; both behave the same. */
function errorMarkerImports() {
  const marker = Symbol("error marker");
  return { Jsv_GetError_import: () => marker, JsvError_Check: (value) => value === marker };
}

/** Fetch the snapshot and check its header as soon as it arrives; resolves to { header, pages } where
 *  pages is a promise of the page stream (un-gzipped while it downloads, when it is gzip), or throws
 *  saying why this snapshot cannot be used. */
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
    : !PAGE_STREAMS.includes(header.pages) ? `its pages are ${JSON.stringify(header.pages)}`
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
  const pages = header.pages === "gzip" ? gunzip(body) : stored(body);
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

/** The bytes of a stream of stored pages (no compression of its own: it came Brotli-encoded over HTTP). */
async function stored(stream) {
  try {
    return new Uint8Array(await new Response(stream).arrayBuffer());
  } catch {
    throw new Error("the snapshot's download was cut short");
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

/** The snapshot file's first bytes for `header` (the maker writes them, then the page stream). */
export function headerBytes(header) {
  const json = new TextEncoder().encode(JSON.stringify(header));
  const bytes = new Uint8Array(HEADER_START + json.length);
  bytes.set(MAGIC);
  new DataView(bytes.buffer).setUint32(MAGIC.length, json.length, true);
  bytes.set(json, HEADER_START);
  return bytes;
}

/** Put the snapshot's pages, from the un-gzipped body `plain`, where they belong in `memory` (a
 *  zero-filled array of header.rawLength bytes). The data segments' XOR is still to be undone. */
export function placePages(memory, plain, header) {
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
}

/** XOR each data segment of the wasm into `memory` where it lies in the snapshot (the snapshot's
 *  heap starts at `heapOffset`). Applied twice it restores the original, so it encodes and decodes.
 *  The segments are first laid out as one image of the span they cover (the gaps are zeros, which
 *  XOR changes nothing), so that the XOR runs over 32-bit words. */
export function xorDataSegments(memory, heapOffset, segments) {
  if (segments.length === 0) return;
  let start = Infinity, end = 0;
  for (const { address, bytes } of segments) {
    start = Math.min(start, heapOffset + address);
    end = Math.max(end, heapOffset + address + bytes.length);
  }
  start -= (memory.byteOffset + start) % 4; // so the words of `memory` and of the image line up
  const image = new Uint8Array(end - start);
  for (const { address, bytes } of segments) image.set(bytes, heapOffset + address - start);
  const wordCount = image.length >> 2;
  const words = new Int32Array(memory.buffer, memory.byteOffset + start, wordCount);
  const imageWords = new Int32Array(image.buffer, 0, wordCount);
  for (let index = 0; index < wordCount; index++) words[index] ^= imageWords[index];
  for (let index = wordCount * 4; index < image.length; index++) memory[start + index] ^= image[index];
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
