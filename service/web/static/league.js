/* A league: standings with tiebreaks, rounds and pairings linked to their matches,
   forfeits with reasons, ratings; an organiser pairs the next round and starts its matches. */
"use strict";
(() => {
  const K = Kroniek, h = K.h;
  const num = (x) => (typeof x === "number" && !Number.isInteger(x) ? x.toFixed(1) : String(x));

  K.leaguePage = async () => {
    const root = document.getElementById("league");
    const id = root.dataset.league;
    const me = await K.authReady;
    let organiser = false;
    if (me) {
      const roles = await K.api("GET", `/api/leagues/${id}/roles`);
      const mine = (roles.ok && roles.data.roles && roles.data.roles[me.name]) || [];
      organiser = me.admin || mine.includes("organiser");
    }
    const load = async () => {
      const [lg, st] = await Promise.all([K.api("GET", `/api/leagues/${id}`), K.api("GET", `/api/leagues/${id}/standings`)]);
      if (!lg.ok) { K.flash(K.errorText(lg), "error"); return; }
      const league = lg.data;
      document.getElementById("title").textContent = league.name;
      document.getElementById("summary").textContent = `${league.game} · ${league.format} · ${league.players.length} players · ` +
        `${league.rounds.length}${league.total_rounds ? " of " + league.total_rounds : ""} rounds paired${league.finished ? " · finished" : ""}` +
        (league.withdrawn.length ? ` · withdrawn: ${league.withdrawn.join(", ")}` : "");
      // standings
      const rows = st.ok ? st.data.standings : [];
      const tbs = rows.length && !Array.isArray(rows[0].tiebreaks) ? Object.keys(rows[0].tiebreaks) : [];
      document.getElementById("standings").replaceChildren(
        h("thead", h("tr", ["#", "player", "points", ...tbs.map((t) => t.replace(/_/g, " ")), "games", "W", "D", "L", "byes", "forfeits"].map((c) => h("th", c)))),
        h("tbody", rows.map((r) => h("tr", { "data-player": r.player }, h("td", r.rank), h("td", r.player), h("td.num", num(r.points)),
          tbs.map((t) => h("td.num", num(r.tiebreaks[t]))), h("td.num", r.games), h("td.num", r.wins), h("td.num", r.draws), h("td.num", r.losses),
          h("td.num", r.byes), h("td.num", r.forfeits)))));
      // rounds
      const rounds = document.getElementById("rounds");
      rounds.replaceChildren(...league.rounds.slice().reverse().map((r) => h("div.round", { "data-round": r.round },
        h("h3", `Round ${r.round}`, r.complete ? h("small.muted", " complete") : null, r.bye ? h("small.muted", ` · bye: ${r.bye}`) : null),
        h("ul.rows", r.boards.map((b) => {
          const o = b.outcome;
          let result = h("span.muted", "not played yet");
          if (o && o.forfeit) result = h("span.forfeit", `forfeit by ${o.forfeited.join(", ")}: ${o.forfeit}`);
          else if (o && o.ranks) result = h("span.result", o.scores ? o.scores.join(" – ") : o.ranks.join(" – "), o.ranks ? ` (winner: ${b.players.filter((_, i) => o.ranks[i] === 1).join(", ") || "none"})` : "");
          const link = b.match ? h("a", { href: `/matches/${b.match}/review`, "data-match": b.match }, "match") : null;
          const watch = b.match && !o ? h("a", { href: `/matches/${b.match}` }, "watch / record") : null;
          const start = organiser && !b.match && !o ? h("button.button.small", { type: "button", "data-start": `${r.round}-${b.board}`, onclick: async () => {
            const res = await K.api("POST", `/api/leagues/${id}/rounds/${r.round}/boards/${b.board}/match`);
            if (!res.ok) { K.flash("Could not start: " + K.errorText(res), "error"); return; }
            location.href = `/matches/${res.data.id}`;
          } }, "start match") : null;
          const proof = b.match && o && !o.forfeit ? h("a", { href: `/api/leagues/${id}/matches/${b.match}/proof` }, "proof") : null;
          return h("li", { "data-board": b.board }, h("b", `Board ${b.board}: `), b.players.join(" – "), " · ", result, " ",
            [link, watch, start, proof].filter(Boolean).flatMap((x) => [x, " "]));
        })))));
      if (!league.rounds.length) rounds.append(h("p.muted", "No round paired yet."));
      // ratings of this game
      const ratings = await K.api("GET", `/api/ratings/${league.game}`);
      const table = document.getElementById("ratings");
      if (ratings.ok && ratings.data.ratings && ratings.data.ratings.length) {
        table.replaceChildren(h("caption.muted", `${league.game}, ${ratings.data.system}, ${ratings.data.results} results rated`),
          h("thead", h("tr", ["player", "rating", "deviation", "games", "conservative"].map((c) => h("th", c)))),
          h("tbody", ratings.data.ratings.map((x) => h("tr", h("td", x.player), h("td.num", num(x.rating)), h("td.num", num(x.deviation)), h("td.num", x.games), h("td.num", num(x.conservative))))));
      } else table.replaceChildren(h("caption.muted", "No rated results for this game yet."));
      const org = document.getElementById("organiser");
      org.hidden = !(organiser && !league.finished);
    };
    document.getElementById("pair").onclick = async () => {
      const r = await K.api("POST", `/api/leagues/${id}/rounds`);
      if (!r.ok) { K.flash("Not paired: " + K.errorText(r), "error"); return; }
      K.flash("Round paired.", "ok");
      await load();
    };
    await load();
    const audit = await K.api("GET", `/api/leagues/${id}/audit`);
    document.getElementById("audit").textContent = audit.ok ? (audit.data.valid ? `✓ audit holds (checked: ${Object.entries(audit.data.checked || {}).map(([k, v]) => K.counted(v, k.replace(/_/g, " "))).join(", ")}) · head ${audit.data.head}` : `✗ audit: ${(audit.data.problems || []).join("; ") || audit.data.reason}`) : K.errorText(audit);
  };
})();
