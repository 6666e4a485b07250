/* How each game looks on the table, and the card values its pickers offer.
   The one place with game knowledge on the pages (boardgame.io's "board"):
   the record screen itself is generic (legal moves + event JSON Schemas). */
"use strict";
const Boards = (() => {
  const h = Kroniek.h, K = Kroniek;
  const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
  const SUIT_EN = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
  const RANK_EN = { A: "ace", J: "jack", Q: "queen", K: "king" };
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
  /** Catan and the scenarios built on its board (they share the drawing, the spots and the pickers) */
  const CATAN_LIKE = new Set(["catan", "catan-troje"]);
  const catanLike = (game) => !!game && CATAN_LIKE.has(game.id);
  const TROJE_SIDES = ["troy", "mycenae"];
  const TROJE_ADVANTAGES = ["harbour_3to1", "victory_point", "swap", "trade_chip", "draw"];
  const ADVANTAGE_SHORT = { harbour_3to1: "3:1", victory_point: "VP", swap: "swap", trade_chip: "chip", draw: "draw" };
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
  const SEAT_COLOURS = ["#d7263d", "#1f5fa8", "#f08a24", "#f4f4f4", "#6b3e26", "#7b3fa0"];
  const S3 = Math.sqrt(3), R = 30;
  const centre = ([q, r]) => [R * S3 * (q + r / 2), R * 1.5 * r];
  const mean = (pts) => [pts.reduce((a, p) => a + p[0], 0) / pts.length, pts.reduce((a, p) => a + p[1], 0) / pts.length];
  const hexKey = (c) => `${c[0]},${c[1]}`;
  const NEIGHBOURS = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]];
  const hexPoints = ([cx, cy]) => Array.from({ length: 6 }, (_, k) => { const a = Math.PI / 180 * (60 * k - 30); return `${(cx + R * Math.cos(a)).toFixed(1)},${(cy + R * Math.sin(a)).toFixed(1)}`; }).join(" ");
  /** A little boat (hull and sail) centred on (x, y), k times the size of a ship symbol. */
  const boat = (x, y, k) => {
    const p = (dx, dy) => `${(x + dx * k).toFixed(1)},${(y + dy * k).toFixed(1)}`;
    return `M${p(-10, 2)} L${p(10, 2)} L${p(6, 8)} L${p(-6, 8)} Z M${p(0, 0)} L${p(0, -11)} L${p(8, 0)} Z M${p(-2, 0)} L${p(-2, -9)} L${p(-8, 0)} Z`;
  };
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
  /** Whether a list's values may come more than once (resources, Troje's sides), unlike the cards of a deck. */
  const repeats = (game, path) => catanLike(game);
  /** The keys of a map field ({"wool": 2, "ore": 1}): the resources. */
  const mapKeys = (game, type, path) => (catanLike(game) && !/given$/.test(path) ? CATAN_RES : null);

  /** Text for an SVG: the view's strings (a seat's name, a board's label) escaped. */
  const esc = (v) => String(v).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

  const catanSvg = (view) => {
    const L = view.layout, T = view.troje || null;
    const land = L.hexes.map((x) => centre(x.at));
    const seaTiles = T ? T.sea_tiles || [] : [];
    const sea = seaTiles.map((t) => centre(t.at));
    const all = land.concat(sea);
    const xs = all.map((p) => p[0]), ys = all.map((p) => p[1]);
    const pad = T ? R * 1.2 : R * 1.8;  // room for the harbour labels out at sea (Troje's sea is drawn)
    // a board that is not the printed one says so, in a band above the map (review and record alike)
    const placeholder = view.board && view.board.placeholder ? view.board.label || "PLACEHOLDER layout" : null;
    const width = Math.max(...xs) - Math.min(...xs) + 2 * pad;
    const font = Math.max(R * 0.62, width / 34);  // the label spans most of a wide board, readable on a phone
    const band = placeholder ? font * 2 : 0;
    const box = [Math.min(...xs) - pad, Math.min(...ys) - pad - band, width, Math.max(...ys) - Math.min(...ys) + 2 * pad + band];
    const boardName = esc(K.t("the board"));
    const out = [`<svg class="catan${T ? " troje" : ""}" viewBox="${box.map((n) => n.toFixed(1)).join(" ")}" role="img" aria-label="${boardName}${placeholder && K.lang === "en" ? " (" + esc(placeholder) + ")" : ""}">`];
    if (placeholder) {
      const w = box[2] - R, y = box[1] + font * 0.25;
      out.push(`<g class="placeholder" data-placeholder="true"><rect x="${(box[0] + R / 2).toFixed(1)}" y="${y.toFixed(1)}" width="${w.toFixed(1)}" height="${(font * 1.6).toFixed(1)}" rx="6" fill="#ffe066" stroke="#b00020" stroke-width="2"/>`
        + `<text class="placeholder" lang="en" x="${(box[0] + box[2] / 2).toFixed(1)}" y="${(y + font * 1.15).toFixed(1)}" text-anchor="middle" font-size="${font.toFixed(1)}" font-weight="700" fill="#b00020">${esc(placeholder)}</text></g>`);
    }
    const vpos = (i) => mean(L.vertices[i].map(centre));
    const epos = (i) => {
      const [a, b] = L.edges[i].map(centre), m = mean([a, b]);
      const d = Math.hypot(b[0] - a[0], b[1] - a[1]), px = -(b[1] - a[1]) / d * R / 2, py = (b[0] - a[0]) / d * R / 2;
      return [[m[0] + px, m[1] + py], [m[0] - px, m[1] - py]];
    };
    // Troje's sea tiles in play: numbered as the pickers name them, a ship symbol where ships may go
    seaTiles.forEach((t, i) => {
      const [cx, cy] = sea[i];
      out.push(`<g class="sea" data-tile="${hexKey(t.at)}" data-index="${i}" data-ship-symbol="${!!t.ship_symbol}"><title>${esc(K.t("sea #{n}", { n: i }))}${t.ship_symbol ? ": " + esc(K.t("ship symbol")) : ""}</title>`
        + `<polygon points="${hexPoints([cx, cy])}" fill="${SEA}" stroke="#a9cbe6" stroke-width="1.5"/>`
        + `<text x="${cx.toFixed(1)}" y="${(cy - R * 0.6).toFixed(1)}" text-anchor="middle" font-size="7" fill="#d8e8f4">#${i}</text>`);
      if (t.ship_symbol && !t.ship) out.push(`<path class="ship-symbol" d="${boat(cx, cy - 2, 0.9)}" fill="none" stroke="#e8f1f8" stroke-width="1.4" stroke-linejoin="round"/>`);
      out.push("</g>");
    });
    const cities = cityAt(view);
    L.hexes.forEach((x, i) => {
      const [cx, cy] = land[i];
      const [fill, res] = TERRAIN[x.terrain] || ["#ccc", "?"];
      const city = cities[hexKey(x.at)];
      const robber = view.robber && hexKey(view.robber) === hexKey(x.at);
      out.push(`<g class="hex" data-hex="${hexKey(x.at)}" data-terrain="${city ? esc(city.toLowerCase()) : res}"><polygon points="${hexPoints([cx, cy])}" fill="${fill}" stroke="#f3ead2" stroke-width="2"/>`);
      if (city) out.push(`<text class="city" x="${cx}" y="${cy + 3}" text-anchor="middle" font-size="9" font-weight="700" fill="#3b2a12">${esc(city)}</text>`);
      if (x.number) out.push(`<circle cx="${cx}" cy="${cy}" r="9" fill="#fdf6e3"/><text x="${cx}" y="${cy + 4}" text-anchor="middle" font-size="11" font-weight="700" fill="${x.number === 6 || x.number === 8 ? "#c0262d" : "#222"}">${x.number}</text>`);
      if (robber) out.push(`<circle class="robber" cx="${cx + 11}" cy="${cy - 11}" r="6" fill="#222"><title>${esc(K.t("robber"))}</title></circle>`);
      out.push("</g>");
    });
    // A harbour serves two neighbouring intersections (they share two hexes): a dot on each, and one
    // label between them, out to sea, that says what it trades, so a phone shows it without a tooltip.
    const mid = mean(land), seen = new Set();
    const shareTwo = (a, b) => L.vertices[a].filter((x) => L.vertices[b].some((y) => hexKey(y) === hexKey(x))).length >= 2;
    for (const [v, kind] of Object.entries(L.harbors)) {
      const [x, y] = vpos(Number(v));
      out.push(`<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="3" fill="#1b4f72"><title>${esc(K.t("harbour {kind}", { kind: VALUE_WORDS[kind] || kind }))}</title></circle>`);
      if (seen.has(v)) continue;
      const w = Object.keys(L.harbors).find((u) => u !== v && !seen.has(u) && L.harbors[u] === kind && shareTwo(Number(v), Number(u)));
      seen.add(v);
      if (w !== undefined) seen.add(w);
      const at = w === undefined ? [x, y] : mean([[x, y], vpos(Number(w))]);
      const d = Math.hypot(at[0] - mid[0], at[1] - mid[1]) || 1;
      const lx = at[0] + (at[0] - mid[0]) / d * R * 0.6, ly = at[1] + (at[1] - mid[1]) / d * R * 0.6;
      const text = kind === "3:1" ? "3:1" : `2:1 ${esc(valueWords(kind))}`;
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
    // ships in their owner's colour, the advantage written under the hull; then the sea people on top
    seaTiles.forEach((t, i) => {
      if (!t.ship) return;
      const [cx, cy] = sea[i], sh = t.ship;
      const what = K.t("{name}'s ship: {advantage}", { name: ownerName(view, sh.owner), advantage: valueWords(sh.advantage) }) + (sh.blocked ? " " + K.t("(blocked by the sea people)") : "");
      out.push(`<g class="ship" data-tile="${hexKey(t.at)}" data-owner="${sh.owner}" data-advantage="${esc(sh.advantage)}" data-blocked="${!!sh.blocked}"><title>${esc(what)}</title>`
        + `<path d="${boat(cx, cy - 2, 1.25)}" fill="${SEAT_COLOURS[sh.owner]}" stroke="#111" stroke-width="1.2" stroke-linejoin="round"/>`
        + `<text class="advantage" x="${cx.toFixed(1)}" y="${(cy + R * 0.62).toFixed(1)}" text-anchor="middle" font-size="8" font-weight="700" fill="#fff" stroke="#0b2a40" stroke-width="2" paint-order="stroke">${esc(ADVANTAGE_SHORT[sh.advantage] || sh.advantage)}</text></g>`);
    });
    if (T && T.sea_people) {
      // a dark figure (head and cloak) beside the middle of its tile, so a ship there stays readable
      const [cx, cy] = centre(T.sea_people), x = cx + R * 0.5, y = cy - R * 0.22;
      out.push(`<g class="sea-people" data-tile="${hexKey(T.sea_people)}"><title>${esc(K.t("the sea people"))}</title>`
        + `<path d="M${(x - 7.5).toFixed(1)},${(y + 13).toFixed(1)} L${(x + 7.5).toFixed(1)},${(y + 13).toFixed(1)} L${x.toFixed(1)},${(y - 1).toFixed(1)} Z" fill="#1a1a1a" stroke="#fff" stroke-width="1.4"/>`
        + `<circle cx="${x.toFixed(1)}" cy="${(y - 4.5).toFixed(1)}" r="5" fill="#1a1a1a" stroke="#fff" stroke-width="1.4"/></g>`);
    }
    out.push("</svg>");
    return out.join("");
  };

  const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

  /** A seat's line under its hand: Catan's development cards and knights, or Troje's trade points, side, saga and ships. */
  const seatLine = (view, p) => {
    const placed = K.t("road {length} · {settlements}/{cities}/{roads} placed", { length: p.road_length, settlements: p.settlements, cities: p.cities, roads: p.roads });
    if (!view.troje) {
      const dev = Object.keys(p.development_known || {}).length ? " (" + Object.entries(p.development_known).map(([k, n]) => `${n} ${valueWords(k)}`).join(", ") + ")" : "";
      return h("div.muted", K.t("dev {n}", { n: p.development_cards }) + dev + " · " + K.t("knights {n}", { n: p.knights_played }) + ` · ${placed}`);
    }
    const chips = (p.trade_chips || []).map((c) => `2:1 ${valueWords(c.resource)}`);
    return h("div.muted.trojeline", { "data-side": p.side || "" },
      K.t("trade points {n}", { n: p.trade_points }), p.side ? " · " + K.t("side {city}", { city: CITY_NAMES[p.side] || p.side }) : "",
      " · " + K.t("saga {saga} VP · ships {ships} VP", { saga: p.saga_vp === null || p.saga_vp === undefined ? "?" : p.saga_vp, ships: p.ship_vp }),
      chips.length ? " · " + K.t("chips {chips}", { chips: chips.join(", ") }) : "", ` · ${placed}`);
  };

  /** Troje's table beside the board, compactly: the support stack, the saga track, the battles, the sea people. */
  const trojeLine = (view) => {
    const T = view.troje, st = T.support_stack, saga = T.saga;
    const track = (side) => h("span.sagatrack", { "data-side": side, title: K.t("{city}'s card: {n} of {fields} fields, {vp} VP", { city: CITY_NAMES[side], n: saga[side], fields: saga.track.length, vp: saga.vp[side] }) },
      h("b", CITY_NAMES[side]), " ", saga.track.map((vp, i) => h(i < saga[side] ? "span.field.on" : "span.field", String(vp))), " " + K.t("{vp} VP", { vp: saga.vp[side] }));
    const last = T.battles.length ? T.battles[T.battles.length - 1] : null;
    return h("div.trojebar",
      h("span.stack", { "data-cards": st.cards }, K.t("support stack {n}/{at}", { n: st.cards, at: st.battle_at })),
      h("span.saga", K.t("saga") + " ", track("troy"), " ", track("mycenae")),
      h("span", K.t("battles {n}", { n: T.battles.length }) + (last ? " (" + (last.won_by ? K.t("last: {city} won", { city: CITY_NAMES[last.won_by] }) : K.t("last: a tie")) + ")" : "")),
      h("span", T.sea_people ? K.t("sea people on the board") : K.t("sea people off the board")),
      T.war_won_by ? h("span", K.t("the war is over: {city} won it", { city: CITY_NAMES[T.war_won_by] || cap(T.war_won_by) })) : null,
      T.ship_tiles && T.ship_tiles.placeholder ? h("span.placeholder", { lang: K.enLang }, T.ship_tiles.label) : null);
  };

  const catan = (view, labels, ctx) => {
    const svg = h("div.catanboard", { "data-placeholder": view.board && view.board.placeholder ? "true" : null });
    if (view.layout) svg.innerHTML = catanSvg(view);  // numbers, a fixed terrain list, and escaped text
    const seats = (view.players || []).map((p) => h("div.seat", { "data-seat": p.seat },
      h("div.boxtitle", h("span.swatch", { style: `background:${SEAT_COLOURS[p.seat]}` }), ` ${ctx.players[p.seat] || p.name} · ${K.t("{vp} VP", { vp: p.vp ?? p.public_vp })}`,
        view.turn === p.seat ? " · " + K.t("to play") : "", view.longest_road === p.seat ? " · " + K.t("longest road") : "", view.largest_army === p.seat ? " · " + K.t("largest army") : ""),
      h("div", K.t("cards {n}:", { n: p.cards }) + " ", renderValue(p.hand, labels, ctx, 1)),
      seatLine(view, p)));
    const rest = {};
    for (const [k, v] of Object.entries(view)) if (!["layout", "players", "buildings", "roads"].includes(k)) rest[k] = v;
    return [h("div.phase", h("span", { lang: K.enLang }, view.phase.replace(/_/g, " ")), " · " + K.t("turn {n}", { n: view.turn_number }), view.dice && view.dice.length ? " · " + K.t("dice {dice}", { dice: view.dice.join("+") }) : ""),
      view.troje ? trojeLine(view) : null, svg, h("div.seats", seats), h("details.more", h("summary", K.t("more")), renderValue(rest, labels, ctx))];
  };

  const BOARDS = { braverats, catan, "catan-troje": catan };

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
