// Adjutant's service worker: the whole site, precached on the first visit, served with the network off.
//
// build.py writes this file into the site with the precache manifest filled in (FILES: each file's
// path under the site and the SHA-256 of its content; VERSION: a hash of that list). A new build
// is a new sw.js, which the browser notices on the next visit; the new worker downloads the new
// build into a cache of its own, checking every file against its hash, so a half-deployed server
// never yields a mix of old and new files. It then waits until the page asks it to take over
// (the page's "A new version is ready" notice), and only then deletes the old build's cache.
"use strict";

const FILES = /*FILES*/ {};
const VERSION = "/*VERSION*/";
const CACHE = "adjutant-" + VERSION;
const PREFIX = "adjutant-";
// The page's unpacked copy of this build's Python snapshot (build.py's SNAPSHOT_CACHE_PREFIX and the
// first 16 hex digits of the gzip's SHA-256), which the page's first visit may have written before this
// worker was installed: kept with the build, deleted with it.
const SNAPSHOT_CACHE = PREFIX + "snapshot-" + (FILES["runtime/pyodide/python-snapshot.bin.gz"] || "").slice(0, 16);

function urlOf(path) {
  return new URL(path, self.registration.scope).href;
}

function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

// One file of the build, as the manifest says it is: the browser's HTTP cache is tried first (the
// page fetched most files a moment ago), then the server itself; anything else fails the install.
async function fetchChecked(path) {
  for (const mode of ["default", "reload"]) {
    const response = await fetch(urlOf(path), { cache: mode, credentials: "same-origin" });
    if (!response.ok) throw new Error(path + ": HTTP " + response.status);
    const body = await response.arrayBuffer();
    if (hex(await crypto.subtle.digest("SHA-256", body)) === FILES[path]) {
      const type = response.headers.get("Content-Type");
      return new Response(body, { status: 200, headers: type ? { "Content-Type": type } : {} });
    }
  }
  throw new Error(path + " on the server is not the file this build lists (a deployment in progress?)");
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      const present = new Set((await cache.keys()).map((request) => request.url));
      for (const path of Object.keys(FILES)) {
        if (!present.has(urlOf(path))) await cache.put(urlOf(path), await fetchChecked(path));
      }
    })()
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX) && name !== CACHE && name !== SNAPSHOT_CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })()
  );
});

// The page's notice asks the waiting worker to take over; the page reloads when it has.
self.addEventListener("message", (event) => {
  if (event.data === "adjutant:activate") self.skipWaiting();
});

// The site's own files come from the cache (the query strings that version some URLs are ignored:
// the cache holds exactly one build); anything else goes to the network as usual.
self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const scope = new URL(self.registration.scope);
  const url = new URL(request.url);
  if (url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return;
  const path = url.pathname.slice(scope.pathname.length) || "index.html";
  if (!Object.prototype.hasOwnProperty.call(FILES, path)) return;
  event.respondWith(
    caches
      .open(CACHE)
      .then((cache) => cache.match(urlOf(path)))
      .then((cached) => cached || fetch(request))
  );
});
