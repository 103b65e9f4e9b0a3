// runtime.mjs (bench): the lesson's runtime alone runs one line; writes the time since navigation of
// the result into <html data-bench-result-ms>, and how Python started into data-python-boot (the
// runtime sets it). What it is not: the lesson's blocks (those are measured on a real chapter).
import { runtime } from "../assets/lesson/browser/runtime/runtime.mjs";

let printed = "";
const result = await runtime.run({ page: location.pathname, code: "print(sum(range(10)))",
                                   onOutput: (_, text) => { printed += text; } });
document.getElementById("result").textContent = result.ok ? `Python says ${printed.trim()}` : result.error;
if (result.ok) document.documentElement.dataset.benchResultMs = String(performance.now());
