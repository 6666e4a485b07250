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

  const BOARDS = { braverats };

  const render = (game, view, ctx) => {
    const labels = ctx.labels || new Labels(game, view);
    labels.setView(view);
    const draw = BOARDS[game.id];
    const body = draw ? draw(view, labels, ctx) : renderValue(view, labels, ctx);
    return h("div.table", { "data-game": game.id }, body);
  };

  return { Labels, deck, render, renderValue, STANDARD };
})();
