/* Cascade's lightbox, loaded by viewer.js on the first opening (so a page loads only the
 * wall's script before a click): the photo sized beside its caption, one state machine
 * (closed, opening, open, moving, zoomed, closing), history, keys, zoom, gestures, motion,
 * video and Live Photos. It adds its methods to viewer.js's Viewer. Pure parts are exported
 * for node. */
(function (global) {
  "use strict";

  const base = typeof module === "object" && module.exports ? require("./viewer.js") : global.CascadeViewer;
  const Viewer = base.Viewer, resolveItem = base.resolveItem, chunkOf = base.chunkOf, bindSources = base.bindSources;
  const srcsetOfImages = base.srcsetOfImages, clearPicture = base.clearPicture, pictureWith = base.pictureWith;
  const Recycler = base.Recycler, withKept = base.withKept, insertInOrder = base.insertInOrder;
  const breakpointIndex = base.breakpointIndex, frameOf = base.frameOf, contentOffset = base.contentOffset, wallOffset = base.wallOffset;
  const say = base.say, isRightToLeft = base.isRightToLeft;

  // The lightbox's words in English, where the page gave none of its own (viewer.js has read
  // the page's strings by now; it keeps only the wall's English ones, for its budget).
  const ENGLISH = {
    viewer_status: "Photo {position} of {count}", viewer_status_titled: "Photo {position} of {count}: {title}",
    viewer_slideshow: "Slideshow", viewer_full_screen: "Full screen", viewer_download: "Download the original",
    viewer_download_titled: "Download the original ({label})", viewer_zoom_out: "Zoom out", viewer_zoom_in: "Zoom in",
    viewer_close: "Close", viewer_live_photo: "Live Photo", viewer_previous: "Previous photo", viewer_next: "Next photo",
    viewer_thumbnails: "Photos", viewer_thumb: "Photo {position}", viewer_thumb_titled: "Photo {position}: {alt}",
    viewer_credit_by: "By {name}", viewer_credit_with: "With {names}", viewer_list_separator: ", ",
  };
  for (const key in ENGLISH) if (base.strings[key] === undefined) base.strings[key] = ENGLISH[key];

  /** A photo's size in the stage: as large as fits, never past its largest image (w×h). */
  function fitSize(w, h, stageW, stageH) {
    // A tiny photo (a 1×1 or 2×3 px image) is enlarged to be seen: its longer side MIN_SHOWN px.
    const scale = Math.min(stageW / w, stageH / h, Math.max(1, MIN_SHOWN / Math.max(w, h)));
    return { width: Math.max(1, Math.round(w * scale)), height: Math.max(1, Math.round(h * scale)) };
  }

  /** The longer side (px) a photo smaller than that is enlarged to in the lightbox. */
  const MIN_SHOWN = 240;

  /** A pan offset kept so the image's edge never leaves the stage's; a small one is centred. */
  function clampPan(t, scale, shown, stage) {
    const room = Math.max(0, (shown * scale - stage) / 2);
    return Math.max(-room, Math.min(room, t));
  }

  /** The zoom after zooming to `scale` around (px, py) from the stage's centre: the point
   *  under the finger or cursor stays. */
  function zoomAround(zoom, scale, px, py) {
    const k = scale / zoom.scale;
    return { scale: scale, x: px - (px - zoom.x) * k, y: py - (py - zoom.y) * k };
  }

  /** Zoom levels, in the fitted size: fit, 2×, 4× (pinch and Ctrl+wheel go between them). */
  const ZOOM_LEVELS = [1, 2, 4];

  /** The zoom level after `scale` going in (`direction` 1) or out (−1). */
  function nextZoomLevel(scale, direction) {
    const levels = direction > 0 ? ZOOM_LEVELS : ZOOM_LEVELS.slice().reverse();
    for (let l = 0; l < levels.length; l++) if (direction * (levels[l] - scale) > 0.01) return levels[l];
    return levels[levels.length - 1];
  }

  /** A drag when not zoomed, released at `vx` px/ms sideways on a stage `width` px wide:
   *  "next", "previous", "close" (down) or "". Sideways, a quarter of the stage (at least
   *  50 px) moves on, and so does a flick, however short, in the direction it was dragged; a
   *  slow short drag snaps back. Right to left (`rtl`), the next photo is at the left: a drag
   *  or a flick to the right brings it. */
  function swipeAction(dx, dy, vx, width, rtl) {
    if (Math.abs(dx) > Math.abs(dy)) {
      const flick = Math.abs(vx || 0) >= FLICK_SPEED && (vx < 0) === (dx < 0) && Math.abs(dx) > 10;
      if (flick || Math.abs(dx) > Math.max(50, (width || 0) / 4)) return (dx < 0) !== !!rtl ? "next" : "previous";
    }
    if (dy > 80 && dy > 2 * Math.abs(dx)) return "close";
    return "";
  }

  /** The speed (px/ms) from which a released drag is a flick: 0.4 px/ms is 400 px/s. */
  const FLICK_SPEED = 0.4;

  /** A drag's speed at release (px/ms sideways) from its moves [{x, t}]: over its last
   *  100 ms; nothing when the finger rested 100 ms before it let go (at `at`). */
  function releaseSpeed(moves, at) {
    if (moves.length < 2 || at - moves[moves.length - 1].t > 100) return 0;
    const last = moves[moves.length - 1];
    let first = moves[0];
    for (let m = moves.length - 2; m >= 0 && last.t - moves[m].t <= 100; m--) first = moves[m];
    const ms = last.t - first.t;
    return ms > 0 ? (last.x - first.x) / ms : 0;
  }

  /** What the live region says about photo `index`: "Photo 3 of 9: Dune". */
  function photoStatus(index, count, title) {
    return say(title ? "viewer_status_titled" : "viewer_status", { position: index + 1, count: count, title: title });
  }

  /** The line of camera settings under a photo in the lightbox, from its details' `camera`. */
  function cameraLine(camera) {
    return Array.isArray(camera) ? camera.filter(function (part) { return typeof part === "string" && part; }).join(" · ") : "";
  }

  /** The line of credits, people and place under a photo in the lightbox, from its details. */
  function creditLine(detail, rtl) {
    // On a right-to-left page each name is isolated (FSI … PDI): Latin names side by side would
    // otherwise run together into one left-to-right stretch across the separators.
    function isolate(text) { return rtl ? "\u2068" + text + "\u2069" : text; }
    function names(list) { return Array.isArray(list) ? list.filter(function (name) { return typeof name === "string" && name; }).map(isolate) : []; }
    const parts = [];
    const separator = say("viewer_list_separator");
    if (typeof detail.creator === "string" && detail.creator) parts.push(say("viewer_credit_by", { name: isolate(detail.creator) }));
    if (typeof detail.copyright === "string" && detail.copyright) parts.push(isolate(detail.copyright));
    if (names(detail.people).length) parts.push(say("viewer_credit_with", { names: names(detail.people).join(separator) }));
    if (names(detail.places).length) parts.push(names(detail.places).join(separator));
    return parts.join(" · ");
  }

  /** The title shown above the caption: a title of its own, not when the caption already
   *  starts with it (a title made from the caption's first line, or the file name as alt). */
  function lightboxTitle(title, captionText) {
    // Compared by letters and digits: a title cut short ("…") or made from Markdown (its
    // link targets and emphasis marks) is the caption's first line all the same.
    function bare(text) { return text.replace(/\]\([^)]*\)/g, "").replace(/[^\p{L}\p{N}]+/gu, "").toLowerCase(); }
    return title && bare(captionText).indexOf(bare(title)) !== 0 ? title : "";
  }

  /** Where Tab (Shift+Tab: `backwards`) goes in a focus trap over `list`, wrapping round. */
  function trapTarget(list, current, backwards) {
    if (list.length === 0) return null;
    const at = list.indexOf(current);
    if (at < 0) return backwards ? list[list.length - 1] : list[0];
    return list[(at + (backwards ? list.length - 1 : 1)) % list.length];
  }

  Viewer.prototype.buildLightbox = function () {
    const self = this;
    const box = document.createElement("div");
    box.className = "lightbox";
    box.setAttribute("role", "dialog");
    box.setAttribute("aria-modal", "true");
    box.tabIndex = -1;
    box.hidden = true;
    box.innerHTML =
      '<div class="lb-bar"><span class="lb-counter"></span>' +
      '<button type="button" class="lb-play" aria-label="' + say("viewer_slideshow", null, true) + '" aria-pressed="false"></button>' +
      '<button type="button" class="lb-full" aria-label="' + say("viewer_full_screen", null, true) + '"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M4 4h6v2H6v4H4zm10 0h6v6h-2V6h-4zM4 14h2v4h4v2H4zm14 0h2v6h-6v-2h4z"/></svg></button>' +
      '<a class="lb-download" hidden aria-label="' + say("viewer_download", null, true) + '"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M11 3h2v10l4-4 1.4 1.4L12 16.8l-6.4-6.4L7 9l4 4zM4 19h16v2H4z"/></svg></a>' +
      '<button type="button" class="lb-out" aria-label="' + say("viewer_zoom_out", null, true) + '">−</button>' +
      '<button type="button" class="lb-in" aria-label="' + say("viewer_zoom_in", null, true) + '">+</button>' +
      '<button type="button" class="lb-close" aria-label="' + say("viewer_close", null, true) + '">✕</button></div>' +
      // The Live Photo badge sits on the photo's corner (in the box sized to the photo).
      '<div class="lb-stage"><div class="lb-zoom"><img class="lb-low" alt="">' +
      '<button type="button" class="lb-live" hidden aria-label="' + say("viewer_live_photo", null, true) + '" aria-pressed="false"><span><svg viewBox="0 0 12 12" aria-hidden="true"><circle cx="6" cy="6" r="2"/><circle cx="6" cy="6" r="4.6" fill="none" stroke="currentColor" stroke-width="1.2" stroke-dasharray="1.4 1"/></svg>LIVE</span></button></div></div>' +
      '<button type="button" class="lb-prev" aria-label="' + say("viewer_previous", null, true) + '">‹</button>' +
      '<button type="button" class="lb-next" aria-label="' + say("viewer_next", null, true) + '">›</button>' +
      '<p class="lb-caption"><strong class="lb-title"></strong><span class="lb-text"></span> <time class="lb-date"></time><span class="lb-camera"></span><span class="lb-credit"></span></p>' +
      '<p class="lb-status" aria-live="polite"></p>';
    const image = document.createElement("img");
    image.className = "lightbox-image";
    image.setAttribute("alt", "");
    image.addEventListener("load", function () {
      if (image.getAttribute("data-for") === String(self.current)) { image.classList.add("is-loaded"); self.preload(); }
    });
    const zoomer = box.querySelector(".lb-zoom");
    zoomer.appendChild(pictureWith(this.model, image));
    document.body.appendChild(box);
    this.lightbox = box;
    this.stage = box.querySelector(".lb-stage");
    this.zoomer = zoomer;
    this.image = image;
    function on(selector, handler) { box.querySelector(selector).addEventListener("click", handler); }
    on(".lb-close", function () { self.close(true); });
    on(".lb-prev", function () { self.step(-1); });
    on(".lb-next", function () { self.step(1); });
    on(".lb-play", function () { self.playing() ? self.pause() : self.play(); });
    on(".lb-in", function () { self.zoomStep(1); });
    on(".lb-out", function () { self.zoomStep(-1); });
    on(".lb-full", function () {
      if (document.fullscreenElement) document.exitFullscreen(); else if (box.requestFullscreen) box.requestFullscreen();
    });
    if (!document.fullscreenEnabled) box.querySelector(".lb-full").hidden = true;
    if (reducedMotion()) box.querySelector(".lb-play").hidden = true;
    this.stage.addEventListener("click", function (event) {
      // A drag ends in a click where it was released: that is no click on the backdrop.
      if (self.dragged) { self.dragged = false; return; }
      if (event.target === self.stage && self.zoom.scale === 1) self.close(true);
    });
    this.stage.addEventListener("dblclick", function (event) {
      // Touch: the double tap has zoomed already (pointerup), whether or not a dblclick follows.
      if (self.pointerType !== "touch") self.toggleZoom(event.clientX, event.clientY);
    });
    this.stage.addEventListener("wheel", function (event) {
      if (!event.ctrlKey && self.zoom.scale === 1) return;
      event.preventDefault();
      if (event.ctrlKey) self.zoomTo(self.zoom.scale * Math.exp(-event.deltaY / 200), event.clientX, event.clientY);
      else self.panBy(-event.deltaX, -event.deltaY);
    }, { passive: false });
    document.addEventListener("keydown", function (event) { if (self.current >= 0) self.onKey(event); });
    if (this.wall.hasAttribute("data-thumbnails")) this.buildStrip(box);
    // The stage changes with the window and with the caption under it: the photo follows.
    function refit() { if (self.current >= 0) { self.fit(); self.updateStrip(true); } }
    if (typeof ResizeObserver === "function") new ResizeObserver(refit).observe(this.stage);
    else window.addEventListener("resize", refit);
    this.bindPointers();
    return box;
  };

  /** Gestures: one finger swipes (or pans when zoomed), two pinch, a double tap zooms. */
  Viewer.prototype.bindPointers = function () {
    const self = this;
    const stage = this.stage;
    const pointers = new Map();
    let start = null, pinch = null, lastTap = 0, moves = [];
    function spread() {
      const p = Array.from(pointers.values());
      return { d: Math.hypot(p[0].x - p[1].x, p[0].y - p[1].y), x: (p[0].x + p[1].x) / 2, y: (p[0].y + p[1].y) / 2 };
    }
    stage.addEventListener("pointerdown", function (event) {
      if (event.button !== 0) return;
      pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
      self.pointerType = event.pointerType;
      self.dragged = false;
      if (pointers.size === 2) { pinch = { at: spread(), scale: self.zoom.scale }; start = null; }
      else if (pointers.size === 1) start = { x: event.clientX, y: event.clientY, zx: self.zoom.x, zy: self.zoom.y };
      moves = [{ x: event.clientX, t: event.timeStamp }];
    });
    stage.addEventListener("pointermove", function (event) {
      if (!pointers.has(event.pointerId)) return;
      pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
      // Its recent moves give the speed it is let go at (a flick).
      moves.push({ x: event.clientX, t: event.timeStamp });
      if (moves.length > 16) moves.shift();
      if (start && !self.dragged && Math.hypot(event.clientX - start.x, event.clientY - start.y) > 10) {
        self.dragged = true;
        // A drag is followed wherever it goes, off the photo and out of the window (a click is
        // not captured: it must reach what is under it).
        try { stage.setPointerCapture(event.pointerId); } catch (error) { /* a pointer already gone */ }
      }
      if (pinch && pointers.size === 2) {
        const now = spread();
        self.zoomTo(pinch.scale * now.d / pinch.at.d, now.x, now.y);
      } else if (start && self.zoom.scale > 1) {
        self.zoom.x = start.zx + event.clientX - start.x;
        self.zoom.y = start.zy + event.clientY - start.y;
        self.applyZoom();
      } else if (start && self.dragged && !reducedMotion()) {
        // The photo follows the finger: sideways to the next one, down to close (the backdrop fades).
        const dx = event.clientX - start.x, dy = event.clientY - start.y;
        const across = Math.abs(dx) > Math.abs(dy);
        self.zoomer.style.transform = across ? "translateX(" + dx + "px)" : "translateY(" + Math.max(0, dy) + "px)";
        self.lightbox.style.setProperty("--fade", across ? 1 : Math.max(0.2, 1 - Math.max(0, dy) / 400));
      }
    });
    function end(event) {
      if (!pointers.delete(event.pointerId)) return;
      if (pointers.size < 2) pinch = null;
      if (!start || pointers.size > 0) return;
      const dx = event.clientX - start.x, dy = event.clientY - start.y;
      start = null;
      if (self.zoom.scale > 1 || event.type !== "pointerup") return;
      const action = swipeAction(dx, dy, releaseSpeed(moves, event.timeStamp), self.stage.clientWidth, isRightToLeft());
      if (action === "next" || action === "previous") {
        self.step(action === "next" ? 1 : -1);
        // The new photo comes in from the side it was pulled from, and snaps into place.
        self.glide("translateX(" + (dx < 0 ? 1 : -1) * self.stage.clientWidth / 4 + "px)", "");
      } else if (action === "close") self.close(true);
      else if (self.dragged) self.glide(self.zoomer.style.transform, "");  // snaps back
      else if (event.pointerType === "touch" && Math.hypot(dx, dy) < 10) {
        if (event.timeStamp - lastTap < 300) { self.toggleZoom(event.clientX, event.clientY); lastTap = 0; } else lastTap = event.timeStamp;
      }
    }
    stage.addEventListener("pointerup", end);
    stage.addEventListener("pointercancel", end);
  };

  function reducedMotion() {
    return !!(window.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches);
  }

  /** The transform that puts the photo's box (at rect `to`) over rect `from` (a tile). */
  function flyTransform(from, to) {
    return "translate(" + (from.left + from.width / 2 - to.left - to.width / 2) + "px," +
      (from.top + from.height / 2 - to.top - to.height / 2) + "px) scale(" + from.width / to.width + ")";
  }

  /** Moves the photo from transform `from` to `to` (transform only, 0.25 s; at once under
   *  prefers-reduced-motion), the backdrop to `fade`; then `done`, unless the lightbox was
   *  opened, moved or closed meanwhile (its ticket). The glide ends when the photo's own
   *  transform transition does (Web Animations), never on a timer, which a loaded machine
   *  outruns, nor on a transitionend bubbling up from the image's fade-in: until then the
   *  lightbox is `is-gliding`, and what measures the photo waits for that. */
  Viewer.prototype.glide = function (from, to, fade, done) {
    const z = this.zoomer, box = this.lightbox, self = this, ticket = this.ticket;
    const glide = this.glides = (this.glides || 0) + 1;
    function finish() {
      // A newer glide (a swipe during the opening) owns the class now.
      if (self.glides !== glide) return;
      box.classList.remove("is-gliding");
      if (done && self.ticket === ticket) done();
    }
    box.classList.remove("is-gliding");
    z.style.transform = from;
    if (reducedMotion()) { z.style.transform = to; box.style.setProperty("--fade", fade === undefined ? 1 : fade); finish(); return; }
    z.getBoundingClientRect();  // the start is laid out before the transition begins
    box.classList.add("is-gliding");
    z.style.transform = to;
    box.style.setProperty("--fade", fade === undefined ? 1 : fade);
    // The transition started just now, if the transform changed at all (getAnimations brings
    // the style up to date); it ends, or is cancelled by a newer glide, then this one is over.
    const running = z.getAnimations ? z.getAnimations().filter(function (a) { return a.transitionProperty === "transform"; }) : [];
    Promise.all(running.map(function (a) { return a.finished.catch(function () {}); })).then(finish);
  };

  /** The state machine's state, shown on the lightbox as data-state. */
  Viewer.prototype.setState = function (state) {
    this.state = state;
    if (this.lightbox) this.lightbox.setAttribute("data-state", state);
  };

  /** Tile `index`'s rectangle when it is on the screen. */
  Viewer.prototype.tileRect = function (index) {
    const tile = this.wall.querySelector('.tile[data-index="' + index + '"]');
    const rect = tile && tile.getBoundingClientRect();
    return rect && rect.bottom > 0 && rect.top < window.innerHeight ? rect : null;
  };

  Viewer.prototype.onKey = function (event) {
    const key = event.key;
    // Combinations with Alt, Ctrl or Meta are the browser's (Back, page zoom, tabs).
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (key === "Tab") {
      // The focus trap.
      const list = Array.from(this.lightbox.querySelectorAll("button, a[href], video")).filter(function (node) { return !node.hidden && node.getAttribute("tabindex") !== "-1"; });
      const target = trapTarget(list, document.activeElement, event.shiftKey);
      if (target) { event.preventDefault(); target.focus(); }
      return;
    }
    const back = isRightToLeft() ? 1 : -1;  // right to left, ArrowLeft is "next"
    const moves = { ArrowLeft: back, ArrowRight: -back, PageUp: -1, PageDown: 1, Home: -this.model.count, End: this.model.count };
    const video = this.video && !this.video.hidden ? this.video : null;
    // A focused video takes its own keys (arrows seek, Home and End); Escape still closes.
    if (video && event.target === video && key !== "Escape") return;
    // Zoomed in, the arrow keys pan (an eighth of the stage a press) instead of moving on.
    const pans = { ArrowLeft: [1, 0], ArrowRight: [-1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
    if (key === "Escape") this.close(true);
    else if (video && (key === " " || key === "k") && event.target !== video) { if (video.paused) video.play(); else video.pause(); }
    else if (this.zoom.scale > 1 && key in pans) this.panBy(pans[key][0] * this.stage.clientWidth / 8, pans[key][1] * this.stage.clientHeight / 8);
    else if (key in moves) this.step(moves[key], true);
    else if (key === "+" || key === "=") this.zoomStep(1);
    else if (key === "-") this.zoomStep(-1);
    else if (key === "0") this.zoomTo(1);
    else return;
    event.preventDefault();
  };

  /** Shows photo `index`. `push` adds a history entry at the photo's own page (Back closes,
   *  the address opens the photo for anyone); moving between photos replaces it. */
  Viewer.prototype.open = function (index, push) {
    // Every request and every close takes a new ticket: an answer that arrives for an older
    // one (a late chunk) is dropped, so nothing reopens, moves or re-points a closed lightbox.
    const ticket = ++this.ticket;
    const detail = this.detailOf(index);
    if (!detail) {
      const self = this;
      this.setState(this.current >= 0 ? "moving" : "opening");
      this.loadChunk(chunkOf(this.model, index)).then(function () { if (self.ticket === ticket) self.open(index, push); }, function () {});
      return;
    }
    const box = this.lightbox || this.buildLightbox();
    const wasOpen = this.current >= 0;
    this.setState("open");
    const item = resolveItem(this.model, index, detail, this.prefix);
    this.item = item;
    const img = this.image;
    const sources = box.querySelectorAll(".lb-zoom source");
    clearPicture(img, sources);
    img.classList.remove("is-loaded");
    img.setAttribute("data-for", String(index));
    img.setAttribute("alt", item.alt);
    // At once the tile's loaded image (or colour), under the large one when it arrives.
    const low = box.querySelector(".lb-low");
    const tile = this.wall.querySelector('.tile[data-index="' + index + '"] img');
    low.removeAttribute("src");
    if (tile && tile.complete && tile.currentSrc) low.src = tile.currentSrc;
    this.zoomer.style.background = item.color || "";
    this.current = index;
    box.hidden = false;
    box.classList.remove("is-leaving");
    document.documentElement.classList.add("has-lightbox");
    this.zoom = { scale: 1, x: 0, y: 0 };
    const title = detail.title || item.alt;
    const text = box.querySelector(".lb-text");
    if (detail.captionHTML) text.innerHTML = detail.captionHTML; else text.textContent = item.alt;
    // A title of its own (not the caption's first line) heads the caption.
    box.querySelector(".lb-title").textContent = lightboxTitle(detail.title, text.textContent);
    const date = box.querySelector(".lb-date");
    date.textContent = detail.date || "";
    if (detail.isoDate) date.setAttribute("datetime", detail.isoDate); else date.removeAttribute("datetime");
    // Camera settings, as text (never markup): "Canon EOS R5 · f/2.8 · 1/250 s · ISO 400".
    box.querySelector(".lb-camera").textContent = cameraLine(detail.camera);
    // Who made it, who is in it, where (text, never markup): "By Jane Doe · © 2024 Jane Doe · …".
    box.querySelector(".lb-credit").textContent = creditLine(detail, isRightToLeft());
    // A plain-text caption keeps its line breaks (CSS white-space), a Markdown one is HTML.
    text.classList.toggle("is-text", !detail.captionHTML);
    // Sized only now: the caption's height decides the stage's (the ResizeObserver refits later).
    this.fit();
    bindSources(sources, item, "images", img.getAttribute("sizes"));
    img.setAttribute("srcset", srcsetOfImages(item.images));
    img.setAttribute("src", item.images[item.images.length - 1].url);
    this.showVideo(item);
    this.showLive(item);
    box.querySelector(".lb-counter").textContent = (index + 1) + " / " + this.model.count;
    box.setAttribute("aria-label", title);
    box.querySelector(".lb-status").textContent = photoStatus(index, this.model.count, title);
    const download = box.querySelector(".lb-download");
    download.hidden = !detail.original;
    if (detail.original) {
      download.setAttribute("href", this.prefix + detail.original.url);
      download.setAttribute("download", detail.original.fileName);
      download.setAttribute("title", say("viewer_download_titled", { label: detail.original.label }));
    } else {
      download.removeAttribute("href");
    }
    const prev = box.querySelector(".lb-prev"), next = box.querySelector(".lb-next");
    const focused = document.activeElement;
    prev.hidden = index === 0;
    next.hidden = index === this.model.count - 1;
    // Focus stays on the control used; a control just hidden hands it on.
    if (!wasOpen) {
      // The photo zooms out of its tile, the backdrop fades in.
      const from = this.tileRect(index);
      box.style.setProperty("--fade", from ? 0 : 1);
      if (from) this.glide(flyTransform(from, this.zoomer.getBoundingClientRect()), "", 1);
      // Back scrolls to the tile: the browser must not restore an old scroll over that.
      history.scrollRestoration = "manual";
      this.setInert(true);
      box.focus();
    } else if (focused && focused.hidden) {
      const other = focused === next ? prev : next;
      (other.hidden ? box : other).focus();
    }
    // The strip marks this photo and centres it; a thumbnail that had the focus hands it on.
    this.updateStrip(true);
    if (this.strip && focused && focused.parentNode === this.track) {
      const thumb = this.thumbs.visible.get(index);
      if (thumb) thumb.focus({ preventScroll: true });
    }
    const page = new URL(item.page, document.baseURI).href;
    const state = { cascade: index };
    // One history entry per opening, pointed at each photo in turn.
    if (push && !wasOpen) history.pushState(state, "", page);
    else if (window.location.href !== page) history.replaceState(state, "", page);
    document.title = title + (this.siteTitle ? " · " + this.siteTitle : "");
    if (this.playing()) this.play();
  };

  /** A video plays in the lightbox over its poster (`<video controls playsinline
   *  preload=metadata>`); a photo takes the element away, so nothing keeps playing. */
  Viewer.prototype.showVideo = function (item) {
    let video = this.video;
    if (!item.video) {
      if (video) { video.pause(); video.removeAttribute("src"); video.load(); video.hidden = true; }
      this.lightbox.classList.remove("is-video");
      return;
    }
    if (!video) {
      video = document.createElement("video");
      video.className = "lb-video";
      video.controls = true;
      video.playsInline = true;
      video.setAttribute("playsinline", "");
      video.preload = "metadata";
      // The video's own controls take the pointer: no swipe, zoom or pan over them.
      ["pointerdown", "dblclick", "wheel", "click"].forEach(function (type) {
        video.addEventListener(type, function (event) { event.stopPropagation(); });
      });
      this.zoomer.appendChild(video);
      this.video = video;
    }
    video.hidden = false;
    video.poster = item.images[item.images.length - 1].url;
    video.src = item.video.url;
    video.setAttribute("aria-label", item.alt);
    this.lightbox.classList.add("is-video");
  };

  /** A Live Photo: the "LIVE" mark plays its motion clip muted over the photo, while the
   *  pointer is on it or once when it is pressed (touch, keyboard); then the photo is back. */
  Viewer.prototype.showLive = function (item) {
    const self = this;
    const button = this.lightbox.querySelector(".lb-live");
    let motion = this.motion;
    if (!motion) {
      motion = document.createElement("video");
      motion.className = "lb-motion";
      motion.muted = true;
      motion.playsInline = true;
      motion.setAttribute("playsinline", "");
      motion.setAttribute("aria-hidden", "true");
      motion.preload = "none";
      motion.hidden = true;
      motion.addEventListener("ended", function () { self.stopLive(); });
      this.zoomer.appendChild(motion);
      this.motion = motion;
      button.addEventListener("pointerenter", function () { self.playLive(); });
      button.addEventListener("pointerleave", function (event) { if (event.pointerType === "mouse") self.stopLive(); });
      button.addEventListener("click", function (event) { event.stopPropagation(); self.playLive(); });
      button.addEventListener("pointerdown", function (event) { event.stopPropagation(); });
    }
    this.stopLive();
    button.hidden = !item.live;
    if (item.live) motion.src = item.live.url; else motion.removeAttribute("src");
  };

  Viewer.prototype.playLive = function () {
    const motion = this.motion;
    if (!motion || !this.item || !this.item.live) return;
    motion.hidden = false;
    motion.currentTime = 0;
    this.lightbox.querySelector(".lb-live").setAttribute("aria-pressed", "true");
    const playing = motion.play();
    if (playing && playing.catch) playing.catch(function () {});
  };

  Viewer.prototype.stopLive = function () {
    const motion = this.motion;
    if (!motion) return;
    motion.pause();
    motion.hidden = true;
    this.lightbox.querySelector(".lb-live").setAttribute("aria-pressed", "false");
  };

  /** Everything but the lightbox is inert while it is open. */
  Viewer.prototype.setInert = function (on) {
    const children = document.body.children;
    for (let c = 0; c < children.length; c++) {
      if (children[c] !== this.lightbox) children[c].inert = on;
    }
  };

  /** Sizes the photo to the stage (never past its largest image) and resets the zoom. */
  Viewer.prototype.fit = function () {
    const largest = this.item.images[this.item.images.length - 1];
    const height = largest.width * this.item.height / this.item.width;
    const size = fitSize(largest.width, height, this.stage.clientWidth, this.stage.clientHeight);
    this.shown = size;
    // The stage it was sized for: what waits for the photo's final size compares it with the stage's.
    this.fitFor = this.stage.clientWidth + "x" + this.stage.clientHeight;
    this.lightbox.classList.toggle("is-tiny", size.width > 2 * largest.width);
    this.zoomer.style.width = size.width + "px";
    this.zoomer.style.height = size.height + "px";
    this.zoomTo(this.zoom ? this.zoom.scale : 1);
  };

  /** Zooms to `scale` of the fitted size (1 to ZOOM_LEVELS' last) around a point. */
  Viewer.prototype.zoomTo = function (scale, clientX, clientY) {
    const rect = this.stage.getBoundingClientRect();
    const px = clientX === undefined ? 0 : clientX - rect.left - rect.width / 2;
    const py = clientY === undefined ? 0 : clientY - rect.top - rect.height / 2;
    const clamped = Math.max(1, Math.min(scale, ZOOM_LEVELS[ZOOM_LEVELS.length - 1]));
    this.zoom = zoomAround(this.zoom, clamped, px, py);
    this.applyZoom();
  };

  Viewer.prototype.toggleZoom = function (clientX, clientY) {
    this.zoomTo(this.zoom.scale > 1 ? 1 : ZOOM_LEVELS[1], clientX, clientY);
  };

  /** The + and − buttons and keys: the next zoom level in, or out. */
  Viewer.prototype.zoomStep = function (direction) {
    this.zoomTo(nextZoomLevel(this.zoom.scale, direction));
  };

  Viewer.prototype.panBy = function (dx, dy) {
    this.zoom.x += dx;
    this.zoom.y += dy;
    this.applyZoom();
  };

  Viewer.prototype.applyZoom = function () {
    const z = this.zoom;
    z.x = clampPan(z.x, z.scale, this.shown.width, this.stage.clientWidth);
    z.y = clampPan(z.y, z.scale, this.shown.height, this.stage.clientHeight);
    this.zoomer.style.transform = z.scale === 1 ? "" : "translate(" + z.x + "px," + z.y + "px) scale(" + z.scale + ")";
    this.lightbox.classList.toggle("is-zoomed", z.scale > 1);
    this.lightbox.querySelector(".lb-in").setAttribute("aria-disabled", String(z.scale >= ZOOM_LEVELS[ZOOM_LEVELS.length - 1]));
    this.lightbox.querySelector(".lb-out").setAttribute("aria-disabled", String(z.scale <= 1));
    if (this.state === "open" || this.state === "zoomed") this.setState(z.scale > 1 ? "zoomed" : "open");
    // The browser picks the image for the size shown: zoomed in, the largest.
    const sizes = Math.ceil(this.shown.width * z.scale) + "px";
    if (this.image.getAttribute("sizes") !== sizes) {
      this.image.setAttribute("sizes", sizes);
      const sources = this.lightbox.querySelectorAll(".lb-zoom source");
      for (let s = 0; s < sources.length; s++) sources[s].setAttribute("sizes", sizes);
    }
  };

  /** Loads the neighbours' images at the size they will be shown, once this one is in. */
  Viewer.prototype.preload = function () {
    for (let d = -1; d <= 1; d += 2) {
      const index = this.current + d;
      const detail = index >= 0 && index < this.model.count ? this.detailOf(index) : null;
      if (!detail) continue;
      const item = resolveItem(this.model, index, detail, this.prefix);
      const img = document.createElement("img");
      const picture = pictureWith(this.model, img);
      bindSources(picture.querySelectorAll("source"), item, "images", this.image.getAttribute("sizes"));
      img.setAttribute("sizes", this.image.getAttribute("sizes"));
      img.setAttribute("srcset", srcsetOfImages(item.images));
      img.setAttribute("src", item.images[item.images.length - 1].url);
    }
  };

  // ---------------------------------------------------------------- thumbnail strip

  /** A strip cell's width (px): a 60 px thumbnail and a 4 px gap. */
  const THUMB = 64;

  /** The thumbnail strip under the photo (lightbox_thumbnails): a cell per photo of the album,
   *  virtualized like the wall: only the cells within its width and a quarter either side
   *  exist, from a pool. Only the current photo's is in the Tab order (the arrow keys move on,
   *  and the focus with them); a click or Enter on another moves there. */
  Viewer.prototype.buildStrip = function (box) {
    const self = this;
    const strip = document.createElement("div");
    strip.className = "lb-strip";
    strip.setAttribute("role", "group");
    strip.setAttribute("aria-label", say("viewer_thumbnails"));
    const track = document.createElement("div");
    track.className = "lb-track";
    track.style.width = this.model.count * THUMB + "px";
    strip.appendChild(track);
    box.insertBefore(strip, box.querySelector(".lb-caption"));
    this.strip = strip;
    this.track = track;
    this.thumbs = new Recycler({
      create: function () {
        const button = document.createElement("button");
        button.type = "button";
        button.className = "lb-thumb";
        const img = document.createElement("img");
        img.alt = "";  // the button is named
        img.decoding = "async";
        button.appendChild(img);
        return button;
      },
      bind: function (node, index) { self.bindThumb(node, index); },
      unbind: function (node) { node.firstChild.removeAttribute("src"); node.remove(); },
    }, 32);
    strip.addEventListener("scroll", function () { self.updateStrip(false); }, { passive: true });
    track.addEventListener("click", function (event) {
      const thumb = event.target.closest(".lb-thumb");
      if (thumb) self.step(Number(thumb.getAttribute("data-index")) - self.current);
    });
  };

  Viewer.prototype.bindThumb = function (node, index) {
    const self = this, detail = this.detailOf(index), img = node.firstChild;
    node.setAttribute("data-index", String(index));
    // From the strip's start: its right edge right to left (the first photo at the right).
    node.style.insetInlineStart = index * THUMB + "px";
    if (!node.parentNode) insertInOrder(this.track, node, index);
    this.markThumb(node, index);
    if (!detail) {
      // Its chunk is on the way: named by its number until then.
      img.removeAttribute("src");
      node.setAttribute("aria-label", say("viewer_thumb", { position: index + 1 }));
      this.loadChunk(chunkOf(this.model, index)).then(function () {
        if (self.thumbs.visible.get(index) === node) self.bindThumb(node, index);
      }, function () {});
      return;
    }
    const item = resolveItem(this.model, index, detail, this.prefix);
    node.style.background = item.color || "";
    node.setAttribute("aria-label", say(item.alt ? "viewer_thumb_titled" : "viewer_thumb", { position: index + 1, alt: item.alt }));
    img.src = item.thumbnails[0].url;
  };

  /** The current photo's cell is marked (aria-current) and is the strip's one Tab stop. */
  Viewer.prototype.markThumb = function (node, index) {
    const current = index === this.current;
    if (current) node.setAttribute("aria-current", "true"); else node.removeAttribute("aria-current");
    node.tabIndex = current ? 0 : -1;
  };

  /** Makes the cells near the strip's scroll position exist (`centre`: first scrolls the
   *  current photo's to the middle), and marks the current one. */
  Viewer.prototype.updateStrip = function (centre) {
    const strip = this.strip, self = this;
    if (!strip || this.current < 0) return;
    const width = strip.clientWidth;
    // Right to left, scrollLeft runs from 0 (the strip's start, at the right) down, negative.
    const sign = isRightToLeft() ? -1 : 1;
    if (centre) strip.scrollLeft = sign * (this.current * THUMB + THUMB / 2 - width / 2);
    const left = sign * strip.scrollLeft;
    // The strip's width and a quarter of it either side.
    const first = Math.max(0, Math.floor((left - width / 4) / THUMB));
    const last = Math.min(this.model.count - 1, Math.floor((left + 1.25 * width) / THUMB));
    const indices = [];
    for (let i = first; i <= last; i++) indices.push(i);
    const focused = document.activeElement;
    this.thumbs.update(withKept(indices, focused && focused.parentNode === this.track ? Number(focused.getAttribute("data-index")) : -1));
    this.thumbs.visible.forEach(function (node, index) { self.markThumb(node, index); });
  };

  /** Moves by `delta` photos (clamped to the album's ends when `clamp`). */
  Viewer.prototype.step = function (delta, clamp) {
    if (this.current < 0 || this.state === "closing") return;
    let next = this.current + delta;
    if (clamp) next = Math.max(0, Math.min(this.model.count - 1, next));
    if (next >= 0 && next < this.model.count && next !== this.current) this.open(next, false);
  };

  Viewer.prototype.playing = function () {
    return !!this.timer;
  };

  /** The slideshow: the next photo every `data-slideshow` seconds, until the last. */
  Viewer.prototype.play = function () {
    const self = this;
    this.pause();
    if (this.current < this.model.count - 1) this.timer = setTimeout(function () { self.step(1); }, this.interval * 1000);
    this.lightbox.querySelector(".lb-play").setAttribute("aria-pressed", String(!!this.timer));
  };

  Viewer.prototype.pause = function () {
    clearTimeout(this.timer);
    this.timer = 0;
    this.lightbox.querySelector(".lb-play").setAttribute("aria-pressed", "false");
  };

  /** Closes; `viaHistory` goes Back when the lightbox pushed an entry. Focus goes to the tile. */
  Viewer.prototype.close = function (viaHistory) {
    if (!this.lightbox || this.current < 0) return;
    this.ticket++;
    this.pause();
    if (viaHistory && history.state && typeof history.state.cascade === "number") {
      // popstate closes it; until then nothing may move it, and a second Escape does nothing.
      if (this.state !== "closing") history.back();
      this.setState("closing");
      return;
    }
    this.setState("closed");
    document.title = this.pageTitle;
    if (this.video) { this.video.pause(); this.video.removeAttribute("src"); this.video.load(); this.video.hidden = true; }
    this.stopLive();
    if (document.fullscreenElement) document.exitFullscreen();
    const index = this.current;
    const box = this.lightbox, self = this;
    this.current = -1;
    document.documentElement.classList.remove("has-lightbox");
    this.setInert(false);
    this.focusTile(index);
    history.scrollRestoration = "auto";
    // The photo goes back into its tile (now on the screen) as the backdrop fades; then hidden.
    const to = this.tileRect(index);
    box.classList.add("is-leaving");
    this.glide(this.zoomer.style.transform, to ? flyTransform(to, this.zoomer.getBoundingClientRect()) : "", 0, function () {
      box.hidden = true;
      box.classList.remove("is-leaving");
      self.zoomer.style.transform = "";
      clearPicture(self.image, box.querySelectorAll(".lb-zoom source"));
    });
  };

  /** Brings tile `index` into view (from the frames, not by measuring) and focuses it. */
  Viewer.prototype.focusTile = function (index) {
    if (this.slice) {
      // A photo moved to off this page: its nearest tile here has the focus, never <body>.
      const tiles = this.wall.querySelectorAll(".tile");
      const tile = this.wall.querySelector('.tile[data-index="' + index + '"]') ||
        (tiles.length ? tiles[index < Number(tiles[0].getAttribute("data-index")) ? 0 : tiles.length - 1] : null);
      if (tile) { tile.focus({ preventScroll: true }); tile.scrollIntoView({ block: "nearest" }); }
      return;
    }
    // The page's scrollbar came back with the lightbox gone: the wall may be narrower again.
    this.measureWall();
    const b = breakpointIndex(this.model, this.width);
    const frame = frameOf(this.model, b, this.width, index);
    const seen = contentOffset(this.mapping, window.scrollY - this.wallTop);
    let scroll = window.scrollY;
    if (frame.y < seen || frame.y + frame.height > seen + window.innerHeight) {
      scroll = Math.max(0, Math.round(this.wallTop + wallOffset(this.mapping, frame.y - window.innerHeight / 3)));
      window.scrollTo(0, scroll);
    }
    // The scroll may land after this call: lay out for where it is going.
    this.update(scroll);
    const node = this.recycler.visible.get(index);
    if (node) node.focus({ preventScroll: true });
  };

  const api = {
    fitSize: fitSize, clampPan: clampPan, zoomAround: zoomAround, swipeAction: swipeAction, releaseSpeed: releaseSpeed, nextZoomLevel: nextZoomLevel,
    photoStatus: photoStatus, trapTarget: trapTarget, cameraLine: cameraLine, creditLine: creditLine, lightboxTitle: lightboxTitle,
  };
  if (typeof module === "object" && module.exports) module.exports = api;
  else Object.assign(base, api);
})(typeof window !== "undefined" ? window : globalThis);
