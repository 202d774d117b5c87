/* The in-place hand entry (scoring/entry_screen.py), included into the table page's script
 * (referee/table.js) and the súmula entry page's (scoring/entry_page.js).
 * Every entry goes into a queue kept in IndexedDB with its Idempotency-Key and the position it
 * expects (game, hand); the queue is sent in order whenever the network is up. A repeat of a sent
 * entry (the reply was lost) gets the first answer back: nothing is recorded twice.
 *
 * trucoEntry(B, opts): B is the page's boot data (entry_screen.screen_boot and the page's own: t, urls,
 * initial); opts says what differs between the pages: headers() (the credential), credentials ("omit" or
 * "same-origin"), store (the queue's name), and hooks: rendered(st) after each drawing, row(li, row) for a
 * sent entry's line, changed(data) when the server's state arrives, denied(entry, reply) for a 401/403
 * (true: keep the entry queued), stateFailed(res) for a refused state request, over(gameOver) when a hand
 * ends a game. */
function trucoEntry(B, opts) {
  "use strict";
  var T = B.t;
  var $ = function (id) { return document.getElementById(id); };
  var E = { server: B.initial, queue: [], online: navigator.onLine, sending: false, paused: false };
  var ending = "tricks", busyUntil = 0, lastTap = null, undoing = false;
  function hook(name) { return opts[name] || function () {}; }

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
  var store = opts.store, dbp = null;
  function db() {
    if (!dbp) dbp = new Promise(function (ok) {
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
      E.queue = (all || []).filter(function (e) { return e.store === store; });
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
    var s = E.server.state;
    if (s.over) return s;
    var cur = shape(s.game, s.hand, s.score, s.dealer, s.games || E.server.games_won);
    E.queue.forEach(function (e) {
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
    var n = E.queue.filter(function (e) { return e.state !== "refused"; }).length, el = $("net");
    el.className = E.online ? "net" : "net off";
    el.textContent = E.online ? (n ? fmt(T.waiting, { n: n }) : T.online) : (n ? fmt(T.offline_waiting, { n: n }) : T.offline);
  }
  function render() {
    var st = local(), server = E.server;
    var last = server.games.length ? server.games[server.games.length - 1].score : [0, 0];
    var shown = st.over ? (st.score || last) : st.score;  // once over: the last game's final score
    $("pts0").textContent = shown ? shown[0] : 0;
    $("pts1").textContent = shown ? shown[1] : 0;
    var g = st.games || server.games_won;
    if (B.best_of > 1) { $("games0").textContent = g[0]; $("games1").textContent = g[1]; }
    $("where").textContent = st.over ? T.over :
      fmt(T.where, { game: st.game, hand: st.hand, dealer: B.seats[st.dealer].name });
    renderNet();
    $("entry").hidden = !!st.over;
    if (!st.over) renderEntry(st);
    hook("rendered")(st);
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
    var rows = E.server.entries.slice(-3).map(function (r) { return { row: r }; });
    E.queue.forEach(function (e) { rows.push({ pending: e }); });
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
      if (x.row) hook("row")(li, x.row);
      ul.appendChild(li);
    });
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
    E.queue.push(e);
    saveEntry(e).then(flush);
    var after = local();
    if (after.game !== st.game || after.over) {
      var g = st.score.slice(); if (team !== null) g[team] = Math.min(12, g[team] + value);
      say(fmt(T.game_over, { game: st.game, pair: B.pairs[team], a: g[team], b: g[1 - team] }), "good");
    } else {
      say(E.online ? fmt(T.recorded, { hand: st.hand }) : fmt(T.queued, { hand: st.hand }), E.online ? "good" : "");
    }
    ending = "tricks";
    render();
  }
  function post(url, body, key) {
    var headers = Object.assign({ "Content-Type": "application/json" }, opts.headers());
    if (key) headers["Idempotency-Key"] = key;
    return fetch(url, { method: "POST", headers: headers, body: JSON.stringify(body || {}), credentials: opts.credentials })
      .then(function (res) {
        E.online = true;
        return res.json().catch(function () { return {}; }).then(function (data) {
          var err = data && data.error;
          return { ok: res.ok, status: res.status, data: data, message: err ? err.message : "", field: err ? err.field : "" };
        });
      }, function () { E.online = false; renderNet(); return { ok: false, status: 0, network: true }; });
  }
  function refuse(e, r) {   // the engine (or the server) refused it: shown, not retried
    e.state = "refused"; e.message = r.message;
    dropEntry(e);
    var i = E.queue.indexOf(e);
    if (i >= 0) E.queue.splice(i, 1);
    say(fmt(T.refused, { message: r.message }), "bad");
    refresh();
  }
  function flush() {
    if (E.sending || E.paused) return;
    var e = E.queue.filter(function (x) { return x.state !== "refused"; })[0];
    if (!e) { render(); return; }
    E.sending = true;
    post(B.urls.hands, e.body, e.key).then(function (r) {
      E.sending = false;
      if (r.network || r.status >= 500 || (r.status === 409 && r.field === "Idempotency-Key")) {
        render(); setTimeout(flush, 3000); return;
      }
      if (r.ok) {
        var i = E.queue.indexOf(e);
        if (i >= 0) E.queue.splice(i, 1);
        dropEntry(e);
        E.server.state = r.data.state;
        var c = r.data.created;
        E.server.entries.push({ kind: "hand", game: c.game, number: c.hand, winner: c.winner, points: c.points,
          value: c.value, ended_by: c.ended_by, score: c.score, by: T.this_phone, disputed: false });
        if (r.data.game_over) {
          var go = r.data.game_over, w = go.winner;
          say(fmt(T.game_over, { game: go.number, pair: go.winner_name, a: go.score[w], b: go.score[1 - w] }), "good");
          hook("over")(go);
        }
        if (r.data.state.over) refresh();
        flush(); return;
      }
      if (r.status === 409 && r.data.state) {  // this device is behind: what is queued cannot be placed
        var n = E.queue.length;
        E.queue.forEach(dropEntry); E.queue = [];
        E.server.state = r.data.state;
        say(fmt(n === 1 ? T.behind_one : T.behind, { n: n }), "bad");
        refresh(); return;
      }
      if ((r.status === 401 || r.status === 403) && opts.denied) {
        opts.denied(e, r); return;
      }
      refuse(e, r);
    });
  }
  function refresh() {
    return fetch(B.urls.state, { credentials: opts.credentials, cache: "no-store" }).then(function (res) {
      if (!res.ok) { hook("stateFailed")(res); return; }
      return res.json().then(function (data) {
        E.server = data; E.online = true; hook("changed")(data); render();
      });
    }, function () { E.online = false; render(); });
  }
  function undo() {
    if (undoing) return;                  // a double tap undoes one entry
    if (E.queue.length) {                 // the last entry is still on this device: just drop it
      var e = E.queue.pop(); dropEntry(e); say(T.undone); render(); return;
    }
    undoing = true;
    post(B.urls.undo, {}, newKey()).then(function (r) {
      setTimeout(function () { undoing = false; }, 1000);
      if (r.ok) { say(T.undone); refresh(); }
      else if ((r.status === 401 || r.status === 403) && opts.denied) {  // an expired session: the login notice, not the API's words
        fetch(B.urls.state, { credentials: opts.credentials, cache: "no-store" }).then(function (res) {
          if (res.status === 401) hook("stateFailed")(res); else say(r.message, "bad");
        }, function () { E.online = false; render(); });
      } else if (!r.network) say(r.message, "bad");
    });
  }
  function start() {
    window.addEventListener("online", function () { E.online = true; renderNet(); flush(); refresh(); });
    window.addEventListener("offline", function () { E.online = false; renderNet(); });
    loadQueue().then(function () { render(); flush(); });
    render();
    setInterval(function () { if (!E.sending) { if (E.queue.length) flush(); else if (E.online) refresh(); } }, 15000);
  }

  return Object.assign(E, { fmt: fmt, newKey: newKey, say: say, render: render, renderNet: renderNet, post: post,
    flush: flush, refresh: refresh, refuse: refuse, undo: undo, start: start });
}
