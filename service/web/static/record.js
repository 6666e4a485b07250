/* The new-match form and the match page (watch live; record with legal moves as buttons). */
"use strict";
(() => {
  const K = Kroniek, h = K.h;
  /** JSON with every object's keys sorted: a map of counts equals its default whatever the keys' order. */
  const canonical = (v) => JSON.stringify(v, (k, x) => (x && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort()) : x));
  // -- a new match ------------------------------------------------------------------------------
  K.newMatchPage = () => {
    const form = document.getElementById("new-match");
    const players = document.getElementById("players");
    const optionsBox = document.getElementById("options");
    let game = null, optionFields = {}, picks = 0;
    const names = () => [...players.querySelectorAll("input.player")].map((i) => i.value.trim());
    // the options that name a seat show the players as they are entered, never "seat 0"
    const nameSeats = () => SchemaForm.nameSeats(optionsBox, names());
    const addPlayer = (name) => {
      const n = players.children.length;
      if (game && n >= game.max_players) return;
      players.append(h("div.playerrow", h("span.seatno", `${n + 1}.`), h("input.player", { type: "text", value: name || K.t("Player {n}", { n: n + 1 }), maxlength: 64, "aria-label": K.t("player {n}", { n: n + 1 }), oninput: nameSeats })));
      nameSeats();
    };
    document.getElementById("add-player").onclick = () => addPlayer();
    /** An option that names a stored document (a card set, a board) by its hash: the documents stored for the
        game, picked by name and label; the hash stays out of sight. Null (where the option allows it) is the
        default the game names. */
    const documentField = async (k, p, kind) => {
      const r = await K.api("GET", kind.url);
      const items = r.ok ? r.data.items : [];
      const nullable = Array.isArray(p.type) ? p.type.includes("null") : false;
      let chosen = p.default;
      // one just entered and saved (the editor's "Record a match with it" names it in the address)
      const named = new URLSearchParams(location.search).get(k);
      if (named && items.some((it) => it.hash === named)) chosen = named;
      const grid = h("div.picker.documents", { "data-path": k, "data-kind": kind.url.split("/").pop() });
      const orWord = " " + K.t("or") + " ";
      const choices = (nullable ? [{ hash: null, name: kind.default ? `${K.t("the default:")} ${kind.default}` : K.t("the default: the standard one"), what: kind.default }] : []).concat(items);
      const buttons = choices.map((it) => h("button.pick.document", { type: "button", "data-value": JSON.stringify(it.hash), "data-name": it.name || "", onclick: (e) => {
        chosen = it.hash; for (const b of buttons) b.classList.toggle("on", b === e.currentTarget);
      } }, it.what ? h("span", K.t("the default:") + " ", h("span", K.say(it.what))) : h("span", { translate: "no" }, it.name || K.t("unnamed")),
        it.label && it.label !== it.name ? h("small.muted", { translate: "no" }, " " + it.label) : null,
        it.players ? h("small.muted", " · " + K.t("{counts} players", { counts: it.players.join(orWord) })) : null));
      buttons.forEach((b, i) => b.classList.toggle("on", choices[i].hash === chosen));
      grid.append(...buttons);
      if (!r.ok) grid.append(h("small.muted", K.t("The stored ones could not be listed: {why}", { why: K.errorText(r) })));
      const what = kind.title;  // (in the page's language: the API says it so)
      if (what) grid.append(h("a.button.small.edlink", { href: `/games/${encodeURIComponent(game.id)}/${kind.url.split("/").pop()}/new`, "data-editor": k }, "+ " + K.t("enter your own {what}", { what })));
      return { node: grid, get: () => chosen };
    };
    const pick = async (id) => {
      const ticket = ++picks;
      const picked = await K.game(id);
      if (ticket !== picks) return;  // another game was picked meanwhile
      game = picked;
      while (players.children.length > game.max_players) players.lastChild.remove();
      while (players.children.length < game.min_players) addPlayer();
      optionsBox.replaceChildren();
      optionFields = {};
      const ctx = { game, labels: new Boards.Labels(game, null), players: names(), liveSeats: true, nullLabel: K.t("default") };
      const kinds = Object.values(game.data_kinds || {});
      for (const [k, p] of Object.entries(game.options.properties || {})) {
        if (p.type === "object" && !p.properties) continue;  // filled in by the server (an embedded card set)
        const kind = kinds.find((d) => d.option === k);
        const row = h("div.field", { "data-option": k }, h("div.label", p.type === "boolean" ? null : SchemaForm.titleOf(p, k), SchemaForm.help(p.description)));
        optionsBox.append(row);  // in the schema's order, also when a list of documents comes later
        const f = kind ? await documentField(k, p, kind) : SchemaForm.build(p, k, ctx);
        if (ticket !== picks) return;  // another game was picked meanwhile
        optionFields[k] = { field: f, schema: p };
        row.append(f.node);
      }
      nameSeats();
      if (!Object.keys(optionFields).length) optionsBox.append(h("p.muted", K.t("This game has no options.")));
    };
    form.querySelectorAll("input[name=game]").forEach((r) => r.addEventListener("change", () => pick(r.value)));
    const wanted = new URLSearchParams(location.search).get("game");
    const preset = wanted && form.querySelector(`input[name=game][value="${CSS.escape(wanted)}"]`);
    if (preset) { preset.checked = true; pick(wanted); }
    form.onsubmit = async (e) => {
      e.preventDefault();
      // a game picked (or named in the address) whose form is still on its way: wait for it, not "pick a game"
      const checked = form.querySelector("input[name=game]:checked");
      if (checked && (!game || game.id !== checked.value)) await pick(checked.value);
      if (!game) { K.flash(K.t("Pick a game first."), "error"); return; }
      const options = {};
      try {
        for (const [k, { field, schema }] of Object.entries(optionFields)) {
          let v; try { v = field.get(); } catch (msg) { continue; }
          if (canonical(v) !== canonical(schema.default)) options[k] = v;
        }
      } catch (msg) { K.flash(String(msg), "error"); return; }
      const r = await K.api("POST", "/api/matches", { game: game.id, players: names(), options });
      if (!r.ok) { K.flash(K.t("Could not start: {why}", { why: K.errorText(r) }), "error"); return; }
      location.href = `/matches/${r.data.id}`;
    };
  };

  // -- the match page ----------------------------------------------------------------------------
  const viewerValue = K.viewerValue;
  const seatQuery = (v) => (v === null || v === undefined ? "" : `seat=${v}`);

  /** Who holds which role on the match, and a form that adds someone (their account made if they have none)
      with a one-time sign-in link and its QR code: a recorder's or referee's, as the API allows. */
  const people = async (id, players) => {
    const section = document.getElementById("people");
    const list = document.getElementById("people-list");
    const roleWords = (r) => (r.startsWith("player:") ? K.t("player of {name}", { name: players[Number(r.slice(7))] ?? r.slice(7) })
      : r === "recorder" ? K.t("recorder") : r === "referee" ? K.t("referee") : r);
    const draw = async () => {
      const r = await K.api("GET", `/api/matches/${id}/roles`);
      if (!r.ok) return;
      list.replaceChildren(...Object.entries(r.data.roles).filter(([who]) => !who.startsWith("@")).map(([who, roles]) =>
        h("li", { "data-user": who }, h("strong", who === "*" ? K.t("everyone") : who), ": ", roles.map(roleWords).join(", "),
          who === "*" ? null : [" ", h("button.button.small.newlink", { type: "button", onclick: () => newLink(who) }, K.t("New sign-in link"))])));
    };
    /** A new one-time link for someone on the match, opening it. */
    const newLink = (who) => K.newSignInLink(who, document.getElementById("person-link"), `/matches/${id}`);
    const select = document.getElementById("person-role");
    select.replaceChildren(...players.map((p, i) => h("option", { value: `player:${i}` }, K.t("player of {name}", { name: p }))),
      h("option", { value: "recorder" }, K.t("recorder")), h("option", { value: "referee" }, K.t("referee")));
    const name = document.getElementById("person-name");
    /** A seat's player's name as an account name can hold it (the server says so if it cannot). */
    const suggest = () => {
      if (name.value && !name.dataset.suggested) return;
      const seat = select.value.startsWith("player:") ? Number(select.value.slice(7)) : null;
      name.value = seat === null ? "" : String(players[seat]).normalize("NFKD").replace(/[^A-Za-z0-9_.@+-]/g, "");
      name.dataset.suggested = name.value ? "1" : "";
    };
    name.addEventListener("input", () => { name.dataset.suggested = ""; });
    select.addEventListener("change", suggest);
    suggest();
    document.getElementById("add-person").onsubmit = async (e) => {
      e.preventDefault();
      const [role, seat] = select.value.startsWith("player:") ? ["player", Number(select.value.slice(7))] : [select.value, null];
      const r = await K.api("POST", `/api/matches/${id}/people`, { user: name.value.trim(), role, seat });
      const out = document.getElementById("person-link");
      if (!r.ok) { K.flash(K.t("Not added: {why}", { why: K.errorText(r) }), "error"); return; }
      out.replaceChildren(r.data.sign_in ? K.signInLink(r.data.sign_in) : h("p.muted", { lang: K.enLang }, r.data.sign_in_note));
      out.hidden = false;
      K.flash(K.t("{name} added as {role}", { name: r.data.user, role: roleWords(select.value) }), "ok");
      name.value = ""; name.dataset.suggested = "";
      draw();
    };
    section.hidden = false;
    draw();
  };

  K.matchPage = async () => {
    const root = document.getElementById("match");
    const id = root.dataset.match;
    const m = await K.api("GET", `/api/matches/${id}`);
    if (!m.ok) { K.flash(K.errorText(m), "error"); return; }
    let match = m.data;
    const game = await K.game(match.game);
    const players = match.players;
    const labels = new Boards.Labels(game, null);
    /** Who is to act, in words: a seat by its player's name, the table, chance. */
    const nobody = K.t("nobody");
    const actorName = (a) => (typeof a === "number" ? players[a] : a === "table" ? K.t("table") : a === "chance" ? K.t("chance") : a);
    document.getElementById("title").textContent = `${game.name}: ${players.join(" – ")}`;
    const select = document.getElementById("viewer");
    let viewer = await K.seatSelector(select, id, players, new URLSearchParams(location.search).get("seat"));
    const me = await K.authReady;
    let canRecord = false, mySeats = [];
    if (me) {
      const roles = await K.api("GET", `/api/matches/${id}/roles`);
      const mine = (roles.ok && roles.data.roles && (roles.data.roles[me.name] || roles.data.roles["*"])) || [];
      canRecord = me.admin || mine.some((r) => r === "recorder" || r === "referee");
      mySeats = mine.filter((r) => r.startsWith("player:")).map((r) => Number(r.slice(7)));
    }
    /** A player (not a recorder) viewing their own seat enters that seat's moves, and only those: the server
        refuses the rest whatever the page sends. */
    const canPlay = () => !canRecord && mySeats.includes(viewer);
    document.getElementById("undo").hidden = !canRecord;
    if (canRecord) people(id, players);
    // The page's engine, where this viewer records on a drawing: it starts loading now, in its worker, with the
    // match's snapshot, and takes over the drawing once the page has been drawn (startEngine): the drawing never
    // waits for it. Turned off on /me (or by the data saver), it is not loaded at all.
    const engineLoading = game.scene && (canRecord || (mySeats.length && !game.hidden_information)) && K.engineWanted()
      ? K.engine.start() : null;
    const snapshotAsked = engineLoading ? K.api("GET", `/api/matches/${id}/snapshot`) : null;
    if (engineLoading) engineLoading.catch(() => {});  // said by startEngine
    // seq: what the page shows; head: the newest seq the page knows was written (its own moves' answers and the
    // stream's events); covered: the head when the refresh under way asked for the match (its answers show it)
    let seq = 0, head = 0, covered = 0, movesSeq = null, busy = false, again = false, stream = null;
    /** null: not known yet; false: the game has no scene (its drawing is Boards.render's) */
    let hasScene = game.scene ? null : false, fallbackOpen = false, drawnKey = null;
    /** The page's own engine (engine.js), once it has this match's table: ``local.seq`` is the server's last
        seq it follows, the moves waiting on this device lie on top (null: the server draws every move). */
    let local = null, table = null;
    const liveBadge = document.getElementById("live");
    const status = document.getElementById("status");
    const log = document.getElementById("log");
    const board = document.getElementById("board");
    /** Said above a drawing that is from before the moves waiting on this device (it is not tapped then). */
    const staleNote = h("p.stalenote#stale-note", { hidden: true }, K.t("The drawing shows the match as the server last sent it, before the moves that wait."));
    board.before(staleNote);

    /** The move list, changed only from the first line that differs: a whole game's list redrawn at every move
        cost a phone more than the move itself (the layout of hundreds of lines, each time). */
    let logKeys = [], logSteps = [];
    const keyOf = (s) => `${s.seq}|${s.undone_by ?? ""}|${s.summary}`;
    /** ``steps`` follow the first ``kept`` lines shown (a review asked for from the last line shown on). */
    const showLog = (steps, kept = 0) => {
      const keys = logKeys.slice(0, kept).concat(steps.map(keyOf));
      let same = 0;
      while (same < keys.length && same < logKeys.length && keys[same] === logKeys[same]) same++;
      while (log.children.length > same) log.lastChild.remove();
      log.append(...steps.slice(same - kept).map((s) => h("li", { "data-seq": s.seq, class: s.undone_by ? "undone" : "" }, h("span.seq", s.seq), " ", K.stepLine(s))));
      logKeys = keys;
      logSteps = logSteps.slice(0, kept).concat(steps);
    };
    /** The review from the last line shown on (the whole game's review at every move grew with the game): the
        whole of it again when that line changed (an undo marked it) or a new step undoes an earlier one. */
    const reviewFrom = () => (logKeys.length ? Number(logKeys[logKeys.length - 1].split("|")[0]) : 1);
    const showReview = async (rv, from, q) => {
      const steps = rv.data.steps;
      if (from > 1 && (!steps.length || keyOf(steps[0]) !== logKeys[logKeys.length - 1] || steps.some((s) => s.undoes.length))) {
        const all = await K.api("GET", `/api/matches/${id}/review?${q}`);
        if (all.ok) showLog(all.data.steps);
      } else showLog(steps, from > 1 ? logKeys.length - 1 : 0);
    };
    let retryTimer = null;
    /** After a failed fetch (a dropped connection, a busy server): refresh again in a moment. */
    const transient = (r) => r.status === 0 || r.status === 429 || r.status >= 500;
    const retrySoon = () => { if (!retryTimer) retryTimer = setTimeout(() => { retryTimer = null; refresh(); }, 1000); };
    /** Show the match as the server has it. ``atLeast``: the seq that must be shown (a move's answer, an event on
        the stream); a refresh under way that asked after that seq was written shows it already, and is not run
        again (each move arrives twice, as its answer and on the stream: every move was fetched and drawn twice). */
    const refresh = async (atLeast = Infinity) => {
      if (busy) { if (atLeast > covered) again = true; return; }
      busy = true;
      try {
        do {
          again = false;
          covered = head;
          if (local) { await refreshLocal(); continue; }
          const q = seatQuery(viewer), from = reviewFrom();
          const [st, rv, sc, out] = await Promise.all([K.api("GET", `/api/matches/${id}/state?${q}`), K.api("GET", `/api/matches/${id}/review?${q}&from=${from}`),
            hasScene === false ? null : K.api("GET", `/api/matches/${id}/scene?${q}`), showOutbox()]);
          // moves wait on this device (recorded offline): the server's drawing and legal moves are from before
          // them, so moves are entered with the pickers until they are sent; a stopped one waits for a choice
          // (a move being corrected: the server is where it goes, so its legal moves are the ones to pick from)
          const mode = out.some((e) => e.blocked) ? "blocked" : out.length && out[0].replace ? "live"
            : out.some((e) => !e.online) || (out.length && !navigator.onLine) ? "stale" : "live";
          if (!st.ok) { K.flash(K.errorText(st), "error"); if (transient(st)) retrySoon(); break; }
          const view = st.data;
          seq = view.seq;
          if (view.result) status.replaceChildren(K.t("Finished:") + " ", h("span", { lang: K.engineLang }, K.say(view.result.reason)));
          else if (mode === "stale") status.textContent = K.tn(out.length, "In progress · the server's last seq: {seq} · {n} move waits on this device", "In progress · the server's last seq: {seq} · {n} moves wait on this device", { seq });
          else status.textContent = K.t("In progress · seq {seq} · to act: {who}", { seq, who: (view.to_act || []).map(actorName).join(", ") || nobody });
          if (sc && sc.status === 404) hasScene = false;
          if (sc && sc.ok && sc.data.seq !== seq) { again = true; continue; }  // the table and the state from one seq
          if (sc && sc.ok) {
            hasScene = true;
            // the table first: on a phone what is tapped stands above the text buttons
            // (while moves wait, the pickers come first: the drawing is from before them and is not tapped)
            const recorder = document.getElementById("recorder");
            if (mode === "stale") { if (recorder.nextElementSibling !== staleNote) staleNote.before(recorder); }
            else if (board.nextElementSibling !== recorder) recorder.before(staleNote, board);
            // drawn again only when it changed: a second refresh of the same table (the stream's echo of the page's
            // own move can come before the move's answer) must not close a picker a finger is filling in
            const interactive = (canRecord || canPlay()) && !view.result && mode === "live";
            const { match: _, ...drawn } = sc.data;  // as the page's engine gives it: the same drawing is not drawn again
            const key = `${interactive}|${JSON.stringify(drawn)}`;
            if (key !== drawnKey) {
              drawnKey = key;
              board.replaceChildren(Scene.render(sc.data, { players, labels, interactive, send: (mv) => send(mv.type, mv.seat, mv.data, "drawing") }));
            }
          } else { drawnKey = null; board.replaceChildren(Boards.render(game, view, { players, labels })); }
          board.classList.toggle("stale", mode !== "live");
          staleNote.hidden = mode !== "stale";
          if (rv.ok) {
            await showReview(rv, from, q);
            // the whole move list, for this page opened again offline (its first refresh asks from the start)
            if (!rv.kept && !st.kept) K.offline.keep(`/api/matches/${id}/review?${q}&from=1`, { ...rv.data, steps: logSteps });
          }
          await showBlock(out);
          // the moves only when the match moved on: a second refresh must not wipe a half-filled picker
          if ((canRecord || canPlay()) && !view.result) {
            // a move list that could not be fetched whole is asked for again, not left out until the next event
            const movesKey = `${seq}|${mode}|${out.length}`;
            if (mode === "blocked") { document.getElementById("recorder").hidden = false; movesBox.replaceChildren(); movesSeq = movesKey; }
            else if (mode === "stale") { if (movesSeq !== movesKey) { showPickers(view, out); movesSeq = movesKey; } }
            else if (movesSeq !== movesKey) { if (await showMoves(view)) movesSeq = movesKey; else retrySoon(); }
          }
          else if (canRecord) {  // finished: no move is due, but a recording mistake can still be undone
            document.getElementById("recorder").hidden = false;
            turn.textContent = "· " + K.t("the match has ended");
            movesBox.replaceChildren(h("p.muted", K.t("No move is due. Undo takes back the last move if it was recorded by mistake.")));
            movesSeq = null;
          } else document.getElementById("recorder").hidden = true;
          root.dataset.seq = seq;  // set last: the page shows this seq whole (board, log and moves)
        } while (again);
      } finally { busy = false; }
    };

    // -- recording ---------------------------------------------------------------------------
    const movesBox = document.getElementById("moves");
    const turn = document.getElementById("turn");
    /** A move goes into this device's outbox first (one key per intended move: a retry never records twice),
        then out to the server, at once when the network is up (offline.js sends them in order). */
    /** How this page's moves were entered (the tests read it): on the drawing, or with a button or form beside it. */
    const entered = { drawing: 0, otherwise: 0 };
    const send = async (type, seat, data, via = "otherwise") => {
      entered[via] += 1;
      root.dataset.enteredOnDrawing = entered.drawing;
      root.dataset.enteredOtherwise = entered.otherwise;
      if (local) return sendLocal(type, seat, data);
      const entry = await K.offline.add(id, { type, seat, data }, Math.max(seq, head));
      // offline, it shows at once as waiting; online, its answer comes first (its line would only flicker)
      if (!entry.online) {
        // said once, at the first move that waits (the header's line counts the rest)
        if (entry.expected_seq === Math.max(seq, head)) K.flash(K.t("Kept on this device: {move}, sent when the network is back", { move: typeName(type) }), "info");
        await refresh();
      }
      await sync();
    };
    /** Send what waits now (offline.js tries again later when the network fails, and when it comes back). */
    const sync = () => K.offline.send(id);
    window.addEventListener("online", () => refresh());
    window.addEventListener("offline", () => { liveBadge.textContent = K.t("offline"); liveBadge.dataset.state = "offline"; refresh(); });
    K.offline.onChange((d) => {
      if (d.match !== id) return;
      if (d.what === "sent") {
        head = Math.max(head, d.answer.data.seq);
        if (d.entry.online) K.flash(K.t("Recorded seq {seq}: {move}", { seq: d.answer.data.seq, move: typeName(d.entry.type) }), "ok");
        // the match is drawn again unless the stream's copy of the move came first; the outbox's lines always (a
        // refresh under way may have read them before this move left: its read comes after the removal). A move
        // that waited on the device: always, since the stream's copy was drawn while it still waited (the status
        // line said "1 move waits on this device" with nothing left to send, until a reload)
        if (!d.entry.online) refresh();  // (again after a refresh under way: it may have read the outbox before)
        else if (busy || seq < d.answer.data.seq) refresh(d.answer.data.seq);
        showOutbox();
      } else if (d.what === "dropped") {
        const r = d.answer;
        if (r.status === 409 && r.data.current_seq !== undefined) K.flash(K.t("Someone else recorded first: the match is at seq {now}, not {seq}. The screen now shows it as it is; check the move and enter it again if it is still due.", { now: r.data.current_seq ?? "?", seq: d.entry.expected_seq }), "error");
        else K.flash(K.t("Not recorded: {why}", { why: K.errorText(r) }), "error");
        refresh();
      } else if (!["added", "sending", "waiting"].includes(d.what)) refresh();  // a new move: send() shows it
    });
    document.getElementById("undo").onclick = async () => {
      // a move still on this device is taken back here: nothing is sent for it
      const taken = (await K.offline.list(id)).length ? await K.offline.dropLast(id) : null;
      if (taken) {
        K.flash(K.t("Taken back before it was sent: {move}", { move: typeName(taken.type) }), "ok");
        if (local) drawLocal();
      } else send("undo", null, {});
    };

    // -- the page's own engine ----------------------------------------------------------------------
    const engineNote = h("p.enginenote#engine-note", { role: "status", hidden: true });
    board.after(engineNote);
    /** The events the engine follows: whole (a recorder's) or as anyone sees them (a game with nothing hidden). */
    const engineView = () => (canRecord ? "seat=referee&" : "");
    const strip = (e) => ({ type: e.type, seat: e.seat, data: e.data });
    /** The moves waiting here that the engine lays on the server's match: in order, up to a move that stopped
        the sending (refused, or a place being corrected). */
    const queueOf = (out) => {
      const stop = out.findIndex((e) => e.blocked || e.replace);
      return (stop < 0 ? out : out.slice(0, stop)).filter((e) => e.expected_seq >= local.seq);
    };
    const refusalText = (error) => K.errorText({ status: 422, data: { error } });
    let keepTimer = null;
    /** What this device keeps to open the match offline: the engine's table as the server last confirmed it. */
    const keepTable = () => {
      clearTimeout(keepTimer);
      keepTimer = setTimeout(async () => {
        try { K.offline.keep(`/api/matches/${id}/snapshot`, await table.payload()); } catch (e) { /* kept next time */ }
      }, 1000);
    };
    /** A new snapshot of the server's match for the engine (after events it could not follow). */
    const reopen = async () => {
      const snap = await K.api("GET", `/api/matches/${id}/snapshot`);
      if (!snap.ok) return false;
      local.seq = (await table.open(snap.data)).seq;
      if (!snap.kept) keepTable();
      return true;
    };
    /** The server's moves since the engine's last one, followed by the engine. */
    const follow = async (events) => {
      if (!events.length) return;
      const r = await table.advance(events);
      if (r.error) await reopen();
      else if (r.seq !== local.seq) { local.seq = r.seq; keepTable(); }
    };
    /** refresh(), with the engine: the server's new moves and the review from the server, the table from here. */
    const refreshLocal = async () => {
      const q = seatQuery(viewer), from = reviewFrom();
      const [ev, rv] = await Promise.all([K.api("GET", `/api/matches/${id}/events?${engineView()}from=${local.seq + 1}`),
        K.api("GET", `/api/matches/${id}/review?${q}&from=${from}`)]);
      if (ev.ok && !ev.kept) await follow(ev.data.events);
      else if (!ev.ok && transient(ev) && navigator.onLine) retrySoon();
      seq = local.seq;
      await drawLocal();
      if (rv.ok) {
        await showReview(rv, from, q);
        if (!rv.kept) K.offline.keep(`/api/matches/${id}/review?${q}&from=1`, { ...rv.data, steps: logSteps });
      }
    };
    let drawing = Promise.resolve();
    /** Draw the table the engine works out now (one drawing at a time: the last one drawn is the newest). */
    const drawLocal = (result = null) => (drawing = drawing.then(() => drawLocalNow(result), () => drawLocalNow(result)));
    const drawLocalNow = async (given) => {
      const out = await showOutbox();
      await showBlock(out);
      const queue = queueOf(out);
      const follows = queue.every((e, i) => e.expected_seq === local.seq + i);
      const r = given || await table.play(queue.map(strip), viewer);
      const view = r.view;
      // the moves shown on top of the server's (a tap drawn before it is kept is one of them already)
      const waiting = Math.max(queue.length, r.seq - local.seq);
      const blocked = out.some((e) => e.blocked);
      if (view.result) status.replaceChildren(K.t("Finished:") + " ", h("span", { lang: K.engineLang }, K.say(view.result.reason)));
      else if (waiting) status.textContent = K.tn(waiting, "In progress · seq {seq}, {n} move of it not sent yet · to act: {who}", "In progress · seq {seq}, {n} moves of it not sent yet · to act: {who}", { seq: r.seq, who: (view.to_act || []).map(actorName).join(", ") || nobody });
      else status.textContent = K.t("In progress · seq {seq} · to act: {who}", { seq: r.seq, who: (view.to_act || []).map(actorName).join(", ") || nobody });
      const recorder = document.getElementById("recorder");
      if (board.nextElementSibling !== recorder) recorder.before(staleNote, board);
      const interactive = (canRecord || canPlay()) && !view.result && !blocked && follows && !r.refused && !r.server_draws;
      if (r.scene) {
        const key = `${interactive}|${JSON.stringify(r.scene)}`;
        if (key !== drawnKey) {
          drawnKey = key;
          board.replaceChildren(Scene.render(r.scene, { players, labels, interactive, send: (mv) => send(mv.type, mv.seat, mv.data, "drawing") }));
        }
      }
      board.classList.remove("stale");
      staleNote.hidden = true;
      const said = r.refused ? K.t("Move {seq} would not be accepted: {why}. Sending stops there; undo it or wait for the server's word.", { seq: local.seq + r.refused.index + 1, why: refusalText(r.refused) })
        : r.server_draws ? K.t("The server draws the next chance outcome in this simulated match: it shows once the moves are sent.")
        : !follows ? K.t("The moves waiting on this device do not follow on from the server's last move: the drawing shows the server's match.") : "";
      engineNote.textContent = said;
      engineNote.hidden = !said;
      if ((canRecord || canPlay()) && !view.result) {
        const movesKey = `${r.seq}|local|${blocked}|${interactive}`;
        if (blocked) { recorder.hidden = false; movesBox.replaceChildren(); movesSeq = movesKey; }
        else if (movesSeq !== movesKey) { await showMoves(view, interactive ? r : { moves: [], chance: [] }); movesSeq = movesKey; }
      } else if (canRecord) {
        recorder.hidden = false;
        turn.textContent = "· " + K.t("the match has ended");
        movesBox.replaceChildren(h("p.muted", K.t("No move is due. Undo takes back the last move if it was recorded by mistake.")));
        movesSeq = null;
      } else recorder.hidden = true;
      root.dataset.shown = r.seq;
      if (!waiting) root.dataset.seq = r.seq;  // the page shows the server's match whole
    };
    /** send(), with the engine: the move checked by the rules here, kept, drawn at once, then sent. */
    const sendLocal = async (type, seat, data) => {
      // a move the server wrote that the engine has not followed yet comes first (the drawing tapped shows it)
      if (Math.max(seq, head) > local.seq) {
        const ev = await K.api("GET", `/api/matches/${id}/events?${engineView()}from=${local.seq + 1}`);
        if (ev.ok && !ev.kept) await follow(ev.data.events);
      }
      const out = await K.offline.list(id);
      const queue = queueOf(out);
      const r = await table.play([...queue.map(strip), { type, seat, data }], viewer);
      const late = r.refused && r.refused.index === queue.length;
      if (late && r.refused.code !== "history_elided") {
        K.flash(K.t("Not recorded: {why}", { why: refusalText(r.refused) }), "error");
        return;
      }
      // kept on the device first (a page closed the moment after a tap loses nothing), then drawn at once; the
      // server's answer confirms it or rolls it back
      const entry = await K.offline.add(id, { type, seat, data }, local.seq);
      drawLocal(late ? null : r);  // (an undo further back than the page keeps: the server undoes it)
      if (!entry.online && entry.expected_seq === local.seq) K.flash(K.t("Kept on this device: {move}, sent when the network is back", { move: typeName(type) }), "info");
      if (!entry.online) showOutbox();
      await sync();
    };
    /** Start the engine once the page is drawn; from then on it draws this match. Where it cannot, say why. */
    const startEngine = async () => {
      if (!engineLoading) return;  // (turned off on /me: nothing to say, the user chose)
      if (!hasScene) return;
      try {
        await engineLoading;
        table = K.engine.table(id);
        const snap = await snapshotAsked;
        if (!snap.ok) throw new Error(K.errorText(snap));
        // the server's moves since are followed by the refresh below (a tap before then catches up first: sendLocal)
        local = { seq: (await table.open(snap.data)).seq };
        if (!snap.kept) keepTable();
      } catch (err) {
        local = null;
        engineNote.textContent = K.t("This device runs no engine of its own ({why}): each move is drawn once the server answers, and offline the moves are entered with the pickers.", { why: err.message });
        engineNote.hidden = false;
        root.dataset.engine = "failed";
        return;
      }
      root.dataset.engine = "ready";
      movesSeq = null;
      await refresh();
    };

    // -- the moves waiting on this device ---------------------------------------------------------
    const outboxList = document.getElementById("outbox-list");
    const blockBox = document.getElementById("outbox-block");
    /** A move not yet sent, in words: who, what, and its values as the pickers show them. */
    const pendingLine = (e) => {
      const actor = game.event_types[e.type] ? game.event_types[e.type].actor : null;
      const who = e.seat !== null && e.seat !== undefined ? players[e.seat] : actor === "chance" ? K.t("chance") : K.t("Table");
      return [h("b", `${who}: ${typeName(e.type)}`), ...flatten(e.data).map(([p, v]) => [" ", h("span.value", valueButton(p, v))])];
    };
    const markOf = (e) => (e.blocked ? (e.blocked.code === "seq_conflict" ? K.t("conflict") : K.t("refused")) : e.replace ? K.t("to be corrected") : K.t("not sent yet"));
    /** The outbox's lines under the server's moves, each marked. Resolves to the entries. */
    const showOutbox = async () => {
      const out = await K.offline.list(id);
      // a move entered online whose seq the server's list already shows is that move, its answer on the way
      const shown = out.filter((e) => !(e.online && e.expected_seq < seq));
      outboxList.replaceChildren(...shown.map((e) => h("li", { "data-key": e.key, "data-seq": e.expected_seq + 1, class: e.blocked ? "blocked" : e.replace ? "replace" : "" },
        h("span.seq", e.expected_seq + 1), " ", pendingLine(e), h("span.mark", markOf(e)))));
      outboxList.hidden = !shown.length;
      return out;
    };
    let blockShown = "";
    /** Sending stopped at a move: what happened, and the recorder's choices. Nothing is sent past it until then. */
    const showBlock = async (out) => {
      const first = out[0];
      const b = first && first.blocked;
      const key = b ? `${first.key}|${out.length}|${b.code}` : "";
      if (key === blockShown) return;
      blockShown = key;
      if (!b) { blockBox.hidden = true; blockBox.replaceChildren(); return; }
      const behind = out.length - 1;
      const again = () => { K.offline.retry(id, first.key).then(sync); };
      if (b.code === "seq_conflict" || b.code === "store_went_back") {
        const theirs = await K.api("GET", `/api/matches/${id}/review?${seatQuery(viewer)}&from=${first.expected_seq + 1}`);
        const serverLines = theirs.ok ? theirs.data.steps.map((s) => h("li", { "data-seq": s.seq, value: s.seq }, K.stepLine(s)))
          : [h("li.muted", K.t("The server's moves cannot be read now: {why}", { why: K.errorText(theirs) }))];
        blockBox.replaceChildren(h("h3", K.t("Someone else recorded first")),
          h("p", K.t("The server has moves this device did not know of: it is at seq {now}; the moves below were recorded here after seq {seq}. Nothing more is sent until you choose.", { now: b.current_seq ?? "?", seq: first.expected_seq })),
          h("div.histories", h("div", h("h4", K.t("On the server")), h("ol#theirs", serverLines)),
            h("div", h("h4", K.t("On this device, not sent")), h("ol#mine", out.map((e) => h("li", { value: e.expected_seq + 1 }, pendingLine(e)))))),
          h("div.buttons", h("button.button#keep-theirs", { type: "button", onclick: async () => {
            await K.offline.dropFrom(id, first.key);
            K.flash(K.tn(out.length, "The server's moves stay; {n} move from this device was dropped", "The server's moves stay; {n} moves from this device were dropped"), "ok");
          } }, K.tn(out.length, "Keep the server's moves, drop this {n}", "Keep the server's moves, drop these {n}")),
          h("button.button#add-mine", { type: "button", onclick: async () => {
            const m = await K.api("GET", `/api/matches/${id}`);
            if (!m.ok || m.kept) { K.flash(K.errorText(m.ok ? { status: 0, data: { error: { message: K.t("offline") } } } : m), "error"); return; }
            await K.offline.rebase(id, m.data.seq);
            sync();
          } }, K.t("Add mine after the server's (each is checked again)"))));
      } else {
        blockBox.replaceChildren(h("h3", K.t("Move {seq} was not recorded", { seq: first.expected_seq + 1 })),
          h("p", pendingLine(first)), h("p.error", { lang: K.engineLang }, b.message),
          h("p.muted", behind ? K.tn(behind, "{n} move waits behind it and is not sent until you choose.", "{n} moves wait behind it and are not sent until you choose.") : ""),
          h("div.buttons",
            h("button.button#correct-move", { type: "button", onclick: () => K.offline.correct(id, first.key) }, K.t("Enter it again, corrected")),
            h("button.button#drop-tail", { type: "button", onclick: async () => {
              const n = await K.offline.dropFrom(id, first.key);
              K.flash(K.tn(n, "{n} move dropped", "{n} moves dropped"), "ok");
            } }, behind ? K.tn(behind, "Drop it and the {n} move behind it", "Drop it and the {n} moves behind it") : K.t("Drop it")),
            h("button.button#send-again", { type: "button", onclick: again }, K.t("Send it again as it is"))));
      }
      blockBox.hidden = false;
    };
    /** Moves entered while the page cannot know the legal ones (moves wait that the server has not seen): any
        event type, by the pickers its JSON Schema gives; the server checks each when it is sent. */
    let lastEntryType = null;
    const showPickers = (view, out) => {
      const section = document.getElementById("recorder");
      section.hidden = false;
      turn.textContent = "· " + K.t("what happened at the table");
      const playing = canPlay();
      const types = Object.entries(game.event_types).filter(([t, et]) => t !== "undo" && (!playing || et.actor === "seat")).map(([t]) => t);
      const seats = (view.to_act || []).filter((a) => typeof a === "number");
      // the seat after the last move's (waiting here) is a good guess for the next one; the recorder can change it
      const lastSeat = [...out].reverse().map((e) => e.seat).find((x) => typeof x === "number");
      const guess = playing ? viewer : lastSeat !== undefined ? (lastSeat + 1) % players.length : seats.length ? seats[0] : 0;
      const slot = h("div");
      const open = (type) => {
        const et = game.event_types[type];
        const form = SchemaForm.build(et.schema, "", { game, type, view, labels, players });
        lastEntryType = type;
        for (const b of movesBox.querySelectorAll("[data-entry]")) b.classList.toggle("on", b.dataset.entry === type);
        const seatPick = et.actor === "seat" ? seatSelect(false, { id: "entry-seat", disabled: playing })
          : et.actor === "chance" ? seatSelect(true, { id: "entry-seat" }) : null;
        if (et.actor === "seat") seatPick.value = String(guess);
        slot.replaceChildren(h("div.grouptitle", h("b", typeName(type)), h("small.muted.desc", { lang: K.engineLang }, " " + SchemaForm.helpText(et.description))),
          seatPick ? h("label.small", (et.actor === "chance" ? K.t("for") : K.t("by")) + " ", seatPick) : "", form.node,
          recordButton("data-submit-entry", type, form, () => seatOf(seatPick)));
      };
      movesBox.replaceChildren(h("div.group.entry", { "data-type": "entry" },
        h("p.muted", K.t("Moves are waiting to be sent, so this page cannot list the legal ones: enter what happened at the table. The server checks each move when it is sent.")),
        h("div.buttons", types.map((t) => h("button.move", { type: "button", "data-entry": t, onclick: () => open(t) }, typeName(t)))), slot));
      if (lastEntryType && types.includes(lastEntryType)) open(lastEntryType);  // the same kind of move again, one tap less
    };

    /** The text buttons under a drawing, folded away: fetched only once the fold is opened (a move tapped on the
        drawing then costs the page no list of moves it does not show). */
    const fallbackFold = (parts) => {
      const fold = h("details.fallback", { "data-fallback": "" }, h("summary", K.t("Other ways to enter a move")), ...parts);
      fold.open = fallbackOpen;
      fold.addEventListener("toggle", () => {
        const opened = fold.open && !fallbackOpen;
        fallbackOpen = fold.open;
        if (opened && !parts.length) { movesSeq = null; refresh(); }
      });
      return fold;
    };

    /** The text buttons; ``mine``: the legal moves and the chance due as the page's engine works them out
        (else they are asked of the server). */
    const showMoves = async (view, mine = null) => {
      const section = document.getElementById("recorder");
      currentView = view;
      if (hasScene && !fallbackOpen) {
        section.hidden = false;
        turn.textContent = "· " + K.t("to act: {who}", { who: (view.to_act || []).map(actorName).join(", ") });
        movesBox.replaceChildren(fallbackFold([]));
        return true;
      }
      const playing = canPlay();
      const own = (actor) => ({ ok: true, data: { to_act: view.to_act || [], chance: mine.chance,
        moves: mine.moves.filter((m) => (actor === "table" ? m.seat === null : m.seat === actor)) } });
      const base = mine ? own(playing ? viewer : "table") : await K.api("GET", `/api/matches/${id}/legal-moves${playing ? `?seat=${viewer}` : ""}`);
      if (!base.ok) {
        if (transient(base)) return false;  // the list on screen stays until a whole new one came
        section.hidden = true;
        return true;
      }
      section.hidden = false;
      const toAct = base.data.to_act || [];
      turn.textContent = "· " + K.t("to act: {who}", { who: toAct.map(actorName).join(", ") });
      const groups = [];
      for (const actor of toAct) {
        if (actor === "chance" || (playing && actor !== viewer)) continue;
        const r = actor === "table" || playing ? base : mine ? own(actor) : await K.api("GET", `/api/matches/${id}/legal-moves?seat=${actor}`);
        if (!r.ok) { if (transient(r)) return false; continue; }
        for (const mv of r.data.moves) {
          let g = groups.find((x) => x.type === mv.type && x.seat === mv.seat);
          if (!g) groups.push((g = { type: mv.type, seat: mv.seat, moves: [] }));
          g.moves.push(mv);
        }
      }
      const parts = groups.map((g) => moveGroup(g, view));
      if (toAct.includes("chance") && !playing) parts.push(chancePanel(base.data.chance || [], view));
      const others = playing ? null : otherMoves(groups, toAct, view);
      if (others) parts.push(others);
      if (playing && !groups.length) parts.push(h("p.muted", K.t("Nothing for you to enter now: wait for your turn.")));
      if (hasScene) movesBox.replaceChildren(fallbackFold(parts));  // the drawing enters the moves; the text buttons stay below it
      else movesBox.replaceChildren(...parts);
      return true;
    };

    const dutch = (() => { const out = {}; for (const [a, c] of Object.entries(game.aliases || {})) if (!(c in out) && /[a-z]/.test(a)) out[c] = a; return out; })();
    /** An event type in words: on a Dutch page its name from the rules text (the game's aliases), where it has one. */
    const typeName = (type) => (K.lang === "nl" && ((game.event_types[type] || {}).title_nl || dutch[type])) || type.replace(/_/g, " ");
    const typeTitle = (type, seat) => h("div.grouptitle", h("b", `${seat === null ? K.t("Table") : players[seat]}: ${typeName(type)}`), dutch[type] && K.lang !== "nl" ? h("small.nl", { lang: "nl" }, ` (${dutch[type]})`) : null,
      game.event_types[type] ? h("small.muted.desc", { lang: K.engineLang }, " " + SchemaForm.helpText(game.event_types[type].description)) : null);

    /** A seat picker over the match's players, "no seat" first where an outcome may be nobody's. */
    const seatSelect = (noSeat, attrs = {}) => h("select.seatsel", { "aria-label": K.t("seat"), ...attrs },
      noSeat ? h("option", { value: "" }, K.t("no seat")) : null, ...players.map((p, i) => h("option", { value: String(i) }, p)));
    const seatOf = (pick) => (!pick || pick.value === "" ? null : Number(pick.value));
    /** The button under a schema form that records its move; ``seat()`` says for whom (null: nobody). */
    const recordButton = (attr, type, form, seat) => h("button.move.big", { type: "button", [attr]: type, onclick: () => {
      let data;
      try { data = form.get(); } catch (msg) { K.flash(String(msg), "error"); return; }
      send(type, seat(), data);
    } }, K.t("Record {move}", { move: typeName(type) }));

    const flatten = (value, path = "", out = []) => {
      if (value && typeof value === "object" && !Boards.atomic(game, path)) {
        const entries = Array.isArray(value) ? value.map((v, i) => [`${path}[${i}]`, v]) : Object.entries(value).map(([k, v]) => [path ? `${path}.${k}` : k, v]);
        if (!entries.length) out.push([path, value]);
        for (const [p, v] of entries) flatten(v, p, out);
      } else out.push([path, value]);
      return out;
    };
    const SEATISH = /(^|\.)(target|twelves|first|seat|winner|victim|with|from)$/;
    let currentView = null;
    /** A field's key (the engine's English word) in a button: marked as English on a page in another language. */
    const en = (text) => (K.lang === "en" ? text : h("span", { lang: "en" }, text));
    /** A field's name in the page's words (SchemaForm's list of the games' fields), else its key, marked English. */
    const field = (key) => { const t = SchemaForm.titleOf(null, key); return t === SchemaForm.words(key) ? en(t) : t; };
    /** A value as words: a resource or a card by its name, a map of counts as "2 wol, 1 erts" (never JSON). */
    const valueText = (v) => (v && typeof v === "object" && !Array.isArray(v)
      ? Object.entries(v).map(([k, n]) => `${n} ${Boards.valueWords(k)}`).join(", ") || K.t("none")
      : Array.isArray(v) ? v.map(valueText).join(", ") : typeof v === "boolean" ? (v ? K.t("yes") : K.t("no"))
      : labels.isCard(v) ? labels.of(v).title : Boards.valueWords(v));
    const valueButton = (path, v) => {
      // a value some moves lack: past the end of a list ("cover[1]": no more), or a list the other moves leave
      // empty ("cover" is [] in one move, and has items in the others: choose some); never two buttons "none"
      if (v === undefined) {
        const item = /\[(\d+)\]$/.exec(path);
        if (item) return Number(item[1]) === 0 ? K.t("none") : K.t("no more");
        return [field(path.split(/[.[\]]/).filter(Boolean).pop() || path), K.t(": choose…")];
      }
      if (labels.isCard(v)) return labels.chip(v);
      const spot = Boards.spotLabel(game, currentView, path, v);
      if (spot) return spot;
      const key = path.split(/[.[\]]/).filter(Boolean).pop() || path;
      if (SEATISH.test(path) && typeof v === "number" && players[v] !== undefined) return [field(key), `: ${players[v]}`];
      if (typeof v === "object") return JSON.stringify(v) === "[]" ? [field(key), K.t(": none")] : [field(key), `: ${valueText(v)}`];
      return isNaN(Number(key)) ? [field(key), ` ${valueText(v)}`] : String(v);
    };

    /** One event type's legal moves as a decision tree: choose the first value that differs, then the next… */
    const moveGroup = (g, view) => {
      const box = h("div.group", { "data-type": g.type, "data-seat": g.seat === null ? "table" : g.seat });
      const flat = g.moves.map((mv) => ({ mv, leaves: Object.fromEntries(flatten(mv.data).map(([p, v]) => [p, JSON.stringify(v)])) }));
      const paths = [];
      for (const f of flat) for (const p of Object.keys(f.leaves)) if (!paths.includes(p)) paths.push(p);
      const chosen = [];
      const draw = () => {
        let left = flat.filter((f) => chosen.every(([p, v]) => f.leaves[p] === v));
        const crumbs = chosen.length ? h("div.crumbs", chosen.map(([p, v]) => h("span.crumb", valueButton(p, v === undefined ? undefined : JSON.parse(v)))),
          h("button.button.small", { type: "button", onclick: () => { chosen.pop(); draw(); } }, "← " + K.t("back"))) : null;
        const next = paths.find((p) => new Set(left.map((f) => f.leaves[p])).size > 1);
        let buttons;
        if (!next) {
          const mv = left[0].mv;
          const label = g.moves.length === 1 ? (Object.keys(mv.data).length ? flatten(mv.data).map(([p, v]) => valueButton(p, v)) : typeName(g.type)) : K.t("Record");
          buttons = [h("button.move.big", { type: "button", "data-move": JSON.stringify(mv.data), onclick: () => send(mv.type, mv.seat, mv.data) }, label)];
        } else {
          const values = [...new Set(left.map((f) => f.leaves[next]))];
          buttons = values.map((v) => h("button.move", { type: "button", "data-path": next, "data-value": v === undefined ? "" : v, onclick: () => {
            chosen.push([next, v]);
            const rest = flat.filter((f) => chosen.every(([p, x]) => f.leaves[p] === x));
            if (rest.length === 1 && !paths.some((p) => new Set(rest.map((f) => f.leaves[p])).size > 1) && chosen.length && g.moves.length > 1) {
              const mv = rest[0].mv; send(mv.type, mv.seat, mv.data);
            } else draw();
          } }, valueButton(next, v === undefined ? undefined : JSON.parse(v))));
        }
        box.replaceChildren(typeTitle(g.type, g.seat), crumbs || "", h("div.buttons", buttons));
      };
      draw();
      return box;
    };

    /** Chance outcomes (dice, a deal, a drawn card): a picker built from the event type's JSON Schema. */
    const chancePanel = (due, view) => {
      const types = Object.entries(game.event_types).filter(([, et]) => et.actor === "chance").map(([k]) => k);
      const box = h("div.group.chance", { "data-type": "chance" });
      const slot = h("div");
      const open = (type, seat) => {
        const ctx = { game, type, view, labels, players };
        const form = SchemaForm.build(game.event_types[type].schema, "", ctx);
        const seatPick = seatSelect(true);
        seatPick.value = seat === null || seat === undefined ? "" : String(seat);
        slot.replaceChildren(typeTitle(type, seat ?? null), h("label.small", K.t("for") + " ", seatPick), form.node,
          recordButton("data-submit", type, form, () => seatOf(seatPick)));
      };
      if (due.length) {
        box.append(h("div.grouptitle", h("b", K.t("Chance:") + " "), K.t("enter the {move}", { move: typeName(due[0].type) })));
        const others = types.filter((t) => t !== due[0].type);
        // what the table saw may differ from what is due (a draw pile shuffled against the rules): one tap away
        if (others.length) box.append(h("div.buttons.othertypes", h("small.muted", K.t("or:") + " "), others.map((t) => h("button.button.small", { type: "button", "data-chance": t, onclick: () => open(t, due[0].seat) }, typeName(t)))));
        box.append(slot); open(due[0].type, due[0].seat);
      } else {
        box.append(h("div.grouptitle", h("b", K.t("Chance:") + " "), K.t("which outcome?")), h("div.buttons", types.map((t) => h("button.move", { type: "button", "data-chance": t, onclick: () => open(t, null) }, typeName(t)))), slot);
      }
      return box;
    };

    /** Moves the engine does not list (a domestic trade: what two players agree is theirs to say; what the whole
        table lays open, as Troje's decision cards at the end), entered with a form built from the event type's
        JSON Schema; the server still checks them against the rules. */
    const otherMoves = (groups, toAct, view) => {
      const offered = new Set(groups.map((g) => g.type));
      const seats = toAct.filter((a) => typeof a === "number");
      const table = toAct.includes("table");
      const unseen = Boards.unseenMoves(game);
      const types = Object.entries(game.event_types).filter(([t, et]) => ((et.actor === "seat" && seats.length) || (et.actor === "table" && table))
        && (!offered.has(t) || unseen.includes(t)) && t !== "undo" && Object.keys((et.schema && et.schema.properties) || {}).length).map(([t]) => t);
      if (!types.length) return null;
      const slot = h("div");
      const open = (type) => {
        const form = SchemaForm.build(game.event_types[type].schema, "", { game, type, view, labels, players });
        const byTable = game.event_types[type].actor === "table";
        const seatPick = seatSelect(false);
        if (!byTable) seatPick.value = String(seats[0]);
        slot.replaceChildren(typeTitle(type, byTable ? null : seats[0]), byTable ? "" : h("label.small", K.t("by") + " ", seatPick), form.node,
          recordButton("data-submit-other", type, form, () => (byTable ? null : seatOf(seatPick))));
      };
      const hint = seats.length ? K.t("(one not listed above, e.g. a trade)") : K.t("(what the table lays open)");
      const box = h("details.othermoves", { "data-type": "other" }, h("summary", K.t("Another move…") + " ", h("small.muted", hint)),
        h("div.buttons", types.map((t) => h("button.move", { type: "button", "data-other": t, onclick: () => open(t) }, typeName(t)))), slot);
      if (!groups.length && !toAct.includes("chance")) { box.open = true; if (types.length === 1) open(types[0]); }  // nothing else to do
      return box;
    };

    // -- live ------------------------------------------------------------------------------------
    const connect = () => {
      if (stream) stream.stop();
      // The page's own move comes back on the stream too: it is refreshed for already (a second redraw would
      // only cost a phone its battery, and replace the board under a finger or a screenshot).
      stream = K.liveStream(id, viewer, seq, (event) => {
        root.dataset.lastEvent = event.seq;
        if (event.seq > Math.max(seq, head)) { head = event.seq; refresh(event.seq); }
      },
        (s) => {
          if (s !== "live" && !navigator.onLine) s = "offline";
          liveBadge.textContent = s === "live" ? "● " + K.t("live") : s === "error" ? K.t("error") : s === "offline" ? K.t("offline") : K.t("reconnecting");
          liveBadge.dataset.state = s;
        });
    };
    // another viewer reads other lines (what is hidden from it): its review from the start
    select.onchange = async () => { viewer = viewerValue(select.value); logKeys = []; log.replaceChildren(); await refresh(); connect(); };
    await refresh();
    connect();
    window.addEventListener("pagehide", () => stream && stream.stop());
    // once the page is drawn: the drawing never waits for the engine (it loads in its worker)
    startEngine();
  };
})();
