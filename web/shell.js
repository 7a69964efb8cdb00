// Adjutant's page shell: everything that happens before Python is ready, and nothing after.
// - from file:// it explains how to serve the site (Chromium loads no module scripts there);
// - it paints the map of the game about to be opened (the variant is named in the saved game or the
//   link) as soon as the SVG arrives, so the board shows while Pyodide starts;
// - it paints the autosaved game's units and centres from the plain snapshot the Python UI writes
//   beside the autosave (localStorage "adjutant.snapshot": the units as Python drew them, as plain data,
//   adjutant.drawing, and the centres, colours, phase title), drawing exactly that, never deciding anything; a reloaded tab reopens its own game (its id in
//   sessionStorage "adjutant.tab-game", its save in "adjutant.game.<id>": py/adjutant_ui/saves.py), and
//   the snapshot is painted only when that game is the autosaved one;
// - it starts the worker that reads Python's start-up snapshot, at once, and Python's start (Pyodide's
//   WebAssembly compiled, the snapshot restored) as soon as the map is in the page, without waiting for
//   PyScript (below; docs/performance-startup.md, "The start-up order");
// - it shows PyScript's progress until the Python UI (py/adjutant_ui) takes over;
// - once Python is ready it registers the service worker (sw.js, written by build.py) that keeps the
//   site for offline use, and says when a new version of the site is ready (docs/offline.md).
// Game logic lives in Python; this file never reads a game link or file.
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

  // Python's start-up snapshot: its worker (written by build.py where the build made a snapshot; the
  // build puts its path here) starts reading it now, while PyScript and Pyodide load. The interpreter
  // module (runtime/pyodide/adjutant-pyodide.mjs) takes the bytes from shell.snapshot.memory when
  // Pyodide restores them, and sets shell.snapshot.restored once Python started from them; then, once
  // Python is ready and the page idle, the worker is told to keep the bytes it unpacked for the next visit.
  const SNAPSHOT_WORKER = /*SNAPSHOT_WORKER*/ null;
  function readSnapshot() {
    if (!SNAPSHOT_WORKER || location.protocol === "file:" || typeof Worker !== "function") return;
    let worker;
    try {
      worker = new Worker(SNAPSHOT_WORKER);
    } catch (_) {
      return; // no snapshot: the interpreter module starts Python without it
    }
    const snapshot = (shell.snapshot = { worker: worker, restored: false, keeping: false, kept: null });
    snapshot.memory = new Promise(function (resolve, reject) {
      worker.onmessage = function (event) {
        const data = event.data || {};
        // The worker's marks (its clock starts with it), moved onto the page's clock.
        const shift = data.origin - performance.timeOrigin;
        for (const [name, at] of Object.entries(data.marks || {})) {
          performance.mark("adjutant:snapshot" + name, { startTime: at + shift });
        }
        if (data.memory) {
          snapshot.keeping = Boolean(data.keeping);
          resolve(new Uint8Array(data.memory));
        } else if (data.error) {
          worker.terminate();
          reject(new Error(data.error));
        } else if ("kept" in data) {
          snapshot.kept = Boolean(data.kept);
        }
      };
      worker.onerror = function (event) {
        worker.terminate();
        reject(new Error("the snapshot's worker failed: " + event.message));
      };
    });
    // A failure is the interpreter module's to report (it then starts Python without the snapshot).
    snapshot.memory.catch(function () {});
  }
  readSnapshot();

  // Pyodide's WebAssembly module, fetched and compiled by the shell (the build puts its path here) as
  // Python's start begins (below), or when the interpreter module asks for it, whichever comes first;
  // the interpreter module instantiates it. Not a <link rel="preload">, which stops Chromium reusing the
  // compiled module. Null where it cannot be done here.
  const PYODIDE_WASM = /*PYODIDE_WASM*/ null;
  let wasm;
  shell.compileWasm = function () {
    if (wasm !== undefined) return wasm;
    wasm = null;
    const compiling = typeof WebAssembly === "object" && typeof WebAssembly.compileStreaming === "function";
    if (PYODIDE_WASM && location.protocol !== "file:" && compiling) {
      try {
        wasm = WebAssembly.compileStreaming(fetch(PYODIDE_WASM)).catch(function () {
          return null; // the interpreter module then lets Pyodide fetch and compile it itself
        });
      } catch (_) {
        wasm = null;
      }
    }
    return wasm;
  };

  // Python's start, begun by the shell as soon as the map is in the page (or could not be had), while
  // PyScript is still loading: the interpreter module's start() (it compiles the WebAssembly above,
  // restores the snapshot and writes the app's files), whose Pyodide PyScript is given when it asks (its
  // config names the same module). Should the module not load here, PyScript starts Python itself when
  // it comes to it. Not sooner: begun with the map's loading, it held the map up.
  const PYODIDE_LOADER = /*PYODIDE_LOADER*/ null;
  function startPython() {
    shell.compileWasm();
    if (!PYODIDE_LOADER || location.protocol === "file:") return;
    import(new URL(PYODIDE_LOADER, document.baseURI).href)
      .then(function (loader) {
        if (typeof loader.start === "function") loader.start();
      })
      .catch(function () {});
  }

  // Once Python is ready and the page idle: the snapshot's worker writes its copy (31 MB into Cache
  // Storage), which then competes with nothing of the start.
  function keepSnapshot() {
    const snapshot = shell.snapshot;
    if (!snapshot || !snapshot.keeping) return;
    if (!snapshot.restored) {
      snapshot.worker.terminate();
      return;
    }
    const keep = function () {
      snapshot.worker.postMessage("keep");
    };
    if (typeof requestIdleCallback === "function") requestIdleCallback(keep, { timeout: 2000 });
    else setTimeout(keep, 500);
  }

  function bootText(text) {
    const element = document.getElementById("boot-text");
    if (element) element.textContent = text;
  }

  // The variant to paint first: named by the link (which starts with the variant's id and a dot,
  // "#loeb9.…", before the part only Python reads), by this tab's own game or by the autosaved game,
  // else standard.
  function firstVariant() {
    const match = /^#(?:g=)?([a-z0-9_]{1,40})\./.exec(location.hash);
    if (match) return match[1];
    const mine = /^([a-z0-9_]{1,40})\./.exec(tabGame() || "");
    if (mine) return mine[1];
    try {
      const saved = localStorage.getItem("adjutant.variant");
      if (saved && /^[a-z0-9_]+$/.test(saved)) return saved;
    } catch (_) {
      // storage may be disabled; fall through
    }
    return "standard";
  }

  // the characters that set the direction of the text around them (adjutant.limits.BIDI_CONTROLS)
  const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
  const SVG_NS = "http://www.w3.org/2000/svg";
  const COLOUR = /^#[0-9a-fA-F]{3,8}$/;

  function stored(key) {
    try {
      return localStorage.getItem(key);
    } catch (_) {
      return null;
    }
  }

  // The link of the game this tab held before it was reloaded, if it was saved ("" if none).
  function tabGame() {
    let id = null;
    try {
      id = sessionStorage.getItem("adjutant.tab-game");
    } catch (_) {
      return "";
    }
    if (!id || !/^[a-z0-9]{1,40}$/.test(id)) return "";
    const slot = stored("adjutant.game." + id);
    if (!slot || slot.length > 8000000) return "";
    try {
      const data = JSON.parse(slot);
      return data && typeof data.link === "string" ? data.link : "";
    } catch (_) {
      return "";
    }
  }

  // The snapshot to paint, if the game about to open is the autosaved one (no link, or the link is
  // the autosave itself, and not another game this tab held): Python writes it with the autosave, so
  // the two always match.
  function snapshotToPaint(variant) {
    const fragment = location.hash.replace(/^#/, "") || tabGame();
    if (fragment && fragment !== stored("adjutant.autosave")) return null;
    let data;
    try {
      data = JSON.parse(stored("adjutant.snapshot") || "null");
    } catch (_) {
      return null;
    }
    if (!data || data.version !== 2 || data.variant !== variant || !Array.isArray(data.units)) return null;
    return data;
  }

  // Lookups in the snapshot's objects by names it also supplies: own properties only, so a name such
  // as "__proto__" or "constructor" finds nothing rather than something of Object's.
  function own(object, key) {
    return object && Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined;
  }

  // The elements and attributes a snapshot's drawing of the units may hold (adjutant.drawing writes
  // them): a stored snapshot is data, so anything else in it is refused, never put in the page.
  const DRAWN_TAGS = new Set(["g", "circle", "rect", "text", "title", "path", "line", "polygon", "polyline"]);
  const DRAWN_ATTRIBUTE = /^(class|x|y|cx|cy|r|rx|width|height|d|points|x1|y1|x2|y2|data-[a-z-]+)$/;
  const NUMBER = /^-?[0-9.]+$/;
  const GEOMETRY = /^(x|y|cx|cy|r|rx|width|height)$/;

  // The units as SVG elements, built from the plain data Python drew them as
  // (adjutant.drawing.Drawing.units_data: [tag, [[name, value], ...], text, [children]]), with
  // createElementNS, setAttribute and textContent only (no markup is parsed): only DRAWN_TAGS, the
  // attributes DRAWN_ATTRIBUTE allows and a fill or stroke that is a colour. Null if it holds anything else.
  function drawnUnits(data) {
    let count = 0;
    const build = function (node, depth) {
      if (!Array.isArray(node) || node.length !== 4 || depth > 4 || ++count > 20000) return null;
      const [tag, attributes, text, children] = node;
      if (!DRAWN_TAGS.has(tag) || !Array.isArray(attributes) || !Array.isArray(children)) return null;
      const element = document.createElementNS(SVG_NS, tag);
      for (const pair of attributes) {
        if (!Array.isArray(pair) || pair.length !== 2) return null;
        const [name, value] = pair.map(String);
        const colour = (name === "fill" || name === "stroke") && COLOUR.test(value);
        if (!colour && !DRAWN_ATTRIBUTE.test(name)) return null;
        if (GEOMETRY.test(name) && !NUMBER.test(value)) return null;
        element.setAttribute(name, value);
      }
      if (typeof text === "string") element.textContent = text;
      for (const child of children) {
        const made = build(child, depth + 1);
        if (!made) return null;
        element.appendChild(made);
      }
      return element;
    };
    return build(data, 0);
  }

  // Draw the snapshot into the overlay group the Python UI later redraws (the same drawing, so the same
  // look): centres filled with their owner's colour, and the units as Python drew them.
  function paintSnapshot(svg, data) {
    const colours = data.colours && typeof data.colours === "object" ? data.colours : {};
    const colour = function (power) {
      const value = own(colours, power);
      return typeof value === "string" && COLOUR.test(value) ? value : "#888888";
    };
    const centres = data.centres && typeof data.centres === "object" ? data.centres : {};
    for (const circle of svg.querySelectorAll("circle.sc[data-province]")) {
      const owner = own(centres, circle.getAttribute("data-province"));
      circle.style.fill = typeof owner === "string" ? colour(owner) : "#ffffff";
    }
    let overlay = svg.querySelector("#adj-overlay");
    if (!overlay) {
      overlay = document.createElementNS(SVG_NS, "g");
      overlay.setAttribute("id", "adj-overlay");
      svg.appendChild(overlay);
    }
    overlay.replaceChildren();
    const units = drawnUnits(data.units);
    if (units) overlay.appendChild(units);
    const label = document.getElementById("phase-label");
    // (read back from storage: text-direction controls are taken out, as the Python UI does)
    if (label && typeof data.title === "string") label.textContent = data.title.replace(BIDI_CONTROLS, "");
    mark("positionVisible");
    document.documentElement.dataset.positionVisible = "snapshot";
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
        shell.mapText = text; // the map as served, under every picture of the board (py/adjutant_ui/pictures.py)
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

  // A file dropped on the page is opened by the Python UI (a handler on the document); anywhere else,
  // or before Python is ready, the browser would leave the app to show the file: never do that.
  addEventListener("dragover", function (event) {
    event.preventDefault();
  });
  addEventListener("drop", function (event) {
    event.preventDefault();
  });

  addEventListener("py:progress", function (event) {
    if (typeof event.detail === "string") bootText("Starting Python: " + event.detail + "…");
  });

  document.addEventListener("DOMContentLoaded", function () {
    mark("domReady");
    bootText("Loading the map…");
    const variant = firstVariant();
    shell.loadMap(variant)
      .then(function (svg) {
        if (shell.marks.pythonReady) return;
        const snapshot = snapshotToPaint(variant);
        if (snapshot) {
          try {
            paintSnapshot(svg, snapshot);
          } catch (error) {
            // a damaged snapshot only costs the early paint: Python draws the position when ready
          }
        }
        bootText("Starting Python…");
      })
      .catch(function (error) {
        bootText("The map could not be loaded (" + error.message + "); starting Python…");
      })
      .then(startPython);
  });

  // The notice of a new build, downloaded whole by its service worker and waiting to take over: the
  // button hands over to it, and the page reloads (the game is in the link and the autosave).
  function offerUpdate(registration) {
    if (document.getElementById("update-notice")) return;
    const notice = document.createElement("div");
    notice.id = "update-notice";
    notice.className = "boot update-notice";
    notice.setAttribute("role", "status");
    const text = document.createElement("span");
    text.textContent = "A new version of Adjutant is ready.";
    const button = document.createElement("button");
    button.type = "button";
    button.id = "update-reload";
    button.textContent = "Reload";
    button.addEventListener("click", function () {
      if (registration.waiting) registration.waiting.postMessage("adjutant:activate");
      else location.reload();
    });
    notice.append(text, button);
    const header = document.querySelector("header");
    if (header) header.after(notice);
    else document.body.prepend(notice);
  }

  // Service workers run only in a secure context (HTTPS, or http://localhost and 127.0.0.1): on
  // plain HTTP elsewhere the site works online only. Registering after start-up keeps the first
  // visit's downloads for the page itself.
  function registerWorker() {
    if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
    const hadController = Boolean(navigator.serviceWorker.controller);
    navigator.serviceWorker.addEventListener("controllerchange", function () {
      // A worker that took over a page it did not serve is a new build the user asked for.
      if (hadController) location.reload();
    });
    navigator.serviceWorker
      .register("sw.js")
      .then(function (registration) {
        const watch = function (worker) {
          worker.addEventListener("statechange", function () {
            if (worker.state === "installed" && navigator.serviceWorker.controller) offerUpdate(registration);
          });
        };
        if (registration.waiting && navigator.serviceWorker.controller) offerUpdate(registration);
        if (registration.installing) watch(registration.installing);
        registration.addEventListener("updatefound", function () {
          if (registration.installing) watch(registration.installing);
        });
        document.documentElement.dataset.serviceWorker = "registered";
      })
      .catch(function () {
        // no offline copy (storage full or disabled): the site still works online
      });
  }

  // Called by the Python UI once it has drawn the position (the start's saving comes after, in a task
  // of its own), unless the snapshot showed it earlier.
  shell.positionDrawn = function () {
    if (!shell.marks.positionVisible) mark("positionVisible");
  };

  // Called by the Python UI once orders can be entered.
  shell.pythonReady = function () {
    shell.positionDrawn();
    mark("pythonReady");
    document.documentElement.dataset.pythonReady = "true";
    const boot = document.getElementById("boot");
    if (boot) boot.hidden = true;
    registerWorker();
    keepSnapshot();
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
