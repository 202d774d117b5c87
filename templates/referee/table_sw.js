/* Keeps the table page loadable with the network down (referee/table_views.py): the page, its
 * script and its last state are answered from the network when it is up, from this cache when not.
 * Writes (POST) are never cached: the page queues them itself (IndexedDB). */
var CACHE = "truco-mesa-v1";
self.addEventListener("install", function (event) { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });
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
        return c.match(req, { ignoreSearch: true }).then(function (hit) {
          return hit || new Response("offline", { status: 503, headers: { "Content-Type": "text/plain" } });
        });
      });
    })
  );
});
