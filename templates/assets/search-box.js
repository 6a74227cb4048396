/* Cascade's search box (docs/layout.md, "Search"), loaded by search.js on its first use. The
   index is Pagefind's: pagefind.js is loaded on first use (focus, or a key typed) and asked
   through its JavaScript API; results come as the query is typed, as a grid of the site's own
   tile images with title, album and date, and a result opens the photo in its album's lightbox.
   The filters are those the index holds (year, album, camera, and any the build adds).
   At 100,000 photos (BENCHMARKS.md, "Search") four things keep a query quick: one Pagefind
   search at a time, and only the latest query typed while one runs; a query of one or two
   letters (thousands of photos, up to seconds to rank there) run only when the typing pauses;
   the fragment files of only the results on the first screen; the filters' files (hundreds
   of kilobytes there, each a list of every photo) fetched only when the filters are opened. */
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
  const filterToggle = form.querySelector(".search-filter-toggle");
  // The site's root folder: result paths in the index are from there.
  const root = new URL("./", new URL(form.getAttribute("data-root"), window.location.href));
  const bundle = new URL(form.getAttribute("data-pagefind"), window.location.href);
  // Filters in this order first, then any other the index holds; their labels are the
  // strings search_filter_<name>.
  const KNOWN = ["year", "album", "camera", "person", "place"];
  const PAGE = 24;  // results "More photos" adds: each needs its own small fragment file
  const DEBOUNCE = 80;  // ms without a key before a query typed runs
  const PAUSE = 500;  // ms without a key before a query of one letter runs (two: half)

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
  let filtersLoading = null;
  let generation = 0;  // bumped by every change of the query: an older query's results are not shown
  let timer = 0;
  let running = null;  // the Pagefind search under way, if any
  let results = [];
  let shown = 0;

  /** pagefind.js, imported and initialised once. */
  function load() {
    if (!loading) {
      loading = import(bundle.href).then(async function (pagefind) {
        await pagefind.options({ baseUrl: root.pathname, excerptLength: 16 });
        await pagefind.init();
        return pagefind;
      });
      loading.catch(function () {
        status.textContent = say(window.location.protocol === "file:" ? "search_needs_http" : "search_unavailable");
        panel.hidden = false;
      });
    }
    return loading;
  }

  /** The filters, laid out once (when they are first opened: see the top). */
  function loadFilters() {
    if (!filtersLoading) {
      filtersLoading = load().then(function (pagefind) { return pagefind.filters(); }).then(buildFilters);
      filtersLoading.catch(function () { filtersLoading = null; });
    }
    return filtersLoading;
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
      select.addEventListener("change", function () { queryChanged(true); });
      label.append(caption, select);
      filterBox.appendChild(label);
    }
  }

  function chosenFilters() {
    const chosen = {};
    for (const select of filterBox.querySelectorAll("select")) if (select.value) chosen[select.name] = select.value;
    return chosen;
  }

  /** The query changed: runs it now (Enter, a filter changed) or once no key came for a moment. */
  function queryChanged(now) {
    const mine = ++generation;
    clearTimeout(timer);
    const term = input.value.trim();
    if (!term && Object.keys(chosenFilters()).length === 0) {
      results = [];
      grid.textContent = "";
      more.hidden = true;
      status.textContent = "";
      if (filterBox.hidden || !filterBox.querySelector("select")) panel.hidden = true;
      return;
    }
    panel.hidden = false;
    if (now) {
      search(mine);
      return;
    }
    // A word's first letters match thousands of photos in a large library and take Pagefind
    // long to rank: they are searched only when the typing stops there. From three letters
    // the index chunks the word needs are fetched while the typing goes on.
    const letters = Array.from(term).length;
    if (letters >= 3) load().then(function (pagefind) { if (mine === generation) pagefind.preload(term, { filters: chosenFilters() }); }, function () {});
    timer = setTimeout(function () { search(mine); }, letters < 2 ? PAUSE : letters < 3 ? PAUSE / 2 : DEBOUNCE);
  }

  /** Runs query `mine` (unless a later one came), after the search under way if any. */
  async function search(mine) {
    let pagefind;
    try { pagefind = await load(); } catch (error) { return; }
    while (running) {
      try { await running; } catch (error) { /* that query's failure is its own */ }
      if (mine !== generation) return;
    }
    if (mine !== generation) return;
    const term = input.value.trim();
    const found = running = pagefind.search(term || null, { filters: chosenFilters() });
    let answer;
    try { answer = await found; } finally { if (running === found) running = null; }
    if (mine !== generation) return;
    const page = await fetchData(answer.results, 0, firstScreen());
    if (mine !== generation) return;
    results = answer.results;
    shown = 0;
    grid.textContent = "";
    show(page);
    // (A theme's header without the toggle gets the filters with the first results.)
    if (filterToggle) filterToggle.hidden = false;
    else loadFilters().catch(function () {});
  }

  /** How many results fill the panel's first screen (at least a row, at most PAGE). */
  function firstScreen() {
    const columns = getComputedStyle(grid).gridTemplateColumns.split(" ");
    const width = parseFloat(columns[0]);
    if (!/px$/.test(columns[0]) || !(width > 0)) return PAGE;  // (not laid out)
    const height = Math.min(window.innerHeight * 0.8, 900);
    const rows = Math.ceil(height / (width + 50));
    return Math.max(columns.length, Math.min(PAGE, columns.length * rows));
  }

  /** The data of `count` results from `from`. */
  function fetchData(list, from, count) {
    return Promise.all(list.slice(from, from + count).map(function (result) { return result.data(); }));
  }

  function show(page) {
    for (const data of page) grid.appendChild(item(data));
    shown += page.length;
    more.hidden = shown >= results.length;
    const count = results.length;
    status.textContent = count === 0 ? say("search_none") : say("search_found", { count: count });
    panel.hidden = false;
  }

  /** Shows the next results. */
  async function showMore() {
    const mine = generation;
    const page = await fetchData(results, shown, PAGE);
    if (mine === generation) show(page);
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
    // On a right-to-left page the album and the date are each isolated (FSI … PDI), as in the
    // lightbox's credit line: a Latin album name beside an Arabic date ran together with it.
    const rtl = getComputedStyle(grid).direction === "rtl";
    details.textContent = [meta.album, meta.date].filter(Boolean)
      .map(function (text) { return rtl ? "\u2068" + text + "\u2069" : text; }).join(" · ");
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
    // Right to left the next result is at the left: ArrowLeft goes to it.
    const ahead = getComputedStyle(grid).direction === "rtl" ? -1 : 1;
    const step = { ArrowRight: ahead, ArrowLeft: -ahead, ArrowDown: columns, ArrowUp: -columns }[key];
    const to = at + step;
    if (to >= 0 && to < links.length) links[to].focus();
    else if (to < 0) input.focus();
  }

  input.addEventListener("focus", function () { load().catch(function () {}); if (input.value.trim() || grid.firstChild) panel.hidden = false; });
  input.addEventListener("input", function () { queryChanged(false); });
  form.addEventListener("submit", function (event) { event.preventDefault(); queryChanged(true); });
  more.addEventListener("click", function () { showMore(); });
  if (filterToggle) {
    filterToggle.addEventListener("click", function () {
      const open = filterToggle.getAttribute("aria-expanded") !== "true";
      filterToggle.setAttribute("aria-expanded", String(open));
      filterBox.hidden = !open;
      if (open) loadFilters().catch(function () {});
    });
  }
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
    if (input.value.trim()) queryChanged(true);
  }
})();
