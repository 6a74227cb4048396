/* Cascade's search box, its first part (docs/layout.md, "Search"): it shows the form (hidden
   with scripts off: search needs scripts) and on the box's first use (focus, a key) loads
   search-box.js beside it, which searches. This part is loaded before any click, within the
   page's script budget; the rest is not. */
(function () {
  "use strict";
  const form = document.querySelector("form.site-search");
  if (!form || !window.fetch) return;
  const src = document.currentScript && document.currentScript.src
    ? new URL("search-box.js", document.currentScript.src).href : "search-box.js";
  let loaded = false;
  function load() {
    if (loaded) return;
    loaded = true;
    const script = document.createElement("script");
    script.src = src;
    document.head.appendChild(script);
  }
  form.addEventListener("focusin", load);
  form.addEventListener("input", load);
  // Enter before search-box.js is in stays on the page; the query runs once it is.
  form.addEventListener("submit", function (event) { event.preventDefault(); load(); });
  form.hidden = false;
})();
