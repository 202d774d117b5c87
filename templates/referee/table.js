{% include "scoring/_entry_core.js" %}
/* The table page (referee/table_views.py): the entry screen (above) with the table's link as its
 * credential, plus the table's own: disputes, calling the referee, claims, appeals, the change of a
 * PIN, the pairs' signatures, and the page kept loadable offline (/mesa/sw.js, the last state in
 * localStorage): the service worker is handed the page, this script and the state on the first load, and
 * says when it stored them (trucoTable.offlineReady()).
 * Without a service worker (plain HTTP on a LAN address), a reload with the network down cannot load the
 * page, so while entries wait the page asks the table not to close the tab. */
(function () {
  "use strict";
  var B = JSON.parse(document.getElementById("boot").textContent);
  var T = B.t;
  var $ = function (id) { return document.getElementById(id); };
  var cache = "mesa-" + B.token;
  var E = trucoEntry(B, {
    store: "q-" + B.token, credentials: "same-origin",
    headers: function () { return { "Authorization": "Table " + B.token }; },
    rendered: function (st) {
      renderSigning(st); renderConflicts(); renderCalls();
      // "we are at the table" is moot once hands are entered: its room goes to the hand's buttons
      var here = document.querySelector("#presence form");
      if (here && E.server.entries.length) here.hidden = true;
    },
    actionDone: actionDone,
    row: function (li, row) {
      if (row.kind === "hand" && !row.disputed && E.server.status === "open") {
        var d = document.createElement("button"); d.type = "button"; d.textContent = T.dispute;
        d.className = "dispute";
        d.onclick = function () { confirmDispute(row); }; li.appendChild(d);
      }
    },
    changed: function (data) { localStorage.setItem(cache, JSON.stringify(data)); retrySettles(data); },
    conflict: function (e) { addOwn(e.conflict); },               // this phone's conflict: not "the other phone's"
    chose: function (e, how) { settle(e.conflict, how); },          // the choice told to the server
    undoConflict: function (c) { if (c) { addOwn(c.id); E.render(); } },
    foreign: function (data) {   // a table card: the table has another match now, or none
      if (!("match" in data) || data.match === B.match) return false;
      if (!E.queue.length) { E.say(T.next_match); location.reload(); }   // entries of this match wait: kept first
      return true;
    },
    conflictActions: function (box, e) {   // a conflict the players cannot settle: the other phone and the referee see it
      if (!e.theirs || e.theirs.disputed) return;
      var d = document.createElement("button"); d.type = "button"; d.className = "dispute"; d.textContent = T.dispute_theirs;
      d.onclick = function () { confirmDispute(e.theirs); };
      box.appendChild(d);
    },
    net: function (n) {   // entries waiting and no offline reload: keep the tab open
      var k = $("keep-tab");
      k.hidden = !(n && !offlineReload);
      k.textContent = n ? E.fmt(T.keep_tab, { n: n }) : "";
    }
  });
  var offlineReload = "serviceWorker" in navigator && window.isSecureContext;
  /* Leaving asks first while an entry is only in this page's memory: tapped, its IndexedDB write not committed
   * yet (e.seq still undefined; the unload would abort the write and the hand would be lost), or, without
   * offline reload, while entries wait (a reload with the network down could not load the page again). */
  window.addEventListener("beforeunload", function (ev) {
    var writing = E.queue.some(function (e) { return e.seq === undefined; });
    if (writing || (!offlineReload && E.queue.some(function (e) { return e.state !== "refused"; }))) {
      ev.preventDefault(); ev.returnValue = "";
    }
  });

  /* ---------------------------------------------------------------- conflicts between the table's phones
   * The server records an entry or undo it refused as stale (state.conflicts, pending until the phone that sent it
   * chooses). This phone's own are kept by id (localStorage): its queued entries show their choice above; the
   * others are "the other phone's", shown here so that both phones know; an undo of this phone refused asks
   * for an OK. A choice the network did not carry is sent again while the server still shows it pending. */
  var ownKey = "mesa-own-" + B.token, unsentKey = "mesa-settle-" + B.token;
  function listOf(key) { try { return JSON.parse(localStorage.getItem(key) || "[]"); } catch (err) { return []; } }
  function addOwn(id) {
    if (!id) return;
    var o = listOf(ownKey);
    if (o.indexOf(id) < 0) { o.push(id); localStorage.setItem(ownKey, JSON.stringify(o.slice(-50))); }
  }
  function settle(id, how) {
    if (!id) return;
    addOwn(id);
    E.post(B.urls.conflict.replace("/0/", "/" + id + "/"), { how: how }, E.newKey(), 6000).then(function (r) {
      var unsent = listOf(unsentKey).filter(function (u) { return u.id !== id; });
      if (r.network || r.status >= 500) unsent.push({ id: id, how: how });   // told again when the network is back
      localStorage.setItem(unsentKey, JSON.stringify(unsent));
      if (r.ok) E.refresh();
    });
  }
  function retrySettles(data) {
    var pending = (data.conflicts || []).map(function (c) { return c.id; });
    var unsent = listOf(unsentKey).filter(function (u) { return pending.indexOf(u.id) >= 0; });
    localStorage.setItem(unsentKey, JSON.stringify(unsent));
    unsent.forEach(function (u) { settle(u.id, u.how); });
  }
  function renderConflicts() {
    var box = $("conflicts"), list = E.server.conflicts || [];
    var mine = listOf(ownKey).concat(E.queue.map(function (e) { return e.conflict; }));
    var others = list.filter(function (c) { return mine.indexOf(c.id) < 0; });
    var myUndos = list.filter(function (c) { return c.kind === "undo" && mine.indexOf(c.id) >= 0; });
    var key = JSON.stringify([others, myUndos]);
    if (box.dataset.key === key) return;
    box.dataset.key = key;
    box.innerHTML = "";
    box.hidden = !others.length && !myUndos.length;
    others.forEach(function (c) {
      var p = document.createElement("p"); p.className = "other"; p.dataset.conflict = c.id;
      p.textContent = E.fmt(c.kind === "undo" ? T.other_undo_conflict : T.other_conflict,
                            { game: c.game, hand: c.position, position: c.position });
      box.appendChild(p);
    });
    myUndos.forEach(function (c) {
      var p = document.createElement("p"); p.className = "mine"; p.dataset.conflict = c.id;
      p.textContent = E.fmt(T.own_undo_conflict, { game: c.game, position: c.position }) + " ";
      var b = document.createElement("button"); b.type = "button"; b.textContent = T.own_undo_ok;
      b.onclick = function () { b.disabled = true; settle(c.id, "keep"); };
      p.appendChild(b); box.appendChild(p);
    });
  }

  /* the disputes: open ones hold the signatures (named in the signing box), settled ones say how */
  function renderDisputes() {
    var box = $("disputes"), list = E.server.disputes || [];
    var key = JSON.stringify(list);
    if (box.dataset.key === key) return;
    box.dataset.key = key; box.innerHTML = "";
    box.hidden = !list.length;
    list.forEach(function (d) {
      var p = document.createElement("p"); p.dataset.dispute = d.id;
      p.className = d.open ? "open" : "settled";
      p.textContent = E.fmt(T.game_hand, { game: d.game, hand: d.hand }) + " · " + (d.open ? T.dispute_open :
        E.fmt(d.resolution === "corrected" ? T.dispute_corrected : d.resolution === "withdrawn" ? T.dispute_withdrawn :
              T.dispute_confirmed, { game: d.game, hand: d.hand }));
      box.appendChild(p);
    });
  }
  function renderSigning(st) {
    var box = $("signing"), sg = E.server.signing;
    renderDisputes();
    var held = st.over && !E.queue.length && E.server.status === "open" && sg.held && sg.held.length;
    var show = st.over && !E.queue.length && (sg.signable || E.server.status !== "open" || !!held);
    box.hidden = !show;
    if (!show) return;
    var key = JSON.stringify([sg, E.server.status]);
    if (box.dataset.key === key) return;   // unchanged: keep what is being typed (a PIN)
    box.dataset.key = key;
    box.innerHTML = "";
    var h = document.createElement("h2"); h.textContent = T.sign_title; box.appendChild(h);
    if (held) {   // a dispute holds the súmula: nobody signs until the referee settles it (art. 25)
      sg.held.forEach(function (x) {
        var p = document.createElement("p"); p.className = "held"; p.textContent = x.message; box.appendChild(p);
      });
      return;
    }
    [0, 1].forEach(function (team) {
      var role = "team" + team, signed = sg.signed[role];
      if (signed) {
        var p = document.createElement("p"); p.className = "done";
        p.textContent = B.pairs[team] + ": " + E.fmt(T.signed_by, { name: signed }); box.appendChild(p); return;
      }
      var f = document.createElement("form"); f.dataset.team = team;
      var sel = document.createElement("select"); sel.name = "player"; sel.required = true;
      sel.setAttribute("aria-label", T.who_signs);
      var none = document.createElement("option"); none.value = ""; none.textContent = T.who_signs;  // nobody preselected
      none.disabled = true; none.selected = true; sel.appendChild(none);
      B.players[team].forEach(function (p) { var o = document.createElement("option"); o.value = p.id; o.textContent = p.name; sel.appendChild(o); });
      var pin = document.createElement("input"); pin.name = "pin"; pin.type = "password"; pin.inputMode = "numeric";
      pin.placeholder = T.pin; pin.autocomplete = "off"; pin.required = true;
      var b = document.createElement("button"); b.textContent = T.sign + " · " + B.pairs[team];
      f.appendChild(sel); f.appendChild(pin); f.appendChild(b);
      f.onsubmit = function (ev) {
        ev.preventDefault();
        E.post(B.urls.sign, { role: role, player: +sel.value, pin: pin.value, digest: sg.digest }, E.newKey())
          .then(function (r) {  // a correct signature clears a "PIN errado" left from a try before
            if (r.ok) { E.say(E.fmt(T.signed_by, { name: sel.options[sel.selectedIndex].text }), "good"); E.refresh(); }
            else { E.say(r.message, "bad"); pin.value = ""; pin.focus(); }  // the wrong PIN never stays
          });
      };
      box.appendChild(f);
    });
    if (E.server.status !== "open") { var q = document.createElement("p"); q.className = "done"; q.textContent = T.all_signed; box.appendChild(q); }
  }

  /* ---------------------------------------------------------------- the referee: calls, disputes, withdrawals
   * Each is queued like a hand (E.enqueue: sent once with its Idempotency-Key, in order, after the network comes
   * back) and says its outcome: sent, queued (and what happens next), refused (why). The calls box shows what the
   * server says of the table's calls: waiting since 14:32, or "referee on the way: Carla, 14:35" until closed. */
  function call() {
    E.enqueue(B.urls.calls, { kind: "call" }, T.call_label);
    E.say(E.online ? T.calling : E.fmt(T.action_queued, { what: T.call_label }), E.online ? "" : "warn");
  }
  function confirmDispute(row) {
    var box = $("confirm-dispute");
    box.querySelector("h2").textContent = E.fmt(T.dispute_confirm_title, { game: row.game, hand: row.number });
    box.querySelector("p").textContent = E.fmt(T.dispute_confirm_text, { what: rowText(row) });
    box.querySelector("button.yes").onclick = function () {
      box.close();
      E.enqueue(B.urls.calls, { kind: "dispute", game: row.game, hand: row.number },
                E.fmt(T.dispute_label, { game: row.game, hand: row.number }));
      E.say(E.online ? T.calling : E.fmt(T.action_queued, { what: E.fmt(T.dispute_label, { game: row.game, hand: row.number }) }),
            E.online ? "" : "warn");
    };
    box.querySelector("button.no").onclick = function () { box.close(); E.say(T.dispute_cancelled); };
    box.showModal();
  }
  function rowText(r) {
    return E.fmt(T.game_hand, { game: r.game, hand: r.number }) + " · " +
      (r.winner === null ? T.nobody : B.pairs[r.winner] + " +" + r.points) + " (" + r.score[0] + "×" + r.score[1] + ")";
  }
  function withdraw(c) {
    var label = c.kind === "dispute" ? E.fmt(T.withdraw_label, { game: c.game, hand: c.hand }) : T.withdraw_call_label;
    E.enqueue(B.urls.withdraw.replace("/0/", "/" + c.id + "/"), {}, label);
    E.say(E.online ? T.withdrawing : E.fmt(T.action_queued, { what: label }), E.online ? "" : "warn");
  }
  function actionDone(e, r) {
    if (!r.ok) { E.say(E.fmt(T.action_refused, { what: e.label, message: r.message || r.status }), "bad"); E.refresh(); return; }
    var d = r.data || {};
    if (d.resolution === "withdrawn") E.say(d.kind === "dispute" ? T.dispute_withdrawn_now : T.call_withdrawn, "good");
    else if (d.taken_at) E.say(E.fmt(T.call_answered, { time: E.hhmm(d.taken_at) }), "good");
    else E.say(E.fmt(d.kind === "dispute" ? T.dispute_sent : T.called, { time: E.hhmm(d.called_at) }), "good");
    E.refresh();
  }
  function renderCalls() {
    var box = $("calls"), list = E.server.calls || [];
    var key = JSON.stringify(list);
    if (box.dataset.key === key) return;
    box.dataset.key = key; box.innerHTML = "";
    box.hidden = !list.length;
    list.forEach(function (c) {
      var p = document.createElement("p"); p.dataset.call = c.id;
      var what = c.kind === "dispute" ? E.fmt(T.dispute_label, { game: c.game, hand: c.hand }) + " · " : "";
      if (c.taken_at) {
        p.className = "coming";
        p.textContent = what + E.fmt(T.call_coming, { name: c.referee, time: E.hhmm(c.taken_at) });
      } else {
        p.className = "waiting";
        p.textContent = what + E.fmt(T.call_waiting_since, { time: E.hhmm(c.called_at) });
      }
      if (c.withdrawable) {
        var b = document.createElement("button"); b.type = "button"; b.className = "withdraw";
        b.textContent = c.kind === "dispute" ? T.withdraw : T.withdraw_call;
        b.onclick = function () { b.disabled = true; withdraw(c); };
        p.appendChild(b);
      }
      box.appendChild(p);
    });
  }

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
  function chip(box, name, value, text, note, data) {   // a radio shown as a button: one tap chooses
    var l = document.createElement("label"), i = document.createElement("input"), t = document.createElement("span");
    i.type = "radio"; i.name = name; i.value = value; i.required = true;
    Object.keys(data || {}).forEach(function (k) { i.dataset[k] = data[k]; });
    t.textContent = text; l.appendChild(i); l.appendChild(t);
    if (note) { var n = document.createElement("small"); n.textContent = note; l.appendChild(n); }
    box.appendChild(l);
    return i;
  }
  function clearChips(box) { box.querySelectorAll("label").forEach(function (l) { l.remove(); }); }
  /* the claim (art. 24 and the catalog's articles): who claims names the claiming pair, the offender is one of the
   * other pair's seats, the tento in play is the engine's for this score (the only one in a mão de onze or de ferro) */
  function claimSeats(claim, team) {
    var box = $("claim-seat"); clearChips(box);
    B.seats.filter(function (s) { return s.team !== team; }).forEach(function (s) {
      chip(box, "seat", s.seat, s.name).onchange = function () { claim.pin.focus(); };   // next: the PIN, typed
    });
  }
  function claimOpen(claim) {
    var c = E.server.claim, st = E.server.state || {};
    claim.hidden = !c;
    $("claim-where").textContent = c ? E.fmt(T.claim_where, { game: st.game, hand: st.hand, value: c.value }) : T.claim_over;
    if (!c) return;
    fill(claim.value, c.values.map(function (v) { return [v, v]; }));
    claim.value.value = String(c.value);
  }
  function setupMore() {
    var claim = $("claim-form"), appeal = $("appeal-form"), pinf = $("pin-form");
    fill(appeal.team, [[0, B.pairs[0]], [1, B.pairs[1]]]); teamPlayers(appeal);
    appeal.team.onchange = function () { teamPlayers(appeal); };
    [0, 1].forEach(function (team) {
      B.players[team].forEach(function (p) {
        chip($("claim-player"), "player", p.id, p.name, B.pairs[team], { team: team }).onchange = function () {
          claimSeats(claim, team);
        };
      });
    });
    B.claims.forEach(function (c) {   // the title's head on the button ("Queimou carta"), the whole title on hover
      var label = chip($("claim-code"), "code", c.code, c.title.split(/ \(|: /)[0], c.article).parentNode;
      label.title = c.title;
      if (/^art\. \d+$/.test(c.article)) label.querySelector("small").className = "art";   // "art. 10" on one line
    });
    fill(pinf.player, B.players[0].concat(B.players[1]).map(function (p) { return [p.id, p.name]; }));
    function out(f, r, ok) { var o = f.querySelector(".out"); o.textContent = r.ok ? ok : (r.message || "?"); }
    claim.onsubmit = function (ev) {
      ev.preventDefault();
      var who = claim.querySelector("input[name=player]:checked");
      E.post(B.urls.rulings, { claimant_team: +who.dataset.team, offender_seat: +claim.seat.value, code: claim.code.value,
        facts: { value: +claim.value.value }, player: +who.value, pin: claim.pin.value }, E.newKey())
        .then(function (r) { out(claim, r, r.ok ? r.data.message : ""); if (r.ok) { claim.pin.value = ""; E.refresh(); } });
    };
    appeal.onsubmit = function (ev) {
      ev.preventDefault();
      if (!appeal.ruling.value) { appeal.querySelector(".out").textContent = T.no_rulings; return; }
      E.post(B.urls.appeal.replace("/0/", "/" + appeal.ruling.value + "/"), { team: +appeal.team.value,
        player: +appeal.player.value, pin: appeal.pin.value, reason: appeal.reason.value }, E.newKey())
        .then(function (r) { out(appeal, r, T.appeal_filed); if (r.ok) { appeal.pin.value = ""; appeal.reason.value = ""; } });
    };
    pinf.onsubmit = function (ev) {
      ev.preventDefault();
      fetch(B.urls.pin, { method: "POST", headers: { "Content-Type": "application/json" }, credentials: "same-origin",
        body: JSON.stringify({ player: +pinf.player.value, current: pinf.current.value, "new": pinf["new"].value }) })
        .then(function (res) { return res.json().then(function (d) { out(pinf, { ok: res.ok, message: d.error && d.error.message }, T.changed); }); });
      pinf.current.value = pinf["new"].value = "";
    };
    $("more-btn").onclick = function () {
      claimOpen(claim);
      fill(appeal.ruling, E.server.rulings.filter(function (r) { return r.appealable; })
        .map(function (r) { return [r.id, r.message + " (" + r.article + ")"]; }));
      $("more").showModal();
    };
  }

  /* ---------------------------------------------------------------- start */
  $("status").insertBefore($("msg"), $("net"));   // the status line sits above the buttons, always on screen
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
  /* A shared phone keeps no other table's page, state or token for ever: what this phone
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
  /* the first load already makes the page loadable offline: the worker is handed the page, this script and
   * the state (and which tables' copies to keep), and says when it stored them (offlineReady); if it could
   * not (the network went first), they are handed over again when the network is back */
  var offlineReady = false, handing = false;
  function handOver() {
    if (!offlineReload) { tidy().catch(function () {}); return; }  // no worker here: still forget other tables
    if (offlineReady || handing) return;
    handing = true;
    setTimeout(function () { handing = false; }, 20000);   // no answer (the worker stopped): may try again
    navigator.serviceWorker.ready.then(function (reg) {
      if (!reg.active || !window.MessageChannel) { handing = false; return; }
      return tidy().catch(function () { return null; }).then(function (keep) {
        var ch = new MessageChannel();
        ch.port1.onmessage = function (ev) { handing = false; offlineReady = !!(ev.data && ev.data.cached); };
        var message = { cache: [location.pathname, B.urls.script, B.urls.state] };
        if (keep) message.keep = keep;
        reg.active.postMessage(message, [ch.port2]);
      });
    }).catch(function () { handing = false; });
  }
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register(B.urls.sw, { scope: "/mesa/" }).then(handOver).catch(function () {});
    window.addEventListener("online", handOver);
  } else {
    tidy().catch(function () {});
  }
  window.trucoTable = { queue: function () { return E.queue; }, flush: E.flush, refresh: E.refresh, server: function () { return E.server; },
                        offlineReady: function () { return offlineReady; } };
})();

/* The match's time limit: the end-of-time procedure's "Time is up." replaces "When the time
 * is up:" at the limit, without a request (the page carries the limit's time). */
(function () {
  function check() {
    document.querySelectorAll("[data-time-up-at]").forEach(function (box) {
      var up = Date.now() >= new Date(box.getAttribute("data-time-up-at")).getTime();
      box.querySelectorAll("[data-when]").forEach(function (el) {
        el.hidden = (el.getAttribute("data-when") === "after") !== up;
      });
    });
  }
  check();
  setInterval(check, 15000);
})();
