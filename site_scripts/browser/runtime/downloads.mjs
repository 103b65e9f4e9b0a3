// downloads.mjs: how Python's worker downloads the build's files, so that a damaged copy never sticks.
// What it is: the build's list of Python's files with their sha256 (assets/python-build.json, written by
// the python_build.py hook), and fetchBuilt(): a file is used only once it proved whole (compiled, unzipped,
// its hash the build's); a damaged one is fetched once more bypassing the browser's HTTP cache (which
// also replaces the damaged copy there), checked by the browser against the build's hash, and only if
// that fails too does Python not start, with words the reader can act on (issue #39).
// What it is not: the offline copy's checks (the service worker verifies every file it keeps or serves).

const ASSETS_URL = new URL("../../../", import.meta.url); // this file is assets/lesson/browser/runtime/
const plainFetch = globalThis.fetch; // snapshot.mjs answers some of Pyodide's own fetches while it starts

let build = null;
/** The build of Python's files: a promise of { version, files: { path under assets/: "sha256-…" } }. */
export function pythonBuild() {
  build ??= plainFetch(new URL("python-build.json", ASSETS_URL), { cache: "no-cache" }).then((response) => {
    if (!response.ok) throw new Error(`python-build.json answered ${response.status}`);
    return response.json();
  });
  return build;
}

/** The build's SRI hash of the file at `url` (a promise): one "sha256-…", or two, space-separated, for a
 *  file the classroom server may send as a variant (the snapshot, the standard library: hooks/gzip_copies.py). */
export async function integrityOf(url) {
  const integrity = (await pythonBuild()).files[String(url).slice(ASSETS_URL.href.length)];
  if (!integrity) throw new Error(`${url} is not one of the build's files`);
  return integrity;
}

/** Resolves if `bytes` (an ArrayBuffer) are the build's file at `url`; else rejects saying so. */
export async function checkBuilt(url, bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  if (!(await integrityOf(url)).split(" ").includes(`sha256-${btoa(String.fromCharCode(...digest))}`)) {
    throw new Error(`${fileName(url)} is not the build's file (${bytes.byteLength} bytes, damaged or cut short)`);
  }
}

/**
 * `use(response)` for the build's file at `url`, fetched with `init`; `use` rejects if the file is
 * damaged (compiling, unzipping or checkBuilt fails). If the fetch or `use` fails, the file is fetched
 * once more with cache "reload" and the build's integrity, and `use` gets that. Rejects, in words for
 * the reader, when even that fails, or at once when the host answers with an error (a 404 is no damage).
 */
export async function fetchBuilt(url, use, init = {}) {
  try {
    return await use(await answered(url, init));
  } catch (error) {
    if (error instanceof Unanswered) throw error; // the host has no such file (404...): said as the host said it
    console.info(`${fileName(url)} is fetched again: ${error.message}`);
  }
  try {
    return await use(await answered(url, { cache: "reload", integrity: await integrityOf(url) }));
  } catch (error) {
    throw new Error(`${fileName(url)} could not be downloaded intact, twice (${error.message}). Check the connection `
      + "and reload the page; if the same happens again, the site's copy of that file is damaged: "
      + "tell whoever hosts the lesson.", { cause: error });
  }
}

class Unanswered extends Error {}

async function answered(url, init) {
  const response = await plainFetch(url, init);
  if (!response.ok) throw new Unanswered(`${url} answered ${response.status}`);
  return response;
}

function fileName(url) {
  return String(url).split("/").pop();
}
