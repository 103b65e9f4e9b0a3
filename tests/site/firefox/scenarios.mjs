// scenarios.mjs: drives the built lesson in Firefox ESR the way a reader does and reports what it saw.
// What it is: run by tests/site/test_firefox.py as `node tests/site/firefox/scenarios.mjs '<json>'`, where the
// JSON names the served site (`site`, service workers allowed), the same site served without its snapshot
// and service worker (`plain`), the pages to use and the texts to type. One Firefox (puppeteer-core over
// WebDriver BiDi, no geckodriver, no browser download) goes through every scenario in turn; each scenario's
// observations (outputs, states, messages shown) go into one JSON object printed as the last line of
// stdout, with every console error, page error and Content-Security-Policy violation of each page.
// What it is not: the judge. It asserts nothing: test_firefox.py decides what is right (against CPython,
// the same expectations as the Chromium tests). A scenario that throws is reported as {error: "..."}
// and the next one still runs.
import puppeteer from "puppeteer-core";

const config = JSON.parse(process.argv[2]);
const PYTHON_TIMEOUT_MS = 180_000;
const UI_TIMEOUT_MS = 30_000;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Recorded in every page before its own scripts: CSP violations, uncaught errors, and the texts the
// offline status line shows (it may pass through "Saving… N%" faster than a poll would see).
function recordInPage() {
  const seen = { violations: [], statusTexts: [] };
  Object.defineProperty(window, "__lessonSeen", { value: seen });
  document.addEventListener("securitypolicyviolation", (event) =>
    seen.violations.push(`${event.effectiveDirective} blocked ${event.blockedURI} (${event.sourceFile || location.href})`));
  addEventListener("error", (event) => seen.violations.push(`uncaught in the page: ${event.message} (${event.filename}:${event.lineno})`));
  addEventListener("unhandledrejection", (event) => seen.violations.push(`unhandled rejection in the page: ${event.reason?.stack ?? event.reason}`));
  new MutationObserver(() => {
    const text = document.querySelector(".lesson-offline-status")?.textContent;
    if (text && seen.statusTexts.at(-1) !== text) seen.statusTexts.push(text);
  }).observe(document, { subtree: true, childList: true, characterData: true });
}

// `arg` is one argument of `fn`, or an array of them (element handles must be top-level arguments);
// `fn` returns plain data (an element would not come back over BiDi).
async function waitUntil(page, fn, arg, timeout = UI_TIMEOUT_MS) {
  const args = Array.isArray(arg) ? arg : [arg];
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await page.evaluate(fn, ...args).catch(() => undefined);  // undefined while the page navigates
    if (value) return value;
    if (Date.now() > deadline) {
      const shown = await page.evaluate(() => `Python ${document.documentElement.dataset.pythonState}; `
        + [...document.querySelectorAll("div.runnable")].map((block) => `block ${block.dataset.state}/${block.dataset.runs}: `
          + (block.querySelector("[role=log]")?.textContent ?? "").slice(-200)).join(" | ")).catch((error) => String(error));
      throw new Error(`timed out waiting for ${fn.toString().slice(0, 160)} (the page shows: ${shown})`);
    }
    await sleep(100);
  }
}

const blocksMounted = () => document.readyState === "complete"
  && [...document.querySelectorAll("div.runnable")].every((block) => block.dataset.mounted === "true");

// A new document starts a new record in the page: read the old one first.
let beforeLeaving = async () => {};

// Python never started in the page, or its worker is up (other_browsers.py, PYTHON_SETTLED, says why).
const pythonSettled = new Function(config.pythonSettled);

async function go(page, url) {
  await beforeLeaving();
  await waitUntil(page, pythonSettled, undefined, PYTHON_TIMEOUT_MS);
  await page.goto(url);
}

async function open(page, url) {
  await go(page, url);
  await waitUntil(page, blocksMounted);
}

async function reload(page) {
  await beforeLeaving();
  await waitUntil(page, pythonSettled, undefined, PYTHON_TIMEOUT_MS);
  await page.reload();
  await waitUntil(page, blocksMounted);
}

// The n-th runnable block (from 1), as its label "Python block n" counts them.
async function block(page, number) {
  await waitUntil(page, (n) => document.querySelectorAll("div.runnable").length >= n, number);
  return (await page.$$("div.runnable"))[number - 1];
}

// A button inside `scope` by its exact visible name, once it is enabled.
async function buttonNamed(page, scope, name) {
  const find = (element, wanted) => [...element.querySelectorAll("button")]
    .find((button) => button.textContent.trim() === wanted && !button.disabled && button.getAttribute("aria-disabled") !== "true");
  const deadline = Date.now() + PYTHON_TIMEOUT_MS;
  for (;;) {
    const handle = await scope.evaluateHandle(find, name);
    const element = handle.asElement();
    if (element) return element;
    if (Date.now() > deadline) throw new Error(`no enabled button "${name}"`);
    await sleep(100);
  }
}

