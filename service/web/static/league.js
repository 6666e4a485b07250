/* Leagues from a phone, through the league API only (docs/leagues.md):
   - the list page creates a league (game, format, rounds, players, points and tiebreaks);
   - a league's page registers and withdraws players, pairs the next round, starts each board's
     match (linking to its record page), enters a finished match's result once the worker has
     validated its log, records a forfeit with its reason, and shows standings, rounds and ratings.
   A league is finished when its last round is complete: the API has no other "finish".
   Every refusal of the API is shown as it says it, next to the control that caused it. */
"use strict";
(() => {
  const K = Kroniek, h = K.h;
  /** A score or a rating as the page's language writes it (Dutch 0,5), two decimals at most. */
  const num = (x) => (typeof x === "number" ? x.toLocaleString(K.lang, { maximumFractionDigits: 2, useGrouping: false }) : String(x));
  /** The rating systems by their names, not the API's ids. */
  const SYSTEM_NAMES = { glicko2: "Glicko-2", "openskill-pl": "OpenSkill (Plackett-Luce)" };
  const FORMATS = { swiss: K.t("Swiss"), round_robin: K.t("round robin"), double_round_robin: K.t("double round robin"), tables: K.t("tables") };
  const TIEBREAKS = ["buchholz_cut1", "buchholz", "sonneborn_berger", "direct_encounter", "wins"]; // the API's default order
  const TIEBREAK_NAMES = { buchholz: "Buchholz", buchholz_cut1: K.t("Buchholz cut 1"), sonneborn_berger: "Sonneborn-Berger",
    direct_encounter: K.t("direct encounter"), wins: K.t("wins") };
  const TIEBREAK_SHORT = { buchholz: "Bh", buchholz_cut1: "Bh-1", sonneborn_berger: "SB", direct_encounter: K.t("DE"), wins: K.t("Wins") };

  /** What a league's audit checked, in words (the API's keys). */
  const CHECKED = { events: K.t("events"), commitments: K.t("commitments"), matches: K.t("matches"), results: K.t("results"), proofs: K.t("proofs") };
  /** A role in words (the API says organiser, referee). */
  const roleName = (role) => ({ organiser: K.t("organiser"), referee: K.t("referee") })[role] || role;

  /** A player's name as one element: it wraps between words, never inside one (see kroniek.css, "Leagues"). */
  const name = (player) => h("span.lg-name", player);
  const names = (players, sep = " – ") => players.flatMap((p, i) => (i ? [sep, name(p)] : [name(p)]));

  /** The API's refusal, in the flash and in ``box`` (beside the control), as the API words it. */
  const refused = (prefix, res, box) => {
    const text = K.t("{what}: {why}", { what: prefix, why: K.errorText(res) });
    K.flash(text, "error");
    if (box) { box.textContent = text; box.hidden = false; }
    return text;
  };
  /** Run ``action`` with ``button`` disabled and marked busy, so a second tap sends nothing twice. */
  const busy = async (button, action) => {
    if (button.disabled) return;
    button.disabled = true;
    button.setAttribute("aria-busy", "true");
    try { await action(); } finally { button.disabled = false; button.removeAttribute("aria-busy"); }
  };

  /** A ranked table (standings, ratings): a table on a wide screen; on a phone (kroniek.css) each row is
      a card: rank, name and the main figure on one line, the other figures below with their labels.
      cols: {th, title?, cls, get(row), label?, unit? (text, or a function of the row), hideZero? (on a phone)}; the roles keep it a table when CSS lays it out as cards. */
  const rankTable = (table, cols, rows, caption) => {
    table.setAttribute("role", "table");
    table.replaceChildren(...[
      caption ? h("caption.muted", caption) : null,
      h("thead", { role: "rowgroup" }, h("tr", { role: "row" }, cols.map((c) => h("th", { scope: "col", role: "columnheader", class: c.cls },
        c.title ? h("abbr", { title: c.title }, c.th) : c.th)))),
      h("tbody", { role: "rowgroup" }, rows.map((r) => h("tr", { role: "row", "data-player": r.player },
        cols.map((c) => h("td", { role: "cell", class: c.hideZero && c.get(r) === 0 ? c.cls + " lg-zero" : c.cls, "data-label": c.label || null, "data-unit": (typeof c.unit === "function" ? c.unit(r) : c.unit) || null }, c.get(r))))))].filter(Boolean));
  };

  // -- the list: a new league ----------------------------------------------------------------------

  K.leaguesPage = async () => {
    const form = document.getElementById("new-league");
    const me = await K.authReady;
    if (!me) return; // the page says to sign in first
    document.getElementById("new-league-signin").hidden = true;
    form.hidden = false;
    const $ = (sel) => form.querySelector(sel);
    const game = $("#lg-game"), format = $("#lg-format"), rounds = $("#lg-rounds"), roundsField = $("#lg-rounds-field");
    const errorBox = $("#new-league-error");

    const syncRounds = () => {
      const needs = format.value === "swiss" || format.value === "tables";
      roundsField.hidden = !needs;
      rounds.required = needs;
    };
    let formatTouched = false;
    format.addEventListener("change", () => { formatTouched = true; syncRounds(); });
    // a game never played by two is played at tables; one only ever played by two is not
    game.addEventListener("change", () => {
      if (formatTouched) return;
      const counts = (game.selectedOptions[0].dataset.counts || "").split(",").map(Number);
      if (!counts.includes(2)) format.value = "tables";
      else if (format.value === "tables") format.value = "swiss";
      syncRounds();
    });
    syncRounds();

    // tiebreaks: each on or off, moved up or down; sent only when changed from the API's default
    const order = TIEBREAKS.slice(), on = new Set(order);
    const list = $("#lg-tiebreaks");
    const drawTiebreaks = (focus) => {
      list.replaceChildren(...order.map((t, i) => {
        const box = h("input", { type: "checkbox", id: `lg-tb-${t}`, "data-tiebreak": t, onchange: (e) => { if (e.target.checked) on.add(t); else on.delete(t); } });
        box.checked = on.has(t);
        const move = (dir, label, glyph) => h("button.button.small", { type: "button", "data-move": dir, "aria-label": `${label} ${TIEBREAK_NAMES[t]}`,
          disabled: dir < 0 ? i === 0 : i === order.length - 1, onclick: () => {
            order.splice(i, 1); order.splice(i + dir, 0, t);
            drawTiebreaks({ t, dir });
          } }, glyph);
        return h("li", { "data-tiebreak": t }, h("label", { for: `lg-tb-${t}` }, box, " ", TIEBREAK_NAMES[t]), " ",
          h("span.lg-moves", move(-1, K.t("Move up"), "↑"), move(1, K.t("Move down"), "↓")));
      }));
      if (focus) { // keep the keyboard where it was: on the moved tiebreak's button (or its other one at an end)
        const li = list.querySelector(`li[data-tiebreak="${focus.t}"]`);
        const b = li.querySelector(`button[data-move="${focus.dir}"]`);
        (b.disabled ? li.querySelector(`button[data-move="${-focus.dir}"]`) : b).focus();
      }
    };
    drawTiebreaks();

    const FIELDS = { name: "#lg-name", game: "#lg-game", format: "#lg-format", rounds: "#lg-rounds", players: "#lg-players",
      "rules.tiebreaks": "#lg-tiebreaks input", "rules.unplayed": "#lg-unplayed" };
    const fieldOf = (path) => {
      if (!path) return null;
      const rule = /^rules\.(\w+)/.exec(path);
      if (rule && $(`#lg-${rule[1]}`)) return $(`#lg-${rule[1]}`);
      const key = Object.keys(FIELDS).find((k) => path === k || path.startsWith(k + "[") || path.startsWith(k + "."));
      return key ? $(FIELDS[key]) : null;
    };
    const exact = (v) => (/^-?\d{1,7}$/.test(v) ? Number(v) : v); // whole numbers as numbers; the rest as exact text

    form.addEventListener("submit", (e) => {
      e.preventDefault();
      busy($("#create-league"), async () => {
        errorBox.hidden = true;
        form.querySelectorAll("[aria-invalid]").forEach((x) => { x.removeAttribute("aria-invalid"); x.removeAttribute("aria-errormessage"); });
        const body = { name: $("#lg-name").value.trim(), game: game.value, format: format.value,
          players: $("#lg-players").value.split("\n").map((s) => s.trim()).filter(Boolean) };
        if (!roundsField.hidden && rounds.value !== "") body.rounds = Number(rounds.value);
        const rules = {};
        form.querySelectorAll("[data-rule]").forEach((input) => { if (input.value.trim()) rules[input.dataset.rule] = exact(input.value.trim()); });
        const places = $("#lg-rank_points").value.split(/[,;\s]+/).filter(Boolean);
        if (places.length) rules.rank_points = places.map(exact);
        const chosen = order.filter((t) => on.has(t));
        if (chosen.join() !== TIEBREAKS.join()) rules.tiebreaks = chosen;
        if ($("#lg-unplayed").value) rules.unplayed = $("#lg-unplayed").value;
        if (Object.keys(rules).length) body.rules = rules;
        const r = await K.api("POST", "/api/leagues", body);
        if (!r.ok) {
          refused(K.t("The league was not created"), r, errorBox);
          const field = fieldOf(r.data && r.data.error && r.data.error.field);
          if (field) {
            field.setAttribute("aria-invalid", "true");
            field.setAttribute("aria-errormessage", "new-league-error");
            const details = field.closest("details");
            if (details) details.open = true;
            field.focus();
          }
          return;
        }
        location.href = `/leagues/${r.data.id}`;
      });
    });
  };

  // -- one league ----------------------------------------------------------------------------------

  K.leaguePage = async () => {
    const root = document.getElementById("league");
    const id = root.dataset.league;
    const $ = (sel) => document.getElementById(sel);
    const me = await K.authReady;
    const can = { manage: false, referee: false };
    /** Who holds which role; the signed-in user's decide what this page offers. */
    const roles = async () => {
      const res = await K.api("GET", `/api/leagues/${id}/roles`);
      const all = (res.ok && res.data.roles) || {};
      const mine = (me && all[me.name]) || [];
      can.manage = Boolean(me && me.admin) || mine.includes("organiser");
      can.referee = can.manage || mine.includes("referee");
      $("roles-section").hidden = !Object.keys(all).length;
      $("roles").replaceChildren(...Object.entries(all).map(([user, held]) => h("li", { "data-user": user }, name(user), h("small.muted", ` ${held.map(roleName).join(", ")}`))));
      $("grant").hidden = !can.manage;
      $("signin-note").hidden = Boolean(me);
    };
    await roles();
    let league = null, shown = "", shownWhole = "", timer = null;

    const post = (path, body) => K.api("POST", `/api/leagues/${id}${path}`, body);
    const after = async (message) => { K.flash(message, "ok"); await load(true); };

    /** One board: its players, where its match stands, and what may be done now. */
    const board = (r, b, match) => {
      const o = b.outcome;
      const head = `board-${r.round}-${b.board}`; // every control of the board is described by its head (which board, whose)
      const about = { "aria-describedby": head };
      const error = h("p.lg-error", { role: "alert", hidden: true });
      const actions = [];
      let state;
      if (o && o.forfeit) state = h("span.forfeit", K.t("Forfeit by") + " ", names(o.forfeited, ", "), `: ${o.forfeit}`);
      else if (o && o.team_won !== undefined) state = h("span.result", o.team_won ? K.t("The players won together.") : K.t("The game beat the players."));
      else if (o && o.ranks) {
        const winners = b.players.filter((_, i) => o.ranks[i] === 1 && !o.ranks.every((x) => x === 1));
        state = h("span.result", o.scores ? o.scores.map(num).join(" – ") : "", winners.length ? [" · " + K.t("won by") + " ", names(winners, ", ")] : [o.scores ? " · " : "", K.t("a draw")]);
      } else if (!b.match) state = h("span.muted", K.t("No match started yet."));
      else if (!match) state = h("span.muted", K.t("Match started."));
      else if (match.status !== "finished") state = h("span.muted", K.tn(match.seq - 1, "In play: {n} event recorded.", "In play: {n} events recorded."));
      else if (match.validation === "valid") state = h("span", K.t("Finished: {reason}. Its log is validated.", { reason: match.result.reason }));
      else if (match.validation === "pending") state = h("span.muted", K.t("Finished: {reason}. Waiting for the worker to validate its log…", { reason: match.result.reason }));
      else state = h("span.bad", K.t("Finished, but its log is {verdict}", { verdict: match.validation }) +
        `${match.validation_details && match.validation_details.message ? ": " + match.validation_details.message : ""}. ` + K.t("Its result cannot count; a referee may record a forfeit."));

      if (!b.match && !o && can.manage) {
        actions.push(h("button.button.primary", { ...about, type: "button", "data-start": `${r.round}-${b.board}`, onclick: (e) => busy(e.currentTarget, async () => {
          const res = await post(`/rounds/${r.round}/boards/${b.board}/match`);
          if (!res.ok) { refused(K.t("Board {board}'s match was not started", { board: b.board }), res, error); return; }
          await after(K.t("Board {board}'s match started: record it from its page.", { board: b.board }));
        }) }, K.t("Start match")));
      }
      if (b.match && !o) {
        actions.push(h("a.button.primary", { ...about, href: `/matches/${b.match}`, "data-record": b.match },
          match && match.status === "finished" ? K.t("Open match") : can.referee ? K.t("Record match") : K.t("Watch match")));
        if (match && match.status === "finished" && match.validation === "valid" && can.referee) {
          actions.push(h("button.button.primary", { ...about, type: "button", "data-result": b.match, onclick: (e) => busy(e.currentTarget, async () => {
            const res = await post("/results", { match: b.match });
            if (!res.ok) { refused(K.t("Board {board}'s result was not entered", { board: b.board }), res, error); return; }
            await after(K.t("Board {board}'s result is in the standings.", { board: b.board }));
          }) }, K.t("Enter result")));
        }
      }
      if (b.match && o && !o.forfeit) {
        actions.push(h("a.button", { ...about, href: `/matches/${b.match}/review`, "data-match": b.match }, K.t("Review")),
          h("a.button", { ...about, href: `/api/leagues/${id}/matches/${b.match}/proof` }, K.t("Proof")));
      }
      let forfeit = null;
      if (!o && can.referee) {
        const key = `${r.round}-${b.board}`;
        const reason = h("input", { type: "text", id: `forfeit-reason-${key}`, maxlength: 1000, required: true, autocomplete: "off" });
        const boxes = b.players.map((p, i) => h("label.choice", h("input", { type: "checkbox", value: p, id: `forfeit-${key}-${i}` }), " ", name(p)));
        forfeit = h("details.lg-forfeit", { "data-forfeit": key }, h("summary", about, K.t("Record a forfeit")),
          h("form", { onsubmit: (e) => {
            e.preventDefault();
            busy(e.currentTarget.querySelector("button"), async () => {
              const forfeited = boxes.map((l) => l.querySelector("input")).filter((x) => x.checked).map((x) => x.value);
              const res = await post("/forfeits", { round: r.round, board: b.board, forfeited, reason: reason.value.trim() });
              if (!res.ok) { refused(K.t("Board {board}'s forfeit was not recorded", { board: b.board }), res, error); return; }
              await after(K.t("Board {board}'s forfeit is recorded.", { board: b.board }));
            });
          } },
          h("fieldset", h("legend", K.t("Forfeited by")), h("div.choices", boxes)),
          h("div.lg-field", h("label", { for: `forfeit-reason-${key}` }, K.t("Reason")), reason),
          h("button.button", { type: "submit" }, K.t("Record forfeit"))));
      }
      return h("li.lg-board", { "data-board": b.board, "data-match": b.match || null },
        h("div.lg-boardhead", { id: head }, h("b", K.t("Board {board}", { board: b.board })), " ", h("span.lg-vs", names(b.players))),
        h("div.lg-state", state),
        actions.length ? h("div.lg-actions", actions) : null, error, forfeit);
    };

    const round = (r, matches) => {
      const unstarted = r.boards.filter((b) => !b.match && !b.outcome);
      const error = h("p.lg-error", { role: "alert", hidden: true });
      const startAll = can.manage && unstarted.length > 1 ? h("button.button", { type: "button", "data-start-all": r.round, onclick: (e) => busy(e.currentTarget, async () => {
        for (const b of unstarted) {
          const res = await post(`/rounds/${r.round}/boards/${b.board}/match`);
          if (!res.ok) { refused(K.t("Board {board}'s match was not started", { board: b.board }), res, error); await load(true); return; }
        }
        await after(K.tn(unstarted.length, "Round {round}'s {n} match started: record each from its page.", "Round {round}'s {n} matches started: record each from its page.", { round: r.round }));
      }) }, K.tn(unstarted.length, "Start the {n} match", "Start all {n} matches")) : null;
      const done = r.boards.filter((b) => b.outcome).length;
      return h("section.lg-round", { "data-round": r.round, "aria-labelledby": `round-${r.round}` },
        h("h3", { id: `round-${r.round}` }, K.t("Round {round}", { round: r.round }), " ", h("small.muted", r.complete ? K.t("complete") : K.tn(r.boards.length, "{done} of {n} board decided", "{done} of {n} boards decided", { done }))),
        r.bye ? h("p.lg-bye", K.t("Bye:") + " ", name(r.bye)) : null,
        startAll, error,
        h("ul.lg-boards", r.boards.map((b) => board(r, b, matches.get(b.match)))));
    };

    const standings = (rows) => {
      const tbs = rows.length && !Array.isArray(rows[0].tiebreaks) ? Object.keys(rows[0].tiebreaks) : [];
      rankTable($("standings"), [
        { th: "#", cls: "lg-rank", get: (r) => r.rank },
        { th: K.t("Player"), cls: "lg-player", get: (r) => h("a", { href: `/leagues/${id}/players/${encodeURIComponent(r.player)}` }, name(r.player)) },
        { th: K.t("Points"), cls: "lg-main num", unit: K.t("pts"), get: (r) => num(r.points) },
        ...tbs.map((t) => ({ th: TIEBREAK_SHORT[t], title: TIEBREAK_NAMES[t], cls: "lg-stat num", label: TIEBREAK_NAMES[t], get: (r) => num(r.tiebreaks[t]) })),
        { th: K.t("Games"), cls: "lg-stat num", unit: (r) => K.tn(r.games, "game", "games"), get: (r) => r.games },
        { th: K.t("W"), title: K.t("won"), cls: "lg-stat num", unit: K.t("won"), get: (r) => r.wins },
        { th: K.t("D"), title: K.t("drawn"), cls: "lg-stat num", unit: K.t("drawn"), get: (r) => r.draws },
        { th: K.t("L"), title: K.t("lost"), cls: "lg-stat num", unit: K.t("lost"), get: (r) => r.losses },
        { th: K.t("Byes"), cls: "lg-stat num", hideZero: true, unit: (r) => K.tn(r.byes, "bye", "byes"), get: (r) => r.byes },
        { th: K.t("Forfeits"), cls: "lg-stat num", hideZero: true, unit: (r) => K.tn(r.forfeits, "forfeit", "forfeits"), get: (r) => r.forfeits },
      ], rows);
    };

    const ratings = async (gameName) => {
      const res = await K.api("GET", `/api/ratings/${league.game}`);
      const table = $("ratings");
      if (!(res.ok && res.data.ratings && res.data.ratings.length)) {
        table.replaceChildren(h("caption.muted", K.t("No rated results for this game yet.")));
        return;
      }
      rankTable(table, [
        { th: "#", cls: "lg-rank", get: (x) => x.rank },
        { th: K.t("Player"), cls: "lg-player", get: (x) => name(x.player) },
        { th: K.t("Rating"), cls: "lg-main num", get: (x) => num(Math.round(x.rating)) },
        { th: K.t("Deviation"), cls: "lg-stat num", label: K.t("deviation"), get: (x) => num(Math.round(x.deviation)) },
        { th: K.t("Games"), cls: "lg-stat num", unit: (x) => K.tn(x.games, "game", "games"), get: (x) => x.games },
        { th: K.t("Conservative"), cls: "lg-stat num", label: K.t("conservative"), get: (x) => num(Math.round(x.conservative)) },
      ], res.data.ratings.map((x, i) => ({ ...x, rank: i + 1 })), K.tn(res.data.results, "{game}, {system}, {n} result rated", "{game}, {system}, {n} results rated", { game: gameName, system: SYSTEM_NAMES[res.data.system] || res.data.system }));
    };

    /** Each player's accuracy and luck over the league's finished matches (the analysis's evaluations). */
    const evaluation = async () => {
      const res = await K.api("GET", `/api/leagues/${id}/evaluation`);
      const table = $("league-evaluation");
      if (!(res.ok && res.data.players.length)) {
        table.replaceChildren(h("caption.muted", res.ok && res.data.pending ? K.t("The finished matches are still being evaluated.") : K.t("No evaluated match yet.")));
        return;
      }
      const d = res.data;
      const marks = (x) => ["??", "?", "?!"].filter((g) => x.glyphs[g]).map((g) => `${x.glyphs[g]}× ${g}`).join(" ") || "—";
      rankTable(table, [
        { th: K.t("Player"), cls: "lg-player", get: (x) => name(x.player) },
        { th: K.t("Accuracy"), cls: "lg-main num", unit: "%", get: (x) => (x.accuracy === null ? "—" : num(x.accuracy)) },
        { th: K.t("Luck"), cls: "lg-stat num", label: K.t("luck"), get: (x) => (x.luck === null ? "—" : `${x.luck > 0 ? "+" : ""}${num(x.luck)}`) },
        { th: K.t("Games"), cls: "lg-stat num", unit: (x) => K.tn(x.matches, "game", "games"), get: (x) => x.matches },
        { th: K.t("Marked"), cls: "lg-stat", label: K.t("marked"), get: marks },
      ], d.players, [K.tn(d.matches, "{n} match evaluated", "{n} matches evaluated"),
        d.luck_unit ? K.t("luck: {unit}", { unit: K.say(d.luck_unit) }) : null,
        d.pending ? K.tn(d.pending, "{n} still being evaluated", "{n} still being evaluated") : null].filter(Boolean).join(" · "));
    };

    const players = () => {
      const active = league.players.filter((p) => !league.withdrawn.includes(p));
      $("players-section").hidden = !(league.players.length || can.manage);
      $("players").replaceChildren(...(league.players.length ? league.players.map((p) => h("li", { "data-player": p }, name(p),
        league.withdrawn.includes(p) ? h("small.muted", ` (${K.t("withdrawn")})`) : null)) : [h("li.muted", K.t("No players registered yet."))]));
      $("register").hidden = !(can.manage && !league.rounds.length);
      $("withdraw").hidden = !(can.manage && !league.finished && active.length);
      $("withdraw-name").replaceChildren(...active.map((p) => h("option", { value: p }, p)));
    };

    /** Can the next round be paired now, and if not, why (the API checks again). */
    const pairing = () => {
      const active = league.players.length - league.withdrawn.length;
      const last = league.rounds[league.rounds.length - 1];
      if (league.finished) return [false, ""];
      if (!league.rounds.length) return active >= 2 ? [true, ""] : [false, K.t("Register at least two players to pair round 1.")];
      if (!last.complete) return [false, K.t("Round {round} still has boards without a result; the next round is paired once every board has one.", { round: last.round })];
      if (league.rounds.length >= league.total_rounds) return [false, K.t("Every round is paired.")];
      return [true, ""];
    };

    /** The league's audit as the API runs it now (a match that has just finished is in the signed tree
        once the worker has logged it, so this is asked again whenever the page is drawn). */
    const audit = async () => {
      const res = await K.api("GET", `/api/leagues/${id}/audit`);
      if (res.ok && res.data.valid) {
        // the head's hash behind a fold, as on the review: an id no one reads at a glance
        $("audit").replaceChildren("✓ " + K.t("audit holds (checked: {what})", { what: Object.entries(res.data.checked || {}).map(([k, v]) => `${v} ${CHECKED[k] || k.replace(/_/g, " ")}`).join(", ") }), " ",
          h("details.inline-details", h("summary", K.t("details")), `${K.t("head")} `, h("code", res.data.head || "—")));
        return;
      }
      $("audit").textContent = !res.ok ? K.errorText(res)
        : "✗ " + K.t("audit: {problems}", { problems: (res.data.problems || []).map((p) => (typeof p === "string" ? p : `${p.where}: ${p.problem}`)).join("; ") || res.data.reason });
    };

    const render = async (matches, rows, deep) => {
      const gameName = await K.game(league.game).then((g) => g.name, () => league.game);
      $("title").textContent = league.name;
      $("title").setAttribute("translate", "no");  // a name, not the page's words
      document.title = `${league.name} · Kroniek`;
      const paired = league.rounds.length;
      $("summary").textContent = [gameName, FORMATS[league.format] || league.format, K.tn(league.players.length, "{n} player", "{n} players"),
        league.total_rounds > 0 ? K.tn(league.total_rounds, "{paired} of {n} round paired", "{paired} of {n} rounds paired", { paired }) : K.tn(paired, "{n} round paired", "{n} rounds paired"),
        league.withdrawn.length ? K.t("withdrawn: {names}", { names: league.withdrawn.join(", ") }) : null].filter(Boolean).join(" · ");
      const fin = $("finished");
      fin.hidden = !league.finished;
      if (league.finished) {
        const top = rows.filter((r) => r.rank === 1).map((r) => r.player);
        fin.replaceChildren(h("b", K.t("The league is finished.")), " ", top.length ? h("span", names(top, " " + K.t("and") + " "), " ", top.length > 1 ? K.t("share first place") : K.t("wins"),
          " ", K.tn(rows[0].points, "with {n} point.", "with {n} points.", { n: num(rows[0].points) })) : "");
      }
      players();
      standings(rows);
      const rounds = $("rounds");
      const open = [...rounds.querySelectorAll("details.lg-forfeit[open]")].map((d) => d.dataset.forfeit);
      rounds.replaceChildren(...league.rounds.slice().reverse().map((r) => round(r, matches)));
      if (!league.rounds.length) rounds.append(h("p.muted", K.t("No round paired yet.")));
      open.forEach((key) => { const d = rounds.querySelector(`details.lg-forfeit[data-forfeit="${key}"]`); if (d) d.open = true; });
      const [canPair, why] = pairing();
      $("organiser").hidden = !(can.manage && !league.finished);
      $("pair").hidden = !canPair;
      $("pair").textContent = K.t("Pair round {round}", { round: paired + 1 });
      $("pair-note").textContent = why;
      if (deep) await Promise.all([ratings(gameName), audit(), evaluation()]);
    };

    /** Fetch the league and the matches of its undecided boards; draw when anything changed (``force``: always).
        While a match is in play or its log awaits the worker, look again in a moment. */
    const load = async (force = false) => {
      clearTimeout(timer);
      const [lg, st] = await Promise.all([K.api("GET", `/api/leagues/${id}`), K.api("GET", `/api/leagues/${id}/standings`)]);
      if (!lg.ok) { refused(K.t("The league could not be loaded"), lg, $("summary")); return; }
      league = lg.data;
      const open = league.rounds.flatMap((r) => r.boards).filter((b) => b.match && !b.outcome).map((b) => b.match);
      const found = await Promise.all(open.map((m) => K.api("GET", `/api/matches/${m}`)));
      const matches = new Map(found.filter((x) => x.ok).map((x) => [x.data.id, x.data]));
      const rows = st.ok ? st.data.standings : [];
      const whole = JSON.stringify([league, [...matches.values()].map((m) => [m.id, m.validation])]);
      const now = JSON.stringify([whole, rows, [...matches.values()].map((m) => [m.id, m.seq, m.status])]);
      // never redraw under someone typing (a forfeit's reason, a name): look again later instead
      const typing = root.contains(document.activeElement) && /^(INPUT|SELECT|TEXTAREA)$/.test(document.activeElement.tagName);
      const skipped = !force && now !== shown && typing;
      if (force || (now !== shown && !typing)) {
        shown = now;
        await render(matches, rows, force || whole !== shownWhole); // the audit and ratings: when the league or a verdict changed
        shownWhole = whole;
      }
      const waiting = [...matches.values()].some((m) => m.status !== "finished" || m.validation === "pending");
      if (waiting || skipped) timer = setTimeout(() => load(), [...matches.values()].some((m) => m.validation === "pending" && m.status === "finished") ? 1500 : 5000);
    };

    const pairRound = async (relax) => {
      const r = await post(relax ? `/rounds?relax=${relax.join(",")}` : "/rounds");
      if (!r.ok) {
        refused(K.t("The round was not paired"), r, $("pair-note"));
        const err = (r.data && r.data.error) || {};
        if (err.code === "no_legal_pairing" && err.relax && err.relax.length) {
          // the organiser's explicit choice, never the server's: the round's event names it
          $("pair-note").append(" ", h("button.button.small", { type: "button", id: "pair-relaxed",
            onclick: (ev) => busy(ev.currentTarget, () => pairRound(err.relax)) }, K.t("Pair it relaxing the colour rule")));
        }
        return;
      }
      $("pair-note").hidden = true;
      await after(K.t("Round {round} is paired.", { round: r.data.league.rounds.length }));
    };
    $("pair").onclick = (e) => busy(e.currentTarget, () => pairRound(null));
    $("register").onsubmit = (e) => {
      e.preventDefault();
      busy($("register-submit"), async () => {
        const input = $("register-name");
        const r = await post("/players", { player: input.value.trim() });
        if (!r.ok) { refused(K.t("Not registered"), r); input.setAttribute("aria-invalid", "true"); input.focus(); return; }
        input.removeAttribute("aria-invalid");
        input.value = "";
        await after(K.t("{name} is registered.", { name: r.data.league.players[r.data.league.players.length - 1] }));
        input.focus();
      });
    };
    $("grant").onsubmit = (e) => {
      e.preventDefault();
      busy($("grant-submit"), async () => {
        const user = $("grant-user"), role = $("grant-role").value;
        // /people: a name without an account gets one (added by this organiser), and a one-time sign-in link
        const r = await post("/people", { user: user.value.trim(), role });
        if (!r.ok) { refused(K.t("No role given"), r); user.setAttribute("aria-invalid", "true"); user.focus(); return; }
        user.removeAttribute("aria-invalid");
        user.value = "";
        $("grant-link").replaceChildren(...(r.data.sign_in ? [K.signInLink(r.data.sign_in)] : []));
        $("grant-link").hidden = !r.data.sign_in;
        K.flash(K.t("{user} is now {roles} of this league.", { user: r.data.user, roles: r.data.roles.map(roleName).join(" " + K.t("and") + " ") }), "ok");
        await roles();
      });
    };
    $("withdraw").onsubmit = (e) => {
      e.preventDefault();
      busy($("withdraw-submit"), async () => {
        const player = $("withdraw-name").value;
        const r = await post("/withdrawals", { player });
        if (!r.ok) { refused(K.t("Not withdrawn"), r); return; }
        await after(K.t("{name} is withdrawn from the later rounds.", { name: player }));
      });
    };
    // back from a match's page (the browser may restore this page as it was): look again
    document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible" && league) load(); });
    window.addEventListener("pageshow", (e) => { if (e.persisted && league) load(); });
    await load(true);
  };
})();
