// Unit tests of the lightbox's and the tile order's pure parts: `node --test Tests/viewer/`.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const viewer = require("../../templates/assets/viewer.js");
const lightbox = require("../../templates/assets/lightbox.js");

test("a photo fits the stage but is never enlarged past its largest image", function () {
  assert.deepEqual(lightbox.fitSize(2400, 1600, 1440, 780), { width: 1170, height: 780 });
  assert.deepEqual(lightbox.fitSize(1600, 2400, 390, 700), { width: 390, height: 585 });
  // A small photo stays at its own size in a large stage.
  assert.deepEqual(lightbox.fitSize(320, 240, 1440, 780), { width: 320, height: 240 });
  // A tiny one is enlarged to be seen (its longer side 240 px), within the stage.
  assert.deepEqual(lightbox.fitSize(1, 1, 1440, 780), { width: 240, height: 240 });
  assert.deepEqual(lightbox.fitSize(2, 3, 1440, 780), { width: 160, height: 240 });
  assert.deepEqual(lightbox.fitSize(2, 3, 100, 120), { width: 80, height: 120 });
});

test("zooming keeps the point under the cursor in place, and panning stays within the photo", function () {
  const zoom = lightbox.zoomAround({ scale: 1, x: 0, y: 0 }, 2, 100, -50);
  // The photo's point under the cursor, (100, −50) from the centre at scale 1, is still there.
  assert.equal(zoom.x + zoom.scale * 100, 100);
  assert.equal(zoom.y + zoom.scale * -50, -50);
  assert.deepEqual(zoom, { scale: 2, x: -100, y: 50 });
  const back = lightbox.zoomAround(zoom, 1, 100, -50);
  assert.deepEqual(back, { scale: 1, x: 0, y: 0 });
  // A 1000 px wide photo at 2× in an 1200 px stage may move 400 px either way, no further.
  assert.equal(lightbox.clampPan(900, 2, 1000, 1200), 400);
  assert.equal(lightbox.clampPan(-900, 2, 1000, 1200), -400);
  assert.equal(lightbox.clampPan(30, 2, 1000, 1200), 30);
  // Not larger than the stage: centred.
  assert.equal(lightbox.clampPan(30, 1, 1000, 1200), 0);
});

test("swipes: sideways moves, down closes, short drags do nothing", function () {
  assert.equal(lightbox.swipeAction(-120, 10), "next");
  assert.equal(lightbox.swipeAction(120, -20), "previous");
  assert.equal(lightbox.swipeAction(10, 200), "close");
  assert.equal(lightbox.swipeAction(20, 30), "");
  assert.equal(lightbox.swipeAction(0, -200), "", "a swipe up does not close");
  assert.equal(lightbox.swipeAction(90, 100), "", "a diagonal drag is neither");
});

test("a flick moves on however short; a slow drag moves on past a quarter of the stage, or snaps back", function () {
  // 30 px at 1 px/ms (a flick) moves; at 0.03 px/ms it snaps back.
  assert.equal(lightbox.swipeAction(-30, 2, -1, 390), "next");
  assert.equal(lightbox.swipeAction(30, 2, 1, 390), "previous");
  assert.equal(lightbox.swipeAction(-30, 2, -0.03, 390), "");
  // A flick back the other way at the end of a drag is no flick onwards.
  assert.equal(lightbox.swipeAction(-30, 2, 1, 390), "");
  // Slow: a quarter of the stage (390 px: 97.5 px) decides.
  assert.equal(lightbox.swipeAction(-90, 2, 0, 390), "");
  assert.equal(lightbox.swipeAction(-100, 2, 0, 390), "next");
  assert.equal(lightbox.swipeAction(-8, 0, -2, 390), "", "a flick of a few pixels is a tap");
});

test("right to left, a drag or a flick to the right brings the next photo", function () {
  assert.equal(lightbox.swipeAction(120, -20, 0, 390, true), "next");
  assert.equal(lightbox.swipeAction(-120, 10, 0, 390, true), "previous");
  assert.equal(lightbox.swipeAction(30, 2, 1, 390, true), "next", "a short flick to the right");
  assert.equal(lightbox.swipeAction(-30, 2, -1, 390, true), "previous");
  assert.equal(lightbox.swipeAction(30, 2, -1, 390, true), "", "a flick back is no flick onwards");
  assert.equal(lightbox.swipeAction(10, 200, 0, 390, true), "close", "down still closes");
});

