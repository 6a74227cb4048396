/* Cascade viewer: a virtualized waterfall over a static album page; its lightbox is
 * lightbox.js, loaded on the first opening. CSS places every tile (cascade.css); this script
 * only decides which tiles exist, from the frames (frames.json) and the CSS formulas, never
 * measuring a tile, and reuses tile nodes through a pool. Without it the static page works as
 * it is. Pure parts are exported for node. */
(function (global) {
  "use strict";

  // ---------------------------------------------------------------- model and geometry

  /** The version of frames.json this viewer reads. */
  const FRAMES_VERSION = 3;

  /** The viewer's words: English here, replaced by the page's own (the `viewer_` strings of the
   *  theme's i18n/<language>.yml, in `<script type="application/json" id="cascade-strings">`,
   *  which an English page leaves out). `{name}` is filled in by `say`. Only the wall's own are
   *  here: lightbox.js adds its English ones where the page gave none (this script's budget). */
  const STRINGS = { viewer_video_label: "Video, {duration}, {alt}", viewer_live_label: "Live Photo, {alt}" };

  /** The text of `key` with each `{name}` from `values`; `escaped` makes it safe in an attribute. */
  function say(key, values, escaped) {
    const text = String(STRINGS[key] === undefined ? key : STRINGS[key]).replace(/\{(\w+)\}/g, function (all, name) {
      return values && values[name] !== undefined ? String(values[name]) : all;
    });
    return escaped ? text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;") : text;
  }

  /** Takes the page's strings, when it has them. */
  function readStrings(doc) {
    const node = doc.getElementById("cascade-strings");
    if (!node) return;
    try {
      const own = JSON.parse(node.textContent);
      for (const key in own) if (typeof own[key] === "string") STRINGS[key] = own[key];
    } catch (error) { /* malformed: the English ones stay */ }
  }

  /** Whether the page is written right to left: the lightbox's arrows and swipes are mirrored. */
  function isRightToLeft() {
    return typeof document !== "undefined" && document.documentElement.getAttribute("dir") === "rtl";
  }

  /** The layout model from frames.json: per breakpoint, each item's column, the sum of the
   *  ratios above it (A), their count (k), and each column's items. In a grouped album
   *  (sections), A and k also count the sections above the item's (their largest column's
   *  ratio sum and item count, a gap between sections and one under each header), as the
   *  page's CSS does, and each section's top and extent are kept. */
  function buildModel(data) {
    if (!data || data.version !== FRAMES_VERSION) {
      throw new Error("frames.json is version " + (data && data.version) + "; this viewer reads version " + FRAMES_VERSION);
    }
    const count = data.count;
    const sections = data.sections || [];
    const grouped = sections.length > 0;
    const sectionOf = new Int32Array(count);
    for (let s = 0; s < sections.length; s++) {
      const end = s + 1 < sections.length ? sections[s + 1].start : count;
      for (let i = sections[s].start; i < end; i++) sectionOf[i] = s;
    }
    const gap = data.gap;
    const scale = data.ratioScale;
    const ratios = new Float64Array(count);
    for (let i = 0; i < count; i++) ratios[i] = data.ratios[i] / scale;
    if (data.layout === "rows") return buildRowModel(data, ratios);
    const breakpoints = data.breakpoints.map(function (bp) {
      const n = bp.columns;
      const column = new Int32Array(count);
      const above = new Float64Array(count);
      const aboveCount = new Int32Array(count);
      const sums = new Float64Array(n);
      const counts = new Int32Array(n);
      const units = new Float64Array(n);  // exact sums in ratio units, as the generator adds them
      const columnItems = [];
      for (let c = 0; c < n; c++) columnItems.push([]);
      const columns = bp.column;
      // Per section: its top's terms (units, gaps) and its columns' extent (units, count).
      const sectionAboveUnits = new Float64Array(sections.length);
      const sectionAboveGaps = new Int32Array(sections.length);
      const sectionUnits = new Float64Array(sections.length);
      const sectionCounts = new Int32Array(sections.length);
      let baseUnits = 0, baseGaps = 0, section = -1;
      for (let i = 0; i < count; i++) {
        if (grouped && section + 1 < sections.length && sections[section + 1].start === i) {
          if (section >= 0) {
            baseUnits += sectionUnits[section];
            baseGaps += sectionCounts[section] + 1;
          }
          section += 1;
          sectionAboveUnits[section] = baseUnits;
          sectionAboveGaps[section] = baseGaps;
          units.fill(0);
          counts.fill(0);
        }
        const code = columns.charCodeAt(i);
        const c = Math.min(n - 1, code <= 57 ? code - 48 : code - 87);
        column[i] = c;
        above[i] = grouped ? (baseUnits + units[c]) / scale : units[c] / scale;
        aboveCount[i] = grouped ? baseGaps + 1 + counts[c] : counts[c];
        units[c] += data.ratios[i];
        counts[c] += 1;
        columnItems[c].push(i);
        if (grouped) {
          sectionUnits[section] = Math.max(sectionUnits[section], units[c]);
          sectionCounts[section] = Math.max(sectionCounts[section], counts[c]);
        }
      }
      for (let c = 0; c < n; c++) sums[c] = units[c] / scale;
      return {
        minWidth: bp.minWidth, columns: n, column: column, above: above, aboveCount: aboveCount,
        columnItems: columnItems.map(function (list) { return Int32Array.from(list); }),
        columnSums: sums, columnCounts: counts,
        sectionAboveUnits: sectionAboveUnits, sectionAboveGaps: sectionAboveGaps,
        sectionUnits: sectionUnits, sectionCounts: sectionCounts,
      };
    });
    return {
      count: count, gap: gap, ratios: ratios, breakpoints: breakpoints, ids: data.ids,
      chunkSize: data.chunkSize, chunks: data.chunks, pageURL: data.pageURL, imageURL: data.imageURL,
      sources: data.sources || [], tileMaxWidth: data.tileMaxWidth, colors: data.colors || "",
      sections: sections, grouped: grouped, sectionOf: sectionOf, headerHeight: grouped ? data.headerHeight : 0,
      scale: scale,
    };
  }

  /** The model of an album laid out in justified rows: per breakpoint its rows (first item,
   *  count, coefficient c and top terms T and Y in 1/10^8, as the generator computes them),
   *  and per item its row and the ratio units before it in the row. */
  function buildRowModel(data, ratios) {
    const count = data.count;
    const rowRatios = data.rowRatios;
    const breakpoints = data.breakpoints.map(function (bp) {
      const rowOf = new Int32Array(count);
      const before = new Float64Array(count);
      const rows = [];
      let start = 0, topWidth = 0, topGap = 0;
      for (let r = 0; r < bp.rows.length; r++) {
        const n = bp.rows[r];
        let sum = 0;
        for (let i = start; i < start + n; i++) {
          rowOf[i] = r;
          before[i] = sum;
          sum += rowRatios[i];
        }
        const coefficient = Math.floor(ROW_SCALE * data.ratioScale / Math.max(1, sum));
        rows.push({ start: start, count: n, coefficient: coefficient, topWidth: topWidth, topGap: topGap, isLast: r === bp.rows.length - 1 });
        topWidth += coefficient;
        topGap += ROW_SCALE - coefficient * (n - 1);
        start += n;
      }
      return { minWidth: bp.minWidth, rowHeight: bp.rowHeight, rows: rows, rowOf: rowOf, before: before };
    });
    return {
      count: count, gap: data.gap, ratios: ratios, breakpoints: breakpoints, ids: data.ids, rows: true,
      rowRatios: Float64Array.from(rowRatios, function (u) { return u / data.ratioScale; }), scale: data.ratioScale,
      chunkSize: data.chunkSize, chunks: data.chunks, pageURL: data.pageURL, imageURL: data.imageURL,
      sources: data.sources || [], tileMaxWidth: data.tileMaxWidth, colors: data.colors || "",
      sections: [], grouped: false, headerHeight: 0,
    };
  }

  /** Fixed-point scale of the row terms (c, T, Y). */
  const ROW_SCALE = 100000000;

  /** Row r's top and height at breakpoint b and wall width `width` (rows layout). */
  function rowFrame(model, b, width, r) {
    const bp = model.breakpoints[b];
    const row = bp.rows[r];
    let height = row.coefficient / ROW_SCALE * (width - (row.count - 1) * model.gap);
    if (row.isLast) height = Math.min(bp.rowHeight, height);
    return { y: row.topWidth / ROW_SCALE * width + row.topGap / ROW_SCALE * model.gap, height: height };
  }

  /** Item i's placeholder colour from the index ("#rrggbb"), or "" when the index has none. */
  function colorOf(model, i) {
    return model.colors.length >= 6 * (i + 1) ? "#" + model.colors.substr(6 * i, 6) : "";
  }

  /** Which chunk of frame data holds item i's details. */
  function chunkOf(model, i) {
    return Math.floor(i / model.chunkSize);
  }

  /** A URL template of the frame data filled in for photo `id` (in an album its slug; on a tag
   *  page the path to it from the tag's folder, `../../trip/img_1`): `{id}`, `{dir}` and `{name}`
   *  (the id up to and after its last `/`) and `{width}`. */
  function fillURL(template, id, width) {
    const cut = id.lastIndexOf("/") + 1;
    return template.replace("{dir}", id.slice(0, cut)).replace("{name}", id.slice(cut)).replace("{id}", id)
      .replace("{width}", String(width));
  }

  /** Item i from its chunk's details: page, alt, size, color, thumbnails, images and sources
   *  (the same per further format), each URL after `prefix` (the album's folder). */
  function resolveItem(model, i, detail, prefix) {
    const id = model.ids[i];
    prefix = prefix || "";
    function imagesAt(template) {
      return detail.widths.map(function (width) {
        return { width: width, url: prefix + fillURL(template, id, width) };
      });
    }
    function tileImages(images) {
      const thumbnails = images.filter(function (image) { return image.width <= model.tileMaxWidth; });
      return thumbnails.length === 0 ? images.slice(0, 1) : thumbnails;
    }
    const images = imagesAt(model.imageURL);
    const sources = model.sources.map(function (source) {
      const list = imagesAt(source.imageURL);
      return { type: source.type, thumbnails: tileImages(list), images: list };
    });
    return {
      page: prefix + fillURL(model.pageURL, id, 0), alt: detail.alt, width: detail.width, height: detail.height,
      color: detail.color, thumbnails: tileImages(images), images: images, sources: sources,
      video: detail.video ? { url: prefix + detail.video.url, duration: detail.video.duration } : null,
      live: detail.live ? { url: prefix + detail.live.url } : null,
    };
  }

  /** An album taller than `limit` gets a wall `limit` px tall whose content scrolls `factor`
   *  times as fast until its last screen, then one to one (the footer). */
  function scrollMapping(height, limit, viewport) {
    if (!(height > limit) || limit <= viewport) {
      return { scaled: false, wallHeight: height, factor: 1, height: height, viewport: viewport };
    }
    return { scaled: true, wallHeight: limit, factor: (height - viewport) / (limit - viewport), height: height, viewport: viewport };
  }

  /** The content offset shown at the top of the viewport when the wall is scrolled to `s`. */
  function contentOffset(mapping, s) {
    if (!mapping.scaled || s <= 0) return s;
    const end = mapping.wallHeight - mapping.viewport;
    if (s >= end) return s + (mapping.height - mapping.wallHeight);
    return s * mapping.factor;
  }

  /** The wall scroll position that shows content offset `c` at the top of the viewport. */
  function wallOffset(mapping, c) {
    if (!mapping.scaled || c <= 0) return c;
    const end = mapping.height - mapping.viewport;
    if (c >= end) return c - (mapping.height - mapping.wallHeight);
    return c / mapping.factor;
  }

  /** The breakpoint the CSS uses for a wall of this width: the last whose minWidth it reaches. */
  function breakpointIndex(model, width) {
    let chosen = 0;
    for (let b = 0; b < model.breakpoints.length; b++) {
      if (width >= model.breakpoints[b].minWidth) chosen = b;
    }
    return chosen;
  }

  /** Column width at a wall width, as in the CSS: (100cqw - (n-1)·gap) / n. */
  function columnWidth(model, b, width) {
    const n = model.breakpoints[b].columns;
    return (width - (n - 1) * model.gap) / n;
  }

  /** Item i's top at breakpoint b and column width w, from the CSS formula. */
  function itemTop(model, bp, w, i) {
    const headers = model.grouped ? (model.sectionOf[i] + 1) * model.headerHeight : 0;
    return bp.above[i] * w + bp.aboveCount[i] * model.gap + headers;
  }

  /** Item i's rectangle at breakpoint b and wall width `width`, from the CSS formulas. */
  function frameOf(model, b, width, i) {
    const bp = model.breakpoints[b];
    if (model.rows) {
      const r = bp.rowOf[i];
      const row = rowFrame(model, b, width, r);
      const x = (bp.before[i] / model.scale) * row.height + (i - bp.rows[r].start) * model.gap;
      return { x: x, y: row.y, width: model.rowRatios[i] * row.height, height: row.height };
    }
    const w = columnWidth(model, b, width);
    return { x: bp.column[i] * (w + model.gap), y: itemTop(model, bp, w, i), width: w, height: model.ratios[i] * w };
  }

  /** Section s's box (its header at the top, then its columns) at breakpoint b and wall
   *  width `width`, from the CSS formulas. */
  function sectionFrame(model, b, width, s) {
    const bp = model.breakpoints[b];
    const w = columnWidth(model, b, width);
    const y = (bp.sectionAboveUnits[s] / model.scale) * w + bp.sectionAboveGaps[s] * model.gap + s * model.headerHeight;
    const height = model.headerHeight + (bp.sectionUnits[s] / model.scale) * w + bp.sectionCounts[s] * model.gap;
    return { x: 0, y: y, width: width, height: height, headerHeight: model.headerHeight };
  }

  /** Sections (ascending) whose boxes reach into [top, bottom): a binary search. */
  function visibleSections(model, b, width, top, bottom) {
    const result = [];
    const count = model.sections.length;
    let low = 0, high = count;
    while (low < high) {
      const mid = (low + high) >> 1;
      const f = sectionFrame(model, b, width, mid);
      if (f.y + f.height > top) high = mid; else low = mid + 1;
    }
    for (let s = low; s < count; s++) {
      if (sectionFrame(model, b, width, s).y >= bottom) break;
      result.push(s);
    }
    return result;
  }

  /** The inline style of section s's box: the same custom properties the generator writes. */
  function sectionStyle(model, s) {
    let style = "--s:" + s;
    for (let b = 0; b < model.breakpoints.length; b++) {
      const bp = model.breakpoints[b];
      style += ";--a" + b + ":" + round5(bp.sectionAboveUnits[s] / model.scale) + ";--k" + b + ":" + bp.sectionAboveGaps[s]
        + ";--e" + b + ":" + round5(bp.sectionUnits[s] / model.scale) + ";--f" + b + ":" + bp.sectionCounts[s];
    }
    return style;
  }

  /** The wall's height at a width: its tallest column (a grouped album: its last section's bottom). */
  function contentHeight(model, b, width) {
    const bp = model.breakpoints[b];
    if (model.rows) {
      if (bp.rows.length === 0) return 0;
      const last = rowFrame(model, b, width, bp.rows.length - 1);
      return last.y + last.height;
    }
    const w = columnWidth(model, b, width);
    if (model.grouped) {
      const last = sectionFrame(model, b, width, model.sections.length - 1);
      return last.y + last.height;
    }
    let tallest = 0;
    for (let c = 0; c < bp.columns; c++) {
      if (bp.columnCounts[c] > 0) {
        tallest = Math.max(tallest, bp.columnSums[c] * w + (bp.columnCounts[c] - 1) * model.gap);
      }
    }
    return tallest;
  }

  /** Indices (ascending) of the items reaching into [top, bottom): a binary search per
   *  column, O(columns · log n + k). */
  function visibleItems(model, b, width, top, bottom) {
    const bp = model.breakpoints[b];
    if (model.rows) {
      const found = [];
      let low = 0, high = bp.rows.length;
      while (low < high) {
        const mid = (low + high) >> 1;
        const f = rowFrame(model, b, width, mid);
        if (f.y + f.height > top) high = mid; else low = mid + 1;
      }
      for (let r = low; r < bp.rows.length && rowFrame(model, b, width, r).y < bottom; r++) {
        for (let i = bp.rows[r].start; i < bp.rows[r].start + bp.rows[r].count; i++) found.push(i);
      }
      return found;
    }
    const w = columnWidth(model, b, width);
    const gap = model.gap;
    const result = [];
    for (let c = 0; c < bp.columns; c++) {
      const list = bp.columnItems[c];
      let low = 0;
      let high = list.length;
      while (low < high) {
        const mid = (low + high) >> 1;
        const i = list[mid];
        const itemBottom = itemTop(model, bp, w, i) + model.ratios[i] * w;
        if (itemBottom > top) high = mid; else low = mid + 1;
      }
      for (let p = low; p < list.length; p++) {
        const i = list[p];
        if (itemTop(model, bp, w, i) >= bottom) break;
        result.push(i);
      }
    }
    result.sort(function (a, b2) { return a - b2; });
    return result;
  }

  /** The inline style of tile i: the same custom properties the generator writes. */
  function tileStyle(model, i, color) {
    let style = "--r:" + model.ratios[i];
    if (model.rows) {
      style += ";--q:" + model.rowRatios[i];
      for (let b = 0; b < model.breakpoints.length; b++) {
        const bp = model.breakpoints[b];
        const row = bp.rows[bp.rowOf[i]];
        style += ";--t" + b + ":" + row.topWidth / ROW_SCALE + ";--y" + b + ":" + row.topGap / ROW_SCALE
          + ";--w" + b + ":" + row.coefficient / ROW_SCALE + ";--z" + b + ":" + (row.count - 1)
          + ";--p" + b + ":" + bp.before[i] / model.scale + ";--j" + b + ":" + (i - row.start);
        if (row.isLast) style += ";--m" + b + ":" + bp.rowHeight + "px";
      }
      if (color) style += ";--bg:" + color;
      return style;
    }
    for (let b = 0; b < model.breakpoints.length; b++) {
      const bp = model.breakpoints[b];
      style += ";--c" + b + ":" + bp.column[i] + ";--a" + b + ":" + round5(bp.above[i]) + ";--k" + b + ":" + bp.aboveCount[i];
    }
    if (model.grouped) style += ";--s:" + (model.sectionOf[i] + 1);
    if (color) style += ";--bg:" + color;
    return style;
  }

  function round5(value) {
    return Math.round(value * 100000) / 100000;
  }

  /** srcset of a list of images ({url, width}). */
  function srcsetOfImages(images) {
    return images.map(function (t) { return t.url + " " + t.width + "w"; }).join(", ");
  }

  /** srcset of an item's tile images. */
  function srcsetOf(item) {
    return srcsetOfImages(item.thumbnails);
  }

  /** Points <source> elements at an item's `key` images ("thumbnails" or "images") in their
   *  type; a type the item lacks offers nothing. Set before the <img>. */
  function bindSources(sourceNodes, item, key, sizes) {
    for (let s = 0; s < sourceNodes.length; s++) {
      const node = sourceNodes[s];
      const source = item.sources.find(function (candidate) { return candidate.type === node.getAttribute("type"); });
      if (source) {
        node.setAttribute("sizes", sizes);
        node.setAttribute("srcset", srcsetOfImages(source[key]));
      } else {
        node.removeAttribute("srcset");
      }
    }
  }

  /** Empties a <picture>: the previous photo never shows again, its download is abandoned. */
  function clearPicture(img, sourceNodes) {
    for (let s = 0; s < sourceNodes.length; s++) sourceNodes[s].removeAttribute("srcset");
    img.removeAttribute("srcset");
    img.removeAttribute("src");
  }

  /** A <picture> holding one <source> per further format of the model, then `img`. */
  function pictureWith(model, img) {
    const picture = document.createElement("picture");
    for (let s = 0; s < model.sources.length; s++) {
      const source = document.createElement("source");
      source.setAttribute("type", model.sources[s].type);
      picture.appendChild(source);
    }
    picture.appendChild(img);
    return picture;
  }

  /** The image a tile shows by default: the first thumbnail at least 400 px wide. */
  function srcOf(item) {
    const list = item.thumbnails;
    for (let t = 0; t < list.length; t++) if (list[t].width >= 400) return list[t].url;
    return list[list.length - 1].url;
  }

  /** Photo id for URL hashes: the photo page's name without ".html". */
  function photoId(item) {
    const page = item.page.split("/").pop();
    return decodeURIComponent(page.replace(/\.html$/, ""));
  }

  function indexForHash(model, hash) {
    const match = /^#photo=(.+)$/.exec(hash || "");
    if (!match) return -1;
    let id;
    try { id = decodeURIComponent(match[1]); } catch (error) { return -1; }
    for (let i = 0; i < model.count; i++) if (decodeURIComponent(model.ids[i]) === id) return i;
    return -1;
  }

  /** `indices` with `kept` (a focused tile, or -1) in order among them: never recycled. */
  function withKept(indices, kept) {
    if (kept < 0 || indices.indexOf(kept) >= 0) return indices;
    const result = indices.slice();
    let at = result.length;
    while (at > 0 && result[at - 1] > kept) at -= 1;
    result.splice(at, 0, kept);
    return result;
  }

  /** Where a wall child goes in order: a section's header before its first tile. */
  function orderKey(node) {
    const index = Number(node.getAttribute("data-index"));
    return 2 * index + (node.hasAttribute && node.hasAttribute("data-section") ? 0 : 1);
  }

  /** Inserts tile `index` (or the header of a section starting at `index`) so the DOM holds
   *  tiles and headers in album order (Tab, screen readers). */
  function insertInOrder(parent, node, index) {
    const children = parent.children;
    const key = 2 * index + (node.hasAttribute && node.hasAttribute("data-section") ? 0 : 1);
    let low = 0, high = children.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (orderKey(children[mid]) < key) low = mid + 1; else high = mid;
    }
    parent.insertBefore(node, children[low] || null);
  }

  // ---------------------------------------------------------------- recycler

  /** A node per visible index and a pool of at most `maxPool` free nodes; hooks create, bind
   *  and unbind (prepareForReuse) them; `update(indices)` shows exactly those. */
  function Recycler(hooks, maxPool) {
    this.hooks = hooks;
    this.maxPool = maxPool || 64;
    this.visible = new Map();
    this.pool = [];
    this.created = 0;
    this.reused = 0;
  }

  Recycler.prototype.adopt = function (index, node) {
    this.visible.set(index, node);
  };

  Recycler.prototype.update = function (indices) {
    const wanted = new Set(indices);
    const self = this;
    this.visible.forEach(function (node, index) {
      if (!wanted.has(index)) {
        self.visible.delete(index);
        self.hooks.unbind(node, index);
        if (self.pool.length < self.maxPool) self.pool.push(node);
      }
    });
    for (let p = 0; p < indices.length; p++) {
      const index = indices[p];
      if (this.visible.has(index)) continue;
      let node = this.pool.pop();
      if (node) {
        this.reused += 1;
      } else {
        node = this.hooks.create();
        this.created += 1;
      }
      this.hooks.bind(node, index);
      this.visible.set(index, node);
    }
  };

  // ---------------------------------------------------------------- the page

  /** The tallest wall (px): browsers cannot make an element much taller than 15 million px. */
  const MAX_WALL_HEIGHT = 8000000;

  function Viewer(wall, data) {
    this.wall = wall;
    this.outer = wall.parentElement;
    this.model = buildModel(data);
    this.details = new Map();  // chunk number -> its items
    this.loading = new Map();  // chunk number -> true while it is being fetched
    this.base = new URL(wall.getAttribute("data-frames"), document.baseURI);
    const firstImage = wall.querySelector(".tile img");
    this.sizes = firstImage ? firstImage.getAttribute("sizes") || "" : "";
    this.width = 0;
    this.wallTop = 0;
    this.mapping = scrollMapping(0, MAX_WALL_HEIGHT, 1);
    this.lastScroll = window.scrollY;
    this.direction = 1;
    this.scheduled = false;
    this.lightbox = null;
    this.current = -1;
    // The lightbox's state: closed, opening (waiting for details), open, moving, zoomed, closing.
    this.state = "closed";  // also the lightbox's data-state, for tests and styles
    this.ticket = 0;
    this.pageTitle = document.title;
    const siteName = document.querySelector('meta[property="og:site_name"]');
    this.siteTitle = siteName ? siteName.getAttribute("content") : "";
    // Further static pages (pages/N.html) keep their tiles; the viewer adds the lightbox.
    this.slice = wall.hasAttribute("data-slice");
    // Absolute URLs for the lightbox: its pushState address moves the document's base.
    this.prefix = new URL(".", this.base).href;
    this.interval = Number(wall.getAttribute("data-slideshow")) || 4;
    const self = this;
    this.recycler = new Recycler({
      create: function () { return self.createTile(); },
      bind: function (node, index) { self.bindTile(node, index); },
      unbind: function (node) { self.unbindTile(node); },
    });
    // Section headers are virtualized like tiles, with a pool of their own.
    this.headers = new Recycler({
      create: function () { return self.createHeader(); },
      bind: function (node, s) { self.bindHeader(node, s); },
      unbind: function (node) { node.remove(); },
    }, 16);
  }

  Viewer.prototype.start = function () {
    const self = this;
    // Adopt the tiles the server rendered: they stay where they are, nothing is replaced.
    const tiles = this.wall.querySelectorAll(".tile");
    for (let t = 0; t < tiles.length; t++) {
      const index = Number(tiles[t].getAttribute("data-index"));
      this.recycler.adopt(index, tiles[t]);
    }
    // The page's section boxes: adopted and given their whole extent (the static page's last
    // section may have held only some of its photos).
    const boxes = this.wall.querySelectorAll(".section[data-section]");
    for (let h = 0; h < boxes.length; h++) {
      const s = Number(boxes[h].getAttribute("data-section"));
      if (this.slice) continue;
      this.headers.adopt(s, boxes[h]);
      boxes[h].setAttribute("style", sectionStyle(this.model, s));
    }
    this.wall.addEventListener("click", function (event) { self.onClick(event); });
    window.addEventListener("popstate", function () { self.syncWithHistory(); });
    // A page restored from the back-forward cache shows what its address says.
    window.addEventListener("pageshow", function (event) { if (event.persisted) self.syncWithHistory(); });
    if (this.slice) { this.syncWithHistory(); return; }
    // From now on the wall is as tall as the whole album, not just the tiles in the page.
    this.wall.classList.add("is-full");
    this.measureWall();
    this.update();
    window.addEventListener("scroll", function () { self.schedule(); }, { passive: true });
    if (typeof ResizeObserver === "function") {
      new ResizeObserver(function () { self.measureWall(); self.schedule(); }).observe(this.outer);
    }
    // A viewport that only gets taller or shorter changes how a very tall album is scrolled.
    window.addEventListener("resize", function () { self.measureWall(); self.schedule(); });
    this.syncWithHistory();
    this.wall.classList.add("is-virtual");
  };

  /** The wall's width and offset (never a tile's), and its height for very tall albums. */
  Viewer.prototype.measureWall = function () {
    const rect = this.outer.getBoundingClientRect();
    this.width = rect.width;
    this.wallTop = rect.top + window.scrollY;
    const b = breakpointIndex(this.model, this.width);
    // A page may lower the limit (window.cascadeMaxWallHeight), e.g. to try the scaled mode.
    const limit = global.cascadeMaxWallHeight > 0 ? global.cascadeMaxWallHeight : MAX_WALL_HEIGHT;
    const mapping = scrollMapping(contentHeight(this.model, b, this.width), limit, window.innerHeight);
    if (mapping.scaled !== this.mapping.scaled || mapping.wallHeight !== this.mapping.wallHeight) {
      this.wall.style.height = mapping.scaled ? mapping.wallHeight + "px" : "";
      this.wall.classList.toggle("is-scaled", mapping.scaled);
    }
    this.mapping = mapping;
  };

  Viewer.prototype.schedule = function () {
    if (this.scheduled) return;
    this.scheduled = true;
    const self = this;
    window.requestAnimationFrame(function () { self.scheduled = false; self.update(); });
  };

  /** Makes the tiles near the viewport exist: half a screen behind, a screen ahead. */
  Viewer.prototype.update = function (scrollTarget) {
    const scroll = typeof scrollTarget === "number" ? scrollTarget : window.scrollY;
    if (scroll !== this.lastScroll) this.direction = scroll > this.lastScroll ? 1 : -1;
    this.lastScroll = scroll;
    const height = window.innerHeight;
    const top = contentOffset(this.mapping, scroll - this.wallTop);
    this.shift = top - (scroll - this.wallTop);
    const ahead = height;
    const behind = height / 2;
    const from = this.direction > 0 ? top - behind : top - ahead;
    const to = this.direction > 0 ? top + height + ahead : top + height + behind;
    const b = breakpointIndex(this.model, this.width);
    const indices = visibleItems(this.model, b, this.width, from, to);
    const focused = document.activeElement;
    const kept = focused && focused.parentNode === this.wall && focused.hasAttribute("data-index") ? Number(focused.getAttribute("data-index")) : -1;
    this.recycler.update(withKept(indices, kept));
    if (this.model.grouped) this.headers.update(visibleSections(this.model, b, this.width, from, to));
    // Their details are wanted soon (lightbox, recycling): fetch their chunks now.
    let lastChunk = -1;
    for (let p = 0; p < indices.length; p++) {
      const chunk = chunkOf(this.model, indices[p]);
      if (chunk !== lastChunk && !this.details.has(chunk)) this.loadChunk(chunk);
      lastChunk = chunk;
    }
    if (this.mapping.scaled || this.wasScaled) {
      const self = this;
      this.recycler.visible.forEach(function (node, index) { self.placeTile(node, index); });
      this.headers.visible.forEach(function (node, s) { self.placeHeader(node, s); });
    }
    this.wasScaled = this.mapping.scaled;
  };

  /** In a scaled wall a tile sits at its frame's top minus the shift; else CSS places it. */
  Viewer.prototype.placeTile = function (node, index) {
    if (!this.mapping.scaled) {
      node.style.removeProperty("top");
      return;
    }
    const b = breakpointIndex(this.model, this.width);
    node.style.top = (frameOf(this.model, b, this.width, index).y - (this.shift || 0)) + "px";
  };

  /** In a scaled wall a section's box sits at its top minus the shift; else CSS places it. */
  Viewer.prototype.placeHeader = function (node, s) {
    if (!this.mapping.scaled) {
      node.style.removeProperty("top");
      return;
    }
    const b = breakpointIndex(this.model, this.width);
    node.style.top = (sectionFrame(this.model, b, this.width, s).y - (this.shift || 0)) + "px";
  };

  Viewer.prototype.createHeader = function () {
    const box = document.createElement("div");
    box.className = "section";
    const head = document.createElement("h2");
    head.className = "section-head";
    box.appendChild(head);
    return box;
  };

  Viewer.prototype.bindHeader = function (node, s) {
    const section = this.model.sections[s];
    node.setAttribute("data-section", String(s));
    node.setAttribute("data-index", String(section.start));
    node.setAttribute("style", sectionStyle(this.model, s));
    node.firstChild.textContent = section.label;
    this.placeHeader(node, s);
    if (!node.parentNode) insertInOrder(this.wall, node, section.start);
  };

  /** The details of item `index`, or null while its chunk is loading (the load is started). */
  Viewer.prototype.detailOf = function (index) {
    const chunk = chunkOf(this.model, index);
    const items = this.details.get(chunk);
    if (items) return items[index - chunk * this.model.chunkSize];
    this.loadChunk(chunk);
    return null;
  };

  Viewer.prototype.loadChunk = function (chunk) {
    if (this.loading.has(chunk) || this.details.has(chunk)) return this.loading.get(chunk);
    const self = this;
    const url = new URL(this.model.chunks[chunk], this.base);
    const promise = fetch(url)
      .then(function (response) { if (!response.ok) throw new Error(url + ": " + response.status); return response.json(); })
      .then(function (data) {
        self.details.set(chunk, data.items);
        self.loading.delete(chunk);
        // Show the tiles that were waiting for these details.
        self.recycler.visible.forEach(function (node, index) {
          if (chunkOf(self.model, index) === chunk && node.getAttribute("data-pending") === "1") self.bindTile(node, index);
        });
      })
      .catch(function (error) { self.loading.delete(chunk); throw error; });
    this.loading.set(chunk, promise);
    return promise;
  };

  Viewer.prototype.createTile = function () {
    const a = document.createElement("a");
    a.className = "tile";
    const img = document.createElement("img");
    img.decoding = "async";
    img.addEventListener("load", function () {
      if (img.getAttribute("data-for") === a.getAttribute("data-index")) img.classList.add("is-loaded");
    });
    a.appendChild(pictureWith(this.model, img));
    a.appendChild(durationBadge());
    return a;
  };

  /** A tile's name when it is more than its photo's alt text: "Video, 0:04, clip",
   *  "Live Photo, Dune" (as the generator writes it). */
  function tileLabel(item) {
    return item.video ? say("viewer_video_label", { duration: item.video.duration, alt: item.alt }) : item.live ? say("viewer_live_label", { alt: item.alt }) : "";
  }

  /** The play mark and duration a video's tile shows (hidden on a photo's tile by the CSS). */
  function durationBadge() {
    const badge = document.createElement("span");
    badge.className = "tile-duration";
    badge.setAttribute("aria-hidden", "true");  // the tile's label says it
    return badge;
  }

  Viewer.prototype.bindTile = function (node, index) {
    const model = this.model;
    const img = node.querySelector("img");
    const detail = this.detailOf(index);
    node.setAttribute("href", fillURL(model.pageURL, model.ids[index], 0));
    node.setAttribute("data-index", String(index));
    node.id = "p" + index;  // a photo page's album link ends in #p<index>
    // The index has every tile's colour: a tile waiting for its chunk shows it already.
    node.setAttribute("style", tileStyle(model, index, detail ? detail.color : colorOf(model, index)));
    this.placeTile(node, index);
    if (!node.parentNode) insertInOrder(this.wall, node, index);
    if (!detail) {
      // Its chunk is on the way: the tile shows its placeholder until then.
      node.setAttribute("data-pending", "1");
      return;
    }
    node.removeAttribute("data-pending");
    const item = resolveItem(model, index, detail);
    img.setAttribute("data-for", String(index));
    img.setAttribute("width", String(item.width));
    img.setAttribute("height", String(item.height));
    img.setAttribute("alt", item.alt);
    img.setAttribute("sizes", this.sizes);
    img.removeAttribute("loading");  // tiles in the buffer ahead are prefetched
    bindSources(node.querySelectorAll("source"), item, "thumbnails", this.sizes);
    img.setAttribute("srcset", srcsetOf(item));
    img.setAttribute("src", srcOf(item));
    const badge = node.querySelector(".tile-duration") || node.appendChild(durationBadge());
    node.classList.toggle("is-video", !!item.video);
    node.classList.toggle("is-live", !!item.live);
    badge.textContent = item.video ? item.video.duration : "";
    const label = tileLabel(item);
    if (label) node.setAttribute("aria-label", label); else node.removeAttribute("aria-label");
  };

  /** prepareForReuse: a recycled tile shows its colour, never the previous photo. */
  Viewer.prototype.unbindTile = function (node) {
    const img = node.querySelector("img");
    clearPicture(img, node.querySelectorAll("source"));
    img.classList.remove("is-loaded");
    img.removeAttribute("data-for");
    img.setAttribute("alt", "");
    node.removeAttribute("data-index");
    node.removeAttribute("id");
    node.removeAttribute("data-pending");
    node.remove();
  };

  // ---------------------------------------------------------------- opening the lightbox

  Viewer.prototype.onClick = function (event) {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const tile = event.target.closest(".tile");
    if (!tile || !this.wall.contains(tile)) return;
    event.preventDefault();
    this.open(Number(tile.getAttribute("data-index")), true);
  };

  /** Back, Forward and #photo= links open or close the lightbox. */
  Viewer.prototype.syncWithHistory = function () {
    const state = history.state;
    const fromHash = indexForHash(this.model, window.location.hash);
    if (fromHash >= 0) {
      // The album's address goes under the photo's, so Back closes it.
      history.replaceState(null, "", window.location.pathname + window.location.search);
      this.open(fromHash, true);
    } else if (state && typeof state.cascade === "number") {
      this.open(state.cascade, false);
    } else if (this.current >= 0) {
      this.close(false);
    } else {
      this.ticket++;  // an opening still waiting for its script is dropped
    }
  };

  /** The lightbox's script, beside this one (lightbox.js): it is loaded on the first opening,
   *  so before a click a page loads only the wall's script (the budget in docs/layout.md). */
  const LIGHTBOX_SCRIPT = typeof document !== "undefined" && document.currentScript
    ? new URL("lightbox.js", document.currentScript.src).href : "lightbox.js";

  /** Opens photo `index` once the lightbox's script is in (it replaces this method); a close
   *  or another opening meanwhile (the ticket) drops this one. Its details load meanwhile. */
  Viewer.prototype.open = function (index, push) {
    const self = this, ticket = ++this.ticket;
    this.state = "opening";
    this.detailOf(index);
    this.loadLightbox().then(function () { if (self.ticket === ticket) self.open(index, push); }, function () {
      // No lightbox (the script did not load): the photo's own page shows it.
      if (self.ticket === ticket && push) window.location.href = self.prefix + fillURL(self.model.pageURL, self.model.ids[index], 0);
    });
  };

  /** Loads lightbox.js, once: the promise resolves when it has added the lightbox's methods. */
  Viewer.prototype.loadLightbox = function () {
    if (!this.lightboxScript) {
      this.lightboxScript = new Promise(function (resolve, reject) {
        const script = document.createElement("script");
        script.src = LIGHTBOX_SCRIPT;
        script.onload = resolve;
        script.onerror = reject;
        document.head.appendChild(script);
      });
    }
    return this.lightboxScript;
  };


  // ---------------------------------------------------------------- start

  function start() {
    const wall = document.querySelector(".wall[data-frames]");
    if (!wall || typeof fetch !== "function") return;
    readStrings(document);
    fetch(wall.getAttribute("data-frames"))
      .then(function (response) { if (!response.ok) throw new Error(response.status); return response.json(); })
      .then(function (data) {
        const viewer = new Viewer(wall, data);
        viewer.start();
        global.cascadeViewer = viewer;
      })
      .catch(function (error) {
        // The static page works without the script; say why (a frames.json of another version).
        if (typeof console !== "undefined") console.error("Cascade viewer: " + error.message);
      });
  }

  const api = {
    buildModel: buildModel, breakpointIndex: breakpointIndex, columnWidth: columnWidth, frameOf: frameOf,
    contentHeight: contentHeight, visibleItems: visibleItems, tileStyle: tileStyle, srcsetOf: srcsetOf,
    sectionFrame: sectionFrame, visibleSections: visibleSections, rowFrame: rowFrame, sectionStyle: sectionStyle, FRAMES_VERSION: FRAMES_VERSION,
    srcOf: srcOf, bindSources: bindSources, colorOf: colorOf, photoId: photoId, indexForHash: indexForHash, Recycler: Recycler, chunkOf: chunkOf,
    resolveItem: resolveItem, scrollMapping: scrollMapping, contentOffset: contentOffset, wallOffset: wallOffset,
    MAX_WALL_HEIGHT: MAX_WALL_HEIGHT, tileLabel: tileLabel, withKept: withKept, fillURL: fillURL, insertInOrder: insertInOrder,
    // For lightbox.js.
    say: say, strings: STRINGS, isRightToLeft: isRightToLeft, Viewer: Viewer, srcsetOfImages: srcsetOfImages, clearPicture: clearPicture, pictureWith: pictureWith,
  };
  if (typeof module === "object" && module.exports) {
    module.exports = api;
  } else if (typeof document !== "undefined") {
    global.CascadeViewer = api;
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
    else start();
  }
})(typeof window !== "undefined" ? window : globalThis);
