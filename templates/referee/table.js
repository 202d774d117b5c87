/* The table page (referee/table_views.py): enter hands, offline first.
 * Every entry goes into a queue kept in IndexedDB with its Idempotency-Key and the position it
 * expects (game, hand); the queue is sent in order whenever the network is up. A repeat of a sent
 * entry (the reply was lost) gets the first answer back: nothing is recorded twice. */
(function () {
  "use strict";
  var B = JSON.parse(document.getElementById("boot").textContent);
  var T = B.t;
  var $ = function (id) { return document.getElementById(id); };
  var server = B.initial;          // the last state the server gave
  var queue = [];                  // entries not yet acknowledged, oldest first
  var ending = "tricks";
  var sending = false, online = navigator.onLine, busyUntil = 0, lastTap = null;

  function fmt(text, args) {
    return text.replace(/%\((\w+)\)s/g, function (_, k) { return args[k] === undefined ? "" : args[k]; });
  }
  function newKey() {
    var b = new Uint8Array(16); crypto.getRandomValues(b);
    b[6] = (b[6] & 15) | 64; b[8] = (b[8] & 63) | 128;
    var h = Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join("");
    return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
  }

  /* ---------------------------------------------------------------- IndexedDB queue */
  var store = "q-" + B.token, dbp = null;
  function db() {
    if (!dbp) dbp = new Promise(function (ok, ko) {
      if (!window.indexedDB) { ok(null); return; }
      var r = indexedDB.open("truco-mesa", 1);
      r.onupgradeneeded = function () { r.result.createObjectStore("queue", { keyPath: "seq", autoIncrement: true }); };
      r.onsuccess = function () { ok(r.result); };
      r.onerror = function () { ok(null); };
    });
    return dbp;
  }
  function tx(mode, fn) {
    return db().then(function (d) {
      if (!d) return null;
      return new Promise(function (ok) {
        var t = d.transaction("queue", mode), s = t.objectStore("queue"), out = fn(s);
        t.oncomplete = function () { ok(out && out.result); };
        t.onerror = function () { ok(null); };
      });
    });
  }
  function loadQueue() {
    return tx("readonly", function (s) { return s.getAll(); }).then(function (all) {
      queue = (all || []).filter(function (e) { return e.store === store; });
    });
  }
  function saveEntry(e) { return tx("readwrite", function (s) { return s.add(e); }).then(function (seq) { e.seq = seq; }); }
  function dropEntry(e) { return e.seq === undefined ? Promise.resolve() : tx("readwrite", function (s) { return s.delete(e.seq); }); }

  /* ---------------------------------------------------------------- local state */
  function allowed(score, end, rules) {
    var state = score[0] === 11 && score[1] === 11 ? "iron" : (score[0] === 11 || score[1] === 11 ? "eleven" : "normal");
    if (end === "deal_lost" || (end === "all_tied" && (rules.all_tied === "nobody" || state === "iron"))) return [0];
    if (state === "eleven") return ({ tricks: [3], eleven_refused: [rules.eleven_run_points], all_tied: [3] })[end] || [];
    if (state === "iron") return end === "tricks" ? [rules.iron_hand_value] : [];
    if (end === "run") return [1, 3, 6, 9];
    if (end === "tricks" || end === "all_tied" || (end === "fold" && rules.fold_any_time)) return [1, 3, 6, 9, 12];
    return [];
  }
  function shape(game, hand, score, dealer, games) {
    var st = score[0] === 11 && score[1] === 11 ? "iron" : (score[0] === 11 || score[1] === 11 ? "eleven" : "normal");
    var al = {};
    ["tricks", "run", "eleven_refused", "all_tied", "deal_lost", "fold"].forEach(function (e) {
      if (e !== "fold" || B.rules.fold_any_time) al[e] = allowed(score, e, B.rules);
    });
    return { over: false, game: game, hand: hand, score: score.slice(), dealer: dealer, state: st, allowed: al,
             games: games.slice(), eleven_team: st === "eleven" ? (score[0] === 11 ? 0 : 1) : null };
  }
  function toWin() { return Math.floor(B.best_of / 2) + 1; }
  /* the server's state with the queued entries applied: what the table sees */
  function local() {
    var s = server.state;
    if (s.over) return s;
    var cur = shape(s.game, s.hand, s.score, s.dealer, s.games || server.games_won);
    queue.forEach(function (e) {
      if (cur.over || e.state === "refused") return;
      var sc = cur.score.slice();
      if (e.body.winner !== null) sc[e.body.winner] = Math.min(12, sc[e.body.winner] + e.points);
      if (sc[0] >= 12 || sc[1] >= 12) {
        var g = cur.games.slice(); g[sc[0] >= 12 ? 0 : 1] += 1;
        if (Math.max(g[0], g[1]) >= toWin()) { cur = { over: true, game: null, games: g, score: sc }; return; }
        cur = shape(cur.game + 1, 1, [0, 0], 0, g);
      } else {
        cur = shape(cur.game, cur.hand + 1, sc, (cur.dealer + 1) % 4, cur.games);
      }
    });
    return cur;
  }
  function pointsOf(body) { return body.winner === null ? 0 : body.value; }

  /* ---------------------------------------------------------------- rendering */
  function say(text, kind) { var m = $("msg"); m.textContent = text || ""; m.className = kind || ""; }
  function valueLabel(v, st) {
    if (v === 0) return T.nobody;
    if (st.state === "eleven" && ending !== "eleven_refused") return fmt(T.eleven, { value: v });
    if (ending === "eleven_refused") return fmt(T.eleven_refused, { value: v });
    if (st.state === "iron") return fmt(T.iron, { value: v });
    if (ending === "run") return fmt(T.run, { value: v });
    return B.value_labels[String(v)] || String(v);
  }
  function renderNet() {
    var n = queue.filter(function (e) { return e.state !== "refused"; }).length, el = $("net");
    el.className = online ? "net" : "net off";
    el.textContent = online ? (n ? fmt(T.waiting, { n: n }) : T.online) : (n ? fmt(T.offline_waiting, { n: n }) : T.offline);
  }
  function render() {
    var st = local();
    var last = server.games.length ? server.games[server.games.length - 1].score : [0, 0];
    var shown = st.over ? (st.score || last) : st.score;  // once over: the last game's final score
    $("pts0").textContent = shown ? shown[0] : 0;
    $("pts1").textContent = shown ? shown[1] : 0;
    var g = st.games || server.games_won;
    if (B.best_of > 1) { $("games0").textContent = g[0]; $("games1").textContent = g[1]; }
    $("where").textContent = st.over ? T.over :
      fmt(T.where, { game: st.game, hand: st.hand, dealer: B.seats[st.dealer].name });
    renderNet();
    var entry = $("entry"), signing = $("signing");
    entry.hidden = !!st.over;
    if (!st.over) renderEntry(st);
    renderSigning(st);
    renderLast();
  }
  function renderEntry(st) {
    var ends = Object.keys(st.allowed).filter(function (e) { return st.allowed[e].length; });
    if (ends.indexOf(ending) < 0) ending = ends[0];
    var chips = $("endings"); chips.innerHTML = "";
    ends.forEach(function (e) {
      var b = document.createElement("button"); b.type = "button"; b.textContent = B.endings[e] || e;
      b.setAttribute("aria-pressed", e === ending ? "true" : "false"); b.dataset.ending = e;
      b.onclick = function () { ending = e; render(); };
      chips.appendChild(b);
    });
    var box = $("values"); box.innerHTML = "";
    var vals = st.allowed[ending] || [];
    if (vals.length === 1 && vals[0] === 0) {
      var n = document.createElement("button"); n.type = "button"; n.className = "v nobody"; n.textContent = T.nobody;
      n.onclick = function () { tap(null, 0); }; box.appendChild(n); return;
    }
    [0, 1].forEach(function (team) {
      var col = document.createElement("div"); col.className = "col"; col.dataset.team = team;
      var h = document.createElement("h3"); h.textContent = B.pairs[team]; col.appendChild(h);
      var usable = !(ending === "eleven_refused" && st.eleven_team === team);
      vals.forEach(function (v) {
        var b = document.createElement("button"); b.type = "button"; b.className = "v";
        b.textContent = valueLabel(v, st); b.dataset.value = v; b.disabled = !usable || Date.now() < busyUntil;
        b.onclick = function () { tap(team, v); };
        col.appendChild(b);
      });
      box.appendChild(col);
    });
  }
  function whoLabel(row) { return row.by ? fmt(T.by, { who: row.by }) : ""; }
  function renderLast() {
    var ul = $("last"); ul.innerHTML = "";
    var rows = server.entries.slice(-3).map(function (r) { return { row: r }; });
    queue.forEach(function (e) { rows.push({ pending: e }); });
    rows.slice(-4).forEach(function (x) {
      var li = document.createElement("li"), text = document.createElement("span"), by = document.createElement("span");
      by.className = "by";
      if (x.pending) {
        var e = x.pending;
        li.className = "pending";
        text.textContent = fmt(T.hand, { hand: e.body.hand }) + " · " + (e.body.winner === null ? T.nobody :
          B.pairs[e.body.winner] + " +" + e.points);
        by.textContent = e.state === "refused" ? fmt(T.refused, { message: e.message || "" }) : T.pending;
      } else {
        var r = x.row;
        if (r.kind === "hand") {
          text.textContent = fmt(T.hand, { hand: r.number }) + " · " + (r.winner === null ? T.nobody :
            B.pairs[r.winner] + " +" + r.points) + " (" + r.score[0] + "×" + r.score[1] + ")";
          by.textContent = r.disputed ? T.disputed : whoLabel(r);
          if (r.disputed) li.className = "disputed";
        } else {
          text.textContent = fmt(T.penalty, { article: r.article }) + " · " + B.pairs[r.beneficiary] + " +" + r.points;
          by.textContent = whoLabel(r);
        }
      }
      li.appendChild(text); li.appendChild(by);
      if (x.row && x.row.kind === "hand" && !x.row.disputed && server.status === "open") {
        var d = document.createElement("button"); d.type = "button"; d.textContent = T.dispute;
        d.className = "dispute";
        d.onclick = function () { dispute(x.row); }; li.appendChild(d);
      }
      ul.appendChild(li);
    });
  }
  function renderSigning(st) {
    var box = $("signing"), sg = server.signing;
    var show = st.over && !queue.length && (sg.signable || server.status !== "open");
    box.hidden = !show;
    if (!show) return;
    var key = JSON.stringify([sg, server.status]);
    if (box.dataset.key === key) return;   // unchanged: keep what is being typed (a PIN)
    box.dataset.key = key;
    box.innerHTML = "";
    var h = document.createElement("h2"); h.textContent = T.sign_title; box.appendChild(h);
    [0, 1].forEach(function (team) {
      var role = "team" + team, signed = sg.signed[role];
      if (signed) {
        var p = document.createElement("p"); p.className = "done";
        p.textContent = B.pairs[team] + ": " + fmt(T.signed_by, { name: signed }); box.appendChild(p); return;
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
        post(B.urls.sign, { role: role, player: +sel.value, pin: pin.value, digest: sg.digest }, newKey())
          .then(function (r) { if (r.ok) refresh(); else say(r.message, "bad"); });
      };
      box.appendChild(f);
    });
    if (server.status !== "open") { var q = document.createElement("p"); q.className = "done"; q.textContent = T.all_signed; box.appendChild(q); }
  }

  /* ---------------------------------------------------------------- entering */
  function tap(team, value) {
    var now = Date.now(), st = local();
    if (st.over || now < busyUntil) return;               // a double tap: the first one counts, say nothing
    var body = { winner: team, ended_by: ending, value: value, game: st.game, hand: st.hand };
    var sig = JSON.stringify(body);
    if (lastTap && lastTap.sig === sig && now - lastTap.at < 1500) return;
    lastTap = { sig: sig, at: now };
    busyUntil = now + 500; setTimeout(render, 520);
    var e = { store: store, key: newKey(), body: body, points: pointsOf(body), created: now };
    queue.push(e);
    saveEntry(e).then(flush);
    var after = local();
    if (after.game !== st.game || after.over) {
      var g = st.score.slice(); if (team !== null) g[team] = Math.min(12, g[team] + value);
      say(fmt(T.game_over, { game: st.game, pair: B.pairs[team], a: g[team], b: g[1 - team] }), "good");
    } else {
      say(online ? fmt(T.recorded, { hand: st.hand }) : fmt(T.queued, { hand: st.hand }), online ? "good" : "");
    }
    ending = "tricks";
    render();
  }
  function post(url, body, key) {
    var headers = { "Content-Type": "application/json", "Authorization": "Table " + B.token };
    if (key) headers["Idempotency-Key"] = key;
    return fetch(url, { method: "POST", headers: headers, body: JSON.stringify(body || {}), credentials: "omit" })
      .then(function (res) {
        online = true;
        return res.json().catch(function () { return {}; }).then(function (data) {
          var err = data && data.error;
          return { ok: res.ok, status: res.status, data: data, message: err ? err.message : "", field: err ? err.field : "" };
        });
      }, function () { online = false; renderNet(); return { ok: false, status: 0, network: true }; });
  }
  function flush() {
    if (sending) return;
    var e = queue.filter(function (x) { return x.state !== "refused"; })[0];
    if (!e) { render(); return; }
    sending = true;
    post(B.urls.hands, e.body, e.key).then(function (r) {
      sending = false;
      if (r.network || r.status >= 500 || (r.status === 409 && r.field === "Idempotency-Key")) {
        render(); setTimeout(flush, 3000); return;
      }
      var i = queue.indexOf(e);
      if (r.ok) {
        if (i >= 0) queue.splice(i, 1);
        dropEntry(e);
        server.state = r.data.state;
        server.state.games = r.data.state.games;
        var c = r.data.created;
        server.entries.push({ kind: "hand", game: c.game, number: c.hand, winner: c.winner, points: c.points,
          value: c.value, ended_by: c.ended_by, score: c.score, by: T.this_phone, disputed: false });
        if (r.data.game_over) {
          var go = r.data.game_over, w = go.winner;
          say(fmt(T.game_over, { game: go.number, pair: go.winner_name, a: go.score[w], b: go.score[1 - w] }), "good");
        }
        if (r.data.state.over) refresh();
        flush(); return;
      }
      if (r.status === 409 && r.data.state) {  // this phone is behind: what is queued cannot be placed
        var n = queue.length;
        queue.forEach(dropEntry); queue = [];
        server.state = r.data.state;
        say(fmt(T.behind, { n: n }), "bad");
        refresh(); return;
      }
      e.state = "refused"; e.message = r.message;   // the engine refused it: shown, not retried
      dropEntry(e);
      queue.splice(i, 1);
      say(fmt(T.refused, { message: r.message }), "bad");
      refresh();
    });
  }
  function refresh() {
    return fetch(B.urls.state, { credentials: "omit", cache: "no-store" }).then(function (res) {
      if (!res.ok) return;
      return res.json().then(function (data) {
        server = data; online = true; localStorage.setItem("mesa-" + B.token, JSON.stringify(data)); render();
      });
    }, function () { online = false; render(); });
  }
  function undo() {
    if (queue.length) {                   // the last entry is still on this phone: just drop it
      var e = queue.pop(); dropEntry(e); say(T.undone); render(); return;
    }
    post(B.urls.undo, {}, newKey()).then(function (r) {
      if (r.ok) { say(T.undone); refresh(); } else if (!r.network) say(r.message, "bad");
    });
  }
  function call(extra) {
    var body = Object.assign({ kind: "call" }, extra || {});
    return post(B.urls.calls, body, newKey()).then(function (r) {
      if (r.ok) {
        var t = new Date(r.data.called_at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
        say(fmt(T.called, { time: t }), "good"); refresh();
      } else if (!r.network) say(r.message, "bad");
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
      post(B.urls.rulings, { claimant_team: +claim.team.value, offender_seat: +claim.seat.value, code: claim.code.value,
        facts: { value: +claim.value.value }, player: +claim.player.value, pin: claim.pin.value }, newKey())
        .then(function (r) { out(claim, r, r.ok ? r.data.message : ""); if (r.ok) { claim.pin.value = ""; refresh(); } });
    };
    appeal.onsubmit = function (ev) {
      ev.preventDefault();
      if (!appeal.ruling.value) { appeal.querySelector(".out").textContent = T.no_rulings; return; }
      post(B.urls.appeal.replace("/0/", "/" + appeal.ruling.value + "/"), { team: +appeal.team.value,
        player: +appeal.player.value, pin: appeal.pin.value, reason: appeal.reason.value }, newKey())
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
      fill(appeal.ruling, server.rulings.filter(function (r) { return r.appealable; })
        .map(function (r) { return [r.id, r.message + " (" + r.article + ")"]; }));
      $("more").showModal();
    };
  }

  /* ---------------------------------------------------------------- start */
  $("undo").onclick = undo;
  $("call").onclick = function () { call(); };
  setupMore();
  window.addEventListener("online", function () { online = true; renderNet(); flush(); refresh(); });
  window.addEventListener("offline", function () { online = false; renderNet(); });
  if (!navigator.onLine) {
    var cached = localStorage.getItem("mesa-" + B.token);
    if (cached) { try { server = JSON.parse(cached); } catch (err) { /* keep the page's */ } }
  }
  localStorage.setItem("mesa-" + B.token, JSON.stringify(server));
  loadQueue().then(function () { render(); flush(); });
  render();
  setInterval(function () { if (!sending) { if (queue.length) flush(); else if (online) refresh(); } }, 15000);
  if ("serviceWorker" in navigator) navigator.serviceWorker.register(B.urls.sw, { scope: "/mesa/" }).catch(function () {});
  window.trucoTable = { queue: function () { return queue; }, flush: flush, refresh: refresh };
})();