test("the lightbox speaks the page's strings, and English where the page gave none", function () {
  const kept = Object.assign({}, viewer.strings);
  try {
    viewer.strings.viewer_status_titled = "Photo {position} sur {count} : {title}";
    assert.equal(lightbox.photoStatus(2, 9, "Dune"), "Photo 3 sur 9 : Dune");
    assert.equal(lightbox.photoStatus(0, 1, ""), "Photo 1 of 1");
    assert.equal(viewer.say("viewer_thumb_titled", { position: 4, alt: "a \"b\" <c>" }, true), "Photo 4: a &quot;b&quot; &lt;c>");
    assert.equal(viewer.say("viewer_thumbnails"), "Photos");
  } finally {
    for (const key in viewer.strings) delete viewer.strings[key];
    Object.assign(viewer.strings, kept);
  }
});

test("the release speed is the last 100 ms of moves, and nothing after a rest", function () {
  const moves = [{ x: 300, t: 0 }, { x: 290, t: 500 }, { x: 270, t: 520 }, { x: 250, t: 540 }];
  assert.equal(lightbox.releaseSpeed(moves, 545), -1);  // 290 to 250 in 40 ms
  assert.equal(lightbox.releaseSpeed(moves, 700), 0, "the finger rested before letting go");
  assert.equal(lightbox.releaseSpeed([{ x: 1, t: 0 }], 5), 0);
});

test("the live region names the photo and where it is", function () {
  assert.equal(lightbox.photoStatus(2, 9, "Dune"), "Photo 3 of 9: Dune");
  assert.equal(lightbox.photoStatus(0, 1, ""), "Photo 1 of 1");
});

test("camera settings make one line; anything but a list of texts makes none", function () {
  assert.equal(lightbox.cameraLine(["Canon EOS R5", "f/2.8", "1/250 s", "ISO 400"]), "Canon EOS R5 · f/2.8 · 1/250 s · ISO 400");
  assert.equal(lightbox.cameraLine(undefined), "");
  assert.equal(lightbox.cameraLine("f/2.8"), "");
  assert.equal(lightbox.cameraLine(["f/2.8", 3, ""]), "f/2.8");
});

test("credits, people and place make one line of text; anything but texts is left out", function () {
  assert.equal(lightbox.creditLine({ creator: "Jürgen Müller", copyright: "© 2024 Jürgen Müller", people: ["Ana Lima", "Bo Chen"],
                                   places: ["Porto", "Portugal"] }),
               "By Jürgen Müller · © 2024 Jürgen Müller · With Ana Lima, Bo Chen · Porto, Portugal");
  assert.equal(lightbox.creditLine({ creator: "Jq Vx", people: ["Ana Lima", "Bo Chen"] }, true),
               "By \u2068Jq Vx\u2069 · With \u2068Ana Lima\u2069, \u2068Bo Chen\u2069", "right to left, each name isolated");
  assert.equal(lightbox.creditLine({}), "");
  assert.equal(lightbox.creditLine({ creator: 3, people: "Ana", places: ["<b>x</b>", 4] }), "<b>x</b>");
});

test("a title of its own heads the caption; one the caption starts with is not repeated", function () {
  assert.equal(lightbox.lightboxTitle("Beach", "Low tide at noon"), "Beach");
  assert.equal(lightbox.lightboxTitle("Low tide", "Low tide at noon"), "");
  assert.equal(lightbox.lightboxTitle("IMG_1", "IMG_1"), "");
  assert.equal(lightbox.lightboxTitle(undefined, "text"), "");
});

test("URL templates: an album's slug fills {id}; a tag page's path fills {dir} and {name}", function () {
  assert.equal(viewer.fillURL("thumbs/{id}-{width}.jpg", "dune", 400), "thumbs/dune-400.jpg");
  assert.equal(viewer.fillURL("{dir}thumbs/{name}-{width}.jpg", "../../trip/img_1", 800), "../../trip/thumbs/img_1-800.jpg");
  assert.equal(viewer.fillURL("{dir}thumbs/{name}-{width}.jpg", "img_1", 800), "thumbs/img_1-800.jpg");
  assert.equal(viewer.fillURL("{id}.html", "../../trip/caf%C3%A9", 0), "../../trip/caf%C3%A9.html");
});

test("the focus trap goes round the controls both ways", function () {
  const list = ["close", "prev", "next"];
  assert.equal(lightbox.trapTarget(list, "next", false), "close");
  assert.equal(lightbox.trapTarget(list, "close", true), "next");
  assert.equal(lightbox.trapTarget(list, "prev", false), "next");
  assert.equal(lightbox.trapTarget(list, "dialog", false), "close");
  assert.equal(lightbox.trapTarget(list, "dialog", true), "next");
  assert.equal(lightbox.trapTarget([], "dialog", true), null);
});

