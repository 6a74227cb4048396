/* Cascade's search box (docs/layout.md, "Search"), loaded by search.js on its first use. It
   reads the index the build writes into the site's search folder (`index.gz`, the form's
   `data-index`): small gzipped JSON files, so that a query downloads only what it needs however
   large the library: `index.gz` once, the term shard of each word typed (`t/<key>.gz`, the key
   being the word's first two letters), and the records of the results shown (`p/<n>.gz`, a
   chunk of photos each). Words are folded and split here exactly as the build folds and splits
   them (`fold`, `words`, `shardKey`): a change to one must be made to the other.
   Results come as the query is typed, as a grid of the site's own tile images with title,
   album and date, and a result opens the photo in its album's lightbox. The filters are those
   the index names (year, album, camera, person, place), each value with its count.
   At 100,000 photos four things keep a query quick: one search at a time, and only the latest
   query typed while one runs; queries of one or two letters (whose words are thousands of
   photos there, all of them thrown away by the next key) run only when the typing pauses, the
   shard fetched meanwhile; the records of only the results on the first screen; the filters'
   file (a list of photos per value, hundreds of kilobytes there) fetched only when the filters
   are opened. */
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
  // The site's root folder: the records' paths are from there; the index's files are beside index.gz.
  const root = new URL("./", new URL(form.getAttribute("data-root"), window.location.href));
  const indexURL = new URL(form.getAttribute("data-index"), window.location.href);
  const PAGE = 24;  // results "More photos" adds
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

  // MARK: the index's words (as the build makes them)

  /** Text folded as the build folds it: accents and case do not matter. ("ς" is "σ": here
   *  toLowerCase makes a word's last "Σ" "ς", Swift's lowercased() "σ", and people type either.) */
  function fold(text) {
    return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/\u03C2/g, "\u03C3");
  }

  // Scripts written without spaces (kana, CJK ideographs, Hangul): each letter is a word.
  const CJK = "\\u3040-\\u30FF\\u31F0-\\u31FF\\u3400-\\u4DBF\\u4E00-\\u9FFF\\uAC00-\\uD7AF\\uF900-\\uFAFF\\uFF66-\\uFF9F\\u{20000}-\\u{2FFFF}";
  const WORD = new RegExp("(?=[\\p{L}\\p{N}])[" + CJK + "]|(?:(?![" + CJK + "])[\\p{L}\\p{N}])+", "gu");

  /** The words of folded text: runs of letters and digits. */
  function words(folded) {
    return folded.match(WORD) || [];
  }

  /** The name of a word's shard: its first two scalars' UTF-8 bytes in hex ("fr": "6672"). */
  function shardKey(word) {
    const head = new TextEncoder().encode(Array.from(word).slice(0, 2).join(""));
    return Array.from(head, function (byte) { return byte.toString(16).padStart(2, "0"); }).join("");
  }

  /** The photo ids of a posting list `[name, deltas]`, decoded the first time it is used. */
  function ids(entry) {
    if (!(entry[1] instanceof Int32Array)) {
      const list = new Int32Array(entry[1].length);
      let id = 0;
      for (let at = 0; at < list.length; at += 1) list[at] = id += entry[1][at];
      entry[1] = list;
    }
    return entry[1];
  }

  function has(object, key) { return Object.prototype.hasOwnProperty.call(object, key); }

  // MARK: the index's files

  /** The JSON of one of the index's files. They are gzip; a host that sends them with
   *  `Content-Encoding: gzip` has the browser decompress them, so only bytes that still start
   *  as gzip does (1f 8b) are decompressed here. */
  async function fetchJSON(url, options) {
    const response = await fetch(url, options);
    if (!response.ok) throw new Error(url + ": HTTP " + response.status);
    let bytes = new Uint8Array(await response.arrayBuffer());
    if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
      const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
      bytes = new Uint8Array(await new Response(stream).arrayBuffer());
    }
    return JSON.parse(new TextDecoder().decode(bytes));
  }

  let loading = null;  // index.gz
  const files = new Map();  // a file's path in the search folder: its JSON, once fetched

  /** index.gz, fetched once per page. It names the version of the other files, which are
   *  fetched with it (`?v=`) so that a host's cache never mixes two builds' files. */
  function load() {
    if (!loading) {
      // ("no-cache": asked again of the host, which may answer "not modified".)
      loading = fetchJSON(indexURL.href, { cache: "no-cache" }).then(function (index) {
        if (index.format !== 1) throw new Error(indexURL.href + ": format " + index.format + ", not 1");
        index.shardKeys = new Set(index.shards);
        return index;
      });
      loading.catch(function () {
        status.textContent = say(window.location.protocol === "file:" ? "search_needs_http" : "search_unavailable");
        panel.hidden = false;
      });
    }
    return loading;
  }

  /** The JSON of `path` in the search folder, fetched once (a failed fetch is tried again later). */
  function file(index, path) {
    if (!files.has(path)) {
      const url = new URL(path + "?v=" + encodeURIComponent(index.version), indexURL);
      const promise = fetchJSON(url.href);
      promise.catch(function () { files.delete(path); });
      files.set(path, promise);
    }
    return files.get(path);
  }

  /** The term shard of `word`, or null when no indexed word has its key. */
  function shard(index, word) {
    const key = shardKey(word);
    return index.shardKeys.has(key) ? file(index, "t/" + key + ".gz") : Promise.resolve(null);
  }

  // MARK: a query

  /** The photos query word `q` matches (lists of ids, their union), and those with a word
   *  exactly `q` (its stem's list), or null. A word being typed matches the words it begins
   *  (one letter: only itself); else it is a longer form of an indexed stem ("sailing": "sail"). */
  async function lookUp(index, q) {
    const terms = await shard(index, q);
    if (!terms) return { lists: [], exact: null };
    const single = Array.from(q).length === 1;
    const stems = new Set();
    for (const w in terms.w) if (has(terms.w, w) && (single ? w === q : w.startsWith(q))) stems.add(terms.w[w]);
    let lists = Array.from(stems, function (stem) { return ids(terms.s[stem]); });
    if (lists.length === 0) {
      lists = terms.s.filter(function (stem) { return stem[0].length >= 3 && q.startsWith(stem[0]); }).map(ids);
    }
    return { lists: lists, exact: has(terms.w, q) ? ids(terms.s[terms.w[q]]) : null };
  }

  /** The ids of the photos that match every word of `term` and every filter `chosen`, those
   *  with more words matched exactly first, then in site order. */
  async function find(index, term, chosen) {
    const queryWords = Array.from(new Set(words(fold(term))));
    const filters = Object.keys(chosen).length ? await file(index, "f.gz") : {};
    const groups = await Promise.all(queryWords.map(function (q) { return lookUp(index, q); }));
    for (const name in chosen) {
      const value = (filters[name] || []).find(function (entry) { return entry[0] === chosen[name]; });
      groups.push({ lists: value ? [ids(value)] : [], exact: null });
    }
    if (groups.length === 0) return [];
    // hits[id]: how many groups (a word's lists, a filter), from the first, matched `id` one
    // after the other; a photo that missed one stays behind, so those at the end matched all.
    const hits = new Uint16Array(index.photos);
    const exact = new Uint16Array(index.photos);
    groups.forEach(function (group, round) {
      for (const list of group.lists) for (const id of list) if (hits[id] === round) hits[id] = round + 1;
      if (group.exact) for (const id of group.exact) exact[id] += 1;
    });
    const found = [];
    for (let id = 0; id < index.photos; id += 1) if (hits[id] === groups.length) found.push(id);
    return found.sort(function (a, b) { return exact[b] - exact[a]; });  // (stable: ids stay in order)
  }

  /** The records of photos `list`: [open, image, width, height, title, albumIndex, date]. */
  function records(index, list) {
    return Promise.all(list.map(function (id) {
      return file(index, "p/" + Math.floor(id / index.chunk) + ".gz").then(function (chunk) { return chunk[id % index.chunk]; });
    }));
  }

  // MARK: the box

  let filtersLoading = null;
  let generation = 0;  // bumped by every change of the query: an older query's results are not shown
  let timer = 0;
  let running = null;  // the search under way, if any
  let results = [];
  let shown = 0;

  /** The filters, laid out once (when they are first opened: see the top). */
  function loadFilters() {
    if (!filtersLoading) {
      filtersLoading = load().then(function (index) {
        return file(index, "f.gz").then(function (filters) { buildFilters(index, filters); });
      });
      filtersLoading.catch(function () { filtersLoading = null; });
    }
    return filtersLoading;
  }

  function buildFilters(index, filters) {
    for (const name of index.filters) {
      if (!has(filters, name) || !filters[name].length) continue;
      const label = document.createElement("label");
      const caption = document.createElement("span");
      caption.textContent = STRINGS["search_filter_" + name] !== undefined
        ? say("search_filter_" + name) : name.charAt(0).toUpperCase() + name.slice(1);
      const select = document.createElement("select");
      select.name = name;
      select.appendChild(new Option(say("search_any"), ""));
      const values = filters[name].slice();
      values.sort(name === "year" ? function (a, b) { return b[0].localeCompare(a[0]); } : function (a, b) { return a[0].localeCompare(b[0]); });
      for (const value of values) select.appendChild(new Option(value[0] + " (" + number(value[1].length) + ")", value[0]));
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
    // The shards of the words typed are fetched while the typing goes on: a word's shard is
    // known from its second letter.
    load().then(function (index) {
      for (const word of words(fold(term))) if (Array.from(word).length >= 2) shard(index, word).catch(function () {});
    }, function () {});
    const letters = Array.from(term).length;
    timer = setTimeout(function () { search(mine); }, letters < 2 ? PAUSE : letters < 3 ? PAUSE / 2 : DEBOUNCE);
  }

  /** Runs query `mine` (unless a later one came), after the search under way if any. */
  async function search(mine) {
    let index;
    try { index = await load(); } catch (error) { return; }
    while (running) {
      try { await running; } catch (error) { /* that query's failure is its own */ }
      if (mine !== generation) return;
    }
    if (mine !== generation) return;
    const found = running = find(index, input.value.trim(), chosenFilters())
      .then(function (list) { return Promise.all([list, records(index, list.slice(0, firstScreen()))]); });
    let answer;
    try {
      answer = await found;
    } catch (error) {
      if (mine === generation) { status.textContent = say("search_unavailable"); panel.hidden = false; }
      return;
    } finally {
      if (running === found) running = null;
    }
    if (mine !== generation) return;
    results = answer[0];
    shown = 0;
    grid.textContent = "";
    show(index, answer[1]);
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

  function show(index, page) {
    for (const record of page) grid.appendChild(item(index, record));
    shown += page.length;
    more.hidden = shown >= results.length;
    const count = results.length;
    status.textContent = count === 0 ? say("search_none") : say("search_found", { count: count });
    panel.hidden = false;
  }

  /** Shows the next results. */
  async function showMore() {
    const mine = generation;
    const index = await load();
    const page = await records(index, results.slice(shown, shown + PAGE));
    if (mine === generation) show(index, page);
  }

  /** A result: a link to the photo in its album's lightbox, its tile image, title, album and date. */
  function item(index, record) {
    const [open, image, width, height, title, album, date] = record;
    const li = document.createElement("li");
    const link = document.createElement("a");
    link.href = new URL(open, root).href;
    if (image) {
      const img = document.createElement("img");
      img.src = new URL(image, root).href;
      img.alt = "";
      img.loading = "lazy";
      img.decoding = "async";
      if (width && height) { img.width = width; img.height = height; }
      link.appendChild(img);
    }
    const name = document.createElement("span");
    name.className = "search-title";
    name.textContent = title || "";
    const details = document.createElement("span");
    details.className = "search-meta";
    // On a right-to-left page the album and the date are each isolated (FSI … PDI), as in the
    // lightbox's credit line: a Latin album name beside an Arabic date ran together with it.
    const rtl = getComputedStyle(grid).direction === "rtl";
    details.textContent = [index.albums[album], date].filter(Boolean)
      .map(function (text) { return rtl ? "\u2068" + text + "\u2069" : text; }).join(" · ");
    link.append(name, details);
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
  more.addEventListener("click", function () { showMore().catch(function () {}); });
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
      input.focus();  // (first: the box's focus shows the results of the query it holds)
      panel.hidden = true;
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
  // key): with the box still in focus, the index is loaded and a query typed meanwhile is run.
  if (document.activeElement === input) {
    load().catch(function () {});
    if (input.value.trim()) queryChanged(true);
  }
})();
