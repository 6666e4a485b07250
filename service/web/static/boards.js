/* How each game looks on the table, and the card values its pickers offer.
   The one place with game knowledge on the pages (boardgame.io's "board"):
   the record screen itself is generic (legal moves + event JSON Schemas). */
"use strict";
const Boards = (() => {
  const h = Kroniek.h, K = Kroniek;
  const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
  const SUIT_EN = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
  const RANK_EN = { A: "ace", J: "jack", Q: "queen", K: "king" };
  /** A rank's letter on a Dutch table: B(oer), V(rouw), H(eer) (the engine's card faces say the same) */
  const RANK_NL = { J: "B", Q: "V", K: "H" };
  /** A card's full name as a Dutch table says it ("schoppen boer", "harten 7"), for a card the game's aliases do not name. */
  const SUIT_NL_WORD = { S: "schoppen", H: "harten", D: "ruiten", C: "klaver" };  // as both rules texts say
  const RANK_NL_WORD = { A: "aas", J: "boer", Q: "vrouw", K: "heer" };
  const DUTCH = K.lang === "nl";
  const STD = /^(A|[2-9]|10|J|Q|K)([SHDC])$/;
  /** BraveRats' colours (a hand's ``colour``) */
  const COLOURS = { red: K.t("red"), blue: K.t("blue") };
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
      if (g === "troubadour" && v === "JQKS") return true;
      return STD.test(v);
    }
    of(v) {
      if (typeof v !== "string") return { text: String(v), red: false };
      if (v === "JQKS") return DUTCH ? { text: "♠B ♠V ♠H", red: false, title: "schoppen boer, vrouw en heer" }
        : { text: "♠J ♠Q ♠K", red: false, title: "jack, queen and king of spades" };
      const m = STD.exec(v);
      // a card reads as the page's language names it: largest its face, suit first as the engine's lines write
      // it (♥Q, a Dutch page ♥V), its full name
      // in the title a screen reader says; the other language's name small, on an English page only
      if (m) {
        const rank = m[1], suit = m[2];
        const en = `${RANK_EN[rank] || rank} of ${SUIT_EN[suit]}`;
        const red = suit === "H" || suit === "D";
        if (DUTCH) return { text: SUITS[suit] + (RANK_NL[rank] || rank), red, title: this.dutch[v] || `${SUIT_NL_WORD[suit]} ${RANK_NL_WORD[rank] || rank}` };
        return { text: SUITS[suit] + rank, red, dutch: this.dutch[v], title: en };
      }
      if (this.game && this.game.id === "braverats" && BRAVERATS.includes(v)) {
        const n = BRAVERATS.indexOf(v);
        const en = `${v[0].toUpperCase()}${v.slice(1)}`, nl = this.dutch[v] ? this.dutch[v][0].toUpperCase() + this.dutch[v].slice(1) : en;
        if (DUTCH) return { text: `${n} ${nl}`, red: false, title: nl };
        return { text: `${n} ${en}`, red: false, dutch: this.dutch[v], title: en };
      }
      // a knight or a lady by the name on the card, never its id (K01)
      if (this.names[v]) return { text: this.names[v], red: v[0] === "L", title: this.names[v] };
      return { text: v, red: false, dutch: this.dutch[v] };
    }
    chip(v, opts = {}) {
      if (v === null || v === undefined) return h("span.card.back", { title: K.t("face down") }, "🂠");
      const l = this.of(v);
      const cls = "span.card" + (l.red ? ".red" : "") + (v === "unknown" ? ".unknown" : "");
      return h(cls, { "data-card": v, title: l.title || v }, l.text, opts.dutch !== false && l.dutch ? h("small.nl", { lang: "nl" }, l.dutch) : null);
    }
  }

  const lastKey = (path) => String(path).split(/[.[\]]/).filter(Boolean).pop() || "";

  /** The values a picker offers for a string field of a chance event, or null (free text). */
  const deck = (game, type, path, schema, view) => {
    const id = game.id;
    const desc = (schema && schema.description) || "";
    if (id === "braverats") return desc.includes("unknown") ? [...BRAVERATS, "unknown"] : BRAVERATS;
    if (id === "troubadour") {
      // a power is spent nobles: the spades jack, queen or all three (an attack), the clubs queen or king (extra cards)
      if (lastKey(path) === "power") return type === "extra_draw" ? ["QC", "KC"] : ["JS", "QS", "JQKS"];
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
    if (id === "catan-troje") {
      const key = lastKey(path);
      if (key === "side" || key === "sides") return TROJE_SIDES;  // a decision card; the reveal's list
      if (type === "ship_tile" || key === "advantage") return TROJE_ADVANTAGES;
      if (["card", "resource", "give", "get"].includes(key) || /resource/.test(desc) || /cards\[\]$/.test(path)) return CATAN_RES;
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
  /** Keys whose number is a seat: shown as the player's name, never as "seat 0". */
  const SEAT_KEYS = /^(seat|owner|start_player|first_start_player|attacker|defender)$|_seat$/;

  /** A generic drawing of a view: cards as cards, piles as piles, seats by name. */
  const renderValue = (v, labels, ctx, depth = 0) => {
    if (v === null || v === undefined) return h("span.muted", "—");
    if (labels.isCard(v)) return labels.chip(v);
    if (typeof v !== "object") return h("span.val", { lang: typeof v === "string" && K.lang !== "en" ? "en" : null }, String(v));
    if (Array.isArray(v)) {
      if (!v.length) return h("span.muted", K.t("none"));
      if (v.every((x) => x === null || labels.isCard(x))) {
        const row = h("span.cards", v.map((x) => labels.chip(x, { dutch: v.length <= FOLD })));
        return v.length > FOLD ? h("details.fold", h("summary", K.tn(v.length, "{n} card", "{n} cards")), row) : row;
      }
      if (v.every((x) => Array.isArray(x) && x.every((y) => y === null || labels.isCard(y)))) {
        return h("div.columns", { style: `grid-template-columns: repeat(${v.length}, minmax(0, 1fr))` },
          v.map((col, i) => h("div.column", h("span.colno", String(i + 1)), col.map((x) => labels.chip(x, { dutch: false })))));
      }
      if (v.every((x) => typeof x !== "object" || x === null)) return h("span.val", v.map((x) => (x === null ? "—" : String(x))).join(", "));
      return h("div.list", v.map((x, i) => {
        const who = x && typeof x === "object" && "seat" in x && ctx.players ? ctx.players[x.seat] : (ctx.seatArrays && v.length === ctx.players.length ? ctx.players[i] : null);
        return h("div.box", who ? h("div.boxtitle", who) : null, renderValue(x, labels, { ...ctx, titled: !!who }, depth + 1));
      }));
    }
    // a box titled by its player's name needs no "seat" line besides
    const rows = Object.entries(v).filter(([k]) => (depth > 0 || !SKIP.has(k)) && !(ctx.titled && k === "seat"));
    const seatName = (k, x) => (typeof x === "number" && SEAT_KEYS.test(k) && ctx.players && ctx.players[x] !== undefined ? ctx.players[x] : null);
    // a list of objects (the players' tableaux) gets the whole width, under its name
    const wide = (x) => Array.isArray(x) && x.some((y) => y && typeof y === "object" && !Array.isArray(y));
    return h("dl.kv", rows.map(([k, x]) => [h("dt", { class: wide(x) ? "wide" : null, lang: K.enLang }, human(k)),
      h("dd", { class: wide(x) ? "wide" : null }, seatName(k, x) !== null ? h("span.val", seatName(k, x)) : renderValue(x, labels, { ...ctx, seatArrays: true, titled: false }, depth + 1))]));
  };

  const braverats = (view, labels, ctx) => {
    const seats = (view.hands || []).map((hand, s) => {
      const played = (view.table || [])[s] || {};
      return h("div.seat", { "data-seat": s },
        h("div.boxtitle", `${ctx.players[s]} (${COLOURS[hand.colour] || hand.colour || ""}) · ${K.t("{n} won", { n: view.score ? view.score[s] : 0 })}`),
        h("div.played", K.t("on the table:") + " ", played.played ? labels.chip(played.card) : h("span.muted", K.t("nothing"))),
        h("div.hand", hand.cards ? h("span.cards", hand.cards.map((c) => labels.chip(c))) : h("span.cards", Array.from({ length: hand.count }, () => labels.chip(null))),
          hand.unseen ? h("span.muted", " " + K.t("+{n} unseen", { n: hand.unseen })) : null));
    });
    const rest = {};
    for (const [k, v] of Object.entries(view)) if (!["hands", "table", "score"].includes(k)) rest[k] = v;
    return [h("div.seats", seats), h("details.more", h("summary", K.t("more")), renderValue(rest, labels, ctx))];
  };

  // -- Catan ------------------------------------------------------------------------------------
  const CATAN_RES = ["lumber", "brick", "wool", "grain", "ore"];
  /** Catan and the scenarios built on its board (they share the spots' names and the pickers) */
  const CATAN_LIKE = new Set(["catan", "catan-troje"]);
  const catanLike = (game) => !!game && CATAN_LIKE.has(game.id);
  const TROJE_SIDES = ["troy", "mycenae"];
  const TROJE_ADVANTAGES = ["harbour_3to1", "victory_point", "swap", "trade_chip", "draw"];
  const CITY_NAMES = { troy: K.t("Troy"), mycenae: K.t("Mycenae") };
  /** The words for the values Catan and Troje show (resources, terrains, development cards, advantages), as the
      rules texts name them: a picker's buttons and the board's labels. */
  const VALUE_WORDS = { lumber: K.t("lumber"), brick: K.t("brick"), wool: K.t("wool"), grain: K.t("grain"), ore: K.t("ore"),
    forest: K.t("forest"), hills: K.t("hills"), pasture: K.t("pasture"), fields: K.t("fields"), mountains: K.t("mountains"), desert: K.t("desert"),
    knight: K.t("knight"), road_building: K.t("road building"), year_of_plenty: K.t("year of plenty"), monopoly: K.t("monopoly"), victory_point: K.t("victory point"),
    harbour_3to1: K.t("harbour 3:1"), swap: K.t("swap"), trade_chip: K.t("trade chip"), draw: K.t("draw"), troy: K.t("Troy"), mycenae: K.t("Mycenae") };
  const valueWords = (v) => VALUE_WORDS[v] || String(v).replace(/_/g, " ");
  /** A value's words for a picker (SchemaForm), or null where the game has none of its own. */
  const words = (game, v) => (K.lang !== "en" && catanLike(game) && typeof v === "string" && VALUE_WORDS[v]) || null;
  const CATAN_DEV = ["knight", "road_building", "year_of_plenty", "monopoly", "victory_point"];
  const TERRAIN = { forest: ["#2f7d32", "lumber"], hills: ["#c0602b", "brick"], pasture: ["#9ccc65", "wool"],
    fields: ["#e9c046", "grain"], mountains: ["#8f8f96", "ore"], desert: ["#e3d3a4", "desert"], special: ["#d9c7a0", "city"] };
  const SEA = "#4a90c8";
  const hexKey = (c) => `${c[0]},${c[1]}`;
  const NEIGHBOURS = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]];
  /** Where a scenario's named land hexes stand ({"2,-2": "Troy"}) */
  const cityAt = (view) => Object.fromEntries(Object.entries((view && view.troje && view.troje.cities) || {}).map(([c, at]) => [hexKey(at), CITY_NAMES[c] || c]));
  const ownerName = (view, seat) => (view && view.players && view.players[seat] && view.players[seat].name) || K.t("player {n}", { n: seat + 1 });

  /** A hex, an intersection or a path said as a table says it: "mountains 10", "#12 mountains 10 · pasture 2 · sea". */
  const catanSpot = (view, kind, v) => {
    const layout = view && view.layout;
    if (!layout) return null;
    const hexes = Object.fromEntries(layout.hexes.map((x) => [hexKey(x.at), x]));
    const cities = cityAt(view), sea = K.t("sea");
    const hexName = (c) => { const x = hexes[hexKey(c)]; return x ? cities[hexKey(c)] || `${VALUE_WORDS[x.terrain] || x.terrain}${x.number ? " " + x.number : ""}` : sea; };
    if (kind === "tile") return seaSpot(view, v, hexName);
    if (kind === "hex") return (Array.isArray(v) ? hexName(v) : layout.hexes[v] ? hexName(layout.hexes[v].at) : null);
    const list = kind === "vertex" ? layout.vertices : layout.edges;
    if (!Number.isInteger(v) || !list[v]) return null;
    const names = list[v].map(hexName).filter((n, i, a) => n !== sea || a.indexOf(n) === i);
    const harbour = kind === "vertex" && layout.harbors[String(v)] ? ` ⚓${valueWords(layout.harbors[String(v)])}` : "";
    return `#${v} ${names.join(" · ")}${harbour}`;
  };

  /** A sea tile (Troje) said by its number in the view's sea_tiles and the land it touches:
      "sea #3 (ship symbol) by hills 10 · fields 9 · Ann's ship (victory point)". */
  const seaSpot = (view, v, hexName) => {
    const tiles = (view && view.troje && view.troje.sea_tiles) || [];
    const i = Array.isArray(v) ? tiles.findIndex((t) => hexKey(t.at) === hexKey(v)) : v;
    const t = tiles[i];
    if (!t) return null;
    const land = new Set(view.layout.hexes.map((x) => hexKey(x.at)));
    const near = NEIGHBOURS.map(([dq, dr]) => [t.at[0] + dq, t.at[1] + dr]).filter((c) => land.has(hexKey(c))).map(hexName);
    const ship = t.ship ? " · " + K.t("{name}'s ship ({advantage})", { name: ownerName(view, t.ship.owner), advantage: valueWords(t.ship.advantage) }) : "";
    const people = view.troje.sea_people && hexKey(view.troje.sea_people) === hexKey(t.at) ? " · " + K.t("sea people") : "";
    return K.t("sea #{n}", { n: i }) + (t.ship_symbol ? " " + K.t("(ship symbol)") : "") + (near.length ? " " + K.t("by {land}", { land: near.join(" · ") }) : "") + ship + people;
  };

  /** A label for a move's value when the game has a readable name for it (a board spot), else null. */
  const spotLabel = (game, view, path, v) => {
    if (!catanLike(game)) return null;
    const key = lastKey(path);
    if (key === "vertex" || key === "edge" || key === "hex") return catanSpot(view, key, v);
    if ((key === "tile" || key === "ship") && view && view.troje) return catanSpot(view, "tile", v);  // a sea tile (Troje)
    return null;
  };
  /** Values that are one thing though they are arrays (a hex's or a sea tile's [q, r]): one button, not one per coordinate. */
  const atomic = (game, path) => catanLike(game) && /(^|\.)(hex|tile|ship)$/.test(path);
  /** Moves made face down, which the legal moves list with the cards the log knows: a recorder who did not see
      them enters them by form as well ("Another move"), with the cards unknown (Troje's donations, a card laid back). */
  const unseenMoves = (game) => (game && game.id === "catan-troje" ? ["donate", "return_card"] : []);
  /** Whether a list's values may come more than once (resources, Troje's sides), unlike the cards of a deck:
      BraveRats' cards too (each seat has its own eight: Wizard against Wizard is a round). */
  const repeats = (game, path) => catanLike(game) || game.id === "braverats";
  /** The keys of a map field ({"wool": 2, "ore": 1}): the resources. */
  const mapKeys = (game, type, path) => (catanLike(game) && !/given$/.test(path) ? CATAN_RES : null);

  const BOARDS = { braverats };  // Catan and Troje: drawn by their scenes (scene.js)

  const render = (game, view, ctx) => {
    const labels = ctx.labels || new Labels(game, view);
    labels.setView(view);
    const draw = BOARDS[game.id];
    const body = draw ? draw(view, labels, ctx) : renderValue(view, labels, ctx);
    return h("div.table", { "data-game": game.id }, body);
  };

  /** A hex's colour on the table (the board editor draws with it too). */
  const terrainFill = (t) => (t === "sea" ? SEA : (TERRAIN[t] || ["#cccccc"])[0]);
  return { Labels, deck, render, renderValue, STANDARD, spotLabel, atomic, mapKeys, repeats, unseenMoves, words, terrainFill, valueWords };
})();
