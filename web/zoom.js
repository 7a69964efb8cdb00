// Zoom and pan of the map by its SVG viewBox (the drawing stays vector: text stays crisp at any zoom).
// Wheel or pinch zooms about the pointer, a drag pans, the buttons beside the map and the keys
// + - 0 and the arrows (with the map focused) do the same; a tap on a place drawn too small for a finger
// zooms in to it. The map's SVG is replaced when the variant
// changes: everything here reads the SVG in #map when it is used.
(function () {
  "use strict";
  const MAX_ZOOM = 8;
  const holder = document.getElementById("map");
  if (!holder) return;

  function svgOf() { return holder.querySelector("svg"); }

  function full(svg) {
    if (!svg.dataset.fullViewBox) {
      const box = svg.viewBox.baseVal;
      if (!box || !box.width) return null;
      svg.dataset.fullViewBox = [box.x, box.y, box.width, box.height].join(" ");
    }
    return svg.dataset.fullViewBox.split(" ").map(Number);
  }

  function current(svg) {
    const box = svg.viewBox.baseVal;
    return [box.x, box.y, box.width, box.height];
  }

  function set(svg, x, y, w, h) {
    const f = full(svg);
    if (!f) return;
    w = Math.min(f[2], Math.max(f[2] / MAX_ZOOM, w));
    h = w * f[3] / f[2];
    x = Math.min(f[0] + f[2] - w, Math.max(f[0], x));
    y = Math.min(f[1] + f[3] - h, Math.max(f[1], y));
    svg.setAttribute("viewBox", [x, y, w, h].map(function (n) { return n.toFixed(1); }).join(" "));
    holder.dataset.zoom = (f[2] / w).toFixed(2);
  }

  // zoom by `factor` (> 1: closer) about the point (fx, fy), given as fractions of the shown box
  function zoom(factor, fx, fy) {
    const svg = svgOf();
    if (!svg || !full(svg)) return;
    const [x, y, w, h] = current(svg);
    const nw = w / factor, nh = h / factor;
    set(svg, x + (w - nw) * (fx === undefined ? 0.5 : fx), y + (h - nh) * (fy === undefined ? 0.5 : fy), nw, nh);
  }

  function pan(dx, dy) {  // by fractions of the shown box
    const svg = svgOf();
    if (!svg || !full(svg)) return;
    const [x, y, w, h] = current(svg);
    set(svg, x + dx * w, y + dy * h, w, h);
  }

  function reset() {
    const svg = svgOf();
    const f = svg && full(svg);
    if (f) set(svg, f[0], f[1], f[2], f[3]);
  }

  function fraction(event) {
    const rect = svgOf().getBoundingClientRect();
    return [(event.clientX - rect.left) / rect.width, (event.clientY - rect.top) / rect.height];
  }

  holder.addEventListener("wheel", function (event) {
    if (!svgOf()) return;
    event.preventDefault();
    const [fx, fy] = fraction(event);
    zoom(Math.pow(1.2, -event.deltaY / 100), fx, fy);
  }, { passive: false });

  // pointers: one drags (past a few pixels, so that a tap stays a click), two pinch
  const pointers = new Map();
  let dragged = false;
  let pinch = 0;
  holder.addEventListener("pointerdown", function (event) {
    pointers.set(event.pointerId, [event.clientX, event.clientY]);
    dragged = false;
    pinch = 0;
  });
  holder.addEventListener("pointermove", function (event) {
    const last = pointers.get(event.pointerId);
    const svg = svgOf();
    if (!last || !svg) return;
    const rect = svg.getBoundingClientRect();
    if (pointers.size === 2) {
      pointers.set(event.pointerId, [event.clientX, event.clientY]);
      const [a, b] = Array.from(pointers.values());
      const distance = Math.hypot(a[0] - b[0], a[1] - b[1]);
      if (pinch) {
        zoom(distance / pinch, ((a[0] + b[0]) / 2 - rect.left) / rect.width, ((a[1] + b[1]) / 2 - rect.top) / rect.height);
      }
      pinch = distance;
      dragged = true;
      return;
    }
    const dx = event.clientX - last[0], dy = event.clientY - last[1];
    if (!dragged && Math.hypot(dx, dy) < 6) return;
    dragged = true;
    pointers.set(event.pointerId, [event.clientX, event.clientY]);
    pan(-dx / rect.width, -dy / rect.height);
  });
  function up(event) { pointers.delete(event.pointerId); pinch = 0; }
  holder.addEventListener("pointerup", up);
  holder.addEventListener("pointercancel", up);
  function shortSide(element) {
    const rect = element ? element.getBoundingClientRect() : null;
    return rect ? Math.min(rect.width, rect.height) : 0;
  }

  // How large, for a finger, the part of the map a tap landed on is drawn: the larger of what was hit (a
  // unit, a coast, a centre's mark) and the province it acts on (a tap anywhere in a province acts on
  // its unit); 0 where the tap acts on nothing.
  function tapSide(target) {
    const svg = svgOf();
    const part = target && target.closest ? target.closest(".adj-unit, .coast[id], .province[id], [data-province]") : null;
    if (!svg || !part || !svg.contains(part)) return 0;
    const location = part.getAttribute("data-location") || part.getAttribute("data-province") || part.id;
    return Math.max(shortSide(part), shortSide(svg.getElementById(location.split("/")[0])));
  }

  // A drag or pinch is not a click on the place where it ended. A tap on a place drawn smaller than a
  // finger (TAP_TARGET CSS px its short side) zooms in about the tap instead, until it is that large: the
  // next tap on it chooses it.
  const TAP_TARGET = 24;
  holder.addEventListener("click", function (event) {
    if (dragged) { event.stopImmediatePropagation(); event.preventDefault(); dragged = false; return; }
    if (event.pointerType !== "touch") return;
    const svg = svgOf();
    const f = svg && full(svg);
    if (!f || current(svg)[2] <= f[2] / MAX_ZOOM + 0.5) return;
    const side = tapSide(event.target);
    if (side >= TAP_TARGET || side <= 0) return;
    event.stopImmediatePropagation();
    event.preventDefault();
    const [fx, fy] = fraction(event);
    zoom(Math.min(4, Math.max(1.5, 1.25 * TAP_TARGET / side)), fx, fy);
  }, true);

  holder.addEventListener("keydown", function (event) {
    const keys = { "+": [1.25], "=": [1.25], "-": [0.8] };
    if (keys[event.key]) { zoom(keys[event.key][0]); event.preventDefault(); return; }
    if (event.key === "0") { reset(); event.preventDefault(); return; }
    if (event.target !== holder) return;  // arrows on a unit or a place are the browser's
    const arrows = { ArrowLeft: [-0.1, 0], ArrowRight: [0.1, 0], ArrowUp: [0, -0.1], ArrowDown: [0, 0.1] };
    const step = arrows[event.key];
    if (step) { pan(step[0], step[1]); event.preventDefault(); }
  });

  // zoomed in, a unit or place that takes the keyboard's focus outside the part shown is brought to the middle
  holder.addEventListener("focusin", function (event) {
    const svg = svgOf();
    if (!svg || !svg.contains(event.target) || !event.target.matches(":focus-visible") || !full(svg)) return;
    const map = svg.getBoundingClientRect(), spot = event.target.getBoundingClientRect();
    if (spot.left >= map.left && spot.right <= map.right && spot.top >= map.top && spot.bottom <= map.bottom) return;
    pan((spot.left + spot.width / 2 - map.left) / map.width - 0.5, (spot.top + spot.height / 2 - map.top) / map.height - 0.5);
  });

  function button(id, action) {
    const element = document.getElementById(id);
    if (element) element.addEventListener("click", action);
  }
  button("zoom-in", function () { zoom(1.5); });
  button("zoom-out", function () { zoom(1 / 1.5); });
  button("zoom-reset", reset);
})();
