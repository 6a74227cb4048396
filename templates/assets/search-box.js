/* Cascade's search box (docs/layout.md, "Search"), loaded by search.js on its first use. The
   index is Pagefind's: pagefind.js is loaded on first use (focus, or a key typed) and asked
   through its JavaScript API; results come as the query is typed, as a grid of the site's own
   tile images with title, album and date, and a result opens the photo in its album's lightbox.
   The filters are those the index holds (year, album, camera, and any the build adds). */
(function () {
  "use strict";
  const form = document.querySelector("form.site-search");
  if (!form || !window.fetch) return;
  const input = form.querySelector("input[type=search]");
  const panel = form.querySelector(".search-panel");
  const status = form.querySelector(".search-status");
  const grid = form.querySelector(".search-grid");
  const more = form.querySelector(".search-more");
  const filterBox = form.querySelector(".search-filters");
  // The site's root folder: result paths in the index are from there.
  const root = new URL("./", new URL(form.getAttribute("data-root"), window.location.href));
  const bundle = new URL(form.getAttribute("data-pagefind"), window.location.href);
  // Filters in this order first, then any other the index holds; their labels are the
  // strings search_filter_<name>.
  const KNOWN = ["year", "album", "camera", "person", "place"];
  const PAGE = 24;  // results shown at once: each needs its own small fragment file

  /** The box's words: English here, replaced by the page's own (the `search_` strings of the
   *  theme's i18n/<language>.yml, in `<script type="application/json" id="cascade-search-strings">`,
   *  which an English page leaves out), as viewer.js does. A counted text is an object of its
   *  CLDR forms (one, few, many, other, ...). `{name}` is filled in by `say`. */
  const STRINGS = {
    search_any: "Any", search_filter_year: "Year", search_filter_album: "Album", search_filter_camera: "Camera",
    search_filter_person: "Person", search_filter_place: "Place", search_none: "No photo found.",
    search_found: { one: "{count} photo found.", other: "{count} photos found." },
    search_needs_http: "Search needs the site to be served over HTTP; it does not work from a file.",
    search_unavailable: "Search is not available: its index could not be loaded.",
  };
  const lang = document.documentElement.lang || "en";
  (function readStrings() {
    const node = document.getElementById("cascade-search-strings");
    if (!node) return;
    try {
      const own = JSON.parse(node.textContent);
      for (const key in own) if (typeof own[key] === "string" || (own[key] && typeof own[key] === "object")) STRINGS[key] = own[key];
    } catch (error) { /* malformed: the English ones stay */ }
  })();

  /** The text of `key` with each `{name}` from `values`; for a counted text, the form the
   *  language's plural rules choose for `values.count`, which is written as the language does. */
  function say(key, values) {
    let text = STRINGS[key] === undefined ? key : STRINGS[key];
    values = values || {};
    if (text && typeof text === "object") {
      let form = "other";
      try { form = new Intl.PluralRules(lang).select(values.count); } catch (error) { /* no Intl: other */ }
      text = text[form] !== undefined ? text[form] : text.other;
      values = Object.assign({}, values, { count: number(values.count) });
    }
    return String(text).replace(/\{(\w+)\}/g, function (all, name) {
      return values[name] !== undefined ? String(values[name]) : all;
    });
  }

  /** A number as the page's language writes it. */
  function number(value) {
    try { return Number(value).toLocaleString(lang); } catch (error) { return String(value); }
  }

  let loading = null;
  let generation = 0;
  let results = [];
  let shown = 0;

  /** pagefind.js, imported and initialised once, its filters laid out. */
  function load() {
    if (!loading) {
      loading = import(bundle.href).then(async function (pagefind) {
        await pagefind.options({ baseUrl: root.pathname, excerptLength: 16 });
        await pagefind.init();
        buildFilters(await pagefind.filters());
        return pagefind;
      });
      loading.catch(function () {
        status.textContent = say(window.location.protocol === "file:" ? "search_needs_http" : "search_unavailable");
        panel.hidden = false;
      });
    }
    return loading;
  }

  function buildFilters(filters) {
    const names = Object.keys(filters).filter(function (name) { return Object.keys(filters[name]).length > 0; });
    const known = KNOWN;
    names.sort(function (a, b) {
      const i = known.indexOf(a), j = known.indexOf(b);
      return (i < 0 ? known.length : i) - (j < 0 ? known.length : j) || (a < b ? -1 : a > b ? 1 : 0);
    });
    for (const name of names) {
      const label = document.createElement("label");
      const caption = document.createElement("span");
      caption.textContent = known.indexOf(name) >= 0 ? say("search_filter_" + name) : name.charAt(0).toUpperCase() + name.slice(1);
      const select = document.createElement("select");
      select.name = name;
      select.appendChild(new Option(say("search_any"), ""));
      const values = Object.keys(filters[name]);
      values.sort(name === "year" ? function (a, b) { return b.localeCompare(a); } : function (a, b) { return a.localeCompare(b); });
      for (const value of values) select.appendChild(new Option(value + " (" + number(filters[name][value]) + ")", value));
      select.addEventListener("change", function () { search(true); });
      label.append(caption, select);
      filterBox.appendChild(label);
    }
  }

  function chosenFilters() {
    const chosen = {};
    for (const select of filterBox.querySelectorAll("select")) if (select.value) chosen[select.name] = select.value;
    return chosen;
  }

  /** Runs the query; `now` skips Pagefind's debounce (Enter, a filter changed). */
  async function search(now) {
    const term = input.value.trim();
    const filters = chosenFilters();
    const mine = ++generation;
    if (!term && Object.keys(filters).length === 0) {
      results = [];
      grid.textContent = "";
      more.hidden = true;
      status.textContent = "";
      if (!filterBox.querySelector("select")) panel.hidden = true;
      return;
    }
    panel.hidden = false;
    let pagefind;
    try { pagefind = await load(); } catch (error) { return; }
    if (mine !== generation) return;
    const options = { filters: filters };
    const found = now ? await pagefind.search(term || null, options) : await pagefind.debouncedSearch(term || null, options, 80);
    if (found === null || mine !== generation) return;  // a later query is on its way
    results = found.results;
    shown = 0;
    grid.textContent = "";
    await showMore(mine);
  }

  /** Shows the next results. */
  async function showMore(mine) {
    const page = await Promise.all(results.slice(shown, shown + PAGE).map(function (result) { return result.data(); }));
    if (mine !== generation) return;
    for (const data of page) grid.appendChild(item(data));
    shown += page.length;
    more.hidden = shown >= results.length;
    const count = results.length;
    status.textContent = count === 0 ? say("search_none") : say("search_found", { count: count });
    panel.hidden = false;
  }

  function item(data) {
    const meta = data.meta || {};
    const li = document.createElement("li");
    const link = document.createElement("a");
    link.href = meta.open ? new URL(meta.open, root).href : data.url;
    if (meta.image) {
      const image = document.createElement("img");
      image.src = new URL(meta.image, root).href;
      image.alt = "";
      image.loading = "lazy";
      image.decoding = "async";
      if (meta.image_width && meta.image_height) { image.width = +meta.image_width; image.height = +meta.image_height; }
      link.appendChild(image);
    }
    const title = document.createElement("span");
    title.className = "search-title";
    title.textContent = meta.title || "";
    const details = document.createElement("span");
    details.className = "search-meta";
    details.textContent = [meta.album, meta.date].filter(Boolean).join(" · ");
    link.append(title, details);
    link.addEventListener("click", function () { panel.hidden = true; });
    li.appendChild(link);
    return li;
  }

  /** Arrow keys move among the results by their place in the grid. */
  function moveFocus(from, key) {
    const links = Array.from(grid.querySelectorAll("a"));
    const at = links.indexOf(from);
    if (at < 0) return;
    let columns = 1;
    while (columns < links.length && links[columns].offsetTop === links[0].offsetTop) columns += 1;
    const step = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: columns, ArrowUp: -columns }[key];
    const to = at + step;
    if (to >= 0 && to < links.length) links[to].focus();
    else if (to < 0) input.focus();
  }

  input.addEventListener("focus", function () { load().catch(function () {}); if (input.value.trim() || grid.firstChild) panel.hidden = false; });
  input.addEventListener("input", function () { search(false); });
  form.addEventListener("submit", function (event) { event.preventDefault(); search(true); });
  more.addEventListener("click", function () { showMore(generation); });
  form.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && !panel.hidden) {
      event.preventDefault();
      panel.hidden = true;
      input.focus();
    } else if (event.key === "ArrowDown" && event.target === input && grid.firstChild) {
      event.preventDefault();
      grid.querySelector("a").focus();
    } else if (/^Arrow/.test(event.key) && event.target.closest && event.target.closest(".search-grid")) {
      event.preventDefault();
      moveFocus(event.target, event.key);
    }
  });
  // A click or focus elsewhere closes the results (the query stays).
  document.addEventListener("pointerdown", function (event) { if (!form.contains(event.target)) panel.hidden = true; });
  document.addEventListener("focusin", function (event) { if (!form.contains(event.target)) panel.hidden = true; });
  // What happened before this script was in (search.js loads it on the box's first focus or
  // key): with the box still in focus, Pagefind is loaded and a query typed meanwhile is run.
  if (document.activeElement === input) {
    load().catch(function () {});
    if (input.value.trim()) search(true);
  }
})();
