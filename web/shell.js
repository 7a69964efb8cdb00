// Adjutant's page shell: everything that happens before Python is ready, and nothing after.
// - from file:// it explains how to serve the site (Chromium loads no module scripts there);
// - it paints the map of the game about to be opened (the variant is named in the saved game or the
//   link) as soon as the SVG arrives, so the board shows while Pyodide starts;
// - it shows PyScript's progress until the Python UI (py/adjutant_ui) takes over.
// Game logic lives in Python; this file never reads a game beyond its variant's id.
"use strict";

(function () {
  const shell = (window.adjutantShell = {
    mapVariant: null,
    mapPromise: null,
    marks: {},
  });

  function mark(name) {
    shell.marks[name] = performance.now();
    try {
      performance.mark("adjutant:" + name);
    } catch (_) {
      // older browsers: the marks object above is enough
    }
  }
  mark("shell");

  function bootText(text) {
    const element = document.getElementById("boot-text");
    if (element) element.textContent = text;
  }

  // The variant to paint first: named by the link (#v=<id>:… is not parsed here: the link's variant
  // comes in a small readable prefix the UI writes) or by the autosaved game, else standard.
  function firstVariant() {
    const match = /^#([a-z0-9_]+)[.~]/.exec(location.hash);
    if (match) return match[1];
    try {
      const saved = localStorage.getItem("adjutant.variant");
      if (saved && /^[a-z0-9_]+$/.test(saved)) return saved;
    } catch (_) {
      // storage may be disabled; fall through
    }
    return "standard";
  }

  // Fetch maps/<id>.svg (built by build.py, same origin) and put it into #map.
  shell.loadMap = function (variant) {
    if (shell.mapVariant === variant && shell.mapPromise) return shell.mapPromise;
    shell.mapVariant = variant;
    shell.mapPromise = fetch("maps/" + encodeURIComponent(variant) + ".svg")
      .then(function (response) {
        if (!response.ok) throw new Error("map " + variant + ": HTTP " + response.status);
        return response.text();
      })
      .then(function (text) {
        const parsed = new DOMParser().parseFromString(text, "image/svg+xml");
        const svg = parsed.documentElement;
        if (svg.nodeName !== "svg") throw new Error("map " + variant + " is not an SVG");
        const holder = document.getElementById("map");
        holder.replaceChildren(document.importNode(svg, true));
        holder.dataset.variant = variant;
        if (!shell.marks.mapVisible) {
          mark("mapVisible");
          document.documentElement.dataset.mapVisible = "true";
        }
        return holder.firstElementChild;
      });
    return shell.mapPromise;
  };

  if (location.protocol === "file:") {
    document.addEventListener("DOMContentLoaded", function () {
      const boot = document.getElementById("boot");
      boot.classList.add("boot-file");
      bootText(
        "Adjutant must be served over http: browsers do not run its Python from a file opened " +
          "from disk. In the folder that holds this page, run  python3 -m http.server 8000  " +
          "(or, in the source tree,  python build.py --serve) and open http://127.0.0.1:8000/"
      );
      const progress = document.getElementById("boot-progress");
      if (progress) progress.hidden = true;
    });
    return;
  }

  addEventListener("py:progress", function (event) {
    if (typeof event.detail === "string") bootText("Starting Python: " + event.detail + "…");
  });

  document.addEventListener("DOMContentLoaded", function () {
    mark("domReady");
    bootText("Loading the map…");
    shell.loadMap(firstVariant())
      .then(function () {
        if (!shell.marks.pythonReady) bootText("Starting Python…");
      })
      .catch(function (error) {
        bootText("The map could not be loaded (" + error.message + "); starting Python…");
      });
  });

  // Called by the Python UI once orders can be entered.
  shell.pythonReady = function () {
    mark("pythonReady");
    document.documentElement.dataset.pythonReady = "true";
    const boot = document.getElementById("boot");
    if (boot) boot.hidden = true;
  };

  // Shown if Python fails to start, so the page never sits on "Loading" for ever.
  shell.fatal = function (text) {
    const boot = document.getElementById("boot");
    if (boot) {
      boot.hidden = false;
      boot.classList.add("boot-error");
    }
    bootText(text);
    const progress = document.getElementById("boot-progress");
    if (progress) progress.hidden = true;
  };
  addEventListener("error", function (event) {
    if (!shell.marks.pythonReady && event && event.message && /Python|pyodide|PyScript/i.test(event.message)) {
      shell.fatal("Python could not start: " + event.message);
    }
  });
})();
