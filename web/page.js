// The page's DOM work that Python (py/adjutant_ui) calls in one call where a call per element or
// attribute from Python would cost milliseconds a render: window.adjutantPage.make, .makeTree, .fillResults,
// .mapStops and .showDrawn; .nextSlice, the browser's turn between two slices of the computer's thinking;
// and the pictures of the board (.rasterise and the rest). They live in a file of the site, not in JS
// source that Python evaluates, so that the page's Content-Security-Policy needs no 'unsafe-eval'
// (docs/security.md). Only createElement(NS), setAttribute, textContent and CSSOM: no markup is ever
// parsed here.
(function () {
  "use strict";
  const SVG_NS = "http://www.w3.org/2000/svg";
  // an attribute name with this prefix is a CSS property set through CSSOM (a `style` attribute would
  // need 'unsafe-inline' in style-src)
  const STYLE = "style:";

  // One SVG element `tag`: its attributes set (name, value, name, value, ...), its text if not null,
  // appended to `parent` if any; returns it. One call from Python per element (board.py: a phase's
  // results are some 250 elements).
  function make(parent, tag, text, ...attributes) {
    const element = document.createElementNS(SVG_NS, tag);
    for (let i = 0; i < attributes.length; i += 2) {
      const name = attributes[i];
      if (name.startsWith(STYLE)) element.style.setProperty(name.slice(STYLE.length), attributes[i + 1]);
      else element.setAttribute(name, attributes[i + 1]);
    }
    if (text !== null && text !== undefined) element.textContent = text;
    if (parent) parent.appendChild(element);
    return element;
  }

  // The SVG elements of `data`, JSON text of [tag, [[name, value], ...], text, [children]]
  // (adjutant.pictures.drawing.Node.as_data), each made as `make` makes one, appended to `parent` if any;
  // returns the outermost. One call from Python per drawing, however many elements it holds (a phase's
  // results on a nine-power map are hundreds: a call each costs more than building them).
  function makeTree(parent, data) {
    const build = function (into, [tag, attributes, text, children]) {
      const element = make(into, tag, text, ...attributes.flat());
      for (const child of children) build(element, child);
      return element;
    };
    return build(parent, JSON.parse(data));
  }

  // The results list (index.html #results-summary) filled with one item per [text, key] of `data` (JSON
  // text, adjutant_ui.session results_entries): its text, and with a key its data-result and a place in
  // the Tab order (app.py _results_list). One call, and one change to the page, for a phase's hundred lines.
  function fillResults(listing, data) {
    const items = JSON.parse(data).map(([text, key]) => {
      const item = document.createElement("li");
      item.textContent = text;
      if (key) {
        item.dataset.result = key;
        item.tabIndex = 0;
      }
      return item;
    });
    listing.replaceChildren(...items);
  }

  // The map's buttons in list order (Home and End go to its ends; the arrow keys choose by the map,
  // adjutant_ui.compass), and the one that takes Tab (py/adjutant_ui/keyboard.py).
  // With no unit selected, the units that can be ordered by power (`powers`' order) then accessible
  // name, then the highlighted places; with one selected, its highlighted places by name, then the unit
  // itself while it may move (`moving`). Each gets tabindex -1 but the one at `focus` (else, with no unit
  // selected, the first of the `chosen` power's; else the first), which gets 0. Returns [that button or
  // null, the buttons].
  function mapStops(holder, selected, moving, powers, focus, chosen) {
    const label = e => e.getAttribute("aria-label") || "";
    const byLabel = (a, b) => (label(a) < label(b) ? -1 : label(a) > label(b) ? 1 : 0);
    const rank = e => { const i = powers.indexOf(e.getAttribute("data-power")); return i < 0 ? powers.length : i; };
    const places = [...holder.querySelectorAll(".adj-target[tabindex]")].sort(byLabel);
    let stops;
    if (selected) {
      const unit = holder.querySelector(".adj-unit.selected.orderable");
      stops = places.concat(unit && moving ? [unit] : []);
    } else {
      const units = [...holder.querySelectorAll(".adj-unit.orderable")];
      stops = units.sort((a, b) => rank(a) - rank(b) || byLabel(a, b)).concat(places);
    }
    for (const e of holder.querySelectorAll(".adj-unit.orderable[tabindex], .adj-target[tabindex]")) {
      e.setAttribute("tabindex", "-1");
    }
    const at = e => e.getAttribute("data-location") || e.id;
    let index = focus ? stops.findIndex(e => at(e) === focus) : -1;
    if (index < 0 && !selected) index = stops.findIndex(e => chosen && e.getAttribute("data-power") === chosen);
    if (index < 0) index = 0;
    if (stops.length) stops[index].setAttribute("tabindex", "0");
    return [stops.length ? stops[index] : null, stops];
  }

  // The map's key to a variant's own marks (index.html #map-legend): each item with a data-marks selector
  // is shown exactly when the map `svg` draws a mark it matches, the others hidden; whether any is shown
  // (board.py show_drawn: one call, not one per item, at every drawing of the board).
  function showDrawn(key, svg) {
    let any = false;
    for (const item of key.querySelectorAll(".legend-item[data-marks]")) {
      const drawn = svg.querySelector(item.dataset.marks) !== null;
      item.hidden = !drawn;
      any = any || drawn;
    }
    return any;
  }

  // Resolves once the browser has had its turn (input, painting): a task of its own, not a microtask.
  // The computer players think a slice at a time and await this between slices
  // (py/adjutant_ui/computer.py think), so that no task of the page runs long.
  function nextSlice() {
    if (globalThis.scheduler && typeof scheduler.yield === "function") return scheduler.yield();
    return new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => resolve();
      channel.port2.postMessage(null);
    });
  }


  // Pictures of the board (py/adjutant_ui/pictures.py): the SVG text Python drew, as a file, or drawn on a
  // canvas `width` pixels wide as a PNG (in the browser, offline: the SVG is an image from a data: URL,
  // which the page's policy allows, and holds everything it shows); saved by a link's download, or
  // handed to the share sheet.
  function svgBlob(text) {
    return new Blob([text], { type: "image/svg+xml" });
  }

  function rasterise(text, width) {
    return new Promise(function (resolve, reject) {
      const image = new Image();
      image.onload = function () {
        const height = Math.round((width * image.naturalHeight) / Math.max(1, image.naturalWidth));
        const canvas = document.createElement("canvas");
        canvas.width = width;
        canvas.height = height;
        const context = canvas.getContext("2d");
        context.fillStyle = "#ffffff";
        context.fillRect(0, 0, width, height);
        context.drawImage(image, 0, 0, width, height);
        canvas.toBlob(function (blob) {
          if (blob) resolve(blob);
          else reject(new Error("the browser could not make the PNG (too large for its canvas?)"));
        }, "image/png");
      };
      image.onerror = function () {
        reject(new Error("the browser could not draw the picture"));
      };
      image.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(text);
    });
  }

  function saveBlob(blob, name) {
    const url = URL.createObjectURL(blob);
    const link = document.createElement("a");
    link.href = url;
    link.download = name;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(function () {
      URL.revokeObjectURL(url);
    }, 1000);
  }

  function canShareFiles() {
    try {
      const probe = new File([""], "board.png", { type: "image/png" });
      return typeof navigator.canShare === "function" && navigator.canShare({ files: [probe] });
    } catch (_) {
      return false;
    }
  }

  function shareFile(blob, name, title) {
    const file = new File([blob], name, { type: blob.type });
    return navigator.share({ files: [file], title: title });
  }

  window.adjutantPage = Object.freeze({
    make, makeTree, fillResults, mapStops, showDrawn, nextSlice, svgBlob, rasterise, saveBlob, canShareFiles, shareFile,
  });
})();
