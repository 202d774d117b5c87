/* Keeps the table page loadable with the network down (referee/table_views.py): the page, its
 * script and its last state are answered from the network when it is up, from this cache when not.
 * Writes (POST) are never cached: the page queues them itself (IndexedDB). The page posts its own address,
 * its script and its state once the worker is active, so the first load is enough. */
var CACHE = "truco-mesa-v1";
self.addEventListener("install", function (event) { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });
// the page hands over its own address, its script and its state on its first load (issue 20 §7): a phone
// that opened the QR code once reloads from here with the network down. The worker answers on the
// message's port once every copy is stored ({cached: true}), or not ({cached: false}: the page hands them
// over again when the network is back): until then a reload with the network down finds no page.
self.addEventListener("message", function (event) {
  var urls = event.data && event.data.cache, port = event.ports && event.ports[0];
  if (!Array.isArray(urls)) return;
  event.waitUntil(caches.open(CACHE).then(function (c) {
    return Promise.all(urls.filter(function (u) { return typeof u === "string" && u.indexOf("/mesa/") === 0; })
      .map(function (u) {
        return fetch(u, { credentials: "omit", cache: "no-store" }).then(function (res) {
          return res.ok ? c.put(u, res).then(function () { return true; }) : false;
        }).catch(function () { return false; });
      }));
  }).then(function (stored) {
    if (port) port.postMessage({ cached: stored.length > 0 && stored.every(Boolean) });
  }));
});
self.addEventListener("fetch", function (event) {
  var req = event.request;
  if (req.method !== "GET") return;
  var url = new URL(req.url);
  if (url.origin !== self.location.origin || url.pathname.indexOf("/mesa/") !== 0) return;
  event.respondWith(
    fetch(req).then(function (res) {
      if (res.ok) { var copy = res.clone(); caches.open(CACHE).then(function (c) { c.put(req, copy); }); }
      return res;
    }).catch(function () {
      return caches.open(CACHE).then(function (c) {
        // any stored copy of the page serves (it varies on Cookie), also the one the page handed over by its path
        var found = { ignoreSearch: true, ignoreVary: true };
        return c.match(req, found).then(function (hit) {
          return hit || c.match(url.pathname, found);
        }).then(function (hit) {
          return hit || new Response("offline", { status: 503, headers: { "Content-Type": "text/plain" } });
        });
      });
    })
  );
});
