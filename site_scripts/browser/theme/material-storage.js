/* material-storage.js: Material's saved settings (the light/dark choice) when the browser refuses storage.
   What it is: a classic script that overrides/main.html places in <head>, right after Material's own
   __md_get/__md_set are defined and before anything calls them. Where cookies and site data are
   blocked, merely reading `localStorage` throws a SecurityError, and Material's functions read it as a
   default argument: its palette script threw and the light/dark switch never appeared (issue #39).
   Here each is wrapped so that such a refusal reads as "nothing saved" and a write is simply not kept.
   What it is not: the lesson's own storage (storage/site-storage.mjs), nor a change to what is stored. */
(() => {
  const materialGet = window.__md_get;
  const materialSet = window.__md_set;
  window.__md_get = (...args) => {
    try { return materialGet(...args); } catch { return null; }
  };
  window.__md_set = (...args) => {
    try { materialSet(...args); } catch { /* not kept: the browser refuses storage */ }
  };
})();