async function press(page, scope, name) {
  const button = await buttonNamed(page, scope, name);
  await button.scrollIntoView();
  await button.click();
}

const outputOf = (element) => element.querySelector("[role=log]")?.textContent ?? "";

async function setCode(page, blockHandle, code) {
  if (!(await blockHandle.$(".cm-content"))) await (await blockHandle.$("pre")).click();
  await waitUntil(page, (element) => element.querySelector(".cm-content") !== null, blockHandle);
  await (await blockHandle.$(".cm-content")).click();
  await page.keyboard.down("Control");
  await page.keyboard.press("a");
  await page.keyboard.up("Control");
  await page.keyboard.press("Delete");
  await page.keyboard.type(code);
}

async function runBlock(page, blockHandle) {
  const before = await blockHandle.evaluate((element) => Number(element.dataset.runs || 0));
  await press(page, blockHandle, "Run");
  await waitUntil(page, (element, runs) => Number(element.dataset.runs || 0) > runs
    && element.getAttribute("aria-busy") !== "true", [blockHandle, before], PYTHON_TIMEOUT_MS);
  return blockHandle.evaluate(outputOf);
}

const pageState = () => ({
  boot: document.documentElement.dataset.pythonBoot || null,
  interpreter: Number(document.documentElement.dataset.pythonInterpreter || 0),
  isolated: crossOriginIsolated,
  canInterrupt: crossOriginIsolated && typeof SharedArrayBuffer === "function",
  controlled: navigator.serviceWorker?.controller != null,
  offline: document.documentElement.dataset.offline || null,
  status: document.querySelector(".lesson-offline-status")?.textContent ?? null,
  onLine: navigator.onLine,
});

// ---- Scenarios (each returns its observations) ----------------------------------------------------

async function serviceWorkerTakesControl(page, base) {
  await open(page, base + config.blockPage);
  await waitUntil(page, () => navigator.serviceWorker.controller !== null, undefined, PYTHON_TIMEOUT_MS);
  const first = await page.evaluate(pageState);
  // The page reloads itself once when that loses nothing; a reader's reload does the same.
  await reload(page);
  return { first, afterReload: await page.evaluate(pageState) };
}

async function blockRuns(page, base) {
  await open(page, base + config.blockPage);
  const output = await runBlock(page, await block(page, 1));
  return { output, ...(await page.evaluate(pageState)) };
}

async function figureAnswers(page, base) {
  await open(page, base + config.figure.page);
  const figure = await page.$(`[data-widget="${config.figure.name}"]`);
  await figure.scrollIntoView();
  await press(page, figure, config.figure.button);
  const readout = await waitUntil(page, (element, label) => element.getAttribute("aria-busy") === "false"
    && element.querySelector(`[data-readout="${label}"]`)?.textContent.trim(), [figure, config.figure.readout], PYTHON_TIMEOUT_MS);
  return { readout };
}

async function stopEndsALoop(page, base) {
  await open(page, base + config.blockPage);
  const codes = config.stop.codes;
  for (const [index, code] of codes.entries()) await setCode(page, await block(page, index + 1), code);
  const third = await block(page, codes.length);
  await press(page, third, "Run");
  await waitUntil(page, (element) => element.dataset.state === "running", third, PYTHON_TIMEOUT_MS);
  const before = await page.evaluate(pageState);
  await press(page, third, "Stop");
  await waitUntil(page, (element) => element.getAttribute("aria-busy") !== "true" && element.dataset.state !== "running",
    third, PYTHON_TIMEOUT_MS);
  await waitUntil(page, (element, texts) => texts.some((text) => (element.querySelector("[role=log]")?.textContent ?? "").includes(text)),
    [third, config.stop.endings], PYTHON_TIMEOUT_MS);
  await waitUntil(page, (element) => element.getAttribute("aria-busy") !== "true", third, PYTHON_TIMEOUT_MS);
  const stopped = await third.evaluate(outputOf);
  const after = await page.evaluate(pageState);
  const earlierRuns = [];
  for (let number = 1; number < codes.length; number += 1) {
    earlierRuns.push(await (await block(page, number)).evaluate((element) => element.dataset.runs));
  }
  await setCode(page, third, config.stop.check);
  return { before, after, stopped, earlierRuns, check: await runBlock(page, third) };
}

async function savedEditSurvives(page, base) {
  await open(page, base + config.blockPage);
  await setCode(page, await block(page, 1), config.savedEdit);
  await reload(page);
  const first = await block(page, 1);
  return { afterReload: await first.evaluate((element) => element.runnableCode()) };
}