/** A stand-in for the wall: children with data-index, insertBefore as the DOM does it. */
function fakeWall() {
  const wall = {
    children: [],
    insertBefore(node, before) {
      const at = before ? this.children.indexOf(before) : this.children.length;
      this.children.splice(at, 0, node);
    },
  };
  return wall;
}

function tile(index) {
  return { getAttribute: (name) => (name === "data-index" ? String(index) : null), index };
}

test("tiles go into the DOM in item order, whatever order they arrive in", function () {
  const wall = fakeWall();
  let seed = 7;
  const order = [];
  for (let i = 0; i < 60; i++) order.push(i * 3);
  // A shuffled arrival, as when a recycled node is bound above the tiles already shown.
  for (let i = order.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const j = seed % (i + 1);
    [order[i], order[j]] = [order[j], order[i]];
  }
  for (const index of order) viewer.insertInOrder(wall, tile(index), index);
  const indices = wall.children.map((node) => node.index);
  assert.deepEqual(indices, [...indices].sort((a, b) => a - b));
  assert.equal(indices.length, 60);
});

test("a focused tile is kept among the visible ones, in order", function () {
  assert.deepEqual(viewer.withKept([10, 11, 12], -1), [10, 11, 12]);
  assert.deepEqual(viewer.withKept([10, 11, 12], 11), [10, 11, 12]);
  assert.deepEqual(viewer.withKept([10, 11, 12], 3), [3, 10, 11, 12]);
  assert.deepEqual(viewer.withKept([10, 11, 12], 40), [10, 11, 12, 40]);
  assert.deepEqual(viewer.withKept([10, 12], 11), [10, 11, 12]);
  // The recycler then keeps its node: it is not unbound while it stays in the list.
  const unbound = [];
  const recycler = new viewer.Recycler({ create: () => ({}), bind() {}, unbind(node, index) { unbound.push(index); } }, 8);
  recycler.update([1, 2, 3]);
  recycler.update(viewer.withKept([50, 51], 2));
  assert.deepEqual(unbound.sort(), [1, 3]);
  assert.ok(recycler.visible.has(2));
});

test("items on an album's further static pages resolve against the album's folder", function () {
  const model = viewer.buildModel({
    version: 3, count: 1, gap: 8, ratioScale: 100000, ratios: [100000], ids: ["dune"], chunkSize: 1000, chunks: ["frames/0.json"],
    pageURL: "{id}.html", imageURL: "thumbs/{id}-{width}.jpg", tileMaxWidth: 800,
    sources: [{ type: "image/webp", imageURL: "thumbs/{id}-{width}.webp" }],
    breakpoints: [{ minWidth: 0, columns: 2, column: "0" }],
  });
  const detail = { alt: "Dune", width: 1600, height: 1600, color: "#123456", widths: [400, 1600] };
  const item = viewer.resolveItem(model, 0, detail, "../");
  assert.equal(item.page, "../dune.html");
  assert.deepEqual(item.images.map((i) => i.url), ["../thumbs/dune-400.jpg", "../thumbs/dune-1600.jpg"]);
  assert.equal(item.sources[0].images[1].url, "../thumbs/dune-1600.webp");
  assert.equal(viewer.resolveItem(model, 0, detail).page, "dune.html");
});

test("a video's item carries its web version and duration, against the album's folder; a photo's has none", function () {
  const model = viewer.buildModel({
    version: 3, count: 2, gap: 8, ratioScale: 100000, ratios: [56250, 100000], ids: ["clip", "dune"], chunkSize: 1000, chunks: ["frames/0.json"],
    pageURL: "{id}.html", imageURL: "thumbs/{id}-{width}.jpg", tileMaxWidth: 800, sources: [],
    breakpoints: [{ minWidth: 0, columns: 2, column: "01" }],
  });
  const clip = { alt: "Clip", width: 1280, height: 720, color: "#123456", widths: [400, 1280],
                 video: { url: "videos/clip.mp4", duration: "0:07" } };
  const item = viewer.resolveItem(model, 0, clip, "../");
  assert.deepEqual(item.video, { url: "../videos/clip.mp4", duration: "0:07" });
  assert.equal(item.images[1].url, "../thumbs/clip-1280.jpg");
  assert.equal(viewer.resolveItem(model, 0, clip).video.url, "videos/clip.mp4");
  const photo = { alt: "Dune", width: 800, height: 800, color: "#654321", widths: [400, 800] };
  assert.equal(viewer.resolveItem(model, 1, photo).video, null);
});
