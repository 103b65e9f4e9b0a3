// driver.mjs: Firefox ESR under puppeteer-core (WebDriver BiDi), one primitive action at a time, for Python.
// What it is: the Node half of tests/site/readers.py's FirefoxReader. Started as
// `node tests/site/firefox/driver.mjs '<json options>'`, it launches one Firefox (no geckodriver, no browser
// download) with one page, then reads one JSON request a line on stdin ({id, op, ...}) and answers one JSON
// line on stdout ({id, value} or {id, error}). The operations are the driver primitives of readers.py's
// Reader: goto, reload, evaluate (a function body with `arguments`, as WebDriver's execute script takes it;
// an element comes back as {"$element": n} and is passed back the same way), click, keys, type, offline,
// logged (the console errors and page errors Firefox reported since the last call), close. The first line
// it writes is {"ready": true} once Firefox runs.
// What it is not: a scenario or a judge. It knows nothing of the lesson; tests/site/scenarios.py holds
// what a reader does and expects, the same for every browser.
import { createInterface } from "node:readline";
import puppeteer from "puppeteer-core";

const options = JSON.parse(process.argv[2]);  // {executablePath, timeoutMs, uiTimeoutMs, width, height}
const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);

// timeout: Firefox's first start with a new profile once took more than puppeteer's default 30 s on the
// loaded 2-core CI machine ("Timed out ... waiting for the WS endpoint URL"): wait as long as for Python.
const browser = await puppeteer.launch({
  browser: "firefox", executablePath: options.executablePath, headless: true, timeout: options.timeoutMs,
  extraPrefsFirefox: { "network.dns.disableIPv6": true, "browser.safebrowsing.malware.enabled": false },
});
const page = await browser.newPage();
page.setDefaultTimeout(options.uiTimeoutMs);
await page.setViewport({ width: options.width, height: options.height });

const logged = [];
page.on("console", (message) => { if (message.type() === "error") logged.push(`console: ${message.text()}`); });
page.on("pageerror", (error) => logged.push(`page error: ${error.message ?? error}`
  + (error.stack ? ` at ${String(error.stack).split("\n").slice(0, 3).join(" / ")}` : "")));

// Element handles the Python side holds, by number. A navigation makes them stale; they are dropped then.
const elements = new Map();
let nextElement = 1;
const element = (reference) => {
  const found = elements.get(reference?.$element);
  if (!found) throw new Error(`no such element (${JSON.stringify(reference)}): the page changed since it was found`);
  return found;
};
const argument = (value) => (value && typeof value === "object" && "$element" in value ? element(value) : value);

// "Control+Home" -> Control held while Home is pressed.
async function press(chord) {
  const keys = chord.split("+");
  const modifiers = keys.slice(0, -1);
  for (const key of modifiers) await page.keyboard.down(key);
  await page.keyboard.press(keys.at(-1));
  for (const key of modifiers.reverse()) await page.keyboard.up(key);
}

const operations = {
  async goto({ url }) { elements.clear(); await page.goto(url); },
  async reload() { elements.clear(); await page.reload(); },
  async evaluate({ body, args }) {
    // The function is built here and sent as its source; script.callFunction is not subject to the page's CSP.
    const handle = await page.evaluateHandle(new Function(body), ...args.map(argument));
    const found = handle.asElement();
    if (found) {
      elements.set(nextElement, found);
      return { $element: nextElement++ };
    }
    const value = await handle.jsonValue();
    await handle.dispose();
    return value ?? null;
  },
  async everyDocument({ body, args }) { await page.evaluateOnNewDocument(new Function(body), ...args); },
  async click({ element: reference }) { await element(reference).click(); },
  async keys({ chords }) { for (const chord of chords) await press(chord); },
  async type({ text }) { await page.keyboard.type(text); },
  async offline({ offline }) { await page.setOfflineMode(offline); },
  async logged() { return logged.splice(0); },
  async close() { await browser.close(); process.exit(0); },
};

send({ ready: true });
for await (const line of createInterface({ input: process.stdin })) {
  const { id, op, ...request } = JSON.parse(line);
  try {
    send({ id, value: (await operations[op](request)) ?? null });
  } catch (error) {
    send({ id, error: String(error.stack || error) });
  }
}
await browser.close();