async function editedEngine(page, base) {
  const { engine } = config;
  await go(page, base + engine.page);
  await waitUntil(page, (label) => document.querySelector(`[aria-label="${label}"] .cm-content`) !== null, engine.editor);
  const editor = await page.$(`[aria-label="${engine.editor}"]`);
  // Focus, not a click: the whole engine is taller than the window, and a click at its middle lands elsewhere.
  await (await editor.$(".cm-content")).evaluate((element) => element.focus());
  await page.keyboard.down("Control");
  await page.keyboard.press("Home");
  await page.keyboard.up("Control");
  await page.keyboard.type(engine.firstLine);
  await page.keyboard.press("Enter");
  await waitUntil(page, (element, line) => element.engineEditor.editor.getCode().startsWith(`${line}\n`), [editor, engine.firstLine]);
  await press(page, editor, "Use this engine");
  const applied = await waitUntil(page, (element) => element.getAttribute("aria-busy") === "false"
    && [...element.querySelectorAll("[role=status]")].map((status) => status.textContent.trim())
      .find((text) => /^(Applied|Not applied)/.test(text)), editor, PYTHON_TIMEOUT_MS);
  await open(page, base + config.blockPage);
  const first = await block(page, 1);
  await setCode(page, first, engine.check);
  const withEdit = await runBlock(page, first);
  const banner = await page.$('[aria-label="Edited engine"]');
  await press(page, banner, "Restore the original engine");
  await waitUntil(page, (element) => element.textContent.includes("original engine is back"), banner);
  const restored = await runBlock(page, first);
  return { applied, withEdit, restored };
}

async function worksOffline(page, base) {
  await open(page, base + config.blockPage);
  const first = await block(page, 1);
  if ((await first.evaluate((element) => element.runnableCode())) !== (await first.evaluate((element) => element.dataset.source))) {
    await press(page, first, "Reset");  // the lesson's own code, whose output CPython gives
  }
  await waitUntil(page, () => document.documentElement.dataset.offline === "ready", undefined, PYTHON_TIMEOUT_MS);
  const online = await page.evaluate(() => ({ status: document.querySelector(".lesson-offline-status")?.textContent }));
  await page.setOfflineMode(true);
  await reload(page);
  const output = await runBlock(page, await block(page, 1));
  const state = await page.evaluate(pageState);
  await page.setOfflineMode(false);
  return { online, output, ...state };
}

async function everyPage(page, base) {
  for (const path of config.pages) {
    await open(page, base + path);
    await sleep(500);  // prefetches and late module loads
  }
  return { pages: config.pages.length };
}

// ---- Running them ---------------------------------------------------------------------------------

const result = { scenarios: {}, problems: {}, statusTexts: [] };  // statusTexts: every text the offline status line showed
// timeout: Firefox's first start with a new profile once took more than puppeteer's default 30 s on the
// loaded 2-core CI machine ("Timed out ... waiting for the WS endpoint URL"): wait as long as for Python.
const browser = await puppeteer.launch({
  browser: "firefox", executablePath: config.firefox, headless: true, timeout: PYTHON_TIMEOUT_MS,
  extraPrefsFirefox: { "network.dns.disableIPv6": true, "browser.safebrowsing.malware.enabled": false },
});
try {
  const page = await browser.newPage();
  page.setDefaultTimeout(UI_TIMEOUT_MS);
  await page.setViewport({ width: 1280, height: 900 });
  await page.evaluateOnNewDocument(recordInPage);
  let current = "start";
  beforeLeaving = () => collectViolations();
  const problem = (text) => (result.problems[current] ??= []).push(text);
  page.on("console", (message) => { if (message.type() === "error") problem(`console: ${message.text()}`); });
  page.on("pageerror", (error) => problem(`page error: ${error.message ?? error}${error.stack ? ` at ${String(error.stack).split("\n").slice(0, 3).join(" / ")}` : ""}`));
  const collectViolations = async () => {
    const seen = await page.evaluate(() => ({ violations: window.__lessonSeen?.violations.splice(0) ?? [],
      statusTexts: window.__lessonSeen?.statusTexts.splice(0) ?? [] })).catch(() => ({ violations: [], statusTexts: [] }));
    for (const violation of seen.violations) problem(violation.startsWith("u") ? violation : `CSP: ${violation}`);
    result.statusTexts.push(...seen.statusTexts);
  };
  const scenarios = [
    ["serviceWorkerTakesControl", serviceWorkerTakesControl, config.site],
    ["snapshotBoot", blockRuns, config.site],
    ["figure", figureAnswers, config.site],
    ["stopIsolated", stopEndsALoop, config.site],
    ["savedEdit", savedEditSurvives, config.site],
    ["engine", editedEngine, config.site],
    ["everyPage", everyPage, config.site],
    ["offline", worksOffline, config.site],
    ["plainBoot", blockRuns, config.plain],
    ["stopNotIsolated", stopEndsALoop, config.plain],
  ];
  for (const [name, scenario, base] of scenarios) {
    if (config.only && !config.only.includes(name)) continue;
    current = name;
    const started = Date.now();
    try {
      result.scenarios[name] = await scenario(page, base);
    } catch (error) {
      result.scenarios[name] = { error: String(error.stack || error) };
    }
    await collectViolations();
    process.stderr.write(`firefox: ${name} took ${Math.round((Date.now() - started) / 1000)} s\n`);
  }
} finally {
  await browser.close();
}
process.stdout.write(`\n${JSON.stringify(result)}\n`);
