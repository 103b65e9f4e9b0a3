/* material-storage.js: Material's saved settings (the light/dark choice) when the browser refuses storage.
   What it is: a classic script that overrides/main.html places in <head>, after Material defines
   __md_get/__md_set and before anything calls them. Where site data is blocked, merely reading
   `localStorage` throws, and Material reads it as a default argument: its palette script threw and the
   light/dark switch never appeared (issue #39). Wrapped, a refusal reads as nothing saved, and a write is dropped.
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
