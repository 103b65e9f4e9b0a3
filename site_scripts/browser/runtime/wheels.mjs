// wheels.mjs: installs the lesson's wheels (tinygrad, tutor) into Pyodide's file system from JavaScript,
// the one way they are installed, in the worker and in the snapshot maker (issue #40). readWheel() lists
// and inflates their files while Pyodide still starts (30–55 ms sooner than Python's unpackArchive);
// installWheel() writes them into Python's working folder, on sys.path. Each deflated entry is inflated as
// a gzip stream (header + data + the zip's CRC-32 and size): gzip is what DecompressionStream reads in
// every browser that has it, and the CRC-32 finds a damaged entry.
// What it is not: a general zip reader: stored or deflated entries, no encryption, no zip64.

const END_OF_DIRECTORY = 0x06054b50; // "end of central directory" record signature
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;

/**
 * The files of the wheel `bytes` (ArrayBuffer or Uint8Array): a promise of [{ path, bytes }] in the
 * wheel's order, folders left out. Rejects, naming the wheel's problem, on a file that is not such a
 * zip or an entry that does not inflate to its CRC-32 and size.
 */
export async function readWheel(bytes) {
  const zip = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const names = new TextDecoder();
  let end = zip.length - 22; // the record is 22 bytes, plus a comment of at most 65535
  while (end >= Math.max(0, zip.length - 22 - 0xffff) && view.getUint32(end, true) !== END_OF_DIRECTORY) end--;
  if (end < 0 || view.getUint32(end, true) !== END_OF_DIRECTORY) throw new Error("a wheel is not a zip file");
  const files = [];
  let at = view.getUint32(end + 16, true);
  for (let count = view.getUint16(end + 10, true); count > 0; count--) {
    if (view.getUint32(at, true) !== DIRECTORY_ENTRY) throw new Error("a wheel's zip directory is damaged");
    const method = view.getUint16(at + 10, true);
    const crcAndSize = zip.subarray(at + 16, at + 28); // CRC-32, compressed size, size
    const compressedSize = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const local = view.getUint32(at + 42, true);
    const path = names.decode(zip.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    if (path.endsWith("/")) continue;
    if (view.getUint32(local, true) !== LOCAL_HEADER) throw new Error(`a wheel's entry ${path} is damaged`);
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const data = zip.subarray(start, start + compressedSize);
    if (method !== STORED && method !== DEFLATED) throw new Error(`a wheel's entry ${path} uses compression ${method}`);
    files.push({ path, bytes: method === STORED ? data : inflate(data, crcAndSize, path) });
  }
  return Promise.all(files.map(async ({ path, bytes }) => ({ path, bytes: await bytes })));
}

/** Write the `files` of a wheel (from readWheel) into Pyodide's working folder, which is on sys.path,
 *  and tell Python's import system that new files are there. */
export function installWheel(pyodide, files) {
  const { FS } = pyodide;
  const folder = FS.cwd();
  for (const { path, bytes } of files) {
    const slash = path.lastIndexOf("/");
    if (slash > 0) FS.mkdirTree(`${folder}/${path.slice(0, slash)}`);
    FS.writeFile(`${folder}/${path}`, bytes);
  }
  const importlib = pyodide.pyimport("importlib");
  importlib.invalidate_caches();
  importlib.destroy();
}

const GZIP_HEADER = new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]); // deflate, no name, no time

/** The bytes of a zip entry's deflated `data`, given the entry's CRC-32, compressed size and size
 *  (`crcAndSize`, 12 bytes of the zip's directory): inflated as a gzip stream, which ends with
 *  the CRC-32 and the size (the compressed size between them is left out). */
async function inflate(data, crcAndSize, path) {
  const trailer = [crcAndSize.subarray(0, 4), crcAndSize.subarray(8, 12)];
  const stream = new Blob([GZIP_HEADER, data, ...trailer]).stream().pipeThrough(new DecompressionStream("gzip"));
  try {
    return new Uint8Array(await new Response(stream).arrayBuffer());
  } catch {
    throw new Error(`a wheel's entry ${path} is damaged`);
  }
}
