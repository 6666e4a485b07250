/* The multiboard: every board of a league round on one screen, live. One stream carries the whole round
   (GET /api/leagues/<id>/rounds/<r>/stream: a browser gives a page six connections, a round has more boards);
   a board that moved is drawn again from its public scene, small, with its latest move and its result. */
"use strict";
(() => {
  const K = Kroniek, h = K.h;

  /** A board's result as the wall shows it: 1–0, ½–½, 0–1, a forfeit + / −, a table's places. */
  const resultWords = (b) => {
    const o = b.outcome;
    if (!o) return null;
    if (o.forfeit) return b.players.map((p) => (o.forfeited.includes(p) ? "−" : "+")).join(" – ");
    if (b.players.length === 2) {
      const [x, y] = o.ranks;
      return x === y ? "½–½" : x < y ? "1–0" : "0–1";
    }
    return o.ranks.join(" ");
  };

  K.multiboardPage = async () => {
    const root = document.getElementById("multiboard");
    const id = root.dataset.league;
    const r = await K.api("GET", `/api/leagues/${encodeURIComponent(id)}`);
    if (!r.ok) { K.flash(K.errorText(r), "error"); return; }
    const league = r.data;
    const rounds = league.rounds.length;
    const asked = Number(new URLSearchParams(location.search).get("round")) || rounds;
    const number = Math.min(Math.max(asked, 1), Math.max(rounds, 1));
    document.getElementById("title").textContent = `${league.name} · ${K.t("round {n}", { n: number })}`;
    const nav = document.getElementById("mb-rounds");
    if (rounds > 1) {
      nav.replaceChildren("· ", K.t("Round"), ": ", ...league.rounds.flatMap((x) => [h("a", {
        href: `?round=${x.round}`, ...(x.round === number ? { "aria-current": "page" } : {}) }, String(x.round)), " "]));
    }
    const list = document.getElementById("mb-boards");
    const status = document.getElementById("mb-live");
    if (!rounds) { status.textContent = K.t("No round is paired yet."); return; }
    const game = await K.game(league.game);
    const labels = new Boards.Labels(game, null);
    const tiles = {};  // board -> {node, seq, drawn}

    const tileOf = (b) => {
      if (tiles[b.board]) return tiles[b.board];
      const names = b.players.join(" – ");
      const node = h("li.mb-board", { "data-board": b.board },
        h("div.mb-head", h("span.mb-no", K.t("Board {n}", { n: b.board })), " ",
          h("a.mb-players", { href: b.match ? `/matches/${b.match}` : "#", translate: "no" }, names),
          h("span.mb-result")),
        h("div.mb-table"), h("p.mb-last.small"));
      list.append(node);
      tiles[b.board] = { node, seq: -1, match: null };
      return tiles[b.board];
    };

    const draw = async (tile, b) => {
      const seq = b.seq;
      const [scene, step] = await Promise.all([
        K.api("GET", `/api/matches/${b.match}/scene`),
        seq > 0 ? K.api("GET", `/api/matches/${b.match}/review?from=${seq}`) : Promise.resolve(null)]);
      if (tile.seq !== seq) return;  // a newer move came in meanwhile: its drawing wins
      const table = tile.node.querySelector(".mb-table");
      if (scene.ok) table.replaceChildren(Scene.render(scene.data, { players: b.players, labels }));
      const last = step && step.ok ? step.data.steps.find((s) => s.seq === seq) : null;
      tile.node.querySelector(".mb-last").replaceChildren(...(last ? [h("span.seq", seq), " ", K.stepLine(last)] : []));
      tile.node.dataset.seq = String(seq);  // what the drawing shows (a test waits on it)
    };

    const update = (b) => {
      const tile = tileOf(b);
      const link = tile.node.querySelector(".mb-players");
      if (b.match) link.href = `/matches/${b.match}`;
      const words = resultWords(b) || (b.status === "finished" ? K.t("finished") : b.match ? "" : K.t("not started"));
      tile.node.querySelector(".mb-result").textContent = words ? ` ${words}` : "";
      tile.node.classList.toggle("done", !!b.outcome || b.status === "finished");
      if (b.match && b.seq !== tile.seq) { tile.seq = b.seq; draw(tile, b); }
    };

    const connect = () => {
      const source = new EventSource(`/api/leagues/${encodeURIComponent(id)}/rounds/${number}/stream?wait=25`);
      source.addEventListener("board", (e) => { update(JSON.parse(e.data)); status.textContent = K.t("Live"); });
      source.onerror = () => { status.textContent = K.t("Reconnecting…"); };  // EventSource reconnects itself
    };
    connect();
  };
})();
