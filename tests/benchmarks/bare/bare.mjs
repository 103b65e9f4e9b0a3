// bare.mjs: the bare page's only script: loadPyodide from the site's vendored copy, one runPython.
// What it is: the floor the lesson's own start-up is compared with. It writes the time since
// navigation (performance.now()) of the first result into <html data-bench-result-ms>.
// What it is not: a copy of the lesson's runtime (no worker, no wheels, no blocks).
import { loadPyodide } from "../assets/vendor/pyodide/pyodide.mjs";

const pyodide = await loadPyodide({ indexURL: new URL("../assets/vendor/pyodide/", import.meta.url).href });
const answer = pyodide.runPython("sum(range(10))");
document.getElementById("result").textContent = `Python says ${answer}`;
document.documentElement.dataset.benchResultMs = String(performance.now());
