// the companion's service worker; version {{ version }}
const CACHE = "companion-{{ version }}";
const SHELL = {{ shell | tojson }};
const OFFLINE = {{ offline | tojson }};
// what a page served from this phone's copy says of itself, in each language
const KEPT = {{ kept | tojson }};
// answers that say "not now" rather than "no"
const LATER = [502, 503, 504, 507];
// the queue of deals and turns kept on the phone, and its sending (companion.pwa.QUEUE)
importScripts({{ queue | tojson }});

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)));
});

// one refresh after the other: two asked in a row (the first visit's language, then the one
// picked) could otherwise end in the order their answers came, the older language last
let refreshing = Promise.resolve();
self.addEventListener("message", (event) => {
  if (event.data === "SKIP_WAITING") self.skipWaiting();
  // the reader changed language: keep the offline page in the new one
  if (event.data === "REFRESH_OFFLINE") {
    refreshing = refreshing.then(() => caches.open(CACHE).then((cache) => cache.add(OFFLINE))).catch(() => {});
    event.waitUntil(refreshing);
  }
});

self.addEventListener("activate", (event) => {
  // a new version replaces the old cache, so no stale css survives an upgrade
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim())
  );
});

// the browser says the connection is back (after a reload or a restart too): send what waits;
// a failure has the browser try again later
self.addEventListener("sync", (event) => {
  if (event.tag !== "companion-queue") return;
  event.waitUntil(self.companionQueue.drain().then((done) => { if (!done) throw new Error("the server cannot be reached"); }));
});

// a page from the phone's copy says so, and from when (the Date its server sent it with)
async function marked(kept) {
  const html = await kept.text();
  const lang = (/<html lang="([\w-]+)"/.exec(html) || [])[1] || "en";
  const made = new Date(kept.headers.get("Date") || Date.now());
  const when = new Intl.DateTimeFormat(lang, {dateStyle: "medium", timeStyle: "short"}).format(made);
  const words = (KEPT[lang] || KEPT.en).replace("{when}", when)
    .replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const note = `<p class="offline-copy" role="status" data-kept="${made.toISOString()}">${words}</p>`;
  const headers = new Headers(kept.headers);
  // the body is read and changed: its old length and encoding no longer describe it
  headers.delete("Content-Length");
  headers.delete("Content-Encoding");
  return new Response(html.replace('<main id="main">', `<main id="main">${note}`), {status: kept.status, headers});
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/static/")) {
    // static urls carry a content hash: what is cached is right forever
    event.respondWith(
      caches.match(request).then((hit) => hit || fetch(request).then((response) => {
        if (response.ok) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(request, copy));
        }
        return response;
      }))
    );
    return;
  }
  if (request.headers.get("HX-Request")) return;  // fragments are never cached as pages
  if (request.mode === "navigate" || (request.headers.get("Accept") || "").includes("text/html")) {
    event.respondWith(
      fetch(request).then((response) => {
        if (response.ok) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(request, copy));
        }
        // the server cannot use its database or its disk now (or a proxy answers for a
        // server that is gone): the phone's copy of the game, if it has one, beats an error
        if (LATER.includes(response.status)) return caches.match(request).then((hit) => (hit ? marked(hit) : response));
        return response;
      }).catch(() => caches.match(request).then((hit) => (hit ? marked(hit) : caches.match(OFFLINE))))
    );
  }
});
