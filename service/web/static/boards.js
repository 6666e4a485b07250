/* How each game looks on the table, and the card values its pickers offer.
   The one place with game knowledge on the pages (boardgame.io's "board"):
   the record screen itself is generic (legal moves + event JSON Schemas). */
"use strict";
const Boards = (() => {
  const h = Kroniek.h;
  const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
  const SUIT_EN = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
  const RANK_EN = { A: "ace", J: "jack", Q: "queen", K: "king" };
  const STD = /^(A|[2-9]|10|J|Q|K)([SHDC])$/;
  const BRAVERATS = ["musician", "princess", "spy", "assassin", "ambassador", "wizard", "general", "prince"];
  const RANKS52 = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

  const deckOf = (ranks, suits) => suits.flatMap((s) => ranks.map((r) => r + s));
  const STANDARD = deckOf(RANKS52, ["S", "H", "D", "C"]);

  /** canonical value -> the game's Dutch name for it (the first word alias; no digits, no symbols) */
  const dutchNames = (game) => {
    const out = {};
    for (const [alias, canonical] of Object.entries((game && game.aliases) || {})) {
      if (typeof canonical !== "string" || /^[0-9?]/.test(alias) || /[♠♥♦♣♤♡♢♧]/.test(alias)) continue;
      if (!(canonical in out)) out[canonical] = alias;
    }
    return out;
  };

  /** Labels for one match: {text, red, dutch, title} of a value. */
  class Labels {
    constructor(game, view) { this.game = game; this.dutch = dutchNames(game); this.names = {}; this.setView(view); }
    setView(view) {
      for (const k of (view && view.knights) || []) if (k && k.id) this.names[k.id] = k.name;
      for (const k of (view && view.ladies) || []) if (k && k.id) this.names[k.id] = k.name;
    }
    isCard(v) {
      if (typeof v !== "string") return false;
      const g = this.game && this.game.id;
      if (g === "braverats") return BRAVERATS.includes(v) || v === "unknown";
      if (g === "ridder_toernooi") return /^[KL][0-9]{2}$/.test(v);
      return STD.test(v);
    }
    of(v) {
      if (typeof v !== "string") return { text: String(v), red: false };
      const m = STD.exec(v);
      if (m) {
        const rank = m[1], suit = m[2];
        const en = `${RANK_EN[rank] || rank} of ${SUIT_EN[suit]}`;
        return { text: rank + SUITS[suit], red: suit === "H" || suit === "D", dutch: this.dutch[v], title: en };
      }
      if (this.game && this.game.id === "braverats" && BRAVERATS.includes(v)) {
        const n = BRAVERATS.indexOf(v);
        return { text: `${n} ${v[0].toUpperCase()}${v.slice(1)}`, red: false, dutch: this.dutch[v], title: v };
      }
      if (this.names[v]) return { text: v, red: v[0] === "L", dutch: this.names[v], title: this.names[v] };
      return { text: v, red: false, dutch: this.dutch[v] };
    }
    chip(v, opts = {}) {
      if (v === null || v === undefined) return h("span.card.back", { title: "face down" }, "🂠");
      const l = this.of(v);
      const cls = "span.card" + (l.red ? ".red" : "") + (v === "unknown" ? ".unknown" : "");
      return h(cls, { "data-card": v, title: l.title || v }, l.text, opts.dutch !== false && l.dutch ? h("small.nl", l.dutch) : null);
    }
  }

  /** The values a picker offers for a string field of a chance event, or null (free text). */
  const deck = (game, type, path, schema, view) => {
    const id = game.id;
    const desc = (schema && schema.description) || "";
    if (id === "braverats") return desc.includes("unknown") ? [...BRAVERATS, "unknown"] : BRAVERATS;
    if (id === "troubadour") {
      if (/noble/.test(path) || desc.startsWith("a noble")) return deckOf(["J", "Q", "K"], ["S", "D", "C", "H"]);
      return deckOf(["A", "2", "3", "4", "5", "6", "7", "8", "9", "10"], ["S", "D", "C", "H"]);
    }
    if (id === "ridder_toernooi") {
      const set = (view && view.card_set) || { knights: 10, ladies: 10 };
      const n = (k) => Array.from({ length: set[k] || 0 }, (_, i) => (k === "knights" ? "K" : "L") + String(i + 1).padStart(2, "0"));
      if (/lad/.test(path)) return n("ladies");
      return n("knights");
    }
    if (id === "catan") {
      if (type === "draw_dev") return CATAN_DEV;
      if (type === "steal" || /resource/.test(desc) || /cards\[\]$/.test(path)) return CATAN_RES;
      return null;
    }
    if (/rank A 2.10 J Q K then suit/.test(desc) || ["sir_tommy", "stapelen", "twaalven"].includes(id)) return STANDARD;
    return null;
  };

  // -- the table ------------------------------------------------------------------------------
  const SKIP = new Set(["seq", "status", "result", "to_act", "match", "viewer"]);
  /** more cards than this in one list are folded away (a referee's list of unseen cards) */
  const FOLD = 12;
  const human = (k) => String(k).replace(/_/g, " ");

  /** A generic drawing of a view: cards as cards, piles as piles, seats by name. */
  const renderValue = (v, labels, ctx, depth = 0) => {
    if (v === null || v === undefined) return h("span.muted", "—");
    if (labels.isCard(v)) return labels.chip(v);
    if (typeof v !== "object") return h("span.val", String(v));
    if (Array.isArray(v)) {
      if (!v.length) return h("span.muted", "none");
      if (v.every((x) => x === null || labels.isCard(x))) {
        const row = h("span.cards", v.map((x) => labels.chip(x, { dutch: v.length <= FOLD })));
        return v.length > FOLD ? h("details.fold", h("summary", `${v.length} cards`), row) : row;
      }
      if (v.every((x) => Array.isArray(x) && x.every((y) => y === null || labels.isCard(y)))) {
        return h("div.columns", { style: `grid-template-columns: repeat(${v.length}, minmax(0, 1fr))` },
          v.map((col, i) => h("div.column", h("span.colno", String(i + 1)), col.map((x) => labels.chip(x, { dutch: false })))));
      }
      if (v.every((x) => typeof x !== "object" || x === null)) return h("span.val", v.map((x) => (x === null ? "—" : String(x))).join(", "));
      return h("div.list", v.map((x, i) => {
        const who = x && typeof x === "object" && "seat" in x && ctx.players ? ctx.players[x.seat] : (ctx.seatArrays && v.length === ctx.players.length ? ctx.players[i] : null);
        return h("div.box", who ? h("div.boxtitle", who) : null, renderValue(x, labels, ctx, depth + 1));
      }));
    }
    const rows = Object.entries(v).filter(([k]) => depth > 0 || !SKIP.has(k));
    // a list of objects (the players' tableaux) gets the whole width, under its name
    const wide = (x) => Array.isArray(x) && x.some((y) => y && typeof y === "object" && !Array.isArray(y));
    return h("dl.kv", rows.map(([k, x]) => [h("dt", { class: wide(x) ? "wide" : null }, human(k)),
      h("dd", { class: wide(x) ? "wide" : null }, renderValue(x, labels, { ...ctx, seatArrays: true }, depth + 1))]));
  };

  const braverats = (view, labels, ctx) => {
    const seats = (view.hands || []).map((hand, s) => {
      const played = (view.table || [])[s] || {};
      return h("div.seat", { "data-seat": s },
        h("div.boxtitle", `${ctx.players[s]} (${hand.colour || ""}) · ${view.score ? view.score[s] : 0} won`),
        h("div.played", "on the table: ", played.played ? labels.chip(played.card) : h("span.muted", "nothing")),
        h("div.hand", hand.cards ? h("span.cards", hand.cards.map((c) => labels.chip(c))) : h("span.cards", Array.from({ length: hand.count }, () => labels.chip(null))),
          hand.unseen ? h("span.muted", ` +${hand.unseen} unseen`) : null));
    });
    const rest = {};
    for (const [k, v] of Object.entries(view)) if (!["hands", "table", "score"].includes(k)) rest[k] = v;
    return [h("div.seats", seats), h("details.more", h("summary", "more"), renderValue(rest, labels, ctx))];
  };

  // -- Catan ------------------------------------------------------------------------------------
  const CATAN_RES = ["lumber", "brick", "wool", "grain", "ore"];
  const CATAN_DEV = ["knight", "road_building", "year_of_plenty", "monopoly", "victory_point"];
  const TERRAIN = { forest: ["#2f7d32", "lumber"], hills: ["#c0602b", "brick"], pasture: ["#9ccc65", "wool"],
    fields: ["#e9c046", "grain"], mountains: ["#8f8f96", "ore"], desert: ["#e3d3a4", "desert"] };
  const SEAT_COLOURS = ["#d7263d", "#1f5fa8", "#f08a24", "#f4f4f4", "#6b3e26", "#7b3fa0"];
  const S3 = Math.sqrt(3), R = 30;
  const centre = ([q, r]) => [R * S3 * (q + r / 2), R * 1.5 * r];
  const mean = (pts) => [pts.reduce((a, p) => a + p[0], 0) / pts.length, pts.reduce((a, p) => a + p[1], 0) / pts.length];
  const hexKey = (c) => `${c[0]},${c[1]}`;

  /** A hex, an intersection or a path said as a table says it: "mountains 10", "#12 mountains 10 · pasture 2 · sea". */
  const catanSpot = (view, kind, v) => {
    const layout = view && view.layout;
    if (!layout) return null;
    const hexes = Object.fromEntries(layout.hexes.map((x) => [hexKey(x.at), x]));
    const hexName = (c) => { const x = hexes[hexKey(c)]; return x ? `${x.terrain}${x.number ? " " + x.number : ""}` : "sea"; };
    if (kind === "hex") return (Array.isArray(v) ? hexName(v) : layout.hexes[v] ? hexName(layout.hexes[v].at) : null);
    const list = kind === "vertex" ? layout.vertices : layout.edges;
    if (!Number.isInteger(v) || !list[v]) return null;
    const names = list[v].map(hexName).filter((n, i, a) => n !== "sea" || a.indexOf(n) === i);
    const harbour = kind === "vertex" && layout.harbors[String(v)] ? ` ⚓${layout.harbors[String(v)]}` : "";
    return `#${v} ${names.join(" · ")}${harbour}`;
  };

  /** A label for a move's value when the game has a readable name for it (a board spot), else null. */
  const spotLabel = (game, view, path, v) => {
    if (!game || game.id !== "catan") return null;
    const key = String(path).split(/[.[\]]/).filter(Boolean).pop();
    if (key === "vertex" || key === "edge" || key === "hex") return catanSpot(view, key, v);
    return null;
  };
  /** Values that are one thing though they are arrays (a hex's [q, r]): one button, not one per coordinate. */
  const atomic = (game, path) => !!game && game.id === "catan" && /(^|\.)hex$/.test(path);
  /** The keys of a map field ({"wool": 2, "ore": 1}): the resources. */
  const mapKeys = (game, type, path) => (game && game.id === "catan" && !/given$/.test(path) ? CATAN_RES : null);

  const catanSvg = (view) => {
    const L = view.layout;
    const land = L.hexes.map((x) => centre(x.at));
    const xs = land.map((p) => p[0]), ys = land.map((p) => p[1]);
    const pad = R * 1.8;  // room for the harbour labels out at sea
    const box = [Math.min(...xs) - pad, Math.min(...ys) - pad, Math.max(...xs) - Math.min(...xs) + 2 * pad, Math.max(...ys) - Math.min(...ys) + 2 * pad];
    const out = [`<svg class="catan" viewBox="${box.map((n) => n.toFixed(1)).join(" ")}" role="img" aria-label="the board">`];
    const vpos = (i) => mean(L.vertices[i].map(centre));
    const epos = (i) => {
      const [a, b] = L.edges[i].map(centre), m = mean([a, b]);
      const d = Math.hypot(b[0] - a[0], b[1] - a[1]), px = -(b[1] - a[1]) / d * R / 2, py = (b[0] - a[0]) / d * R / 2;
      return [[m[0] + px, m[1] + py], [m[0] - px, m[1] - py]];
    };
    L.hexes.forEach((x, i) => {
      const [cx, cy] = land[i];
      const pts = Array.from({ length: 6 }, (_, k) => { const a = Math.PI / 180 * (60 * k - 30); return `${(cx + R * Math.cos(a)).toFixed(1)},${(cy + R * Math.sin(a)).toFixed(1)}`; });
      const [fill, res] = TERRAIN[x.terrain] || ["#ccc", "?"];
      const robber = view.robber && hexKey(view.robber) === hexKey(x.at);
      out.push(`<g class="hex" data-hex="${hexKey(x.at)}" data-terrain="${res}"><polygon points="${pts.join(" ")}" fill="${fill}" stroke="#f3ead2" stroke-width="2"/>`);
      if (x.number) out.push(`<circle cx="${cx}" cy="${cy}" r="9" fill="#fdf6e3"/><text x="${cx}" y="${cy + 4}" text-anchor="middle" font-size="11" font-weight="700" fill="${x.number === 6 || x.number === 8 ? "#c0262d" : "#222"}">${x.number}</text>`);
      if (robber) out.push(`<circle class="robber" cx="${cx + 11}" cy="${cy - 11}" r="6" fill="#222"><title>robber</title></circle>`);
      out.push("</g>");
    });
    // A harbour serves two neighbouring intersections (they share two hexes): a dot on each, and one
    // label between them, out to sea, that says what it trades, so a phone shows it without a tooltip.
    const mid = mean(land), seen = new Set();
    const shareTwo = (a, b) => L.vertices[a].filter((x) => L.vertices[b].some((y) => hexKey(y) === hexKey(x))).length >= 2;
    for (const [v, kind] of Object.entries(L.harbors)) {
      const [x, y] = vpos(Number(v));
      out.push(`<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="3" fill="#1b4f72"><title>harbour ${kind}</title></circle>`);
      if (seen.has(v)) continue;
      const w = Object.keys(L.harbors).find((u) => u !== v && !seen.has(u) && L.harbors[u] === kind && shareTwo(Number(v), Number(u)));
      seen.add(v);
      if (w !== undefined) seen.add(w);
      const at = w === undefined ? [x, y] : mean([[x, y], vpos(Number(w))]);
      const d = Math.hypot(at[0] - mid[0], at[1] - mid[1]) || 1;
      const lx = at[0] + (at[0] - mid[0]) / d * R * 0.6, ly = at[1] + (at[1] - mid[1]) / d * R * 0.6;
      const text = kind === "3:1" ? "3:1" : `2:1 ${kind}`;
      out.push(`<text class="harbour" data-kind="${kind}" x="${lx.toFixed(1)}" y="${(ly + 3).toFixed(1)}" text-anchor="middle" font-size="8" font-weight="700" fill="#1b4f72">${text}</text>`);
    }
    for (const rd of view.roads || []) {
      const [a, b] = epos(rd.edge);
      out.push(`<line class="road" data-edge="${rd.edge}" data-owner="${rd.owner}" x1="${a[0].toFixed(1)}" y1="${a[1].toFixed(1)}" x2="${b[0].toFixed(1)}" y2="${b[1].toFixed(1)}" stroke="${SEAT_COLOURS[rd.owner]}" stroke-width="5" stroke-linecap="round"/>`);
    }
    for (const b of view.buildings || []) {
      const [x, y] = vpos(b.vertex), s = b.kind === "city" ? 8 : 5.5;
      out.push(`<rect class="${b.kind}" data-vertex="${b.vertex}" data-owner="${b.owner}" x="${(x - s).toFixed(1)}" y="${(y - s).toFixed(1)}" width="${2 * s}" height="${2 * s}" fill="${SEAT_COLOURS[b.owner]}" stroke="#111" stroke-width="1.2"/>`);
    }
    out.push("</svg>");
    return out.join("");
  };

  const catan = (view, labels, ctx) => {
    const svg = h("div.catanboard");
    if (view.layout) svg.innerHTML = catanSvg(view);  // built from numbers and a fixed terrain list only
    const seats = (view.players || []).map((p) => h("div.seat", { "data-seat": p.seat },
      h("div.boxtitle", h("span.swatch", { style: `background:${SEAT_COLOURS[p.seat]}` }), ` ${ctx.players[p.seat] || p.name} · ${p.vp ?? p.public_vp} VP`,
        view.turn === p.seat ? " · to play" : "", view.longest_road === p.seat ? " · longest road" : "", view.largest_army === p.seat ? " · largest army" : ""),
      h("div", `cards ${p.cards}: `, renderValue(p.hand, labels, ctx, 1)),
      h("div.muted", `dev ${p.development_cards}${Object.keys(p.development_known || {}).length ? " (" + Object.entries(p.development_known).map(([k, n]) => `${n} ${k.replace(/_/g, " ")}`).join(", ") + ")" : ""} · knights ${p.knights_played} · road ${p.road_length} · ${p.settlements}/${p.cities}/${p.roads} placed`)));
    const rest = {};
    for (const [k, v] of Object.entries(view)) if (!["layout", "players", "buildings", "roads"].includes(k)) rest[k] = v;
    return [h("div.phase", `${view.phase.replace(/_/g, " ")} · turn ${view.turn_number}`, view.dice && view.dice.length ? ` · dice ${view.dice.join("+")}` : ""),
      svg, h("div.seats", seats), h("details.more", h("summary", "more"), renderValue(rest, labels, ctx))];
  };

  const BOARDS = { braverats, catan };

  const render = (game, view, ctx) => {
    const labels = ctx.labels || new Labels(game, view);
    labels.setView(view);
    const draw = BOARDS[game.id];
    const body = draw ? draw(view, labels, ctx) : renderValue(view, labels, ctx);
    return h("div.table", { "data-game": game.id }, body);
  };

  return { Labels, deck, render, renderValue, STANDARD, spotLabel, atomic, mapKeys };
})();
