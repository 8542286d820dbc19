{% autoescape off %}// Scorekeeper's service worker (served by games/views/pwa.py, which fills in the lists).
// It keeps the static files and the offline page, nothing else: static files come
// from the cache first (their names change with their contents in production), pages
// from the network, and a page asked for without a network is the offline page. POSTs
// (a round being saved) are never touched: they reach the server or fail as they
// would without a worker, and static/js/drafts.js keeps what was typed.
"use strict";

const VERSION = "{{ version }}";
const CACHE = "scorekeeper-" + VERSION;
const OFFLINE_URL = {{ offline_url }};
const PRECACHE = {{ precache }};
const STATIC_PREFIX = {{ static_prefix }};

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      // From the server, not the HTTP cache; without cookies: these are public.
      .then((cache) => cache.addAll(PRECACHE.map((url) => new Request(url, { cache: "reload", credentials: "omit" }))))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key.startsWith("scorekeeper-") && key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim())
  );
});

function staticFile(request) {
  return caches.match(request).then(
    (hit) =>
      hit ||
      fetch(request).then((response) => {
        if (response.ok && response.type === "basic") {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(request, copy));
        }
        return response;
      })
  );
}

function page(request) {
  // Never stored: pages are private (a league's scores) and change with every round.
  return fetch(request).catch(() =>
    caches.match(OFFLINE_URL).then((offline) => offline || Response.error())
  );
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") event.respondWith(page(request));
  else if (url.pathname.startsWith(STATIC_PREFIX)) event.respondWith(staticFile(request));
  // Anything else (the live table's polls, previews, charts) goes to the network as usual.
});
{% endautoescape %}
