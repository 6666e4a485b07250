/* Recording without a network (docs/ui.md, "Recording offline"): what this device keeps in IndexedDB.

   - The outbox: every move a page records goes here first, with its Idempotency-Key and expected_seq, and
     leaves it only once the server has answered. Closing the tab, reloading, a phone asleep: nothing is lost,
     and sending it again can never write it twice (the key). Sending goes in order, one move at a time, under
     a lock all this browser's tabs share; it stops at the first move the server refuses, and nothing behind
     that move is sent until the recorder decides.
   - The kept answers: the match's own API answers (state, review, drawing, legal moves, the game), so that
     a match page opened once opens again offline showing what the server last said.

   Only the pages' scripts use this; the server knows nothing of it: a move from the outbox is an ordinary
   POST /api/matches/{id}/events. */
"use strict";
(() => {
  const K = Kroniek, h = K.h;
  const DB_NAME = "kroniek";
  /** The most kept answers (the oldest go first): a device must not fill up with old matches' steps. */
  const KEEP = 600;
  let opened = null;
  const db = () => opened || (opened = new Promise((resolve, reject) => {
    const rq = indexedDB.open(DB_NAME, 1);
    rq.onupgradeneeded = () => {
      const d = rq.result;
      d.createObjectStore("outbox", { keyPath: "key" }).createIndex("match", "match");
      d.createObjectStore("kept", { keyPath: "path" }).createIndex("at", "at");
    };
    rq.onsuccess = () => resolve(rq.result);
    rq.onerror = () => { opened = null; reject(rq.error); };
  }));
  /** One transaction on one store; ``fn`` makes its requests, the last one's result is what it resolves to. */
  const tx = async (store, mode, fn) => {
    const d = await db();
    return new Promise((resolve, reject) => {
      const t = d.transaction(store, mode);
      let out;
      const rq = fn(t.objectStore(store));
      if (rq) rq.onsuccess = () => { out = rq.result; };
      t.oncomplete = () => resolve(out);
      t.onerror = t.onabort = () => reject(t.error);
    });
  };

  // -- kept answers --------------------------------------------------------------------------------------
  /** The GETs whose answers a match page needs offline: the match and its views, the game, who is signed in. */
  const KEPT = /^\/api\/(me$|games\/[^/?]+$|matches\/[^/?]+(\/(state|review|scene|legal-moves|roles|snapshot))?(\?|$))/;
  let puts = 0, generation = 0;
  const keep = (path, data) => {
    if (!KEPT.test(path)) return;
    const asOf = generation;
    // when the page is idle: a long review's answer is cloned on the page's own thread
    const later = window.requestIdleCallback || ((fn) => setTimeout(fn, 50));
    later(() => {
      if (asOf !== generation) return;  // signed out meanwhile
      tx("kept", "readwrite", (s) => s.put({ path, data, at: Date.now() })).catch(() => {});
      if (++puts % 50 === 0) prune();
    }, { timeout: 2000 });
  };
  const prune = () => tx("kept", "readwrite", (s) => {
    const count = s.count();
    count.onsuccess = () => {
      let extra = count.result - KEEP;
      if (extra <= 0) return;
      s.index("at").openCursor().onsuccess = (e) => { const c = e.target.result; if (c && extra-- > 0) { c.delete(); c.continue(); } };
    };
  }).catch(() => {});
  const kept = (path) => (KEPT.test(path) ? tx("kept", "readonly", (s) => s.get(path)).catch(() => undefined) : Promise.resolve(undefined));

  // -- the outbox ----------------------------------------------------------------------------------------
  const byOrder = (a, b) => a.order - b.order;
  /** A match's moves waiting on this device, in the order they are sent. */
  const list = async (match) => (await tx("outbox", "readonly", (s) => s.index("match").getAll(match)).catch(() => []) || []).sort(byOrder);
  const put = (entry) => tx("outbox", "readwrite", (s) => s.put(entry));
  const remove = (keys) => tx("outbox", "readwrite", (s) => { for (const k of keys) s.delete(k); });
  /** Everything this browser's tabs do to a match's outbox, one at a time (a move is never sent twice at once). */
  const locked = (match, fn) => (navigator.locks ? navigator.locks.request(`kroniek-outbox:${match}`, fn) : fn());

  const listeners = new Set();
  const channel = window.BroadcastChannel ? new BroadcastChannel("kroniek-outbox") : null;
  const changed = (detail, local = true) => {
    for (const fn of listeners) fn(detail);
    if (local && channel) channel.postMessage({ match: detail.match, what: "changed" });
  };
  if (channel) channel.onmessage = (e) => changed(e.data, false);
  let sending = null;
  /** The matches whose last try to send failed (the status line then says so even for a move entered online). */
  const troubled = new Set();

  /** The user the outbox's moves are sent as: a move recorded by one person is never sent by another. */
  const who = () => (K.me && K.me.name) || document.body.dataset.user || "";

  /** A new move, kept before anything is sent. ``replace``: the entry it takes the place of (a refused move
      being corrected: same place, same expected_seq, a new key). */
  const add = (match, move, seqShown) => locked(match, async () => {
    let entry = null;
    // read and written in one transaction: a tap's cost before it is sent
    await tx("outbox", "readwrite", (s) => {
      s.index("match").getAll(match).onsuccess = (e) => {
        const entries = e.target.result.sort(byOrder);
        const spot = entries.find((x) => x.replace);
        const last = entries[entries.length - 1];
        entry = {
          key: K.uuid(), match, user: who(), type: move.type, seat: move.seat, data: move.data, made_at: Date.now(),
          online: navigator.onLine && !entries.length,  // its page watches for the answer; a refusal is said and dropped
          order: spot ? spot.order : last ? last.order + 1 : Date.now(),
          expected_seq: spot ? spot.expected_seq : last ? last.expected_seq + 1 : seqShown,
        };
        if (spot) s.delete(spot.key);
        s.put(entry);
      };
    });
    changed({ match, what: "added", entry });
    return entry;
  });

  const transient = (r) => r.status === 0 || r.status === 429 || r.status >= 500 || (r.data && r.data.error && r.data.error.code === "busy");
  /** Send the match's waiting moves, in order, until none is left, the network fails, or the server refuses
      one. Resolves to what stopped it: "empty", "offline", "waiting" (try again later), "blocked". */
  const flush = (match) => locked(match, async () => {
    // read once: while this holds the lock no tab adds or takes back a move (add() waits for it, then sends its own)
    const entries = await list(match);
    for (;;) {
      const next = entries[0];
      if (!next) { troubled.delete(match); return "empty"; }
      if (next.blocked || next.replace) return "blocked";
      if (next.user !== who()) return "blocked";
      if (!navigator.onLine) return "offline";
      sending = match;
      changed({ match, what: "sending" });
      const r = await K.api("POST", `/api/matches/${match}/events`,
        { type: next.type, seat: next.seat, data: next.data, expected_seq: next.expected_seq }, { "Idempotency-Key": next.key });
      sending = null;
      if (r.ok) {
        // its page redraws while the entry is removed (the page's read of the outbox comes after the removal)
        const gone = remove([next.key]);
        entries.shift();
        changed({ match, what: "sent", entry: next, answer: r });
        await gone;
        continue;
      }
      if (transient(r)) { troubled.add(match); changed({ match, what: "waiting", answer: r }); return "waiting"; }
      const error = (r.data && r.data.error) || { message: `HTTP ${r.status}` };
      if (next.online && entries.length === 1) {
        // entered with the network up and nothing behind it: its page says why, and the recorder enters it again
        await remove([next.key]);
        changed({ match, what: "dropped", entry: next, answer: r });
        return "empty";
      }
      next.blocked = { status: r.status, code: error.code || "", message: K.errorText(r), current_seq: r.data && (r.data.current_seq ?? (r.data.error || {}).current_seq) };
      await put(next);
      changed({ match, what: "blocked", entry: next, answer: r });
      return "blocked";
    }
  });

  /** Take the last waiting move back (Undo while moves wait: nothing is sent for it). */
  const dropLast = (match) => locked(match, async () => {
    const entries = await list(match);
    const last = entries[entries.length - 1];
    if (!last) return null;
    await remove([last.key]);
    changed({ match, what: "undone", entry: last });
    return last;
  });
  /** Drop a blocked move and every move behind it. */
  const dropFrom = (match, key) => locked(match, async () => {
    const entries = await list(match);
    const at = entries.findIndex((e) => e.key === key);
    if (at < 0) return 0;
    await remove(entries.slice(at).map((e) => e.key));
    changed({ match, what: "dropped-tail", count: entries.length - at });
    return entries.length - at;
  });
  /** Send a blocked move again as it is (after signing in again, say). */
  const retry = (match, key) => locked(match, async () => {
    const entry = (await list(match)).find((e) => e.key === key);
    if (entry) { delete entry.blocked; await put(entry); changed({ match, what: "retry" }); }
  });
  /** The recorder corrects a refused move: it leaves a place (same order, same expected_seq) the next move
      recorded fills, with a new key; the moves behind it wait. */
  const correct = (match, key) => locked(match, async () => {
    const entry = (await list(match)).find((e) => e.key === key);
    if (entry) { entry.replace = true; delete entry.blocked; await put(entry); changed({ match, what: "correcting" }); }
  });
  /** After a conflict, the recorder puts this device's moves after the server's: numbered on from ``seq``, each
      still checked by the server's rules when it is sent. */
  const rebase = (match, seq) => locked(match, async () => {
    const entries = await list(match);
    entries.forEach((e, i) => { e.expected_seq = seq + i; delete e.blocked; e.online = false; });
    await Promise.all(entries.map(put));
    changed({ match, what: "rebased" });
  });
  /** Everything this device keeps for the signed-in user, gone (signing out): the kept answers and pages. */
  const forget = async () => {
    generation++;
    await tx("kept", "readwrite", (s) => s.clear()).catch(() => {});
    if (window.caches) await caches.delete("kroniek-pages").catch(() => {});
  };
  /** Before signing out: moves not yet sent would wait for this user to sign in here again, so ask first;
      then what this device kept goes. Whether to sign out. */
  const beforeSignOut = async () => {
    const mine = (await tx("outbox", "readonly", (s) => s.getAll()).catch(() => []) || []).filter((e) => e.user === who()).length;
    if (mine && !window.confirm(K.tn(mine, "{n} move recorded on this device is not sent yet: it waits until you sign in here again. Sign out?",
      "{n} moves recorded on this device are not sent yet: they wait until you sign in here again. Sign out?"))) return false;
    await forget();
    return true;
  };

  K.offline = { keep, kept, list, add, dropLast, dropFrom, retry, correct, rebase, beforeSignOut,
    onChange: (fn) => listeners.add(fn) };

  // -- the status line -------------------------------------------------------------------------------------
  /** Online or not, and a match's moves waiting, sending or stopped, in the header's status line: on every page
      (a match's pages name it on their root, data-match). */
  K.offlineStatus = () => {
    const line = document.getElementById("sync");
    if (!line) return;
    const root = document.querySelector("[data-match]");
    const match = root ? root.dataset.match : null;
    let drawing = false, again = false;
    const draw = async () => {
      if (drawing) { again = true; return; }  // one read of the outbox at a time: a tap sends three changes
      drawing = true;
      try { do { again = false; await drawOnce(); } while (again); } finally { drawing = false; }
    };
    const drawOnce = async () => {
      const all = match ? await list(match) : [];
      // a move entered online is on its way and says nothing here, unless sending it failed: no line that
      // comes and goes in the header at every tap
      const entries = troubled.has(match) || !navigator.onLine ? all : all.filter((e) => !e.online);
      const n = entries.length;
      const blocked = entries.find((e) => e.blocked);
      let text = "", state = "online";
      if (blocked) {
        state = "blocked";
        text = K.t("Sending stopped at move {seq}: {why}", { seq: blocked.expected_seq + 1, why: blocked.blocked.message });
      } else if (entries.some((e) => e.replace)) {
        state = "blocked";
        text = K.tn(n - 1, "Correct move {seq}; {n} move waits behind it", "Correct move {seq}; {n} moves wait behind it", { seq: entries.find((e) => e.replace).expected_seq + 1 });
      } else if (!navigator.onLine) {
        state = "offline";
        text = n ? K.tn(n, "Offline · {n} move waiting", "Offline · {n} moves waiting") : K.t("Offline: this shows what the device last saw");
      } else if (n) {
        state = sending === match ? "sending" : "waiting";
        text = sending === match ? K.tn(n, "Sending {n} move…", "Sending {n} moves…") : K.tn(n, "{n} move waiting to be sent", "{n} moves waiting to be sent");
      }
      line.dataset.state = state;
      line.dataset.waiting = n;
      line.textContent = text;
      line.hidden = !text;
      document.body.dataset.online = navigator.onLine ? "yes" : "no";
    };
    window.addEventListener("online", draw);
    window.addEventListener("offline", draw);
    listeners.add((d) => { if (!match || d.match === match) draw(); });
    draw();
  };
  K.ready(K.offlineStatus);

  /** Every page sends what waits on this device, for every match (not only the one on screen): a table that
      recorded offline and then opened the home page still gets its moves to the server. A network that fails is
      tried again later (1 s, doubling to 30 s), and at once when the browser says it is back. */
  let retryIn = 1000, retryTimer = null;
  const retryLater = () => {
    if (retryTimer) return;
    retryTimer = setTimeout(() => { retryTimer = null; flushAll(); }, retryIn);
    retryIn = Math.min(2 * retryIn, 30000);
  };
  const flushAll = async () => {
    await K.authReady;  // who() is the signed-in user
    const all = (await tx("outbox", "readonly", (s) => s.getAll()).catch(() => []) || []).filter((e) => e.user === who());
    let waiting = false;
    for (const match of new Set(all.sort(byOrder).map((e) => e.match))) if ((await flush(match)) === "waiting") waiting = true;
    if (waiting) retryLater(); else retryIn = 1000;
  };
  /** Send one match's waiting moves now (its page just recorded one); a network that fails: as above. */
  K.offline.send = async (match) => {
    const why = await flush(match);
    if (why === "waiting") retryLater();
    return why;
  };
  window.addEventListener("online", flushAll);
  /** Another person signed in on this device: what the last one's pages kept goes (their outbox stays theirs). */
  K.authReady.then((me) => {
    const name = (me && me.name) || "", before = localStorage.getItem("kroniek.keptFor");
    if (name && before && before !== name) forget();
    if (name) localStorage.setItem("kroniek.keptFor", name);
  });
  K.ready(() => { flushAll(); });

  /** A page opened before the service worker took it over asks it to keep this page too. A worker whose
      install failed (one of the pages' files did not come, on a table's shaky network) is gone, and with it
      every copy for offline: the page tries again, a little later each time, and when the network is back. */
  if ("serviceWorker" in navigator && window.isSecureContext) {
    const served = Boolean(navigator.serviceWorker.controller);  // as the page loaded: the worker may take it over soon
    let tries = 0, pending = null;
    const again = () => {
      if (pending === null && tries < 8) pending = setTimeout(() => { pending = null; register(); }, 1000 * 2 ** tries++);
    };
    const register = () => navigator.serviceWorker.register("/sw.js").then((reg) => {
      const installing = reg.installing;
      if (installing && !reg.active) {
        installing.addEventListener("statechange", () => { if (installing.state === "redundant" && !reg.active) again(); });
      } else if (!reg.active && !reg.waiting) again();  // already failed by the time it answered
    }).catch(again);
    register();
    window.addEventListener("online", () => { if (!navigator.serviceWorker.controller) register(); });
    navigator.serviceWorker.ready.then((reg) => {
      if (!served && reg.active) reg.active.postMessage({ keep: location.pathname + location.search });
    });
  }
})();
