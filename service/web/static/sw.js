/* Kroniek's service worker (served as /sw.js, scope /): the pages keep working without a network.

   Every GET of this app goes to the network first; what comes back (a page, a script, an API answer) is
   kept, and when the network is gone the kept copy answers instead. So a page shows what the server said
   when it was last online, never an older copy while the server answers. The live stream and writes pass
   untouched. Signing out (POST /signout) drops what was kept: another person on this device must not read
   one seat's view offline. */
"use strict";

const SHELL = "kroniek-shell-v1";
const DATA = "kroniek-data-v1";
/** The scripts and styles every page needs, kept at install: the first offline visit has them. */
const SHELL_FILES = ["/assets/kroniek.css", "/assets/kroniek.js", "/assets/boards.js", "/assets/schemaform.js",
  "/assets/scene.js", "/assets/record.js", "/assets/review.js", "/assets/league.js", "/assets/me.js",
  "/assets/editors.js", "/assets/start.js", "/assets/favicon.svg", "/assets/messages.en.js", "/assets/messages.nl.js"];
/** The most answers kept (the oldest go first): a long match's steps must not fill the device. */
const KEEP = 400;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(SHELL_FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name !== SHELL && name !== DATA) await caches.delete(name);
    await self.clients.claim();
  })());
});

const kept = async (request, response) => {
  const cache = await caches.open(DATA);
  await cache.put(request, response);
  const keys = await cache.keys();
  for (const old of keys.slice(0, Math.max(0, keys.length - KEEP))) await cache.delete(old);
};

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST" && url.pathname === "/signout") {
    event.waitUntil(caches.delete(DATA));
    return;
  }
  if (request.method !== "GET" || url.pathname.endsWith("/stream") || url.pathname === "/sw.js") return;
  event.respondWith((async () => {
    try {
      const response = await fetch(request);
      // a sign-in page says no-store: it is never kept
      if (response.ok && !/no-store/.test(response.headers.get("Cache-Control") || "")) {
        event.waitUntil(kept(request, response.clone()));
      }
      return response;
    } catch (offline) {
      const hit = (await caches.match(request, { cacheName: DATA })) || (await caches.match(request, { cacheName: SHELL }));
      if (hit) return hit;
      throw offline;
    }
  })());
});
