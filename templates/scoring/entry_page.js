{% include "scoring/_entry_core.js" %}
/* The súmula entry page (scoring/entry_views.py): the entry screen (above) with the referee's or the
 * organizer's session as its credential (the CSRF token in a header). Without this script the page's
 * plain forms post and reload as before (their part is hidden while it runs: html.js-entry).
 * - the other forms of the page (penalty, first dealer, hand report) follow the screen: their "expect"
 *   token and the report's reminder are kept current; when a game ends, the match ends or the súmula
 *   changes state, the rest of the page is fetched again and swapped in (no navigation);
 * - an expired session (the hands API refuses, the state answers 401): the hand stays queued on this
 *   phone (IndexedDB), the page says so with a link to the login, and sends it after the login. */
(function () {
  "use strict";
  var boot = document.getElementById("entry-boot");
  if (!boot) return;
  var B = JSON.parse(boot.textContent), T = B.t;
  var $ = function (id) { return document.getElementById(id); };
  var expired = false, shownKey = null, E;
  window.trucoEntryPage = true;

  function csrf() {   // the cookie's token: a login in another tab renews it
    var m = document.cookie.match(new RegExp("(?:^|;\\s*)" + B.csrf_cookie + "=([^;]+)"));
    return m ? decodeURIComponent(m[1]) : B.csrf;
  }
  function setExpired(on) {
    expired = on; E.paused = on;
    var box = $("relogin");
    box.hidden = !on;
    box.querySelector("span").textContent = on ? T.expired : "";
    if (on) E.say("");
  }
  function stateKey(s) { return [s.status, s.winner, s.state.over, s.state.game].join(":"); }

  /* the page's other forms follow the screen */
  function syncForms() {
    var s = E.server.state;
    if (s.over) return;
    document.querySelectorAll(".sumula form input[name='expect']").forEach(function (i) { i.value = s.game + ":" + s.entries; });
    var first = $("first-dealer"); if (first) first.hidden = s.hand !== 1;
    var hint = $("report-hint");
    if (hint) hint.textContent = E.fmt(T.report_hint, { name: B.seats[s.dealer].name, seat: s.dealer, a: s.score[0], b: s.score[1] });
  }
  /* What a person typed or chose in the page's forms (a PIN half typed, a signer chosen): kept across
     reloadParts, which replaces those forms, so that nothing entered is dropped. A field is known by its
     form's action, the form's role (the two pairs' signing forms share one action) and its name. */
  function fieldKey(el) {
    var form = el.form, role = form && form.querySelector("input[name='role']");
    return [form ? form.getAttribute("action") : "", role ? role.value : "", el.name,
            el.type === "radio" ? el.value : ""].join("|");
  }
  function typed(root) {
    var kept = {}, focused = document.activeElement;
    root.querySelectorAll("form input, form select, form textarea").forEach(function (el) {
      if (!el.name || el.type === "hidden" || el.type === "submit") return;
      var key = fieldKey(el), choice = el.type === "radio" || el.type === "checkbox";
      if (choice ? el.checked !== el.defaultChecked : el.value !== el.defaultValue)
        kept[key] = { value: el.value, checked: el.checked, focus: el === focused };
      else if (el === focused) kept[key] = { focus: true };
    });
    return kept;
  }
  function putBack(root, kept) {
    root.querySelectorAll("form input, form select, form textarea").forEach(function (el) {
      var was = el.name && kept[fieldKey(el)];
      if (!was) return;
      if (el.type === "radio" || el.type === "checkbox") { if ("checked" in was) el.checked = was.checked; }
      else if ("value" in was) el.value = was.value;
      if (was.focus) el.focus();
    });
  }
  function reloadParts() {
    return fetch(B.urls.page, { credentials: "same-origin", cache: "no-store" }).then(function (res) {
      if (!res.ok || res.redirected) return;
      return res.text().then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html").querySelector(".sumula");
        var here = document.querySelector(".sumula"), live = $("live");
        if (!fresh || !here) return;
        var kept = typed(here);
        var slot = fresh.querySelector("#live-slot");
        if (slot) slot.textContent = "";            // this page's screen stays, with its message
        Array.prototype.forEach.call(fresh.querySelectorAll("script"), function (s) { s.remove(); });  // run once
        here.replaceChildren.apply(here, Array.prototype.map.call(fresh.childNodes, function (n) {
          return document.importNode(n, true);
        }));
        if ($("live-slot") && live) $("live-slot").appendChild(live);
        putBack(here, kept);
        syncForms();
      });
    }, function () {});
  }

  E = trucoEntry(B, {
    store: B.store, credentials: "same-origin",
    headers: function () { return { "X-CSRFToken": csrf() }; },
    rendered: function () {
      var key = stateKey(E.server);
      if (shownKey !== null && key !== shownKey) reloadParts(); else syncForms();
      shownKey = key;
    },
    denied: function (e, r) {  // 401/403: an expired session keeps the hand; a refusal is said
      fetch(B.urls.state, { credentials: "same-origin", cache: "no-store" }).then(function (res) {
        if (res.status === 401) { setExpired(true); E.render(); } else E.refuse(e, r);
      }, function () { E.online = false; E.render(); setTimeout(E.flush, 3000); });
    },
    stateFailed: function (res) { if (res.status === 401) { setExpired(true); E.render(); } },
    changed: function () { if (expired) { setExpired(false); E.flush(); } }
  });

  $("undo").onclick = E.undo;
  E.start();
  window.trucoSumula = { queue: function () { return E.queue; }, flush: E.flush, refresh: E.refresh, reloadParts: reloadParts };
})();
