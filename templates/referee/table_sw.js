/* Keeps the table page loadable with the network down (referee/table_views.py): the page, its
 * script and its last state are answered from the network when it is up, from this cache when not.
 * Writes (POST) are never cached: the page queues them itself (IndexedDB). The page posts its own address,
 * its script and its state once the worker is active, so the first load is enough. */
var CACHE = "truco-mesa-v1";
// "/mesa/<token>/" of a cached address ("" for the worker's and the script's own addresses)
function tableOf(path) {
  var m = /^\/mesa\/([^\/]+)\//.exec(path);
  return m ? m[0] : "";
}
// A shared phone keeps no table's page and token for ever: a link that answers 404 or 410
// (revoked, súmula received) loses its copies; a page's load drops every other table's copies but those
// it names in "keep" (tables whose entries still wait on this phone).
// A dead link is written down (GONE, its "/mesa/<token>/" only) before its copies go, and every copy is
// checked against that list once stored: a response that was already on its way when the link died (the
// page's last poll, the copies a page handed over) is dropped instead of bringing the dead table back.
var GONE = "truco-mesa-gone-v1", GONE_KEPT = 50;
function bury(table) {
  return caches.open(GONE).then(function (g) {
    return g.put(table, new Response("")).then(function () { return g.keys(); }).then(function (reqs) {
      return Promise.all(reqs.slice(0, Math.max(0, reqs.length - GONE_KEPT)).map(function (r) { return g.delete(r); }));
    });
  }).then(function () { return forget(function (t) { return t === table; }); });
}
function store(c, req, res) {
  var table = tableOf(new URL(typeof req === "string" ? req : req.url, self.location.href).pathname);
  return c.put(req, res).then(function () {
    return table ? caches.open(GONE).then(function (g) { return g.match(table); }) : null;
  }).then(function (gone) {
    return gone ? c.delete(req).then(function () { return false; }) : true;
  });
}
function forget(test) {
  return caches.open(CACHE).then(function (c) {
    return c.keys().then(function (reqs) {
      return Promise.all(reqs.filter(function (r) {
        var t = tableOf(new URL(r.url).pathname);
        return t && test(t);
      }).map(function (r) { return c.delete(r); }));
    });
  });
}
self.addEventListener("install", function (event) { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });
// the page hands over its own address, its script and its state on its first load: a phone
// that opened the QR code once reloads from here with the network down. The worker answers on the
// message's port once every copy is stored ({cached: true}), or not ({cached: false}: the page hands them
// over again when the network is back): until then a reload with the network down finds no page.
self.addEventListener("message", function (event) {
  var urls = event.data && event.data.cache, keep = event.data && event.data.keep;
  var port = event.ports && event.ports[0];
  if (!Array.isArray(urls)) return;
  var kept = Array.isArray(keep) ? keep.map(tableOf).filter(Boolean) : null;
  event.waitUntil((kept ? forget(function (t) { return kept.indexOf(t) < 0; }) : Promise.resolve())
    .then(function () { return caches.open(CACHE); }).then(function (c) {
    return Promise.all(urls.filter(function (u) { return typeof u === "string" && u.indexOf("/mesa/") === 0; })
      .map(function (u) {
        return fetch(u, { credentials: "omit", cache: "no-store" }).then(function (res) {
          return res.ok ? store(c, u, res) : false;
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
      var table = tableOf(url.pathname);
      if (res.ok) {
        var copy = res.clone();
        event.waitUntil(caches.open(CACHE).then(function (c) { return store(c, req, copy); }));
      } else if ((res.status === 404 || res.status === 410) && table) {
        event.waitUntil(bury(table));
      }
      return res;
    }).catch(function () {
      return caches.open(CACHE).then(function (c) {
        // any stored copy of the page serves (it varies on Cookie), also the one the page handed over by its path
        var found = { ignoreSearch: true, ignoreVary: true };
        return c.match(req, found).then(function (hit) {
          return hit || c.match(url.pathname, found);
        }).then(function (hit) {
          if (!hit) return new Response("offline", { status: 503, headers: { "Content-Type": "text/plain" } });
          // said to be a copy: the page must not take a stored state for the server's current one
          var headers = new Headers(hit.headers);
          headers.set("X-Truco-Copy", "offline");
          return new Response(hit.body, { status: hit.status, statusText: hit.statusText, headers: headers });
        });
      });
    })
  );
});
