/* A form built from a JSON Schema, for chance outcomes (dice, a deal, a drawn card) and
   match options: cards as card grids, dice as 1–6 buttons, small numbers as buttons,
   so nothing is ever typed as JSON. build() returns {node, get()}; get() throws a
   message when something required is missing. */
"use strict";
const SchemaForm = (() => {
  const h = Kroniek.h, K = Kroniek;

  const branches = (schema) => {
    if (!schema) return { main: {}, nullable: false };
    const alts = schema.anyOf || schema.oneOf;
    // alternatives that only constrain an object's own properties ({"required": ["column"]} or ["card"]) are not
    // other kinds of value: the object's form offers them (objectField)
    if (alts && !(schema.type || schema.properties)) {
      const nonNull = alts.filter((s) => s.type !== "null");
      return { main: { ...nonNull[0], description: nonNull[0].description || schema.description, enum_titles: nonNull[0].enum_titles || schema.enum_titles }, nullable: nonNull.length < alts.length };
    }
    if (Array.isArray(schema.type)) {
      const types = schema.type.filter((t) => t !== "null");
      return { main: { ...schema, type: types.includes("string") ? "string" : types[0] }, nullable: types.length < schema.type.length };
    }
    return { main: schema, nullable: false };
  };

  const smallRange = (s) => Array.isArray(s.enum) ? s.enum.filter((x) => x !== null)
    : (s.minimum !== undefined && s.maximum !== undefined && s.maximum - s.minimum <= 12
      ? Array.from({ length: s.maximum - s.minimum + 1 }, (_, i) => s.minimum + i) : null);

  /** A field that names a seat: shown by the player's name, and only the match's seats are offered. */
  const SEATISH = /^(with|from|victim|seat|target)$|_seat$/;
  const keyOf = (path) => String(path).split(/[.[\]]/).filter(Boolean).pop() || "";
  /** A field's accessible name from its path: "saga_track[0]" -> "saga track 1" (a screen reader has no other label). */
  const nameOf = (path) => String(path).replace(/\[(\d+)\]/g, (_, i) => ` ${Number(i) + 1}`).replace(/[._]/g, " ").trim();
  /** A key or an enum value as words ("musician_cancels_lasting_powers" -> "musician cancels lasting powers"). */
  const words = (k) => String(k).replace(/_/g, " ").replace(/(\d)to(\d)/g, "$1:$2");  // harbour_3to1 -> harbour 3:1
  /** The fields of the games' moves by the words of their rules texts (a key of the data, in the page's language):
      never "with / give / get" on a Dutch page. A key not listed here is shown as its words, marked English. */
  const FIELDS = {
    advantage: K.t("advantage"), card: K.t("card"), cards: K.t("cards"), castle: K.t("castle"), clubs_jack: K.t("clubs jack"),
    column: K.t("column"), columns: K.t("columns"), count: K.t("count"), cover: K.t("fields covered"), dice: K.t("dice"),
    draft_first_seat: K.t("who drafts first"), edge: K.t("path"), face_up: K.t("face up"), faces: K.t("faces"), first: K.t("first"),
    foundation: K.t("foundation"), from: K.t("from"), get: K.t("gets"), give: K.t("gives"), given: K.t("handed over"),
    hands: K.t("hands"), hearts_jack: K.t("with the hearts jack"), hex: K.t("hex"), knight: K.t("knight"), knights: K.t("knights"),
    ladies: K.t("ladies"), lady: K.t("lady"), noble: K.t("noble"), nobles: K.t("nobles"), power: K.t("power"),
    princess_attack_seat: K.t("who trades the Prince for the Princess"), resource: K.t("resource"), reveal: K.t("shown"),
    revealed: K.t("turned up"), rolls: K.t("rolls"), row: K.t("row"), rows: K.t("rows"), seed: K.t("seed"), ship: K.t("ship"),
    side: K.t("side"), sides: K.t("sides"), slot: K.t("place"), target: K.t("target"), tile: K.t("tile"), to: K.t("to"),
    twelves: K.t("twelves"), variants: K.t("variants"), vertex: K.t("intersection"), victim: K.t("robbed player"),
    village: K.t("village"), with: K.t("with"), seat: K.t("seat"),
  };
  /** A field's label: its schema's title (said by the API in the page's language for a game that speaks through
      messages), else the field's words, else its key in words. */
  const titleOf = (schema, key) => (schema && schema.title) || FIELDS[key] || words(key);
  /** The language of titleOf's words where it is not the page's: "en" for an English title or key on a Dutch page. */
  const tongue = (schema, key) => (K.lang === "en" || (schema && schema.title && !K.engineLang)
    || (!(schema && schema.title) && FIELDS[key]) ? null : "en");
  /** A description as help for a person: the API's own notes (where to GET a list, a hash, what the event's
      seat field holds: the page has its own picker for that) left out. */
  const helpText = (d) => (d ? String(d).replace(/\s*\((?:the API|GET |seat: |seat = )[^)]*\)/g, "").trim() : "");
  const help = (d) => (helpText(d) ? h("small.muted.help", { lang: K.engineLang }, " " + helpText(d)) : null);

  /** ctx: {game, type, view, labels, players} */
  const build = (schema, path, ctx) => {
    const { main, nullable } = branches(schema);
    const type = main.type || (main.properties ? "object" : main.items ? "array" : "string");
    if (type === "object") return objectField(main, path, ctx);
    if (type === "array") return arrayField(main, path, ctx, nullable);
    if (type === "boolean") {
      // a nullable boolean has three states (null: the default rule decides), a checkbox only two
      if (nullable) return pickOne([null, true, false], path, ctx, main.default);
      const box = h("input", { type: "checkbox", "data-path": path });
      box.checked = main.default === true;
      return { node: h("label.check", box, " ", h("span", { lang: tongue(main, keyOf(path)) }, titleOf(main, keyOf(path)))), get: () => box.checked };
    }
    if (type === "integer" || type === "number") {
      let values = smallRange(main);
      // a seat: only the match's seats (a 3-player game has no seats 3-5); a form whose players are still
      // being entered (a new match) keeps them all and names them as they are typed (nameSeats)
      if (values && SEATISH.test(keyOf(path)) && ctx.players && ctx.players.length && !ctx.liveSeats) {
        values = values.filter((v) => v < ctx.players.length);
      }
      if (values) return pickOne(values.concat(nullable ? [null] : []), path, ctx, main.default);
      const input = h("input", { type: "number", "data-path": path, "aria-label": main.title || FIELDS[keyOf(path)] ? titleOf(main, keyOf(path)) : nameOf(path), lang: tongue(main.title ? main : null, keyOf(path)), min: main.minimum, max: main.maximum, value: main.default });
      return { node: input, get: () => { if (input.value === "") { if (nullable) return null; throw K.t("{field} is missing", { field: path }); } return Number(input.value); } };
    }
    // a string: an enum, a card, or free text (never JSON)
    if (Array.isArray(main.enum)) {
      // an option's values in words (enum_titles, said by the API in the page's language), else as the API names them
      const names = main.enum_titles;
      return pickOne(main.enum, path, ctx, main.default, names ? null : tongue(null), names || null);
    }
    const deck = Boards.deck(ctx.game, ctx.type, path, main, ctx.view);
    if (deck) return pickOne(deck.concat(nullable ? [null] : []), path, ctx);
    const input = h("input", { type: "text", "data-path": path, "aria-label": main.title || FIELDS[keyOf(path)] ? titleOf(main, keyOf(path)) : nameOf(path), lang: tongue(main.title ? main : null, keyOf(path)), value: main.default || "", maxlength: main.maxLength || 200 });
    return { node: input, get: () => { if (!input.value && !nullable) throw K.t("{field} is missing", { field: path }); return input.value || null; } };
  };

  const valueLabel = (v, path, ctx, names = null) => {
    if (names && typeof v === "string" && names[v]) return names[v];
    if (v === null) return /(card|cards|sides?)$/.test(keyOf(path)) ? K.t("unknown") : ctx.nullLabel || "—";
    if (typeof v === "number" && SEATISH.test(keyOf(path)) && ctx.players && ctx.players[v] !== undefined) return ctx.players[v];
    if (ctx.labels && ctx.labels.isCard(v)) return ctx.labels.chip(v);
    if (typeof v === "boolean") return v ? K.t("yes") : K.t("no");
    return typeof v === "string" ? Boards.words(ctx.game, v) || words(v) : String(v);
  };

  const pickOne = (values, path, ctx, initial, lang = null, names = null) => {
    let chosen = initial === undefined ? undefined : initial;
    // an enum's values are the engine's English words (lang), booleans and seats the page's own
    const grid = h("div.picker", { "data-path": path, lang: values.some((v) => typeof v === "string") ? lang : null });
    const buttons = values.map((v) => {
      const seat = typeof v === "number" && SEATISH.test(keyOf(path)) ? v : null;
      const b = h("button.pick", { type: "button", "data-value": JSON.stringify(v), "data-seat": seat, onclick: () => {
        chosen = v; buttons.forEach((x) => x.classList.toggle("on", x === b));
        grid.dispatchEvent(new CustomEvent("picked", { bubbles: true }));
      } }, valueLabel(v, path, ctx, names));
      if (v === chosen) b.classList.add("on");
      return b;
    });
    grid.append(...buttons);
    return { node: grid, get: () => { if (chosen === undefined) throw keyOf(path) ? K.t("choose {field}", { field: keyOf(path) }) : K.t("choose a value"); return chosen; } };
  };

  /** How many of a list are picked, in words: "1 of 3", "0 of 1–4", "0 of up to 2" (never "of undefined–2"). */
  const countText = (n, min, max) => {
    if (max === undefined) return min ? K.t("{n} chosen (at least {min})", { n, min }) : K.t("{n} chosen", { n });
    if (min === max) return K.t("{n} of {max}", { n, max });
    return min ? K.t("{n} of {min}–{max}", { n, min, max }) : K.t("{n} of up to {max}", { n, max });
  };

  /** An array of simple values: tap a value to add it, tap a chosen one to take it back. */
  const sequence = (values, path, ctx, min, max, unique, title, lang = null) => {
    const chosen = [];
    const shown = h("div.sequence", { "data-path": path });
    const count = h("span.count");
    const grid = h("div.picker");
    const redraw = () => {
      shown.replaceChildren(...chosen.map((v, i) => h("button.pick.on", { type: "button", title: K.t("take back"), onclick: () => { chosen.splice(i, 1); redraw(); } }, valueLabel(v, path, ctx))));
      count.textContent = countText(chosen.length, min, max);
      for (const b of grid.children) {
        const v = JSON.parse(b.dataset.value);
        b.disabled = (max !== undefined && chosen.length >= max) || (unique && v !== "unknown" && v !== null && chosen.includes(v));
      }
    };
    grid.append(...values.map((v) => h("button.pick", { type: "button", "data-value": JSON.stringify(v), onclick: () => { chosen.push(v); redraw(); } }, valueLabel(v, path, ctx))));
    redraw();
    return {
      // an item of a per-player list (knights[0]) is titled by its box (the player's name), not by "0"
      node: h("div.seqfield", h("div.seqhead", /^\d+$/.test(keyOf(path)) ? null : h("b", { lang }, title), " ", count), shown, grid),
      get: () => { if (min !== undefined && chosen.length < min) throw K.tn(min - chosen.length, "{field}: {n} more to pick", "{field}: {n} more to pick", { field: path }); return chosen.slice(); },
    };
  };

  const arrayField = (s, path, ctx, nullable) => {
    const { main: item, nullable: itemNull } = branches(s.items || {});
    const itemType = item.type || (item.properties ? "object" : item.items ? "array" : "string");
    const min = s.minItems, max = s.maxItems;
    if (itemType === "string" || itemType === "integer") {
      let values = Array.isArray(item.enum) ? item.enum : itemType === "integer" ? smallRange(item) : Boards.deck(ctx.game, ctx.type, path + "[]", item, ctx.view);
      if (values) {
        if (itemNull) values = values.concat([null]);
        const unique = itemType === "string" && !Boards.repeats(ctx.game, path);
        return sequence(values, path, ctx, min, max, unique, titleOf(s, keyOf(path)), tongue(s, keyOf(path)));
      }
    }
    // complex items: one sub-form each; a per-seat array starts with one per player
    const players = (ctx.players || []).length;
    let n = min === max && min !== undefined ? min : (players && (min || 0) <= players && players <= (max || 99) ? players : (min || 1));
    const wrap = h("div.arrayfield", { "data-path": path });
    const parts = [];
    const add = () => {
      const i = parts.length;
      const sub = build(s.items, `${path}[${i}]`, ctx);
      const who = n === players && ctx.players ? ctx.players[i] : `#${i + 1}`;
      parts.push(sub);
      list.append(h("div.box", h("div.boxtitle", who), sub.node));
    };
    const list = h("div.list");
    wrap.append(list);
    for (let i = 0; i < n; i++) add();
    if (min !== max) wrap.append(h("button.button.small", { type: "button", onclick: () => { if (max === undefined || parts.length < max) add(); } }, "+ " + K.t("add")));
    return { node: wrap, get: () => parts.map((p) => p.get()) };
  };

  /** A map of counts ({"wool": 2, "ore": 1}) over keys the game names: a − n + stepper per key, starting at
      ``initial`` (a default); zeros are left out. */
  const countsField = (s, path, keys, initial, game = null) => {
    const max = (s.additionalProperties && s.additionalProperties.maximum) || 99;
    const n = Object.fromEntries(keys.map((k) => [k, (initial && initial[k]) || 0]));
    const wrap = h("div.counts", { "data-path": path });
    for (const k of keys) {
      const shown = h("b", { "data-count": k }, String(n[k]));
      const step = (d) => { n[k] = Math.max(0, Math.min(max, n[k] + d)); shown.textContent = String(n[k]); };
      wrap.append(h("span.count", { "data-key": k }, Boards.words(game, k) || k, " ",
        h("button.pick", { type: "button", "data-step": "-1", "aria-label": K.t("one {item} less", { item: Boards.words(game, k) || k }), onclick: () => step(-1) }, "−"), shown,
        h("button.pick", { type: "button", "data-step": "1", "aria-label": K.t("one {item} more", { item: Boards.words(game, k) || k }), onclick: () => step(1) }, "+")));
    }
    return { node: wrap, get: () => Object.fromEntries(Object.entries(n).filter(([, x]) => x > 0)) };
  };

  const objectField = (s, path, ctx) => {
    if (!s.properties && s.additionalProperties && typeof s.additionalProperties === "object") {
      const keys = Boards.mapKeys(ctx.game, ctx.type, path);
      if (keys) return countsField(s, path, keys, undefined, ctx.game);
    }
    // counts under the names the game gives its map keys, spelled out as properties (Troje's initial support stack)
    const named = s.properties && Object.entries(s.properties);
    const keys = named && named.length && Boards.mapKeys(ctx.game, ctx.type, path);
    if (keys && named.every(([k, p]) => keys.includes(k) && p.type === "integer")) {
      return countsField({ additionalProperties: named[0][1] }, path, named.map(([k]) => k), s.default, ctx.game);
    }
    const props = Object.entries(s.properties || {}).filter(([, p]) => !/filled in by the server/.test(p.description || ""));
    const required = new Set(s.required || []);
    const fields = {};
    const wrap = h("div.objectfield", { "data-path": path || "data" });
    const field = (name, p) => {
      const sub = build(p, path ? `${path}.${name}` : name, ctx);
      fields[name] = sub;
      return h("div.field", { "data-field": name }, h("div.label", h("span", { lang: tongue(p, name) }, titleOf(p, name)), help(p.description)), sub.node);
    };
    const anyReq = props.some(([k]) => required.has(k)) || (s.anyOf || []).length === 0 && props.length <= 1;
    // the properties the schema's alternatives each require (a take names its column or its card): one of them is
    // chosen, the rest (its foundation) are optional beside it
    const eitherOf = [...new Set([...(s.anyOf || []), ...(s.oneOf || [])].flatMap((alt) => alt.required || []))];
    const alternatives = eitherOf.length > 1 ? props.filter(([k]) => eitherOf.includes(k)) : props;
    if (!anyReq && props.length > 1) {
      // alternatives (a deal entered as columns, rows, cards or a seed): the recorder picks one
      const slot = h("div");
      let chosen = null;
      const extra = props.filter(([k]) => !alternatives.some(([a]) => a === k)).map(([k, p]) => optionalField(k, p));
      const tabs = h("div.picker", alternatives.map(([k, p]) => h("button.pick", { type: "button", "data-alt": k, onclick: (e) => {
        chosen = k; for (const b of tabs.children) b.classList.toggle("on", b === e.currentTarget);
        for (const key of Object.keys(fields)) delete fields[key];
        slot.replaceChildren(field(k, p));
      } }, K.t("as") + " ", h("span", { lang: tongue(p, k) }, titleOf(p, k)))));
      wrap.append(h("div.label", K.t("Enter it")), tabs, slot, ...extra.map((x) => x.node));
      return { node: wrap, get: () => {
        if (!chosen) throw K.t("choose how to enter it");
        return Object.fromEntries([[chosen, fields[chosen].get()], ...extra.filter((x) => x.on()).map((x) => [x.key, fields[x.key].get()])]);
      } };
    }
    /** A property left out unless the recorder adds it (+ its name). */
    function optionalField(k, p) {
      const slot = h("div");
      const toggle = h("button.button.small", { type: "button", "data-optional": k, lang: tongue(p, k), onclick: () => {
        if (fields[k]) { delete fields[k]; slot.replaceChildren(); toggle.textContent = "+ " + titleOf(p, k); }
        else { slot.replaceChildren(field(k, p)); toggle.textContent = "− " + titleOf(p, k); }
      } }, "+ " + titleOf(p, k));
      return { key: k, node: h("div.optional", toggle, slot), on: () => k in fields };
    }
    for (const [k, p] of props) {
      if (required.has(k) || (p.type === "boolean")) wrap.append(field(k, p));
    }
    for (const [k, p] of props) if (!(required.has(k) || p.type === "boolean")) wrap.append(optionalField(k, p).node);
    return { node: wrap, get: () => Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, f.get()])) };
  };

  /** Seat pickers named by the players entered so far (a new match's form): each seat's button shows its
      player's name, and the seats beyond the players are hidden. */
  const nameSeats = (root, names) => {
    for (const b of root.querySelectorAll("button[data-seat]")) {
      const seat = Number(b.dataset.seat);
      b.style.display = seat >= names.length ? "none" : "";  // (a button's display beats [hidden])
      if (seat < names.length) b.textContent = names[seat] || K.t("player {n}", { n: seat + 1 });
      // a seat chosen and then removed with its player: the first seat instead (never a seat the match lacks)
      else if (b.classList.contains("on")) { const first = b.parentNode.querySelector("button[data-seat='0']"); if (first) first.click(); }
    }
  };

  return { build, nameSeats, words, titleOf, help, helpText };
})();
