// Bytes as unpadded base64url (RFC 4648 section 5), the form in which links, group codes and sealed
// parts carry them: the page's one copy, used by web/seal.js and web/group.js (the engine's is
// py/adjutant/formats/base64url.py). Runs in a page (window.adjutantBytes) and in Node (globalThis.adjutantBytes).
"use strict";

(function (root) {
  function toB64url(bytes) {
    let text = "";
    for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  // Throws "not base64url" for anything but a string of base64url's characters.
  function fromB64url(text) {
    if (typeof text !== "string" || !/^[A-Za-z0-9_-]*$/.test(text)) throw new Error("not base64url");
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4));
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  }

  root.adjutantBytes = { toB64url: toB64url, fromB64url: fromB64url };
})(typeof window !== "undefined" ? window : globalThis);
