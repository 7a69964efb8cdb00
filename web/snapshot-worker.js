// Reads Python's start-up snapshot for the page (written by build.py as runtime/pyodide/adjutant-snapshot.js,
// each /*NAME*/ null below filled in), off its main thread. The
// page's shell starts it as the page loads; it begins at once, and sends the page the snapshot's bytes
// unpacked (transferred, not copied): from the Cache Storage cache CACHE (named after the gzip's hash)
// if a visit before kept them there, else fetched (FILE, gzipped) and unpacked. Bytes it unpacked it
// keeps for the next visit when the page says so (once Python started from them and the page is idle):
// it writes them into CACHE and deletes the copies of other builds (caches named PREFIX...).
"use strict";
const FILE = new URL(/*FILE*/ null, self.location.href).href;
const CACHE = /*CACHE*/ null;
const PREFIX = /*PREFIX*/ null;
const origin = performance.timeOrigin;

async function keptCopy() {
  try {
    if (!self.caches || !(await caches.has(CACHE))) return null;
    const response = await (await caches.open(CACHE)).match(FILE);
    return response ? await response.arrayBuffer() : null;
  } catch {
    return null;
  }
}

// The gzip fetched and unpacked: the bytes in one buffer, and the pieces they came in (for the copy, so
// that keeping one costs no second copy of the bytes before the page has them).
async function unpacked(marks) {
  if (typeof DecompressionStream !== "function") throw new Error("no DecompressionStream");
  const response = await fetch(FILE);
  if (!response.ok) throw new Error(FILE + ": HTTP " + response.status);
  marks.Fetched = performance.now();
  const reader = response.body.pipeThrough(new DecompressionStream("gzip")).getReader();
  const pieces = [];
  let size = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    pieces.push(read.value);
    size += read.value.byteLength;
  }
  const memory = new Uint8Array(size);
  let at = 0;
  for (const piece of pieces) {
    memory.set(piece, at);
    at += piece.byteLength;
  }
  marks.Unpacked = performance.now();
  return { memory: memory.buffer, pieces };
}

// A full disk or a refused quota only means the next visit unpacks the gzip again.
async function keep(pieces) {
  try {
    await (await caches.open(CACHE)).put(FILE, new Response(new Blob(pieces)));
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    return true;
  } catch {
    return false;
  }
}

(async () => {
  const marks = { Asked: performance.now() };
  let pieces = null;
  try {
    let memory = await keptCopy();
    if (memory) marks.Read = performance.now();
    else ({ memory, pieces } = await unpacked(marks));
    const keeping = Boolean(pieces && self.caches);
    if (keeping) {
      self.onmessage = async (event) => {
        const kept = event.data === "keep" && (await keep(pieces));
        self.postMessage({ kept, marks: kept ? { Kept: performance.now() } : {}, origin });
        self.close();
      };
    }
    self.postMessage({ memory, marks, origin, keeping }, [memory]);
    if (!keeping) self.close();
  } catch (error) {
    self.postMessage({ error: String(error), marks, origin });
    self.close();
  }
})();
