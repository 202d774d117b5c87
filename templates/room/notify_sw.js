/* The pair's page's service worker (room/pair_views.py): shows the notification a
 * push brings ("Mesa 7: sua partida foi chamada") and opens the pair's page when it is tapped. It
 * caches nothing. */
self.addEventListener("push", function (event) {
  var data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = { title: event.data ? event.data.text() : "" }; }
  event.waitUntil(self.registration.showNotification(data.title || "Truco", {
    body: data.body || "", data: { url: data.url || "/" }, tag: data.url || "call", renotify: true,
  }));
});
self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var url = (event.notification.data && event.notification.data.url) || "/";
  event.waitUntil(self.clients.openWindow(url));
});
