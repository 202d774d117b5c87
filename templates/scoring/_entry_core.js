/* The in-place hand entry (scoring/entry_screen.py), included into the table page's script
 * (referee/table.js) and the súmula entry page's (scoring/entry_page.js).
 * Every entry goes into a queue kept in IndexedDB with its Idempotency-Key and the position it
 * expects (game, hand); the queue is sent in order whenever the network is up. A repeat of a sent
 * entry (the reply was lost) gets the first answer back: nothing is recorded twice.
 * - honest status: a request with no answer in SEND_TIMEOUT ms is aborted and the entry shown as "saved on
 *   this phone, not yet confirmed", then sent again with the same key; "recorded" only once the server said so;
 * - a second identical entry (same pair, ending, value) within SAME_WINDOW ms of the first asks before it is
 *   queued ("enter another identical hand?"): a double tap records one hand;
 * - an undo names the entry it removes ({game, position}); the server refuses it (409) when that is not the
 *   last one, and the page says so;
 * - connectivity is what requests prove, never navigator.onLine: a failed request marks the page "OFFLINE since
 *   14:32 · retrying" and probes the state with backoff (1, 2, 4, 5, 5… s); the first request that succeeds
 *   clears it, refreshes and sends what waits. The page refreshes when it becomes visible again, and before a
 *   tap on a state not confirmed in the last FRESH_MS (the other phone may have entered since): the hand goes
 *   at the position the server is at, and the same hand the other phone has just entered asks first;
 * - actions (E.enqueue: the table's calls and disputes) wait in the same queue as the hands, sent once
 *   (their Idempotency-Key) and in order, even behind a hand in conflict; the page says each outcome;
 * - conflicts: a queued entry the server refuses because the súmula moved on is compared with
 *   what the server recorded at its position: equal, it counts as recorded (and the page says so); different,
 *   it stays on the phone marked "conflict" with the entries after it, until a player chooses: keep the
 *   server's (drop this one), send mine after it (this and the following go after the server's), or discard
 *   this one and the following. An entry refused for good (the engine's words) stays too, until discarded.
 *   Nothing queued is dropped without a choice. The server records the refusal as a pending conflict (the 409's
 *   `conflict`, kept on the entry as e.conflict) that the other phone and the referee see; the choice is told to the
 *   server through the hook chose(entry, how) ("keep", "after", "discard", or "same" when it equalled the server's).
 *
 * trucoEntry(B, opts): B is the page's boot data (entry_screen.screen_boot and the page's own: t, urls,
 * initial); opts says what differs between the pages: headers() (the credential), credentials ("omit" or
 * "same-origin"), store (the queue's name), and hooks: rendered(st) after each drawing, row(li, row) for a
 * sent entry's line, changed(data) when the server's state arrives, denied(entry, reply) for a 401/403
 * (true: keep the entry queued), foreign(data) true for a state that is not this page's match (not applied),
 * stateFailed(res) for a refused state request, over(gameOver) when a hand
 * ends a game, net(n) after the status badge is drawn (n entries waiting), conflictActions(box, e) to add a
 * choice to a conflict's panel, chose(entry, how) when a player chose for a conflict (see above), undoConflict(c)
 * when an undo was refused as stale (c: the conflict the server recorded, or null), actionDone(e, reply) when a
 * queued action (E.enqueue(url, body, label)) got its answer: sent, or refused (reply.ok false, reply.message why). */
