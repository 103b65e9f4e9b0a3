// run_in_pyodide.mjs: run a Python script of this repository inside Pyodide under Node.
//
// What it is: `node tests/pyodide/run_in_pyodide.mjs SCRIPT.py [ARGUMENT ...]` boots Pyodide from
// node_modules/pyodide (offline, no package downloads), copies engine/tinygrad.py byte for byte to
// /repo/engine/tinygrad.py in Pyodide's file system, mirrors the .py files of the folders (and their
// subfolders: a package whole) of SCRIPT and of every ARGUMENT that names a file, and runs SCRIPT as __main__ with /repo as the working
// directory, so relative paths mean the same thing as in the checkout. The script's output is
// forwarded. Afterwards it runs one more line of Python to prove that the runtime survived.
// Exit code: the script's own exit code; 3 if the runtime died (a Pyodide fatal error).
//
// What it is not: a test runner. tests/pyodide/run_engine_tests.py finds and runs the tests; the
// benchmark uses this file to time the engine in Pyodide.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const pyodideFolder = join(repoRoot, "node_modules", "pyodide");
const pyodideRoot = "/repo";

function repoPath(argument) {
  const relativePath = relative(repoRoot, resolve(argument));
  if (relativePath.startsWith("..")) throw new Error(`${argument} is outside the repository`);
  return relativePath;
}

function isFile(path) {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function copyIntoPyodide(pyodide, relativePath) {
  const target = `${pyodideRoot}/${relativePath}`;
  pyodide.FS.mkdirTree(dirname(target));
  pyodide.FS.writeFile(target, new Uint8Array(readFileSync(join(repoRoot, relativePath))));
}

/** The .py files in the folder of `relativePath` and in its subfolders. */
function pythonFilesNextTo(relativePath) {
  const folder = dirname(relativePath);
  return readdirSync(join(repoRoot, folder), { recursive: true })
    .filter((name) => name.endsWith(".py") && !name.includes("__pycache__"))
    .map((name) => join(folder, name));
}

async function main(argv) {
  if (argv.length < 1) {
    console.error("usage: node tests/pyodide/run_in_pyodide.mjs SCRIPT.py [ARGUMENT ...]");
    return 2;
  }
  if (!isFile(argv[0])) {
    console.error(`no such script: ${argv[0]}`);
    return 2;
  }
  const { loadPyodide } = await import(pathToFileURL(join(pyodideFolder, "pyodide.mjs")).href);
  const pyodide = await loadPyodide({
    indexURL: pyodideFolder + "/",
    stdout: (line) => process.stdout.write(line + "\n"),
    stderr: (line) => process.stderr.write(line + "\n"),
  });

  // Paths to files become repository-relative: the same relative path works inside Pyodide.
  const pythonArguments = argv.map((argument) => (isFile(argument) ? repoPath(argument) : argument));
  const filesToCopy = new Set(["engine/tinygrad.py"]);
  for (const named of argv.filter(isFile).map(repoPath)) {
    filesToCopy.add(named);
    for (const neighbour of pythonFilesNextTo(named)) filesToCopy.add(neighbour);
  }
  for (const relativePath of filesToCopy) copyIntoPyodide(pyodide, relativePath);

  pyodide.globals.set("script_arguments", pyodide.toPy(pythonArguments));
  let exitCode;
  try {
    exitCode = pyodide.runPython(`
import os, runpy, sys
os.chdir("${pyodideRoot}")
sys.argv = list(script_arguments)
sys.path.insert(0, os.path.dirname(os.path.abspath(sys.argv[0])))
try:
    runpy.run_path(sys.argv[0], run_name="__main__")
    exit_code = 0
except SystemExit as stop:
    exit_code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
exit_code
`);
  } catch (error) {
    process.stderr.write(`${error.message ?? error}\n`);
    exitCode = 1;
  }

  try {
    const answer = pyodide.runPython("sum(range(10))");
    if (answer !== 45) throw new Error(`sum(range(10)) gave ${answer}`);
    console.log("pyodide runtime alive after the script: yes");
  } catch (error) {
    const reason = String(error.message ?? error).split("\n")[0];
    console.log(`pyodide runtime alive after the script: no (${reason})`);
    return 3;
  }
  return exitCode;
}

process.exitCode = await main(process.argv.slice(2));
