// Group games' encryption, by Web Crypto (called from the Python UI, py/adjutant_ui/group.py).
// The game master's key pair is ECDH P-256. A sealed orders code is: the clear header the caller
// gives | a fresh ephemeral public key (65 bytes, raw) | IV (12) | AES-GCM-256 ciphertext with its tag.
// Its key is HKDF-SHA-256 of the ECDH secret between the ephemeral key and the game master's, salted
// with the ephemeral public key; the additional data is whatever the caller binds (the header and the
// phase's digest: see py/adjutant/group_play/codes.py). The game master's private key is kept sealed with the
// game master's passphrase by web/seal.js (a sealed part named "group-gm": format 2 and the 32-byte
// scalar; a key sealed by an earlier Adjutant is the scalar alone). A Cluster game master's part is sealed
// with AES-GCM under a key only the game master holds, HKDF-SHA-256 of that scalar (sealPart, openPart):
// anyone can seal to the public key, so a part sealed that way (format 0x81, openOrders) proves nothing.
// No game logic here: bytes in, bytes out. Runs in a page (window.adjutantGroup) and in Node 20
// (globalThis.adjutantGroup).
"use strict";

(function (root) {
  const CURVE = { name: "ECDH", namedCurve: "P-256" };
  const INFO = new TextEncoder().encode("adjutant sealed orders 1");
  const PART = "group-gm";
  const KEY_BYTES = 65;
  const IV_BYTES = 12;
  const KEY_FORMAT = 2;
  const PART_INFO = new TextEncoder().encode("adjutant cluster gm part 2");
  // What each unlocked private key (a non-extractable CryptoKey) comes with, kept in this page only: the
  // key that seals the game master's part, whether its sealed form was an earlier Adjutant's, and then
  // the same scalar sealed again in the form of today (under the same passphrase).
  const held = new WeakMap();

  const { toB64url, fromB64url } = root.adjutantBytes; // web/bytes.js, loaded first

  // Whether this page can seal at all: Web Crypto exists only in secure contexts (HTTPS, localhost).
  function available() {
    return Boolean(root.crypto && root.crypto.subtle) && root.isSecureContext !== false;
  }

  async function aesKey(secretBits, salt) {
    const material = await crypto.subtle.importKey("raw", secretBits, "HKDF", false, ["deriveKey"]);
    return crypto.subtle.deriveKey(
      { name: "HKDF", hash: "SHA-256", salt: salt, info: INFO },
      material,
      { name: "AES-GCM", length: 256 },
      false,
      ["encrypt", "decrypt"]
    );
  }

  function privateJwk(publicRaw, d) {
    return {
      kty: "EC",
      crv: "P-256",
      x: toB64url(publicRaw.subarray(1, 33)),
      y: toB64url(publicRaw.subarray(33, 65)),
      d: toB64url(d),
      ext: false,
    };
  }

  async function importPrivate(publicRaw, d, legacy, upgraded) {
    const key = await crypto.subtle.importKey("jwk", privateJwk(publicRaw, d), CURVE, false, ["deriveBits"]);
    const material = await crypto.subtle.importKey("raw", d, "HKDF", false, ["deriveKey"]);
    const partKey = await crypto.subtle.deriveKey(
      { name: "HKDF", hash: "SHA-256", salt: publicRaw, info: PART_INFO },
      material,
      { name: "AES-GCM", length: 256 },
      false,
      ["encrypt", "decrypt"]
    );
    held.set(key, { partKey: partKey, legacy: Boolean(legacy), upgraded: upgraded || "" });
    return key;
  }

  function withFormat(d) {
    const out = new Uint8Array(1 + d.length);
    out[0] = KEY_FORMAT;
    out.set(d, 1);
    return out;
  }

  // A new game master's key pair: resolves to {publicKey: Uint8Array (raw, 65 bytes), sealedPrivate:
  // the private key's 32 bytes sealed with the passphrase (web/seal.js), privateKey: a CryptoKey}.
  async function newGame(passphrase, iterations) {
    const pair = await crypto.subtle.generateKey(CURVE, true, ["deriveBits"]);
    const publicRaw = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
    const d = fromB64url((await crypto.subtle.exportKey("jwk", pair.privateKey)).d);
    const handle = await root.adjutantSeal.newKey(passphrase, iterations);
    const sealedPrivate = await root.adjutantSeal.seal(handle, PART, withFormat(d));
    return { publicKey: publicRaw, sealedPrivate: sealedPrivate, privateKey: await importPrivate(publicRaw, d) };
  }

  // The game master's private key from the link's sealed part: a CryptoKey, or null when the
  // passphrase does not open it. Rejects (with a message) when the part is damaged.
  async function unlock(publicRaw, sealedPrivate, passphrase) {
    const opened = await root.adjutantSeal.unseal(passphrase, PART, sealedPrivate);
    if (!opened) return null;
    const plain = opened.plaintext;
    const legacy = plain.length === 32;
    if (!legacy && !(plain.length === 33 && plain[0] === KEY_FORMAT)) {
      throw new Error("the game master's sealed key is damaged");
    }
    const d = legacy ? plain : plain.slice(1);
    const upgraded = legacy ? await root.adjutantSeal.seal(await root.adjutantSeal.newKey(passphrase), PART, withFormat(d)) : "";
    return importPrivate(new Uint8Array(publicRaw), d, legacy, upgraded);
  }

  // What an unlocked key came with: {legacy: its sealed form was an earlier Adjutant's (which let any
  // game master's part of format 0x81 pass), upgraded: that sealed form made again today's way ("" if
  // not legacy)}.
  function keyInfo(privateKey) {
    const info = held.get(privateKey);
    return { legacy: Boolean(info && info.legacy), upgraded: info ? info.upgraded : "" };
  }

  // The game master's part: the header | IV | AES-GCM ciphertext and tag under the key only the holder of
  // the private key has (so nobody else can make one that opens).
  async function sealPart(privateKey, header, aad, plaintext) {
    const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
    const sealed = new Uint8Array(await crypto.subtle.encrypt(
      { name: "AES-GCM", iv: iv, additionalData: new Uint8Array(aad) }, held.get(privateKey).partKey,
      new Uint8Array(plaintext)
    ));
    const head = new Uint8Array(header);
    const out = new Uint8Array(head.length + IV_BYTES + sealed.length);
    out.set(head, 0);
    out.set(iv, head.length);
    out.set(sealed, head.length + IV_BYTES);
    return toB64url(out);
  }

  // Opens what sealPart sealed: the plaintext, or null when it does not open (altered, or sealed by
  // someone without this private key).
  async function openPart(privateKey, data, headerLength, aad) {
    const bytes = new Uint8Array(data);
    try {
      const plain = await crypto.subtle.decrypt(
        { name: "AES-GCM", iv: bytes.slice(headerLength, headerLength + IV_BYTES), additionalData: new Uint8Array(aad) },
        held.get(privateKey).partKey,
        bytes.slice(headerLength + IV_BYTES)
      );
      return new Uint8Array(plain);
    } catch (_) {
      return null;
    }
  }

  // A player's code: the header, then what only the game master's private key opens.
  async function sealOrders(publicRaw, header, aad, plaintext) {
    const gm = await crypto.subtle.importKey("raw", new Uint8Array(publicRaw), CURVE, false, []);
    const eph = await crypto.subtle.generateKey(CURVE, true, ["deriveBits"]);
    const ephRaw = new Uint8Array(await crypto.subtle.exportKey("raw", eph.publicKey));
    const bits = await crypto.subtle.deriveBits({ name: "ECDH", public: gm }, eph.privateKey, 256);
    const key = await aesKey(bits, ephRaw);
    const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
    const sealed = new Uint8Array(
      await crypto.subtle.encrypt({ name: "AES-GCM", iv: iv, additionalData: new Uint8Array(aad) }, key, new Uint8Array(plaintext))
    );
    const head = new Uint8Array(header);
    const out = new Uint8Array(head.length + KEY_BYTES + IV_BYTES + sealed.length);
    out.set(head, 0);
    out.set(ephRaw, head.length);
    out.set(iv, head.length + KEY_BYTES);
    out.set(sealed, head.length + KEY_BYTES + IV_BYTES);
    return toB64url(out);
  }

  // Opens a code's bytes (its header is headerLength bytes): the plaintext, or null when it does not
  // open (altered, sealed for another phase of this game, or to another key).
  async function openOrders(privateKey, data, headerLength, aad) {
    const bytes = new Uint8Array(data);
    const ephRaw = bytes.slice(headerLength, headerLength + KEY_BYTES);
    let eph;
    try {
      eph = await crypto.subtle.importKey("raw", ephRaw, CURVE, false, []);
    } catch (_) {
      return null; // not a point on the curve: the code was altered
    }
    try {
      const bits = await crypto.subtle.deriveBits({ name: "ECDH", public: eph }, privateKey, 256);
      const key = await aesKey(bits, ephRaw);
      const iv = bytes.slice(headerLength + KEY_BYTES, headerLength + KEY_BYTES + IV_BYTES);
      const plain = await crypto.subtle.decrypt(
        { name: "AES-GCM", iv: iv, additionalData: new Uint8Array(aad) },
        key,
        bytes.slice(headerLength + KEY_BYTES + IV_BYTES)
      );
      return new Uint8Array(plain);
    } catch (_) {
      return null;
    }
  }

  root.adjutantGroup = {
    available: available,
    newGame: newGame,
    unlock: unlock,
    sealOrders: sealOrders,
    openOrders: openOrders,
    keyInfo: keyInfo,
    sealPart: sealPart,
    openPart: openPart,
  };
})(typeof window !== "undefined" ? window : globalThis);