function trucoEntry(B, opts) {
  "use strict";
  var T = B.t;
  var $ = function (id) { return document.getElementById(id); };
  var E = { server: B.initial, queue: [], online: true, sending: false, paused: false, downSince: null,
            confirmedAt: Date.now(), asked: 0, applied: 0 };
  /* every state the page takes is numbered by when it was asked for (E.asked); a refresh asked before a write's
   * answer was taken (E.applied) may describe the súmula before that write: it is not applied but asked again
   * (a late poll never takes the score back, and whoever waits on it gets the súmula as it is now) */
  function answered() { E.applied = ++E.asked; }
  var ending = "tricks", busyUntil = 0, lastTap = null, undoing = false, asking = null;
  var SEND_TIMEOUT = opts.timeout || 6000, SAME_WINDOW = 4000;
  // FRESH_MS: a test may set window.trucoFreshMs before the page loads (a phone whose score is always fresh)
  var FRESH_MS = window.trucoFreshMs || 2000, FRESH_TIMEOUT = 2500, STATE_TIMEOUT = 8000, BACKOFF = [1000, 2000, 4000, 5000];
  var probeTimer = null, failures = 0, tapping = Promise.resolve();
  function hook(name) { return opts[name] || function () {}; }
  function waiting(e) { return e.state !== "refused"; }
  function isAction(e) { return e.kind === "action"; }
  function noop() {}

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
      // left "checking" by a reload: sent at the position it was tapped at (a 409 is reconciled as always)
      E.queue.forEach(function (e) { if (e.state === "checking") e.state = undefined; });
    });
  }
  // the stores ("q-<token>") that hold entries still waiting, of every table this phone opened
  E.waitingStores = function () {
    return tx("readonly", function (s) { return s.getAll(); }).then(function (all) {
      var out = {};
      (all || []).forEach(function (e) { out[e.store] = true; });
      return out;
    });
  };
  function saveEntry(e) { return tx("readwrite", function (s) { return s.add(e); }).then(function (seq) { e.seq = seq; }); }
  function putEntry(e) { return e.seq === undefined ? Promise.resolve() : tx("readwrite", function (s) { return s.put(e); }); }
  function dropEntry(e) { return e.seq === undefined ? Promise.resolve() : tx("readwrite", function (s) { return s.delete(e.seq); }); }

  /* ---------------------------------------------------------------- local state
   * No rule is computed here: each lives once, in the engine. The server sends, with its state, the engine's preview
   * (E.server.preview, referee/engine/preview.py; docs/table-links.md, "The offline preview"): for every score a hand
   * can start at, the hand's shape (state, team at 11, value in play, the values each ending allows: art. 11, 13,
   * 18, 19, 20) and, per (winner, points), the score after it and the game's winner (a game ends at 12, the score
   * limit); the dealer after each dealer (art. 4); where the next game starts (11×11 under the room's eleven_all
   * past the time limit) and its dealer; the games that win the match. The page only looks things up. */
  function previewRow(score) { var P = E.server.preview; return P ? P.hands[score[0] + "-" + score[1]] : null; }
  function shape(game, hand, score, dealer, games) {
    var P = E.server.preview, row = previewRow(score), sh = row ? P.shapes[row[0]] : { allowed: {} };
    return { over: false, game: game, hand: hand, score: score.slice(), dealer: dealer, state: sh.state,
             eleven_team: sh.eleven_team, value: sh.value, allowed: sh.allowed, games: games.slice() };
  }
  /* past the room's time limit, under higher_score or one_more_hand (P.time_up, the engine's time_up_table): the
   * hands still to end before the procedure decides, or null (no such procedure, or its limit not reached by this
   * phone's clock: a hand still queued then is entered after it, so every queued hand counts) */
  function timeUpLeft(P) { var U = P.time_up; return U && Date.now() >= U.at ? U.hands : null; }
  /* what the procedure decides with the games at g and the game in play at score: [winner, given] or null */
  function timeUpDecides(P, g, score) {
    var by = P.time_up.games[g[0] + "-" + g[1]];
    return by === "score" ? P.time_up.score[score[0]][score[1]] : by;
  }
  /* the server's state with the queued entries applied: what the table sees */
  function local(entries) {
    var s = E.server.state, P = E.server.preview;
    if (s.over) return s;
    var cur = Object.assign({}, s, { games: (s.games || E.server.games_won).slice() });
    /* a state without the engine's preview (a page or a server from before it): nothing is previewed; the score
     * stays the súmula's, the buttons those its state allowed, and the hands queued after it (unpreviewed) go
     * in order where the súmula is when they are sent: the súmula confirms them */
    if (!P) cur.unpreviewed = 0;
    var left = P ? timeUpLeft(P) : null;
    (entries || E.queue).forEach(function (e) {
      // refused, or in conflict (and held behind one): not on the score until a player chooses
      if (cur.over || isAction(e) || e.state === "refused" || e.state === "conflict" || e.state === "held") return;
      // the server is past its place: recorded (its answer still on the way) or to be reconciled, never counted twice
      if (e.body.game < cur.game || (e.body.game === cur.game && e.body.hand < cur.hand)) return;
      if (!P) { cur.unpreviewed += 1; return; }
      var row = previewRow(cur.score), after = e.body.winner === null ? null : row && row[1][e.body.winner + ":" + e.points];
      // nobody scores (art. 5, 11.4, 20), or a value the engine does not allow at this score (the server refuses it,
      // shown then): the score stays
      if (!after) after = [cur.score[0], cur.score[1], null];
      var g = cur.games.slice(), ended = after[2] !== null;
      if (ended) {   // the engine says the hand ends the game
        g[after[2]] += 1;
        if (g[after[2]] >= P.games_to_win) { cur = { over: true, game: null, games: g, score: after.slice(0, 2) }; return; }
      }
      if (left !== null && --left <= 0) {   // the end-of-time procedure decides after this hand (art. 26, docs/room.md)
        var decided = timeUpDecides(P, g, ended ? P.next.score : after);
        if (decided) {
          if (decided[1] !== null) g[decided[1]] += 1;   // the game in play given to the pair ahead in it
          cur = { over: true, game: null, games: g, score: after.slice(0, 2), time_up: true }; return;
        }
      }
      if (ended) cur = shape(cur.game + 1, 1, P.next.score, P.next.dealer, g);
      else cur = shape(cur.game, cur.hand + 1, after.slice(0, 2), P.dealers[cur.dealer], cur.games);
    });
    return cur;
  }
  function pointsOf(body) { return body.winner === null ? 0 : body.value; }

  /* ---------------------------------------------------------------- rendering */
  function hhmm(t) {
    return new Date(t).toLocaleTimeString(document.documentElement.lang || [], { hour: "2-digit", minute: "2-digit" });
  }
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
    var n = E.queue.filter(waiting).length, el = $("net");
    var stalled = E.queue.some(function (e) { return e.state === "unconfirmed"; });
    var conflict = E.queue.some(function (e) { return e.state === "conflict"; });
    el.className = E.online && !stalled && !conflict ? (n ? "net wait" : "net") : "net off";
    el.textContent = conflict ? T.conflict_badge : !E.online ? fmt(n ? T.offline_since_waiting : T.offline_since,
                                                                   { n: n, time: hhmm(E.downSince || Date.now()) }) :
      stalled ? fmt(T.unconfirmed_badge, { n: n }) : (n ? fmt(T.waiting, { n: n }) : T.online);
    hook("net")(n);
  }
  function render() {
    var st = local(), server = E.server;
    var last = server.games.length ? server.games[server.games.length - 1].score : [0, 0];
    var shown = st.over ? (st.score || last) : st.score;  // once over: the last game's final score
    $("pts0").textContent = shown ? shown[0] : 0;
    $("pts1").textContent = shown ? shown[1] : 0;
    var g = st.games || server.games_won;
    if (B.best_of > 1) { $("games0").textContent = fmt(T.games_won, { n: g[0] }); $("games1").textContent = fmt(T.games_won, { n: g[1] }); }
    $("where").textContent = st.over ? (st.time_up ? T.over_time : T.over) :
      fmt(T.where, { game: st.game, hand: st.hand, dealer: B.seats[st.dealer].name }) +
      (st.unpreviewed ? " · " + T.no_preview : "");
    renderNet();
    timeUpTimer();
    $("entry").hidden = !!st.over;
    if (!st.over) renderEntry(st);
    hook("rendered")(st);
    renderLast();
    renderConflict();
    renderAll();
  }
  /* the preview changes at the time limit (P.time_up.at): the page draws itself again then */
  var timeUpAt = null;
  function timeUpTimer() {
    var U = E.server.preview && E.server.preview.time_up, wait = U ? U.at - Date.now() : -1;
    if (wait < 0 || timeUpAt === U.at) return;
    timeUpAt = U.at;
    setTimeout(render, Math.min(wait + 50, 2147483000));
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
  function whoLabel(row) { return row.by_table ? T.by_table : row.by ? fmt(T.by, { who: row.by }) : ""; }
  function scored(winner, points) { return winner === null ? T.nobody : B.pairs[winner] + " +" + points; }
  function rowText(r) {   // an entry the server recorded, with its game
    if (r.kind === "hand") {
      return fmt(T.game_hand, { game: r.game, hand: r.number }) + " · " + scored(r.winner, r.points) +
        " (" + r.score[0] + "×" + r.score[1] + ")";
    }
    return fmt(T.game_penalty, { game: r.game, article: r.article }) + " · " + B.pairs[r.beneficiary] + " +" + r.points;
  }
  function pendingText(e) { return isAction(e) ? e.label : fmt(T.game_hand, { game: e.body.game, hand: e.body.hand }) + " · " + scored(e.body.winner, e.points); }
  function pendingLabel(e) {
    if (e.state === "refused") return fmt(T.refused, { message: e.message || "" });
    return ({ unconfirmed: T.unconfirmed, conflict: T.conflict_row, held: T.held })[e.state] || T.pending;
  }
  function item(x) {
    var li = document.createElement("li"), text = document.createElement("span"), by = document.createElement("span");
    by.className = "by";
    if (x.pending) {
      var e = x.pending;
      li.className = "pending" + (e.state ? " " + e.state : "");
      text.textContent = pendingText(e); by.textContent = pendingLabel(e);
    } else {
      var r = x.row;
      text.textContent = rowText(r);
      by.textContent = r.disputed ? T.disputed : whoLabel(r);
      if (r.disputed) li.className = "disputed";
    }
    li.appendChild(text); li.appendChild(by);
    if (x.row) hook("row")(li, x.row);
    return li;
  }
  function renderLast() {
    var ul = $("last"); ul.innerHTML = "";
    var rows = E.server.entries.slice(-3).map(function (r) { return { row: r }; });
    E.queue.forEach(function (e) { rows.push({ pending: e }); });
    rows.slice(-4).forEach(function (x) { ul.appendChild(item(x)); });
  }
  /* every entry of the match, one collapsed block per game (the table page's "all entries") */
  function renderAll() {
    var box = $("all");
    if (!box) return;
    var key = JSON.stringify([E.server.entries, E.server.games, E.server.status]);
    if (box.dataset.key === key) return;    // unchanged: keep what is open
    box.dataset.key = key;
    var open = {};
    Array.prototype.forEach.call(box.querySelectorAll("details[data-game]"), function (d) { open[d.dataset.game] = d.open; });
    box.innerHTML = "";
    var count = $("all-count");
    if (count) count.textContent = String(E.server.entries.length);
    E.server.games.forEach(function (g, i) {
      var d = document.createElement("details"); d.dataset.game = g.number;
      d.open = open[g.number] === undefined ? (i === E.server.games.length - 1 && g.winner === null) : open[g.number];
      var sum = document.createElement("summary");
      var rows = E.server.entries.filter(function (r) { return r.game === g.number; });
      sum.textContent = fmt(T.game_summary, { game: g.number, a: g.score[0], b: g.score[1], n: rows.length }) +
        (g.winner !== null && g.winner !== undefined ? " · " + B.pairs[g.winner] : "");
      d.appendChild(sum);
      var ul = document.createElement("ul"); ul.className = "entries";
      rows.forEach(function (r) { ul.appendChild(item({ row: r })); });
      d.appendChild(ul); box.appendChild(d);
    });
  }

  /* ---------------------------------------------------------------- conflicts (kept until a player chooses) */
  function button(text, fn, cls) {
    var b = document.createElement("button"); b.type = "button"; b.textContent = text; b.onclick = fn;
    if (cls) b.className = cls;
    return b;
  }
  function renderConflict() {
    var box = $("conflict");
    if (!box) return;
    var e = E.queue.filter(function (x) { return x.state === "conflict" || x.state === "refused"; })[0];
    box.hidden = !e;
    if (!e) { box.dataset.key = ""; return; }
    if (e.state === "refused") {   // refused for good (the engine's words): the player discards it, and may enter it again
      if (box.dataset.key === "r" + e.key) return;
      box.dataset.key = "r" + e.key; box.innerHTML = "";
      var q = document.createElement("p");
      q.textContent = pendingText(e) + " · " + fmt(T.refused, { message: e.message || "" });
      box.appendChild(q);
      box.appendChild(button(T.discard_one, function () { choose(e, "drop"); }, "discard"));
      return;
    }
    var i = E.queue.indexOf(e), rest = E.queue.slice(i + 1).filter(function (x) { return !isAction(x); });
    var after = rest.length;
    var key = e.key + ":" + after + ":" + JSON.stringify(E.server.state);
    if (box.dataset.key === key) return;
    box.dataset.key = key;
    box.innerHTML = "";
    /* both entries side by side, and what each choice makes of the score: no choice drops a hand unseen */
    var p = document.createElement("p");
    p.textContent = T.conflict_msg + (after ? " " + fmt(after === 1 ? T.conflict_after_one : T.conflict_after, { n: after }) : "");
    box.appendChild(p);
    var sides = document.createElement("div"); sides.className = "sides";
    [[T.conflict_theirs_title, e.theirs ? rowText(e.theirs) + (e.theirs.by ? " · " + whoLabel(e.theirs) : "") : T.conflict_unknown, "theirs"],
     [T.conflict_mine_title, pendingText(e), "mine"]].forEach(function (side) {
      var d = document.createElement("div"); d.className = "side " + side[2];
      var h = document.createElement("strong"); h.textContent = side[0];
      var t = document.createElement("span"); t.textContent = side[1];
      d.appendChild(h); d.appendChild(t); sides.appendChild(d);
    });
    box.appendChild(sides);
    function unheld(list) { return list.map(function (x) { return Object.assign({}, x, { state: undefined }); }); }
    var both = scoreText(local(unheld([e].concat(rest)))), only = scoreText(local(unheld(rest))), none = scoreText(local([]));
    box.appendChild(button(fmt(T.choice_after, { score: both }), function () { choose(e, "after"); }, "after"));
    box.appendChild(button(fmt(after ? T.choice_keep_rest : T.choice_keep, { score: only, n: after }),
                           function () { choose(e, "keep"); }, "keep"));
    if (after) box.appendChild(button(fmt(T.choice_discard, { score: none, n: after }), function () { choose(e, "discard"); }, "discard"));
    hook("conflictActions")(box, e);   // the table page adds "dispute the súmula's" (the other phone sees it)
  }
  function scoreText(st) {   // the score a choice leads to, as the table reads it
    if (st.over) return T.over;
    return B.pairs[0] + " " + st.score[0] + " × " + st.score[1] + " " + B.pairs[1];
  }
  function choose(e, how) {
    var i = E.queue.indexOf(e);
    if (i < 0) return;
    var rest = E.queue.slice(i + 1);
    if (e.conflict && how !== "drop") { hook("chose")(e, how); e.conflict = null; }   // the server's pending conflict: settled
    if (how === "drop") {
      E.queue.splice(i, 1); dropEntry(e); say(T.discarded);
    } else if (how === "discard") {   // this one and the hands after it; queued calls stay
      var gone = E.queue.slice(i).filter(function (x) { return !isAction(x); });
      E.queue = E.queue.filter(function (x) { return gone.indexOf(x) < 0; });
      gone.forEach(dropEntry);
      say(T.discarded);
    } else {
      if (how === "keep") { E.queue.splice(i, 1); dropEntry(e); say(T.kept_server); }
      else { rest = [e].concat(rest); say(T.sending_after); }
      rest.forEach(function (x) { x.state = undefined; if (how === "after") x.follow = true; putEntry(x); });
    }
    render();
    refresh().then(flush, flush);
  }
  function sameHand(row, body) {
    return row && row.kind === "hand" && row.winner === body.winner && row.value === body.value && row.ended_by === body.ended_by;
  }
  /* the server refused e with 409: it moved on. Equal to what it recorded there: counted; else a conflict. */
  function reconcile(e) {
    return refresh().then(function () {
      var theirs = E.server.entries.filter(function (r) {
        return r.kind === "hand" && r.game === e.body.game && r.number === e.body.hand;
      })[0];
      var i = E.queue.indexOf(e);
      if (i < 0) return;
      if (sameHand(theirs, e.body)) {
        if (e.conflict) hook("chose")(e, "same");
        E.queue.splice(i, 1); dropEntry(e);
        say(fmt(T.already, { hand: e.body.hand, game: e.body.game }), "good");
        render(); flush(); return;
      }
      e.state = "conflict"; e.theirs = theirs || null; putEntry(e);
      E.queue.slice(i + 1).forEach(function (x) { if (!isAction(x)) { x.state = "held"; putEntry(x); } });
      say(T.conflict_msg, "bad");
      render();
      hook("conflict")(e);
    }, function () { setTimeout(flush, 3000); });
  }

  /* ---------------------------------------------------------------- entering */
  function askSame(team, value, end, question) {
    var box = $("ask");
    if (!box) return;
    box.hidden = false; box.innerHTML = "";
    var p = document.createElement("span");
    p.textContent = question || fmt(T.same_again, { what: scored(team, team === null ? 0 : value) });
    box.appendChild(p);
    var yes = button(T.same_yes, function () {
      box.hidden = true; ending = end; lastTap = null; tap(team, value, true);
    }, "yes");
    box.appendChild(yes);
    box.appendChild(button(T.same_no, function () { box.hidden = true; }, "no"));
    clearTimeout(askSame.timer);
    askSame.timer = setTimeout(function () { box.hidden = true; }, 10000);
  }
  function tap(team, value, confirmed) {
    var now = Date.now(), st = local();
    if (st.over || now < busyUntil) return;               // a double tap within the lock: the first one counts
    var sig = JSON.stringify([team, ending, value]);
    if (!confirmed && lastTap && lastTap.sig === sig && now - lastTap.at < SAME_WINDOW) {
      askSame(team, value, ending); return;              // the same hand again so soon: ask before sending
    }
    if ($("ask")) $("ask").hidden = true;
    lastTap = { sig: sig, at: now };
    busyUntil = now + 500; setTimeout(render, 520);
    var body = { winner: team, ended_by: ending, value: value, game: st.game, hand: st.hand };
    if (st.unpreviewed) body.hand = st.hand + st.unpreviewed;   // a placeholder: it goes where the súmula is then
    var e = { store: store, key: newKey(), body: body, points: pointsOf(body), created: now };
    // no preview: a hand queued behind another of this phone's goes after it, where the súmula is when it is sent
    if (st.unpreviewed) e.follow = true;
    /* a state not confirmed lately (the other phone may have entered since): the entry is kept at once (a reload
     * loses nothing) but sent only after the server's state says where it goes (checked) */
    var shown = E.server.entries.length;
    if (E.online && !E.queue.some(function (x) { return waiting(x) && !isAction(x); }) &&
        Date.now() - E.confirmedAt > FRESH_MS) e.state = "checking";
    E.queue.push(e);
    var saved = saveEntry(e);
    // "recorded" only once the server says so (flush); until then it is on this phone
    say(E.online ? fmt(T.sending, { hand: body.hand }) :
      E.server.preview ? fmt(T.queued, { hand: st.hand }) : T.queued_unpreviewed);
    ending = "tricks";
    render();
    if (e.state !== "checking") { saved.then(flush); return; }
    tapping = tapping.then(function () { return refresh(FRESH_TIMEOUT).catch(noop); })
      .then(function () { return saved.catch(noop); })   // a phone that cannot store it still sends it
      .then(function () { checked(e, shown, confirmed); })
      .catch(function () {   // the chain goes on: the next tap is never stuck behind this one, nor this one
        if (e.state === "checking") { e.state = undefined; putEntry(e); flush(); }
        render();
      });
  }
  /* the server's state arrived (or the network failed): the entry goes where the server is now; the very hand the
   * other phone has just entered asks first (never counted twice); a value the new score does not allow is said */
  function checked(e, shown, confirmed) {
    var i = E.queue.indexOf(e);
    if (i < 0 || e.state !== "checking") return;   // undone meanwhile
    var st = local(E.queue.slice(0, i)), b = e.body, note = "";
    function drop(text, kind) { E.queue.splice(E.queue.indexOf(e), 1); dropEntry(e); say(text, kind); render(); }
    if (st.over) { drop(T.over, "bad"); return; }
    if (st.game !== b.game || st.hand !== b.hand) {   // the other phone entered since this phone showed the score
      var same = E.server.entries.slice(shown).filter(function (r) { return sameHand(r, b); })[0];
      if (same && !confirmed) {
        drop("");
        askSame(b.winner, b.value, b.ended_by, fmt(T.other_same, { what: rowText(same) }));
        return;
      }
      var fits = (st.allowed[b.ended_by] || []).indexOf(b.value) >= 0 &&
        !(b.ended_by === "eleven_refused" && st.eleven_team === b.winner);
      if (!fits) { drop(T.moved_check, "bad"); return; }
      note = fmt(T.moved_on, { prev: b.hand, hand: st.hand, game: st.game }) + " ";
      e.body = Object.assign({}, b, { game: st.game, hand: st.hand });
    }
    e.state = undefined; putEntry(e);
    say(note + (E.online ? fmt(T.sending, { hand: e.body.hand }) : fmt(T.queued, { hand: e.body.hand })), note ? "warn" : "");
    render(); flush();
  }
  function post(url, body, key, timeout) {
    var headers = Object.assign({ "Content-Type": "application/json" }, opts.headers());
    if (key) headers["Idempotency-Key"] = key;
    var ctl = timeout && window.AbortController ? new AbortController() : null, timer = null, late = false;
    if (ctl) timer = setTimeout(function () { late = true; ctl.abort(); }, timeout);
    return fetch(url, { method: "POST", headers: headers, body: JSON.stringify(body || {}), credentials: opts.credentials,
                        signal: ctl ? ctl.signal : undefined })
      .then(function (res) {
        clearTimeout(timer);
        if (markUp()) setTimeout(function () { refresh().catch(noop); }, 0);   // back: the state, then what waits
        return res.json().catch(function () { return {}; }).then(function (data) {
          var err = data && data.error;
          return { ok: res.ok, status: res.status, data: data, message: err ? err.message : "", field: err ? err.field : "" };
        });
      }, function () {
        clearTimeout(timer);
        if (late) return { ok: false, status: 0, network: true, timeout: true };   // no answer: maybe recorded, maybe not
        markDown(); return { ok: false, status: 0, network: true };
      });
  }
  function refuse(e, r) {   // the engine (or the server) refused it: shown, not retried, kept until discarded
    e.state = "refused"; e.message = r.message; putEntry(e);
    say(fmt(T.refused, { message: r.message }), "bad");
    refresh().catch(noop);
  }
  /* connectivity, as requests prove it: down at the first failure (probed again with backoff), up at the first answer */
  function markDown() {
    if (E.online || !E.downSince) { E.online = false; E.downSince = E.downSince || Date.now(); renderNet(); }
    if (!probeTimer) {
      var wait = BACKOFF[Math.min(failures, BACKOFF.length - 1)];
      failures += 1;
      probeTimer = setTimeout(function () { probeTimer = null; refresh().catch(noop); }, wait);
    }
  }
  function markUp() {   // true when the page was down: the caller refreshes
    var was = !E.online;
    E.online = true; E.downSince = null; failures = 0;
    if (probeTimer) { clearTimeout(probeTimer); probeTimer = null; }
    if (was) renderNet();
    return was;
  }
  function sendAction(e) {   // a queued call or dispute: once (its key), the outcome said by the page (actionDone)
    E.sending = true; E.inflight = e;
    post(e.url, e.body, e.key, SEND_TIMEOUT).then(function (r) {
      E.sending = false; E.inflight = null;
      if (r.timeout || r.network || r.status >= 500 || (r.status === 409 && r.field === "Idempotency-Key")) {
        if (r.timeout && e.state !== "unconfirmed") { e.state = "unconfirmed"; putEntry(e); }
        if (!e.told) { e.told = true; say(fmt(T.action_queued, { what: e.label }), "warn"); }
        render(); setTimeout(flush, r.timeout ? 2000 : 3000); return;
      }
      var i = E.queue.indexOf(e);
      if (i >= 0) E.queue.splice(i, 1);
      dropEntry(e);
      hook("actionDone")(e, r);
      render(); flush();
    });
  }
  function flush() {
    if (E.sending || E.paused) return;
    var all = E.queue.filter(waiting), e = all[0];
    if (!e) { render(); return; }
    if (e.state === "conflict" || e.state === "held" || e.state === "checking") {   // a player chooses first (or the
      // state is being checked); a call behind it goes on
      var action = all.filter(isAction)[0];
      if (action) sendAction(action); else render();
      return;
    }
    if (isAction(e)) { sendAction(e); return; }
    if (e.follow) {   // "send mine after it": at the position the server is at now (a new key for a new body)
      var s = E.server.state;
      if (!s.over && (s.game !== e.body.game || s.hand !== e.body.hand)) {
        e.body = Object.assign({}, e.body, { game: s.game, hand: s.hand }); e.key = newKey(); putEntry(e);
      }
    }
    E.sending = true; E.inflight = e;
    var before = E.server.state;
    post(B.urls.hands, e.body, e.key, SEND_TIMEOUT).then(function (r) {
      E.sending = false; E.inflight = null;
      if (r.timeout) {   // sent, no answer: kept here, shown as not confirmed, sent again with the same key
        if (e.state !== "unconfirmed") { e.state = "unconfirmed"; putEntry(e); }
        say(fmt(T.unconfirmed_msg, { hand: e.body.hand }), "warn");
        render(); setTimeout(flush, 2000); return;
      }
      if (r.network || r.status >= 500 || (r.status === 409 && r.field === "Idempotency-Key")) {
        // kept on this phone, said so (never "sending…" for ever), sent again when a request gets through
        if (r.network && !e.told) {
          e.told = true; say(E.server.preview ? fmt(T.queued, { hand: e.body.hand }) : T.queued_unpreviewed, "warn");
        }
        render(); setTimeout(flush, 3000); return;
      }
      if (r.ok) {
        var i = E.queue.indexOf(e);
        if (i >= 0) E.queue.splice(i, 1);
        dropEntry(e);
        E.server.state = r.data.state; E.confirmedAt = Date.now(); answered();
        var c = r.data.created;
        // its position among the game's entries: the new state's count, unless the hand ended the game
        var position = r.data.game_over ? (r.data.game_over.entries || null) : r.data.state.entries;
        var seen = E.server.entries.some(function (x) { return x.kind === "hand" && x.game === c.game && x.number === c.hand; });
        if (!seen) E.server.entries.push({ kind: "hand", game: c.game, number: c.hand, winner: c.winner, points: c.points,
          value: c.value, ended_by: c.ended_by, score: c.score, by: T.this_phone, disputed: false, position: position });
        if (r.data.game_over) {
          var go = r.data.game_over, w = go.winner;
          say(fmt(T.game_over, { game: go.number, pair: go.winner_name, a: go.score[w], b: go.score[1 - w] }), "good");
          hook("over")(go);
          refresh().catch(noop);
        } else {
          say(fmt(T.recorded, { hand: c.hand }), "good");
          // past the time limit the preview counts the hands left before the procedure decides: asked again
          if (E.server.preview && E.server.preview.time_up) refresh().catch(noop);
        }
        flush(); return;
      }
      if (r.status === 409 && r.data.state) {  // the súmula moved on: equal there, or a conflict kept here
        E.server.state = r.data.state || before; answered();
        e.conflict = r.data.conflict ? r.data.conflict.id : null;   // recorded by the server: seen by the other phone
        reconcile(e); return;
      }
      if ((r.status === 401 || r.status === 403) && opts.denied) {
        opts.denied(e, r); return;
      }
      refuse(e, r);
    });
  }
  /* the engine's preview is sent again only when it changed: the page says the key of the one it holds, and keeps
   * it for a state that brings the same key without it (a server from before the preview sends neither) */
  function stateUrl() {
    var key = E.server.preview && E.server.preview_key;
    return key ? B.urls.state + (B.urls.state.indexOf("?") < 0 ? "?" : "&") + "preview=" + encodeURIComponent(key)
      : B.urls.state;
  }
  function keepPreview(data) {
    if (!data.preview && data.preview_key && data.preview_key === E.server.preview_key) data.preview = E.server.preview;
  }
  /* the server's state; rejects when the network failed (or the worker answered with its stored copy: an old state
   * is never compared with a refused entry, a false conflict), so that a caller never takes the old state as current */
  function refresh(timeout) {
    var ctl = window.AbortController ? new AbortController() : null, asked = ++E.asked;
    var timer = ctl ? setTimeout(function () { ctl.abort(); }, timeout || STATE_TIMEOUT) : null;
    return fetch(stateUrl(), { credentials: opts.credentials, cache: "no-store", signal: ctl ? ctl.signal : undefined })
      .then(function (res) {
        clearTimeout(timer);
        if (res.headers.get("X-Truco-Copy")) { markDown(); throw new Error("offline copy"); }
        if (res.status >= 502) { markDown(); throw new Error("no server"); }   // a proxy's answer: the server is not there
        var was = markUp();
        if (!res.ok) { hook("stateFailed")(res); return; }
        return res.json().then(function (data) {
          if (hook("foreign")(data)) return;   // another match's state (a table card's next match): not applied
          if (asked < E.applied) {   // older than a write's answer taken meanwhile: asked again, never applied
            if (was) flush();
            return refresh(timeout);
          }
          E.applied = asked;
          keepPreview(data);
          E.server = data; E.confirmedAt = Date.now(); hook("changed")(data); render();
          if (was) flush();                    // back: what waits goes now
        });
      }, function (err) { clearTimeout(timer); markDown(); throw err; });
  }
  function sendUndo(body, key, tries) {
    return post(B.urls.undo, body, key, SEND_TIMEOUT).then(function (r) {
      if (r.timeout && tries < 2) { say(T.undo_unconfirmed, "warn"); return sendUndo(body, key, tries + 1); }  // same key
      setTimeout(function () { undoing = false; }, 1000);
      if (r.ok) { say(T.undone, "good"); refresh().catch(noop); }
      else if (r.status === 409 && r.data && r.data.state) { say(T.undo_stale, "bad"); hook("undoConflict")(r.data.conflict || null); refresh().catch(noop); }
      else if ((r.status === 401 || r.status === 403) && opts.denied) {  // an expired session: the login notice, not the API's words
        fetch(B.urls.state, { credentials: opts.credentials, cache: "no-store" }).then(function (res) {
          if (res.status === 401) hook("stateFailed")(res); else say(r.message, "bad");
        }, function () { markDown(); say(T.undo_offline, "bad"); });
      } else if (r.timeout) { say(T.undo_unconfirmed, "bad"); refresh().catch(noop); }
      else if (r.network) say(T.undo_offline, "bad");
      else say(r.message || T.nothing_undone, "bad");
    });
  }
  function undo() {
    if (undoing) return;                  // a double tap undoes one entry
    var mine = E.queue.filter(function (e) { return waiting(e) && !isAction(e); });
    if (mine.length) {                    // the last entry is still on this device: just drop it
      var e = mine[mine.length - 1];
      // being sent, or sent without an answer (it may be on the server already): wait for the answer first
      if ((E.sending && E.inflight === e) || e.state === "unconfirmed") { say(T.wait_sending); return; }
      E.queue.splice(E.queue.indexOf(e), 1); dropEntry(e); say(T.undone_here, "good"); render(); return;
    }
    if (!E.online) { say(T.undo_offline, "bad"); refresh().catch(noop); return; }   // said, never silent
    undoing = true;
    // the undo names the entry this phone shows as the last (never refreshed first: the player undoes what they
    // see); the server refuses it (409) when another phone entered since
    var last = E.server.entries[E.server.entries.length - 1];
    (last && !last.position ? refresh() : Promise.resolve()).then(function () {
      var l = E.server.entries[E.server.entries.length - 1];
      if (!l) { undoing = false; say(T.nothing_undone, "bad"); return; }
      return sendUndo(l.position ? { game: l.game, position: l.position } : {}, newKey(), 0);
    }, function () { undoing = false; say(T.undo_offline, "bad"); });   // no state (offline): nothing named, nothing sent
  }
  function start() {
    // the browser's word on the network is a hint to ask now, never the verdict: the requests give it
    function probe() { refresh().catch(noop); }
    window.addEventListener("online", function () { probe(); flush(); });
    window.addEventListener("offline", probe);
    document.addEventListener("visibilitychange", function () { if (!document.hidden) probe(); });
    window.addEventListener("focus", probe);
    loadQueue().then(function () { render(); flush(); });
    render();
    probe();
    setInterval(function () {   // send what can be sent; otherwise (nothing, or a conflict waiting for a choice) poll
      if (E.sending || !E.online) return;   // down: the probe's backoff asks
      var q = E.queue.filter(waiting);
      if (q.length && q[0].state !== "conflict" && q[0].state !== "held" && q[0].state !== "checking") flush(); else probe();
    }, 15000);
  }

  /* a call or a dispute of the table, queued like a hand: sent once and in order; opts.actionDone(e, reply) says how */
  function enqueue(url, body, label) {
    var e = { store: store, kind: "action", key: newKey(), url: url, body: body, label: label, created: Date.now() };
    E.queue.push(e);
    render();
    saveEntry(e).then(flush);
    return e;
  }
  return Object.assign(E, { fmt: fmt, newKey: newKey, say: say, render: render, renderNet: renderNet, post: post,
    flush: flush, refresh: function () { return refresh().catch(noop); }, refuse: refuse, undo: undo, start: start,
    choose: choose, enqueue: enqueue, hhmm: hhmm });
}
