// pages.mjs: the lesson's one way to act on every page Material shows, whether or not Material's bundle has run yet.
// What it is: onEveryPage(callback) calls `callback` for the page shown now, at once, and again for each
// page that Material's instant navigation shows later (its `document$`), never twice for the same
// content; whenMaterial(callback) calls `callback` once Material's bundle has run (its globals such as
// `document$` and `location$` exist). Why: overrides/main.html runs the lesson's modules (main.mjs)
// before Material's bundle, which it defers, so that the page's blocks are mounted, and a reader's Run
// reaches Python's worker, before Material's own start-up work (about 0.5 s of the page's processor time
// on the 2-core test machine: evaluating the bundle and mounting its components at DOMContentLoaded).
// A deferred script runs after the modules before it and before DOMContentLoaded, so Material's globals
// exist from DOMContentLoaded on; Material's document$ then emits the page first shown, which is skipped
// here because its content was handled already.
// What it is not: Material's navigation itself, nor a mount function (main.mjs wires those).

/** Call `callback` once Material's bundle has run (at once if it has). If it never runs (it failed to
 *  load), `callback` is never called: the page then works without instant navigation. */
export function whenMaterial(callback) {
  if (globalThis.document$) {
    callback();
    return;
  }
  // Modules run while document.readyState is already "interactive", before DOMContentLoaded; the load
  // event covers a caller that came after DOMContentLoaded.
  let called = false;
  const once = () => {
    if (called || !globalThis.document$) return;
    called = true;
    callback();
  };
  document.addEventListener("DOMContentLoaded", once, { once: true });
  addEventListener("load", once, { once: true });
}

/** Call `callback` for the page shown now and for every page instant navigation shows later. */
export function onEveryPage(callback) {
  let handled = null; // the content element `callback` last ran for
  const forThisPage = () => {
    const content = document.querySelector("article") ?? document.body;
    if (content === handled) return;
    handled = content;
    callback();
  };
  forThisPage();
  whenMaterial(() => globalThis.document$.subscribe(forThisPage));
}
