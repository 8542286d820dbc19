{% autoescape off %}// Scorekeeper's service worker (served by games/views/pwa.py, which fills in the lists).
// It keeps the static files and the offline page, nothing else: static files come
// from the cache first (their names change with their contents in production), pages
// from the network, and a page asked for without a network is the offline page. POSTs
// (a round being saved) are never touched: they reach the server or fail as they
// would without a worker, and static/js/drafts.js keeps what was typed.
//
// The offline page is kept in every language, and shown in the language of the last
// page the worker saw come (its Content-Language): the language the person reads the
// app in, whichever chose it (the account, the footer, a league, the browser). Before
// any page came, the browser's languages choose, else the app's default.
"use strict";

const VERSION = "{{ version }}";
const CACHE = "scorekeeper-" + VERSION;
const OFFLINE_PAGES = {{ offline_pages }}; // by language
const DEFAULT_LANGUAGE = {{ default_language }};
const PRECACHE = {{ precache }};
const STATIC_PREFIX = {{ static_prefix }};
// Where the last page's language is kept, in the worker's own cache, for a worker
// stopped and started again between pages: an address no request is made to.
const LANGUAGE_KEY = "/sw/page-language";
let pageLanguage = null; // as kept, once read or seen

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

// The language of an answer, if the worker keeps an offline page in it ("hi-IN": "hi").
function offered(code) {
  if (!code) return null;
  const wanted = code.trim().toLowerCase();
  const primary = wanted.split("-")[0];
  if (OFFLINE_PAGES[wanted]) return wanted;
  return OFFLINE_PAGES[primary] ? primary : null;
}

function remember(response) {
  const language = offered(response.headers.get("Content-Language"));
  if (language && language !== pageLanguage) {
    pageLanguage = language;
    caches.open(CACHE).then((cache) => cache.put(LANGUAGE_KEY, new Response(language)));
  }
}

function lastLanguage() {
  if (pageLanguage) return Promise.resolve(pageLanguage);
  return caches
    .match(LANGUAGE_KEY)
    .then((kept) => (kept ? kept.text() : null))
    .then((kept) => offered(kept) || (self.navigator.languages || []).map(offered).find(Boolean) || DEFAULT_LANGUAGE);
}

function page(request) {
  // Never stored: pages are private (a league's scores) and change with every round.
  return fetch(request)
    .then((response) => {
      if (response.ok) remember(response);
      return response;
    })
    .catch(() =>
      lastLanguage()
        .then((language) => caches.match(OFFLINE_PAGES[language] || OFFLINE_PAGES[DEFAULT_LANGUAGE]))
        .then((offline) => offline || Response.error())
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
