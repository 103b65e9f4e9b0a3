// address.mjs: after Material's instant navigation, the address is the one the reader went to.
// What it is: two calls for main.mjs. watchNavigation() (once per page load) notes each address that
// Material's instant navigation is asked for, a link followed or Back/Forward (its `location$`);
// putAddressRight() (each time a page is mounted) gives the address back the #fragment of that request
// when it has another one. Why: Material's navigation.tracking (mkdocs.yml) writes the heading in view
// into the address 250 ms after the reader last scrolled (history.replaceState). A reader who follows a
// link within those 250 ms leaves that write pending on the page they leave, and it lands on the next
// page's address: Material pushes the new address at the click, and the old page's wait ends while the
// next page downloads, or at the latest when the old page's table of contents is taken down, just
// before the new page is shown. The next chapter's address then ends with a heading of the chapter left
// behind (derivatives/#against-the-arithmetic-we-did-by-hand, a heading of checking/): a reload or a
// bookmark of it names a part the page does not have, or the wrong part where two chapters share a
// heading. The history entry's state (where Material keeps the scroll position) is kept.
// What it is not: a change to Material's navigation; nothing here moves the page or follows a link. On
// a page opened by a full load (no instant navigation) the address is left as the browser has it.

let requested = null; // the last address instant navigation was asked for (a URL), or null

/** Note every address Material's instant navigation is asked for (call once, after Material's bundle). */
export function watchNavigation() {
  globalThis.location$?.subscribe((address) => {
    requested = new URL(address);
  });
}

/** If this page was reached by instant navigation and its address gained another #fragment than the
 *  one asked for, put the one asked for back (or none). */
export function putAddressRight() {
  const here = new URL(location.href);
  if (!requested || requested.pathname !== here.pathname || requested.hash === here.hash) return;
  here.hash = requested.hash;
  history.replaceState(history.state, "", here.href);
}
