// Sealing a game's secret parts with a passphrase, by Web Crypto (called from the Python UI).
// A sealed part is base64url of: format byte (1) | PBKDF2 iterations (4 bytes, big-endian) |
// salt (16) | IV (12) | AES-GCM-256 ciphertext with its tag. The key comes from the passphrase by
// PBKDF2-SHA-256 with that salt and that many iterations; the part's name ("gm" or a power's id) is
// the additional data, so a part cannot pass for another one. The plaintext is whatever bytes the
// caller gives (the Python UI deflates the JSON first). No game logic here: bytes in, bytes out.
"use strict";

(function () {
  const FORMAT = 1;
  const HEADER = 1 + 4 + 16 + 12;
  //: measured in headless Chromium on the project's machine: see README ("Cluster games")
  const ITERATIONS = 600000;
  // The iteration counts a part may ask for: this Adjutant seals with ITERATIONS; a hostile link may not
  // make each unlock attempt cost seconds (5,000,000 took about 7 s), nor a weak count pass as a seal.
  const MIN_ITERATIONS = 100000;
  const MAX_ITERATIONS = 2 * ITERATIONS;
  const encoder = new TextEncoder();

  const { toB64url, fromB64url } = window.adjutantBytes; // web/bytes.js, loaded first

  // A key for one part: derived once from the passphrase and a fresh salt, then used for every seal
  // of that part while the page is open (each seal with a fresh IV), so re-sealing after each
  // adjudication costs no key derivation. Returned as an opaque handle {salt, iterations, key}.
  async function deriveKey(passphrase, salt, iterations) {
    const material = await crypto.subtle.importKey("raw", encoder.encode(passphrase), "PBKDF2", false, ["deriveKey"]);
    return crypto.subtle.deriveKey(
      { name: "PBKDF2", hash: "SHA-256", salt: salt, iterations: iterations },
      material,
      { name: "AES-GCM", length: 256 },
      false,
      ["encrypt", "decrypt"]
    );
  }

  async function newKey(passphrase, iterations) {
    const salt = crypto.getRandomValues(new Uint8Array(16));
    const count = iterations || ITERATIONS;
    return { salt: salt, iterations: count, key: await deriveKey(String(passphrase), salt, count) };
  }

  async function seal(handle, name, plaintext) {
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const data = new Uint8Array(plaintext);
    const sealed = new Uint8Array(
      await crypto.subtle.encrypt({ name: "AES-GCM", iv: iv, additionalData: encoder.encode(String(name)) }, handle.key, data)
    );
    const out = new Uint8Array(HEADER + sealed.length);
    out[0] = FORMAT;
    new DataView(out.buffer).setUint32(1, handle.iterations);
    out.set(handle.salt, 5);
    out.set(iv, 21);
    out.set(sealed, HEADER);
    return toB64url(out);
  }

  // Opens one part: resolves to {plaintext: Uint8Array, handle} (the handle re-seals the part with
  // the same passphrase), or to null when the passphrase does not open it. Rejects, with a message
  // naming what is wrong, only when the part is not a sealed part at all.
  async function unseal(passphrase, name, text) {
    let bytes;
    try {
      bytes = fromB64url(text);
    } catch (_) {
      throw new Error("a sealed part is not base64url");
    }
    if (bytes.length < HEADER + 16) throw new Error("a sealed part is cut short");
    if (bytes[0] !== FORMAT) throw new Error("a sealed part has a format this Adjutant does not read (" + bytes[0] + ")");
    const iterations = new DataView(bytes.buffer).getUint32(1);
    if (iterations < MIN_ITERATIONS || iterations > MAX_ITERATIONS) {
      throw new Error("a sealed part asks for " + iterations + " key iterations; Adjutant accepts " +
        MIN_ITERATIONS + " to " + MAX_ITERATIONS);
    }
    const salt = bytes.slice(5, 21);
    const handle = { salt: salt, iterations: iterations, key: await deriveKey(String(passphrase), salt, iterations) };
    try {
      const plain = await crypto.subtle.decrypt(
        { name: "AES-GCM", iv: bytes.slice(21, HEADER), additionalData: encoder.encode(String(name)) },
        handle.key,
        bytes.slice(HEADER)
      );
      return { plaintext: new Uint8Array(plain), handle: handle };
    } catch (_) {
      return null; // the tag does not match: another passphrase (or a part altered on the way)
    }
  }

  // Tries the passphrase on every part at once (PBKDF2 runs off the main thread); resolves to
  // {name, plaintext, handle} for the part it opens, or null.
  async function unsealAny(passphrase, parts) {
    const names = Object.keys(parts);
    const opened = await Promise.all(names.map(function (name) {
      return unseal(passphrase, name, parts[name]);
    }));
    for (let i = 0; i < names.length; i++) {
      if (opened[i]) return { name: names[i], plaintext: opened[i].plaintext, handle: opened[i].handle };
    }
    return null;
  }

  // How long one key derivation takes here (for the README's figure and the benchmark).
  async function timeDerivation(iterations) {
    const start = performance.now();
    await deriveKey("a passphrase to time", crypto.getRandomValues(new Uint8Array(16)), iterations || ITERATIONS);
    return performance.now() - start;
  }

  window.adjutantSeal = {
    ITERATIONS: ITERATIONS,
    MIN_ITERATIONS: MIN_ITERATIONS,
    MAX_ITERATIONS: MAX_ITERATIONS,
    newKey: newKey,
    seal: seal,
    unseal: unseal,
    unsealAny: unsealAny,
    timeDerivation: timeDerivation,
    randomSeed: function () {
      const words = crypto.getRandomValues(new Uint32Array(2));
      return words[0] * 0x200000 + (words[1] >>> 11); // 53 random bits: exact in a JavaScript number
    },
  };
})();
