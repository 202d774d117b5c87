{% include "scoring/_entry_core.js" %}
/* The table page (referee/table_views.py): the entry screen (above) with the table's link as its
 * credential, plus the table's own: disputes, calling the referee, claims, appeals, the change of a
 * PIN, the pairs' signatures, and the page kept loadable offline (/mesa/sw.js, the last state in
 * localStorage): the service worker is handed the page, this script and the state on the first load.
 * Without a service worker (plain HTTP on a LAN address), a reload with the network down cannot load the
 * page, so while entries wait the page asks the table not to close the tab. */
(function () {
  "use strict";
  var B = JSON.parse(document.getElementById("boot").textContent);
  var T = B.t;
  var $ = function (id) { return document.getElementById(id); };
  var cache = "mesa-" + B.token;
  var E = trucoEntry(B, {
    store: "q-" + B.token, credentials: "omit",
    headers: function () { return { "Authorization": "Table " + B.token }; },
    rendered: function (st) { renderSigning(st); },
    row: function (li, row) {
      if (row.kind === "hand" && !row.disputed && E.server.status === "open") {
        var d = document.createElement("button"); d.type = "button"; d.textContent = T.dispute;
        d.className = "dispute";
        d.onclick = function () { dispute(row); }; li.appendChild(d);
      }
    },
    changed: function (data) { localStorage.setItem(cache, JSON.stringify(data)); },
    foreign: function (data) {   // a table card (issue 20 §2): the table has another match now, or none
      if (!("match" in data) || data.match === B.match) return false;
      if (!E.queue.length) { E.say(T.next_match); location.reload(); }   // entries of this match wait: kept first
      return true;
    },
    conflictActions: function (box, e) {   // a conflict the players cannot settle: the other phone and the referee see it
      if (!e.theirs || e.theirs.disputed) return;
      var d = document.createElement("button"); d.type = "button"; d.className = "dispute"; d.textContent = T.dispute_theirs;
      d.onclick = function () { d.disabled = true; dispute(e.theirs); };
      box.appendChild(d);
    },
    net: function (n) {   // entries waiting and no offline reload: keep the tab open
      var k = $("keep-tab");
      k.hidden = !(n && !offlineReload);
      k.textContent = n ? E.fmt(T.keep_tab, { n: n }) : "";
    }
  });
  var offlineReload = "serviceWorker" in navigator && window.isSecureContext;
  window.addEventListener("beforeunload", function (ev) {
    if (!offlineReload && E.queue.some(function (e) { return e.state !== "refused"; })) { ev.preventDefault(); ev.returnValue = ""; }
  });

  function renderSigning(st) {
    var box = $("signing"), sg = E.server.signing;
    var show = st.over && !E.queue.length && (sg.signable || E.server.status !== "open");
    box.hidden = !show;
    if (!show) return;
    var key = JSON.stringify([sg, E.server.status]);
    if (box.dataset.key === key) return;   // unchanged: keep what is being typed (a PIN)
    box.dataset.key = key;
    box.innerHTML = "";
    var h = document.createElement("h2"); h.textContent = T.sign_title; box.appendChild(h);
    [0, 1].forEach(function (team) {
      var role = "team" + team, signed = sg.signed[role];
      if (signed) {
        var p = document.createElement("p"); p.className = "done";
        p.textContent = B.pairs[team] + ": " + E.fmt(T.signed_by, { name: signed }); box.appendChild(p); return;
      }
      var f = document.createElement("form"); f.dataset.team = team;
      var sel = document.createElement("select"); sel.name = "player";
      B.players[team].forEach(function (p) { var o = document.createElement("option"); o.value = p.id; o.textContent = p.name; sel.appendChild(o); });
      var pin = document.createElement("input"); pin.name = "pin"; pin.type = "password"; pin.inputMode = "numeric";
      pin.placeholder = T.pin; pin.autocomplete = "off"; pin.required = true;
      var b = document.createElement("button"); b.textContent = T.sign + " · " + B.pairs[team];
      f.appendChild(sel); f.appendChild(pin); f.appendChild(b);
      f.onsubmit = function (ev) {
        ev.preventDefault();
        E.post(B.urls.sign, { role: role, player: +sel.value, pin: pin.value, digest: sg.digest }, E.newKey())
          .then(function (r) { if (r.ok) E.refresh(); else E.say(r.message, "bad"); });
      };
      box.appendChild(f);
    });
    if (E.server.status !== "open") { var q = document.createElement("p"); q.className = "done"; q.textContent = T.all_signed; box.appendChild(q); }
  }

  function call(extra) {
    var body = Object.assign({ kind: "call" }, extra || {});
    return E.post(B.urls.calls, body, E.newKey()).then(function (r) {
      if (r.ok) {
        var t = new Date(r.data.called_at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
        E.say(E.fmt(T.called, { time: t }), "good"); E.refresh();
      } else if (!r.network) E.say(r.message, "bad");
      return r;
    });
  }
  function dispute(row) { call({ kind: "dispute", game: row.game, hand: row.number }); }

  /* ---------------------------------------------------------------- "more": claims, appeals, PIN */
  function fill(sel, items) {
    sel.innerHTML = "";
    items.forEach(function (it) { var o = document.createElement("option"); o.value = it[0]; o.textContent = it[1]; sel.appendChild(o); });
  }
  function teamPlayers(form) {
    var team = +form.team.value;
    fill(form.player, B.players[team].map(function (p) { return [p.id, p.name]; }));
    if (form.seat) fill(form.seat, B.seats.filter(function (s) { return s.team !== team; }).map(function (s) { return [s.seat, s.name]; }));
  }
  function setupMore() {
    var claim = $("claim-form"), appeal = $("appeal-form"), pinf = $("pin-form");
    [claim, appeal].forEach(function (f) {
      fill(f.team, [[0, B.pairs[0]], [1, B.pairs[1]]]); teamPlayers(f);
      f.team.onchange = function () { teamPlayers(f); };
    });
    fill(claim.code, B.claims.map(function (c) { return [c.code, c.title + " (" + c.article + ")"]; }));
    fill(pinf.player, B.players[0].concat(B.players[1]).map(function (p) { return [p.id, p.name]; }));
    function out(f, r, ok) { var o = f.querySelector(".out"); o.textContent = r.ok ? ok : (r.message || "?"); }
    claim.onsubmit = function (ev) {
      ev.preventDefault();
      E.post(B.urls.rulings, { claimant_team: +claim.team.value, offender_seat: +claim.seat.value, code: claim.code.value,
        facts: { value: +claim.value.value }, player: +claim.player.value, pin: claim.pin.value }, E.newKey())
        .then(function (r) { out(claim, r, r.ok ? r.data.message : ""); if (r.ok) { claim.pin.value = ""; E.refresh(); } });
    };
    appeal.onsubmit = function (ev) {
      ev.preventDefault();
      if (!appeal.ruling.value) { appeal.querySelector(".out").textContent = T.no_rulings; return; }
      E.post(B.urls.appeal.replace("/0/", "/" + appeal.ruling.value + "/"), { team: +appeal.team.value,
        player: +appeal.player.value, pin: appeal.pin.value, reason: appeal.reason.value }, E.newKey())
        .then(function (r) { out(appeal, r, T.done); if (r.ok) appeal.pin.value = ""; });
    };
    pinf.onsubmit = function (ev) {
      ev.preventDefault();
      fetch(B.urls.pin, { method: "POST", headers: { "Content-Type": "application/json" }, credentials: "omit",
        body: JSON.stringify({ player: +pinf.player.value, current: pinf.current.value, "new": pinf["new"].value }) })
        .then(function (res) { return res.json().then(function (d) { out(pinf, { ok: res.ok, message: d.error && d.error.message }, T.changed); }); });
      pinf.current.value = pinf["new"].value = "";
    };
    $("more-btn").onclick = function () {
      fill(appeal.ruling, E.server.rulings.filter(function (r) { return r.appealable; })
        .map(function (r) { return [r.id, r.message + " (" + r.article + ")"]; }));
      $("more").showModal();
    };
  }

  /* ---------------------------------------------------------------- start */
  $("undo").onclick = E.undo;
  $("call").onclick = function () { call(); };
  setupMore();
  if (!navigator.onLine) {
    var cached = localStorage.getItem(cache);
    if (cached) { try { E.server = JSON.parse(cached); } catch (err) { /* keep the page's */ } }
  }
  localStorage.setItem(cache, JSON.stringify(E.server));
  localStorage.setItem("mesapath-" + B.token, location.pathname);
  E.start();
  /* A shared phone keeps no other table's page, state or token for ever (issue 21 §10): what this phone
   * kept of other tables goes, unless entries of that table still wait on it (never discarded). */
  function tidy() {
    return E.waitingStores().then(function (waiting) {
      var keep = [location.pathname], drop = [];
      for (var i = 0; i < localStorage.length; i++) {
        var k = localStorage.key(i), m = /^(mesa|mesapath)-(.+)$/.exec(k || "");
        if (!m || m[2] === B.token) continue;
        if (waiting["q-" + m[2]]) { if (m[1] === "mesapath") keep.push(localStorage.getItem(k)); }
        else drop.push(k);
      }
      drop.forEach(function (k) { localStorage.removeItem(k); });
      return keep;
    });
  }
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register(B.urls.sw, { scope: "/mesa/" }).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function (reg) {   // the first load already makes the page loadable offline
      return tidy().then(function (keep) {
        if (reg.active) reg.active.postMessage({ cache: [location.pathname, B.urls.script, B.urls.state], keep: keep });
      });
    }).catch(function () {});
  } else {
    tidy().catch(function () {});
  }
  window.trucoTable = { queue: function () { return E.queue; }, flush: E.flush, refresh: E.refresh, server: function () { return E.server; } };
})();
