/* Kroniek's service worker (served as /sw.js, scope /): a page opened once on this device opens again
   without a network (docs/ui.md, "Recording offline").

   It keeps three things, and only these:
   - the pages' scripts, styles and messages, under this version of the pages (the server writes the
     version and the list into this file; a new version is a new worker, which drops the old copies);
   - each page opened (its HTML), the newest copy, answering only when the network does not;
   - the page's own engine (/engine/: Pyodide and the engine's zip, each under an address that names its
     version, and the worker script that loads them), once a page has loaded it: from then on it starts
     from here, with or without a network.
   The API never passes through here: a match's answers are kept by the page itself (offline.js), so a
   tap or a review costs no detour through this worker (the static route below sends /api/ straight to
   the network; a browser without static routes is let through untouched by the fetch handler). */
"use strict";

const VERSION = "__VERSION__";
const ASSETS = "__ASSETS__";
/** The engine's files (engine.js's worker and what it loads), as this version of the server serves them. */
const ENGINE = "__ENGINE__";
const SHELL = `kroniek-shell-${VERSION}`;
const ENGINE_CACHE = "kroniek-engine";
const PAGES = "kroniek-pages";
/** The most pages kept (the oldest go first). */
const KEEP_PAGES = 60;

const isApi = (url) => url.pathname.startsWith("/api/");

self.addEventListener("install", (event) => {
  if (event.addRoutes) {
    // Chromium's static routing: these never wake this worker
    event.addRoutes([
      { condition: { urlPattern: new URLPattern({ pathname: "/api/*" }) }, source: "network" },
      { condition: { urlPattern: new URLPattern({ pathname: "/signin/*" }) }, source: "network" },
      { condition: { urlPattern: new URLPattern({ pathname: "/signin" }) }, source: "network" },
      // the scripts from this version's copy, looked up by the browser itself (a miss goes to the network)
      { condition: { urlPattern: new URLPattern({ pathname: "/assets/*" }) }, source: { cacheName: SHELL } },
    ]).catch(() => {});
  }
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(ASSETS)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name.startsWith("kroniek-shell-") && name !== SHELL) await caches.delete(name);
    // an engine of an older version goes (each file's address names its version)
    const engine = await caches.open(ENGINE_CACHE);
    for (const request of await engine.keys()) if (!ENGINE.includes(new URL(request.url).pathname)) await engine.delete(request);
    if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
    await self.clients.claim();
  })());
});

/** Keep a page's newest copy (never one that says no-store, as a sign-in page does). */
const keepPage = async (url, response) => {
  if (!response.ok || response.redirected || /no-store/.test(response.headers.get("Cache-Control") || "")) return;
  const cache = await caches.open(PAGES);
  await cache.delete(url);  // moved to the end: the oldest pages go first
  await cache.put(url, response);
  const keys = await cache.keys();
  for (const old of keys.slice(0, Math.max(0, keys.length - KEEP_PAGES))) await cache.delete(old);
};

/** What a page that was never opened here says offline (it cannot load its scripts: plain words, both languages). */
const NOT_KEPT = `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Offline · Kroniek</title><h1>Offline</h1><p>This page was never opened on this device, so it cannot be shown without a network.</p>
<p lang="nl">Deze pagina is op dit apparaat nog nooit geopend en kan zonder netwerk niet worden getoond.</p><p><a href="/">Kroniek</a></p></html>`;

/** Keep the engine's files: a page asks once its engine has loaded them (the browser's cache has them then:
    nothing is downloaded twice). */
const keepEngine = async () => {
  const cache = await caches.open(ENGINE_CACHE);
  for (const url of ENGINE) if (!(await cache.match(url))) await cache.add(url).catch(() => {});
};

self.addEventListener("message", (event) => {
  if (event.data && event.data.keepEngine) { event.waitUntil(keepEngine()); return; }
  // a page that loaded before this worker took it over asks for its own HTML to be kept
  const url = event.data && event.data.keep;
  if (typeof url !== "string" || !url.startsWith("/") || url.startsWith("//") || url.startsWith("/api/")) return;
  event.waitUntil(caches.open(PAGES).then((cache) => cache.match(url)).then((hit) => hit || fetch(url, { credentials: "same-origin" })
    .then((response) => keepPage(url, response)).catch(() => {})));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || isApi(url)) return;
  if (request.method === "POST" && url.pathname === "/signout") {
    event.waitUntil(caches.delete(PAGES));  // another person on this device must not open one seat's view offline
    return;
  }
  if (request.method !== "GET") return;
  if (url.pathname.startsWith("/assets/")) {
    // this version's copy, else the network (a file added since: kept for next time)
    event.respondWith(caches.open(SHELL).then(async (cache) => (await cache.match(request)) || fetch(request).then((response) => {
      if (response.ok) cache.put(request, response.clone());
      return response;
    })));
    return;
  }
  if (url.pathname.startsWith("/engine/")) {
    event.respondWith(engineFile(event, request, url));
    return;
  }
  if (request.mode !== "navigate") return;
  const key = url.pathname + url.search;
  event.respondWith((async () => {
    try {
      const response = (await event.preloadResponse) || (await fetch(request));
      event.waitUntil(keepPage(key, response.clone()));
      return response;
    } catch (offline) {
      const kept = await caches.match(key, { cacheName: PAGES });
      return kept || new Response(NOT_KEPT, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
    }
  })());
});

/** An engine file: a versioned one from the cache first (it never changes), the worker script from the
    network first (it names the versions), each kept for next time and for a page opened offline. */
const engineFile = async (event, request, url) => {
  const cache = await caches.open(ENGINE_CACHE);
  const versioned = url.pathname !== "/engine/worker.js";
  if (versioned) {
    const hit = await cache.match(request);
    if (hit) return hit;
  }
  try {
    const response = await fetch(request);
    if (response.ok && ENGINE.includes(url.pathname)) event.waitUntil(cache.put(request, response.clone()));
    return response;
  } catch (offline) {
    const kept = await cache.match(request);
    if (kept) return kept;
    throw offline;
  }
};
