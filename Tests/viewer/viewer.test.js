// Unit tests of the viewer's pure parts: run with `node --test Tests/viewer/`.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const viewer = require("../../templates/assets/viewer.js");

/** A deterministic generator (mulberry32). */
function random(seed) {
  return function () {
    seed |= 0; seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** frames.json (version 3, not grouped) as the generator writes it, computed here by the seeds' rules
 *  (shortest column, ties to the left) at each breakpoint's reference width, with the frames
 *  themselves (`expected`) and the chunks of per-photo details (`chunks`). */
function colorAt(i) {
  return "#" + ((i * 0x10101 + 0x123456) % 0x1000000).toString(16).padStart(6, "0");
}

function album(count, seed, chunkSize) {
  const next = random(seed);
  const gap = 8;
  const scale = 100000;
  const units = [];
  for (let i = 0; i < count; i++) units.push(Math.round((0.3 + next() * 2.2) * scale));
  const expected = [];
  const breakpoints = [[0, 2, 300], [600, 3, 800], [1000, 4, 1300]].map(function ([minWidth, columns, referenceWidth]) {
    const columnWidth = (referenceWidth - (columns - 1) * gap) / columns;
    const bottoms = new Array(columns).fill(0);
    const started = new Array(columns).fill(false);
    let column = "";
    const frames = units.map(function (u) {
      const r = u / scale;
      let c = 0;
      for (let j = 1; j < columns; j++) if (bottoms[j] < bottoms[c]) c = j;
      const y = started[c] ? bottoms[c] + gap : 0;
      bottoms[c] = y + r * columnWidth;
      started[c] = true;
      column += c.toString(36);
      return [c * (columnWidth + gap), y, columnWidth, r * columnWidth];
    });
    expected.push(frames);
    return { minWidth, columns, referenceWidth, columnWidth, contentHeight: Math.max(...bottoms), column };
  });
  const size = chunkSize || 1000;
  const chunks = [];
  for (let start = 0; start < count; start += size) {
    const items = [];
    for (let i = start; i < Math.min(count, start + size); i++) {
      items.push({ alt: "Photo " + i, width: 1000, height: Math.round(units[i] / 100), color: colorAt(i), widths: [400, 800, 1000] });
    }
    chunks.push({ start, items });
  }
  return {
    version: 3, count, gap, ratioScale: scale, staticCount: Math.min(count, 500),
    pageURL: "{id}.html", imageURL: "thumbs/{id}-{width}.jpg", tileMaxWidth: 800, chunkSize: size,
    chunks: chunks.map((_, n) => "frames/" + n + ".json"), breakpoints, ratios: units,
    ids: units.map((_, i) => i === 1 ? "caf%C3%A9" : "p" + i),
    colors: units.map((_, i) => colorAt(i).slice(1)).join(""),
    expected, chunkData: chunks,
  };
}

function intersects(f, top, bottom) {
  return f.y + f.height > top && f.y < bottom;
}

test("the model reproduces every frame at its breakpoint's reference width", function () {
  const data = album(500, 1);
  const model = viewer.buildModel(data);
  data.breakpoints.forEach(function (bp, b) {
    data.expected[b].forEach(function (expected, i) {
      const f = viewer.frameOf(model, b, bp.referenceWidth, i);
      assert.ok(Math.abs(f.x - expected[0]) < 1e-6, "x of " + i);
      assert.ok(Math.abs(f.y - expected[1]) < 1e-6, "y of " + i);
      assert.ok(Math.abs(f.height - expected[3]) < 1e-6, "height of " + i);
    });
    assert.ok(Math.abs(viewer.contentHeight(model, b, bp.referenceWidth) - bp.contentHeight) < 1e-6);
  });
});

test("the breakpoint follows the wall width like the CSS container queries", function () {
  const model = viewer.buildModel(album(10, 2));
  assert.equal(viewer.breakpointIndex(model, 320), 0);
  assert.equal(viewer.breakpointIndex(model, 599.9), 0);
  assert.equal(viewer.breakpointIndex(model, 600), 1);
  assert.equal(viewer.breakpointIndex(model, 999), 1);
  assert.equal(viewer.breakpointIndex(model, 3840), 2);
});

test("at any width, frames never overlap", function () {
  const model = viewer.buildModel(album(300, 3));
  for (const width of [320, 777, 1000, 2500, 3840]) {
    const b = viewer.breakpointIndex(model, width);
    const frames = [];
    for (let i = 0; i < model.count; i++) frames.push(viewer.frameOf(model, b, width, i));
    for (let i = 0; i < frames.length; i++) {
      for (let j = i + 1; j < frames.length; j++) {
        const a = frames[i], c = frames[j];
        const overlap = a.x < c.x + c.width && c.x < a.x + a.width && a.y < c.y + c.height && c.y < a.y + a.height;
        assert.ok(!overlap, `frames ${i} and ${j} overlap at ${width}px`);
      }
    }
  }
});

test("the visible-tile query equals a brute-force scan", function () {
  const model = viewer.buildModel(album(2000, 4));
  const next = random(99);
  for (let n = 0; n < 300; n++) {
    const width = 320 + next() * 3500;
    const b = viewer.breakpointIndex(model, width);
    const height = viewer.contentHeight(model, b, width);
    const top = -500 + next() * (height + 1000);
    const bottom = top + next() * 3000;
    const expected = [];
    for (let i = 0; i < model.count; i++) if (intersects(viewer.frameOf(model, b, width, i), top, bottom)) expected.push(i);
    assert.deepEqual(viewer.visibleItems(model, b, width, top, bottom), expected);
  }
});

test("tile styles carry the same custom properties the generator writes", function () {
  const data = album(3, 5);
  const model = viewer.buildModel(data);
  const style = viewer.tileStyle(model, 2, "#123456");
  assert.match(style, /^--r:[0-9.]+;--c0:\d;--a0:[0-9.]+;--k0:\d;--c1:\d;--a1:[0-9.]+;--k1:\d;--c2:\d;--a2:[0-9.]+;--k2:\d;--bg:#123456$/);
  assert.ok(style.startsWith("--r:" + data.ratios[2] / 100000 + ";"));
  assert.ok(!viewer.tileStyle(model, 2, null).includes("--bg"), "no colour before the details arrive");
});

test("items resolve to their own page and images from the id and the chunk's details", function () {
  const data = album(3, 6);
  const model = viewer.buildModel(data);
  const item = viewer.resolveItem(model, 1, data.chunkData[0].items[1]);
  assert.equal(item.page, "caf%C3%A9.html");
  assert.deepEqual(item.thumbnails.map((t) => t.url), ["thumbs/caf%C3%A9-400.jpg", "thumbs/caf%C3%A9-800.jpg"]);
  assert.deepEqual(item.images.map((t) => t.width), [400, 800, 1000]);
  assert.equal(viewer.srcsetOf(item), "thumbs/caf%C3%A9-400.jpg 400w, thumbs/caf%C3%A9-800.jpg 800w");
  assert.equal(viewer.srcOf(item), "thumbs/caf%C3%A9-400.jpg");
  // A photo narrower than every tile width still has one tile image: its own width.
  const small = viewer.resolveItem(model, 2, { alt: "", width: 1200, height: 900, color: "#000000", widths: [1200] });
  assert.deepEqual(small.thumbnails.map((t) => t.url), ["thumbs/p2-1200.jpg"]);
  assert.equal(viewer.photoId({ page: "caf%C3%A9.html" }), "café");
  assert.equal(viewer.indexForHash(model, "#photo=p2"), 2);
  assert.equal(viewer.indexForHash(model, "#photo=caf%C3%A9"), 1);
  assert.equal(viewer.indexForHash(model, "#photo=nope"), -1);
  assert.equal(viewer.indexForHash(model, "#photo=%E0%A4%A"), -1);
  assert.equal(viewer.indexForHash(model, ""), -1);
});

test("items carry their images in each further format, and <source> elements are pointed at them", function () {
  const data = album(3, 6);
  data.sources = [{ type: "image/avif", imageURL: "thumbs/{id}-{width}.avif" }, { type: "image/webp", imageURL: "thumbs/{id}-{width}.webp" }];
  const item = viewer.resolveItem(viewer.buildModel(data), 1, data.chunkData[0].items[1]);
  assert.deepEqual(item.sources.map((s) => s.type), ["image/avif", "image/webp"]);
  assert.deepEqual(item.sources[0].thumbnails.map((t) => t.url), ["thumbs/caf%C3%A9-400.avif", "thumbs/caf%C3%A9-800.avif"]);
  assert.deepEqual(item.sources[1].images.map((t) => t.url), ["thumbs/caf%C3%A9-400.webp", "thumbs/caf%C3%A9-800.webp", "thumbs/caf%C3%A9-1000.webp"]);
  // Stand-ins for <source> nodes: one of each type, and one of a type the item lacks.
  function node(type) {
    const attributes = new Map([["type", type], ["srcset", "stale.jpg 100w"]]);
    return {
      getAttribute: (name) => (attributes.has(name) ? attributes.get(name) : null),
      setAttribute: (name, value) => attributes.set(name, String(value)),
      removeAttribute: (name) => attributes.delete(name),
    };
  }
  const nodes = [node("image/avif"), node("image/webp"), node("image/jxl")];
  viewer.bindSources(nodes, item, "thumbnails", "50vw");
  assert.equal(nodes[0].getAttribute("srcset"), "thumbs/caf%C3%A9-400.avif 400w, thumbs/caf%C3%A9-800.avif 800w");
  assert.equal(nodes[0].getAttribute("sizes"), "50vw");
  assert.equal(nodes[1].getAttribute("srcset"), "thumbs/caf%C3%A9-400.webp 400w, thumbs/caf%C3%A9-800.webp 800w");
  assert.equal(nodes[2].getAttribute("srcset"), null, "a source of a type the item lacks must offer nothing");
  viewer.bindSources(nodes, item, "images", "100vw");
  assert.match(nodes[0].getAttribute("srcset"), /-1000\.avif 1000w$/);
  // Frame data of a single-format site (or an older one) has no further formats.
  delete data.sources;
  assert.deepEqual(viewer.resolveItem(viewer.buildModel(data), 1, data.chunkData[0].items[1]).sources, []);
});

test("every tile's placeholder colour comes from the index, before any chunk is loaded", function () {
  const data = album(1200, 9);
  const model = viewer.buildModel(data);
  for (const i of [0, 1, 999, 1000, 1199]) {
    assert.equal(viewer.colorOf(model, i), data.chunkData[Math.floor(i / 1000)].items[i % 1000].color);
    assert.ok(viewer.tileStyle(model, i, viewer.colorOf(model, i)).endsWith(";--bg:" + colorAt(i)));
  }
  assert.notEqual(viewer.colorOf(model, 0), viewer.colorOf(model, 1));
  // Frame data without colours: no colour rather than a wrong one.
  delete data.colors;
  assert.equal(viewer.colorOf(viewer.buildModel(data), 5), "");
});

test("chunks hold consecutive items", function () {
  const data = album(2500, 8, 1000);
  const model = viewer.buildModel(data);
  assert.equal(viewer.chunkOf(model, 0), 0);
  assert.equal(viewer.chunkOf(model, 999), 0);
  assert.equal(viewer.chunkOf(model, 1000), 1);
  assert.equal(viewer.chunkOf(model, 2499), 2);
  assert.equal(data.chunkData[2].items.length, 500);
});

test("an album taller than the wall limit maps scrolling onto the whole album", function () {
  const viewport = 1000;
  const plain = viewer.scrollMapping(5e6, 8e6, viewport);
  assert.equal(plain.scaled, false);
  assert.equal(viewer.contentOffset(plain, 1234), 1234);
  const mapping = viewer.scrollMapping(40e6, 8e6, viewport);
  assert.equal(mapping.scaled, true);
  assert.equal(mapping.wallHeight, 8e6);
  // The wall's first screen is the album's first screen, its last screen the album's last.
  assert.equal(viewer.contentOffset(mapping, 0), 0);
  assert.equal(viewer.contentOffset(mapping, 8e6 - viewport), 40e6 - viewport);
  // Past the last screen (the footer) the page scrolls one to one.
  assert.equal(viewer.contentOffset(mapping, 8e6 - viewport + 50), 40e6 - viewport + 50);
  // Monotonic, and wallOffset is its inverse.
  let previous = -1;
  for (let s = 0; s <= 8e6 + 500; s += 7919) {
    const c = viewer.contentOffset(mapping, s);
    assert.ok(c > previous, "not increasing at " + s);
    assert.ok(Math.abs(viewer.wallOffset(mapping, c) - s) < 1e-6, "wallOffset is not the inverse at " + s);
    previous = c;
  }
});

test("the recycler reuses nodes: a steady scroll creates none once the pool is warm", function () {
  const model = viewer.buildModel(album(5000, 7));
  let created = 0;
  const bound = new Map();
  const recycler = new viewer.Recycler({
    create: function () { created += 1; return { id: created, index: -1 }; },
    bind: function (node, index) { assert.equal(node.index, -1, "a node is bound twice without being cleared"); node.index = index; bound.set(index, node); },
    unbind: function (node, index) { assert.equal(node.index, index); node.index = -1; bound.delete(index); },
  }, 64);
  const width = 1920, b = viewer.breakpointIndex(model, width), height = viewer.contentHeight(model, b, width);
  let maxVisible = 0, createdAfterWarmUp = null;
  for (let scroll = 0; scroll < height; scroll += 120) {
    const indices = viewer.visibleItems(model, b, width, scroll - 540, scroll + 2160);
    recycler.update(indices);
    assert.deepEqual([...recycler.visible.keys()].sort((x, y) => x - y), indices);
    for (const [index, node] of recycler.visible) assert.equal(node.index, index);
    maxVisible = Math.max(maxVisible, recycler.visible.size);
    if (scroll >= 5000 && createdAfterWarmUp === null) createdAfterWarmUp = created;
  }
  assert.ok(maxVisible < 100, "visible nodes: " + maxVisible);
  assert.ok(created <= maxVisible + 64, "created " + created);
  assert.ok(created - createdAfterWarmUp <= 4, "nodes created while scrolling steadily: " + (created - createdAfterWarmUp));
  assert.ok(recycler.reused > 1000);
});

test("the pool keeps at most its limit of free nodes", function () {
  const recycler = new viewer.Recycler({ create: () => ({}), bind() {}, unbind() {} }, 5);
  recycler.update([...Array(50).keys()]);
  recycler.update([]);
  assert.equal(recycler.pool.length, 5);
  assert.equal(recycler.visible.size, 0);
});

/** A grouped album (frames.json version 3 with sections): the sections every few items, and
 *  the frames of tiles and section boxes computed here by docs/layout.md's rules at each
 *  breakpoint's reference width. */
function groupedAlbum(count, seed) {
  const data = album(count, seed);
  const next = random(seed + 1000);
  const sections = [];
  for (let start = 0; start < count; start += 1 + Math.floor(next() * 12)) sections.push({ start, label: "Day " + sections.length });
  data.sections = sections;
  data.headerHeight = 44;
  const gap = data.gap, hh = 44, scale = data.ratioScale;
  data.expectedBoxes = [];
  data.breakpoints.forEach(function (bp, b) {
    const n = bp.columns, w = (bp.referenceWidth - (n - 1) * gap) / n;
    let column = "", sectionTop = 0;
    const frames = [], boxes = [];
    sections.forEach(function (section, s) {
      const end = s + 1 < sections.length ? sections[s + 1].start : count;
      const columnsTop = sectionTop + hh + gap;
      const bottoms = new Array(n).fill(columnsTop), sums = new Array(n).fill(0), counts = new Array(n).fill(0);
      for (let i = section.start; i < end; i++) {
        let c = 0;
        for (let j = 1; j < n; j++) if (bottoms[j] < bottoms[c]) c = j;
        const r = data.ratios[i] / scale;
        const y = columnsTop + sums[c] * w + counts[c] * gap;
        frames.push([c * (w + gap), y, w, r * w]);
        bottoms[c] = y + r * w;
        sums[c] += r;
        counts[c] += 1;
        column += c.toString(36);
      }
      const bottom = columnsTop + Math.max(...sums) * w + (Math.max(...counts) - 1) * gap;
      boxes.push([sectionTop, bottom - sectionTop]);
      sectionTop = bottom + gap;
    });
    bp.column = column;
    bp.contentHeight = boxes[boxes.length - 1][0] + boxes[boxes.length - 1][1];
    data.expected[b] = frames;
    data.expectedBoxes.push(boxes);
  });
  return data;
}

test("a frames.json of another version is refused with a clear error", function () {
  const data = album(3, 1);
  data.version = 2;
  assert.throws(() => viewer.buildModel(data), /frames\.json is version 2; this viewer reads version 3/);
});

test("grouped: the model reproduces every tile and section box at each reference width", function () {
  const data = groupedAlbum(400, 11);
  const model = viewer.buildModel(data);
  assert.equal(model.grouped, true);
  data.breakpoints.forEach(function (bp, b) {
    data.expected[b].forEach(function (expected, i) {
      const f = viewer.frameOf(model, b, bp.referenceWidth, i);
      assert.ok(Math.abs(f.x - expected[0]) < 1e-6 && Math.abs(f.y - expected[1]) < 1e-6, "tile " + i + " at breakpoint " + b);
    });
    data.expectedBoxes[b].forEach(function (expected, s) {
      const f = viewer.sectionFrame(model, b, bp.referenceWidth, s);
      assert.ok(Math.abs(f.y - expected[0]) < 1e-6 && Math.abs(f.height - expected[1]) < 1e-6, "section " + s + " at breakpoint " + b);
    });
    assert.ok(Math.abs(viewer.contentHeight(model, b, bp.referenceWidth) - bp.contentHeight) < 1e-6);
  });
});

test("grouped: at any width no tile overlaps another or a header, and the queries equal a scan", function () {
  const model = viewer.buildModel(groupedAlbum(600, 12));
  const next = random(5);
  for (const width of [320, 599, 600, 777, 1000, 1440, 2500, 3840]) {
    const b = viewer.breakpointIndex(model, width);
    const rects = [];
    for (let i = 0; i < model.count; i++) rects.push(viewer.frameOf(model, b, width, i));
    for (let s = 0; s < model.sections.length; s++) {
      const box = viewer.sectionFrame(model, b, width, s);
      rects.push({ x: 0, y: box.y, width: width, height: box.headerHeight });
    }
    for (let i = 0; i < rects.length; i++) {
      for (let j = i + 1; j < rects.length; j++) {
        const a = rects[i], c = rects[j], e = 1e-6;
        const overlap = a.x < c.x + c.width - e && c.x < a.x + a.width - e && a.y < c.y + c.height - e && c.y < a.y + a.height - e;
        assert.ok(!overlap, `${i} and ${j} overlap at ${width}px`);
      }
    }
    const height = viewer.contentHeight(model, b, width);
    for (let n = 0; n < 40; n++) {
      const top = -200 + next() * (height + 400), bottom = top + next() * 2500;
      const items = [], sections = [];
      for (let i = 0; i < model.count; i++) if (intersects(viewer.frameOf(model, b, width, i), top, bottom)) items.push(i);
      for (let s = 0; s < model.sections.length; s++) if (intersects(viewer.sectionFrame(model, b, width, s), top, bottom)) sections.push(s);
      assert.deepEqual(viewer.visibleItems(model, b, width, top, bottom), items);
      assert.deepEqual(viewer.visibleSections(model, b, width, top, bottom), sections);
    }
  }
});

test("grouped: tile and section styles carry the properties the generator writes", function () {
  const data = groupedAlbum(30, 13);
  const model = viewer.buildModel(data);
  const last = data.sections.length - 1;
  const tile = viewer.tileStyle(model, data.sections[last].start, null);
  assert.match(tile, /;--s:(\d+)$/);
  assert.equal(tile.match(/;--s:(\d+)$/)[1], String(last + 1));
  const box = viewer.sectionStyle(model, last);
  assert.match(box, /^--s:\d+(;--a\d:[0-9.]+;--k\d:\d+;--e\d:[0-9.]+;--f\d:\d+){3}$/);
  // The first section starts at the top; the first tile below its header and a gap.
  assert.ok(viewer.sectionStyle(model, 0).startsWith("--s:0;--a0:0;--k0:0;"));
  assert.equal(viewer.frameOf(model, 0, 400, 0).y, 44 + data.gap);
});

/** An album in justified rows (frames.json version 3, layout "rows"): each breakpoint's rows
 *  chosen here greedily at its reference width and target height. */
function rowAlbum(count, seed) {
  const data = album(count, seed);
  const next = random(seed + 77);
  data.layout = "rows";
  data.rowRatios = [];
  for (let i = 0; i < count; i++) data.rowRatios.push(Math.round((0.33 + next() * 3) * 100000));
  data.breakpoints.forEach(function (bp, b) {
    delete bp.column;
    bp.rowHeight = [120, 180, 240][b];
    bp.rows = [];
    let start = 0, sum = 0;
    for (let i = 0; i < count; i++) {
      sum += data.rowRatios[i] / 100000;
      if (sum * bp.rowHeight + (i - start) * data.gap >= bp.referenceWidth) {
        bp.rows.push(i - start + 1);
        start = i + 1;
        sum = 0;
      }
    }
    if (start < count) bp.rows.push(count - start);
  });
  return data;
}

test("rows: at any width each row has one height, fills the wall with fixed gaps, and rows never overlap", function () {
  const data = rowAlbum(500, 21);
  const model = viewer.buildModel(data);
  assert.equal(model.rows, true);
  for (const width of [320, 500, 599.5, 600, 800, 999, 1000, 1920, 3840]) {
    const b = viewer.breakpointIndex(model, width);
    const bp = data.breakpoints[b];
    let start = 0, bottom = -Infinity;
    bp.rows.forEach(function (n, r) {
      const frames = [];
      for (let i = start; i < start + n; i++) frames.push(viewer.frameOf(model, b, width, i));
      for (const f of frames) assert.ok(Math.abs(f.height - frames[0].height) < 1e-9 && Math.abs(f.y - frames[0].y) < 1e-9);
      assert.ok(Math.abs(frames[0].x) < 1e-9);
      for (let k = 1; k < n; k++) assert.ok(Math.abs(frames[k].x - (frames[k - 1].x + frames[k - 1].width) - data.gap) < 1e-6);
      const right = frames[n - 1].x + frames[n - 1].width;
      if (r < bp.rows.length - 1) {
        assert.ok(Math.abs(right - width) < 1e-3, `row ${r} ends at ${right} in ${width}`);
      } else {
        assert.ok(frames[0].height <= bp.rowHeight + 1e-9 && right <= width + 1e-6);
      }
      if (r > 0) assert.ok(Math.abs(frames[0].y - (bottom + data.gap)) < 1e-6, `row ${r} is not a gap below row ${r - 1}`);
      bottom = frames[0].y + frames[0].height;
      start += n;
    });
    assert.ok(Math.abs(viewer.contentHeight(model, b, width) - bottom) < 1e-6);
  }
});

test("rows: the visible-tile query equals a brute-force scan, and styles carry the row terms", function () {
  const model = viewer.buildModel(rowAlbum(1500, 22));
  const next = random(3);
  for (let n = 0; n < 200; n++) {
    const width = 320 + next() * 3500;
    const b = viewer.breakpointIndex(model, width);
    const top = -300 + next() * (viewer.contentHeight(model, b, width) + 600);
    const bottom = top + next() * 2500;
    const expected = [];
    for (let i = 0; i < model.count; i++) if (intersects(viewer.frameOf(model, b, width, i), top, bottom)) expected.push(i);
    assert.deepEqual(viewer.visibleItems(model, b, width, top, bottom), expected);
  }
  const style = viewer.tileStyle(model, model.count - 1, "#abcdef");
  assert.match(style, /^--r:[0-9.]+;--q:[0-9.]+(;--t\d:[0-9.e-]+;--y\d:-?[0-9.e-]+;--w\d:[0-9.e-]+;--z\d:\d+;--p\d:[0-9.]+;--j\d:\d+;--m\d:\d+px){3};--bg:#abcdef$/);
});
