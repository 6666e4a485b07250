/* Pages to enter a table's own game data (docs/ui.md, "Your own cards and boards"): one document of a game's
   data kind, started from a shipped or stored one, checked with the server's own rules as it is edited
   (POST /api/games/<game>/<kind>/check: the same messages a save would get) and saved with
   POST /api/games/<game>/<kind>. A kind with forms of its own (the knights' card sets) gets them; any other
   kind its JSON in a text box, checked the same way. */
"use strict";
(() => {
  const K = Kroniek, h = K.h;
  /** "<game>/<kind>" -> (document, changed, ctx) => { node, get(), mark(error or null) } */
  const EDITORS = {};

  K.dataEditor = async () => {
    const root = document.getElementById("editor");
    const { game: gameId, kind, option } = root.dataset;
    const status = document.getElementById("ed-status");
    const save = document.getElementById("ed-save");
    const saved = document.getElementById("ed-saved");
    const list = await K.api("GET", `/api/games/${gameId}/${kind}`);
    if (!list.ok) { K.flash(K.errorText(list), "error"); return; }
    const items = list.data.items || [];
    const wanted = new URLSearchParams(location.search).get("from");
    const start = items.find((it) => it.hash === wanted) || items.find((it) => it.builtin) || items[0];
    if (!start) { status.textContent = K.t("There is nothing to start from."); return; }
    const got = await K.api("GET", `/api/games/${gameId}/${kind}/${start.hash}`);
    if (!got.ok) { K.flash(K.errorText(got), "error"); return; }
    // what the form starts from, and the others it could start from (a link each)
    const others = items.filter((it) => it.hash !== start.hash);
    document.getElementById("ed-from").replaceChildren(h("span", K.t("Starting from:") + " ", h("b", { translate: "no" }, start.name || start.hash.slice(0, 12)),
      start.label ? h("small.muted", { translate: "no" }, " " + start.label) : null,
      others.length ? h("span", " · " + K.t("or from:") + " ", others.map((it, i) => [i ? ", " : "", h("a", { href: `?from=${it.hash}`, translate: "no" }, it.name || it.hash.slice(0, 12))])) : null));
    let asked = 0, timer = null, valid = null;
    const check = async () => {
      const ticket = ++asked;
      let doc;
      try { doc = editor.get(); } catch (msg) {
        valid = null; save.disabled = true; editor.mark({ message: String(msg) });
        status.className = "edstatus bad"; status.textContent = K.t("Not valid yet: {why}", { why: String(msg) });
        return;
      }
      if (!(await K.authReady)) {
        status.className = "edstatus bad"; status.textContent = K.t("Sign in with your token (at the top) to check and save it.");
        return;
      }
      const r = await K.api("POST", `/api/games/${gameId}/${kind}/check`, doc);
      if (ticket !== asked) return;  // a later change is being checked
      if (r.ok && r.data.valid) {
        valid = doc; save.disabled = false; editor.mark(null);
        status.className = "edstatus good";
        status.replaceChildren(K.t("Valid:") + " ", h("b", { translate: "no" }, r.data.name || ""), r.data.label ? h("small", " · " + K.say(r.data.label)) : null);  // said in the page's language (K.api asks for it)
      } else {
        valid = null; save.disabled = true;
        const error = (r.data && r.data.error) || { message: K.errorText(r) };
        editor.mark(error);
        status.className = "edstatus bad";
        status.replaceChildren(K.t("Not valid yet:") + " ", h("span", { lang: K.enLang }, K.errorText({ status: r.status, data: { error } })));
      }
    };
    const changed = () => { clearTimeout(timer); save.disabled = true; saved.hidden = true; timer = setTimeout(check, 250); };
    const make = EDITORS[`${gameId}/${kind}`] || jsonEditor;
    const editor = make(got.data.document, changed, { fromBuiltin: !!start.builtin });
    root.replaceChildren(editor.node);
    check();
    save.onclick = async () => {
      if (!valid) return;
      if (!(await K.authReady)) { K.flash(K.t("Sign in with your token (at the top) to check and save it."), "error"); return; }
      const r = await K.api("POST", `/api/games/${gameId}/${kind}`, valid);
      if (!r.ok) { K.flash(K.t("Not saved: {why}", { why: K.errorText(r) }), "error"); return; }
      const name = r.data.name || r.data.hash.slice(0, 12);
      saved.hidden = false;
      saved.replaceChildren(K.t("Saved as {name}.", { name }) + " ",
        h("a.button.primary", { href: `/record?game=${encodeURIComponent(gameId)}&${encodeURIComponent(option)}=${r.data.hash}`, id: "ed-record" }, K.t("Record a match with it")));
      K.flash(K.t("Saved as {name}.", { name }), "ok");
    };
  };

  /** Where a form shows an error: the control it names (``field``, and ``card`` for a card's field), and the
      element the message goes after (that control, else the card, else the top of the form). */
  const locateIn = (form) => (error) => {
    if (!error) return null;
    const card = error.card ? form.querySelector(`.edcard[data-card="${CSS.escape(error.card)}"]`) : null;
    const field = error.field ? (card || form).querySelector(`[data-field="${CSS.escape(error.field)}"]`) : null;
    return { field, at: field || card || form.firstElementChild };
  };
  /** The message of a refused document next to what it names (``locate``), that control marked invalid and
      described by it; ``mark(null)`` takes it all away. */
  const marker = (form, locate = locateIn(form)) => {
    const note = h("p.ederror#ed-error", { role: "alert" });
    return (error) => {
      for (const el of form.querySelectorAll("[aria-invalid]")) { el.removeAttribute("aria-invalid"); el.removeAttribute("aria-describedby"); }
      note.remove();
      const place = locate(error);
      if (!error) return;
      note.textContent = error.message || "";
      if (place.field) { place.field.setAttribute("aria-invalid", "true"); place.field.setAttribute("aria-describedby", "ed-error"); }
      if (place.at) place.at.after(note); else form.prepend(note);
    };
  };

  /** Any kind: its JSON, in a text box. */
  const jsonEditor = (doc, changed) => {
    const area = h("textarea.edjson", { rows: 24, spellcheck: "false", "aria-label": K.t("the document as JSON"), "data-field": "/", oninput: changed });
    area.value = JSON.stringify(doc, null, 2);
    const node = h("div.edform", area);
    return { node, get: () => { try { return JSON.parse(area.value); } catch (e) { throw K.t("not JSON: {why}", { why: e.message }); } }, mark: marker(node) };
  };

  // -- the forms' controls ------------------------------------------------------------------------
  let uid = 0;
  /** A labelled control: <label for> and the control, marked with the card and field the API names. */
  const labelled = (text, control) => {
    control.id = control.id || `ed-${++uid}`;
    return h("div.edfield", h("label", { for: control.id }, text), control);
  };
  const select = (values, value, word, attrs) => {
    const s = h("select", attrs, values.map((v) => h("option", { value: v }, word ? word(v) : v)));
    s.value = value;
    return s;
  };

  // -- boards (Catan's and Troje's: format kroniek.catan.board/1) ------------------------------------
  const TERRAINS = ["forest", "hills", "pasture", "fields", "mountains", "desert", "special", "sea"];
  const PRODUCES = ["forest", "hills", "pasture", "fields", "mountains"];
  const NUMBERS = [2, 3, 4, 5, 6, 8, 9, 10, 11, 12];
  const HARBOURS = ["3:1", "lumber", "brick", "wool", "grain", "ore"];
  const BOARD_PROVENANCES = ["user", "printed", "standard", "generated", "placeholder"];
  /** the six sides of a pointy-top hex, axial [dq, dr], with the arrow a side is shown by */
  const SIDES = [[[1, 0], "→"], [[1, -1], "↗"], [[0, -1], "↖"], [[-1, 0], "←"], [[-1, 1], "↙"], [[0, 1], "↘"]];
  const terrainWord = (t) => (t === "special" ? K.t("special hex") : t === "sea" ? K.t("sea") : Boards.valueWords(t));

  const boardEditor = (original, changed, ctx) => {
    const doc = JSON.parse(JSON.stringify(original));
    if (ctx.fromBuiltin) { doc.name = K.t("Our board"); doc.provenance = "user"; delete doc.notes; }
    doc.harbors = doc.harbors || [];
    const key = (c) => `${c[0]},${c[1]}`;
    const at = () => new Map(doc.hexes.map((x, i) => [key(x.at), i]));
    const isLand = (c) => { const i = at().get(key(c)); return i !== undefined && doc.hexes[i].terrain !== "sea"; };
    let selected = null;  // the index in doc.hexes of the hex tapped
    let invalidHex = null;
    const form = h("div.edform.board");
    const boardBox = h("div.edboard");
    const panel = h("div.edhex");

    const NS = "http://www.w3.org/2000/svg", R = 30, S3 = Math.sqrt(3);
    const svg = (tag, attrs, ...kids) => {
      const n = document.createElementNS(NS, tag);
      for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined && v !== false) n.setAttribute(k, v === true ? "" : v);
      for (const kid of kids.flat()) if (kid !== null && kid !== undefined) n.append(typeof kid === "string" ? document.createTextNode(kid) : kid);
      return n;
    };
    const centre = ([q, r]) => [R * S3 * (q + r / 2), R * 1.5 * r];
    const f = (x) => x.toFixed(1);
    const points = ([cx, cy]) => Array.from({ length: 6 }, (_, k) => { const a = Math.PI / 180 * (60 * k - 30); return `${f(cx + R * Math.cos(a))},${f(cy + R * Math.sin(a))}`; }).join(" ");
    /** Where a hex lies as a player counts it, row by row from the top and left to right in its row (never its
        axial [q, r], the document's own coordinates). */
    const placeOf = (x) => {
      const rows = [...new Set(doc.hexes.map((y) => y.at[1]))].sort((a, b) => a - b);
      const row = doc.hexes.filter((y) => y.at[1] === x.at[1]).map((y) => y.at[0]).sort((a, b) => a - b);
      return K.t("row {row}, place {place}", { row: rows.indexOf(x.at[1]) + 1, place: row.indexOf(x.at[0]) + 1 });
    };
    const hexName = (x) => `${x.name ? x.name + " · " : ""}${terrainWord(x.terrain)}${x.number ? " " + x.number : ""}${x.ship_symbol ? " · " + K.t("ship symbol") : ""} (${placeOf(x)})`;

    const drawBoard = () => {
      const cs = doc.hexes.map((x) => centre(x.at));
      const xs = cs.map((c) => c[0]), ys = cs.map((c) => c[1]);
      const box = [Math.min(...xs) - R - 4, Math.min(...ys) - R - 4, Math.max(...xs) - Math.min(...xs) + 2 * R + 8, Math.max(...ys) - Math.min(...ys) + 2 * R + 8];
      // the whole board in the width of the page; where its hexes would be narrower than a finger (Troje's sea on a
      // phone) a tap zooms to that part of it first (Scene.zoomable)
      const root = svg("svg", { class: "hexboard", viewBox: box.map(f).join(" "), role: "group",
        "aria-label": K.t("the board: tap a hex to change it"), "data-field": "hexes" });
      doc.hexes.forEach((x, i) => {
        const c = cs[i];
        const g = svg("g", { class: `edtile${i === selected ? " sel" : ""}${i === invalidHex ? " bad" : ""}`, role: "button", tabindex: 0, "data-hex": key(x.at),
          "aria-label": hexName(x), "aria-pressed": String(i === selected),
          ...(i === invalidHex ? { "aria-invalid": "true", "aria-describedby": "ed-error" } : {}) },  // kept when a tap draws it again
          svg("polygon", { points: points(c), fill: Boards.terrainFill(x.terrain), class: "tile" }),
          x.number ? svg("circle", { cx: f(c[0]), cy: f(c[1]), r: 10, class: "token" }) : null,
          x.number ? svg("text", { x: f(c[0]), y: f(c[1] + 4), "text-anchor": "middle", class: `number${x.number === 6 || x.number === 8 ? " hot" : ""}` }, String(x.number)) : null,
          x.ship_symbol ? svg("path", { class: "shipsym", transform: `translate(${f(c[0])},${f(c[1])})`, d: "M-9,3 L9,3 L5,9 L-5,9 Z M-1,-10 L-1,2 L-8,2 Z M1,-8 L1,2 L7,2 Z" }) : null,
          x.terrain === "special" && x.name ? svg("text", { x: f(c[0]), y: f(c[1] + 4), "text-anchor": "middle", class: "cityname" }, x.name.slice(0, 7)) : null);
        const pick = () => { selected = i; drawBoard(); drawPanel(); panel.scrollIntoView({ block: "nearest" }); };
        g.addEventListener("click", pick);
        g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); pick(); } });
        root.append(g);
      });
      for (const hb of doc.harbors) {
        const [a, b] = hb.edge.map(centre), m = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
        root.append(svg("g", { class: "edharbour" }, svg("title", {}, `${K.t("harbour")} ${hb.type}`),
          svg("circle", { cx: f(m[0]), cy: f(m[1]), r: 9 }), svg("text", { x: f(m[0]), y: f(m[1] + 3), "text-anchor": "middle" }, hb.type === "3:1" ? "3:1" : hb.type.slice(0, 2))));
      }
      const zoom = Scene.zoomable(root, box, Scene.HEX_FINGER, "editor", (g) => cs[at().get(g.dataset.hex)]);
      boardBox.replaceChildren(h("div.edzoom", zoom.button), root);
    };

    const edit = (fn) => { fn(); drawBoard(); drawPanel(); changed(); };
    const harbourAt = (a, b) => doc.harbors.findIndex((hb) => key(hb.edge[0]) === key(a) && key(hb.edge[1]) === key(b));
    const drawPanel = () => {
      if (selected === null) { panel.replaceChildren(h("p.muted", K.t("Tap a hex to change it."))); return; }
      const x = doc.hexes[selected];
      const pressed = (on) => String(!!on);
      const parts = [h("legend", K.t("Hex"), " ", h("span", { translate: "no" }, `[${x.at[0]}, ${x.at[1]}]`)),
        h("div.edfacestitle", K.t("Terrain")),
        h("div.picker", TERRAINS.map((t) => h("button.pick", { type: "button", "data-terrain": t, "aria-pressed": pressed(x.terrain === t), class: x.terrain === t ? "pick on" : "pick",
          onclick: () => edit(() => {
            x.terrain = t;
            if (!PRODUCES.includes(t)) delete x.number;
            if (t !== "sea") delete x.ship_symbol;
            if (t === "sea") doc.harbors = doc.harbors.filter((hb) => key(hb.edge[0]) !== key(x.at));
          }) }, terrainWord(t))))];
      if (PRODUCES.includes(x.terrain)) {
        parts.push(h("div.edfacestitle", K.t("Number token")), h("div.picker", [null, ...NUMBERS].map((n) => h("button.pick", {
          type: "button", "data-number": n === null ? "" : n, "aria-pressed": pressed((x.number ?? null) === n), class: (x.number ?? null) === n ? "pick on" : "pick",
          onclick: () => edit(() => { if (n === null) delete x.number; else x.number = n; }) }, n === null ? K.t("none") : String(n)))));
      }
      if (x.terrain === "sea") {
        const box = h("input", { type: "checkbox", "data-field": `hexes[${selected}].ship_symbol`, onchange: (e) => edit(() => { if (e.target.checked) x.ship_symbol = true; else delete x.ship_symbol; }) });
        box.checked = !!x.ship_symbol;
        parts.push(h("label.edcheck", box, " " + K.t("ship symbol")));
      }
      if (x.terrain === "special") {
        const name = h("input", { type: "text", value: x.name || "", maxlength: 200, autocomplete: "off", "data-field": `hexes[${selected}].name`,
          oninput: () => { if (name.value) x.name = name.value; else delete x.name; drawBoard(); changed(); } });
        parts.push(labelled(K.t("Name on the hex"), name));
      }
      if (x.terrain !== "sea") {
        const sides = SIDES.map(([[dq, dr], arrow]) => [[x.at[0] + dq, x.at[1] + dr], arrow]).filter(([c]) => !isLand(c));
        if (sides.length) {
          parts.push(h("div.edfacestitle", K.t("Harbours on the coast")), h("div.edrow", sides.map(([c, arrow]) => {
            const i = harbourAt(x.at, c);
            return labelled(K.t("side {arrow}", { arrow }), select(["", ...HARBOURS], i >= 0 ? doc.harbors[i].type : "", (v) => (v ? (v === "3:1" ? "3:1" : Boards.valueWords(v) + " 2:1") : K.t("none")), {
              "data-side": arrow, onchange: (e) => edit(() => {
                const j = harbourAt(x.at, c);
                if (j >= 0) doc.harbors.splice(j, 1);
                if (e.target.value) doc.harbors.push({ edge: [x.at.slice(), c], type: e.target.value });
              }) }));
          })));
        }
      }
      panel.replaceChildren(h("fieldset.edcard", { "data-hex": key(x.at) }, ...parts));
    };

    const setName = h("input", { type: "text", value: doc.name || "", maxlength: 200, autocomplete: "off", "data-field": "name", oninput: () => { doc.name = setName.value; changed(); } });
    const provenance = select(BOARD_PROVENANCES.includes(doc.provenance) ? BOARD_PROVENANCES : [...BOARD_PROVENANCES, doc.provenance], doc.provenance || "user",
      (p) => ({ user: K.t("entered by us"), printed: K.t("as printed"), standard: K.t("the standard board"), generated: K.t("generated"), placeholder: K.t("placeholder") }[p] || p),
      { "data-field": "provenance", onchange: (e) => { doc.provenance = e.target.value; changed(); } });
    const players = h("div.edrow", { "data-field": "players", role: "group", "aria-label": K.t("For how many players") }, [3, 4, 5, 6].map((n) => {
      const box = h("input", { type: "checkbox", value: n, onchange: (e) => {
        doc.players = doc.players.filter((p) => p !== n);
        if (e.target.checked) doc.players.push(n);
        doc.players.sort();
        changed();
      } });
      box.checked = doc.players.includes(n);
      return h("label.edcheck", box, " " + K.tn(n, "{n} player", "{n} players"));
    }));
    form.append(h("div.edrow.edset", labelled(K.t("Name of the board"), setName), labelled(K.t("Values"), provenance)),
      h("div.edfacestitle", K.t("For how many players")), players, boardBox, panel);
    drawBoard();
    drawPanel();
    /** An error that names a hex marks it on the board (drawn again), its message under the board. */
    const inForm = locateIn(form);
    const locate = (error) => {
      const before = invalidHex;
      const i = error && Array.isArray(error.hex) ? at().get(key(error.hex)) : undefined;
      invalidHex = i === undefined ? null : i;
      if (before !== invalidHex) drawBoard();
      if (!error) return null;
      if (invalidHex !== null) return { field: boardBox.querySelector(`[data-hex="${key(error.hex)}"]`), at: boardBox };
      const place = inForm(error);
      return place.field && place.field.tagName === "svg" ? { field: null, at: boardBox } : place;
    };
    return { node: form, get: () => doc, mark: marker(form, locate) };
  };
  EDITORS["catan/boards"] = boardEditor;
  EDITORS["catan-troje/boards"] = boardEditor;

  // -- Troje's ship tiles: per colour, how many tiles of each advantage -------------------------------
  const ADVANTAGES = ["harbour_3to1", "victory_point", "swap", "trade_chip", "draw"];
  EDITORS["catan-troje/ship-tiles"] = (original, changed, ctx) => {
    const doc = JSON.parse(JSON.stringify(original));
    if (ctx.fromBuiltin) { doc.name = K.t("Our ship tiles"); doc.provenance = "user"; delete doc.notes; }
    const form = h("div.edform.tiles");
    const setName = h("input", { type: "text", value: doc.name || "", maxlength: 200, autocomplete: "off", "data-field": "name", oninput: () => { doc.name = setName.value; changed(); } });
    const colourCard = (c, i) => {
      const total = h("small.muted");
      const count = (a) => c.tiles.filter((t) => t === a).length;
      const showTotal = () => { total.textContent = K.tn(c.tiles.length, "{n} tile", "{n} tiles"); };
      const steppers = ADVANTAGES.map((a) => {
        const shown = h("b.edcount", { "data-advantage": a }, String(count(a)));
        const step = (d) => {
          const n = count(a) + d;
          if (n < 0) return;
          c.tiles = ADVANTAGES.flatMap((x) => Array(x === a ? n : count(x)).fill(x));
          shown.textContent = String(n);
          showTotal();
          changed();
        };
        const what = Boards.valueWords(a);
        return h("div.edstep", h("span.edstepname", what),
          h("button.button.small", { type: "button", "data-step": "-1", "aria-label": K.t("one {what} fewer", { what }), onclick: () => step(-1) }, "−"),
          shown,
          h("button.button.small", { type: "button", "data-step": "1", "aria-label": K.t("one {what} more", { what }), onclick: () => step(1) }, "+"));
      });
      const colour = h("input", { type: "text", value: c.colour, maxlength: 20, autocomplete: "off", "data-field": `colours[${i}].colour`,
        oninput: () => { c.colour = colour.value; changed(); } });
      showTotal();
      return h("fieldset.edcard", { "data-colour": i }, h("legend", K.t("Seat {n}", { n: i + 1 }), " ", total),
        labelled(K.t("Colour"), colour), h("div.edsteps", { "data-field": `colours[${i}].tiles`, role: "group", "aria-label": K.t("the tiles of this colour") }, steppers));
    };
    form.append(h("div.edrow.edset", labelled(K.t("Name of the list"), setName)), ...doc.colours.map(colourCard));
    return { node: form, get: () => doc, mark: marker(form) };
  };

  // -- the knights' card sets -------------------------------------------------------------------
  const PROVENANCES = ["user", "printed", "printed-partial", "placeholder"];
  const provenanceWord = (p) => ({ user: K.t("entered by us"), printed: K.t("as printed"), "printed-partial": K.t("partly as printed"), placeholder: K.t("placeholder") }[p] || p);
  const MOUNTED = ["1", "2", "3"], FOOT = ["4", "5", "6"];
  EDITORS["ridder_toernooi/card-sets"] = (original, changed, ctx) => {
    const doc = JSON.parse(JSON.stringify(original));
    if (ctx.fromBuiltin) {  // the shipped placeholder: this is a table's own set now; its cards stay marked placeholder until edited
      doc.name = K.t("Our box");
      doc.provenance = "user";
      delete doc.note;
    }
    const vocab = doc.vocabulary || {};
    const attrs = Object.keys(vocab);
    /** An attribute as the rules text names it (haarkleur, gestalte…); a set's own attribute by its own name. */
    const attrName = (a) => ({ hair: K.t("hair colour"), figure: K.t("figure"), height: K.t("height"), temperament: K.t("temperament") })[a] || a;
    const dice = (doc.tracks && doc.tracks.attackDice) || { min: 1, max: 11 };
    const fields = doc.fieldsPerFace || 2;
    const form = h("div.edform.cardset");
    const mark = marker(form);
    /** a card edited: what the table entered, no longer the placeholder's invented value */
    const touched = (card) => { if (card.provenance === "placeholder") card.provenance = "user"; };

    const knightPreview = (k) => h("div.cardpreview", { "aria-hidden": "true" },
      h("div.cpname", h("b", { translate: "no" }, k.name || "…"), " ", h("small", { translate: "no" }, k.id)),
      h("div.cpdice", K.tn(k.attackDice, "{n} attack die", "{n} attack dice")),
      h("div.cpfaces", [...MOUNTED, ...FOOT].map((f) => {
        const red = (k.red[MOUNTED.includes(f) ? "mounted" : "foot"] || {})[f] || 0;
        return h("span.cpface", { title: f }, h("small", f), "■".repeat(red) + "□".repeat(Math.max(0, fields - red)));
      })),
      k.preferences.length ? h("ol.cpprefs", k.preferences.map((p) => h("li", { translate: "no" }, `${p.attr}: ${p.value}`))) : null);
    const ladyPreview = (l) => h("div.cardpreview", { "aria-hidden": "true" },
      h("div.cpname", h("b", { translate: "no" }, l.name || "…"), " ", h("small", { translate: "no" }, l.id)),
      h("div.cpattrs", { translate: "no" }, Object.entries(l.attributes).map(([a, v]) => `${attrName(a)}: ${v}`).join(" · ") || "—"));

    const text = (card, key, field, label, refresh) => {
      const input = h("input", { type: "text", value: card[key] || "", maxlength: key === "id" ? 20 : 200, autocomplete: "off", "data-field": field,
        oninput: () => { card[key] = input.value; touched(card); refresh(); changed(); } });
      return labelled(label, input);
    };
    const provenance = (card, refresh) => labelled(K.t("Values"), select(PROVENANCES, card.provenance || "user", provenanceWord,
      { "data-field": "/provenance", onchange: (e) => { card.provenance = e.target.value; refresh(); changed(); } }));

    /** A card's fieldset, its legend ("Knight K01 · name") and its preview; ``refresh`` redraws the two. */
    const cardBox = (card, i, word, drawPreview) => {
      const box = h("fieldset.edcard", { "data-card": card.id, "data-index": i });
      const legend = h("legend");
      const preview = h("div");
      const refresh = () => {
        box.dataset.card = card.id;
        legend.replaceChildren(word, " ", h("span", { translate: "no" }, `${card.id} · ${card.name}`));
        preview.replaceChildren(drawPreview(card));
      };
      return { box, legend, preview, refresh };
    };

    const knightCard = (k, i) => {
      const { box, legend, preview, refresh } = cardBox(k, i, K.t("Knight"), knightPreview);
      const diceInput = h("input", { type: "number", inputmode: "numeric", min: dice.min, max: dice.max, value: k.attackDice, "data-field": "/attackDice",
        oninput: () => { k.attackDice = diceInput.value === "" ? null : Number(diceInput.value); touched(k); refresh(); changed(); } });
      const faces = (part, list) => h("div.edfaces", h("span.edfacestitle", part === "mounted" ? K.t("Red fields, mounted (faces 1–3)") : K.t("Red fields, on foot (faces 4–6)")),
        list.map((f) => labelled(K.t("face {face}", { face: f }), select([...Array(fields + 1).keys()].map(String), String((k.red[part] || {})[f] || 0), null,
          { "data-field": `/red/${part}/${f}`, onchange: (e) => { k.red[part] = { ...(k.red[part] || {}), [f]: Number(e.target.value) }; touched(k); refresh(); changed(); } }))));
      const prefs = h("ol.edprefs");
      const drawPrefs = () => prefs.replaceChildren(...k.preferences.map((p, j) => h("li",
        select(attrs, p.attr, attrName, { "aria-label": K.t("preference {n}: what", { n: j + 1 }), "data-field": `/preferences/${j}/attr`,
          onchange: (e) => { p.attr = e.target.value; p.value = (vocab[p.attr] || [""])[0]; touched(k); drawPrefs(); refresh(); changed(); } }),
        select(vocab[p.attr] || [], p.value, null, { "aria-label": K.t("preference {n}: which", { n: j + 1 }), "data-field": `/preferences/${j}/value`,
          onchange: (e) => { p.value = e.target.value; touched(k); refresh(); changed(); } }),
        h("button.button.small", { type: "button", "aria-label": K.t("preference {n} higher", { n: j + 1 }), disabled: j === 0,
          onclick: () => { k.preferences.splice(j - 1, 0, ...k.preferences.splice(j, 1)); touched(k); drawPrefs(); refresh(); changed(); } }, "↑"),
        h("button.button.small", { type: "button", "aria-label": K.t("remove preference {n}", { n: j + 1 }),
          onclick: () => { k.preferences.splice(j, 1); touched(k); drawPrefs(); refresh(); changed(); } }, "✕"))),
        h("li.edadd", h("button.button.small", { type: "button", onclick: () => {
          k.preferences.push({ attr: attrs[0], value: (vocab[attrs[0]] || [""])[0] }); touched(k); drawPrefs(); refresh(); changed();
        } }, "+ " + K.t("preference"))));
      drawPrefs();
      refresh();
      box.append(legend, preview, h("div.edrow", text(k, "id", `/knights/${i}/id`, K.t("Id"), refresh), text(k, "name", "/name", K.t("Name"), refresh)),
        h("div.edrow", labelled(K.t("Attack dice"), diceInput), provenance(k, refresh)),
        faces("mounted", MOUNTED), faces("foot", FOOT),
        h("div.edprefsbox", h("span.edfacestitle", K.t("Preferences, best first")), prefs),
        h("button.button.small.edremove", { type: "button", onclick: () => { doc.knights.splice(i, 1); draw(); changed(); } }, K.t("Remove this knight")));
      return box;
    };

    const ladyCard = (l, i) => {
      const { box, legend, preview, refresh } = cardBox(l, i, K.t("Lady"), ladyPreview);
      refresh();
      box.append(legend, preview, h("div.edrow", text(l, "id", `/ladies/${i}/id`, K.t("Id"), refresh), text(l, "name", "/name", K.t("Name"), refresh)),
        h("div.edrow", attrs.map((a) => labelled(attrName(a), select(["", ...vocab[a]], l.attributes[a] || "", (v) => v || "—",
          { "data-field": `/attributes/${a}`, onchange: (e) => {
            if (e.target.value) l.attributes[a] = e.target.value; else delete l.attributes[a];
            touched(l); refresh(); changed();
          } }))), provenance(l, refresh)),
        h("button.button.small.edremove", { type: "button", onclick: () => { doc.ladies.splice(i, 1); draw(); changed(); } }, K.t("Remove this lady")));
      return box;
    };

    const nextId = (prefix, cards) => {
      for (let n = cards.length + 1; ; n++) {
        const id = `${prefix}${String(n).padStart(2, "0")}`;
        if (!doc.knights.concat(doc.ladies).some((c) => c.id.toLowerCase() === id.toLowerCase())) return id;
      }
    };
    const setName = h("input", { type: "text", value: doc.name || "", maxlength: 200, autocomplete: "off", "data-field": "/name",
      oninput: () => { doc.name = setName.value; changed(); } });
    const setProvenance = select(PROVENANCES, doc.provenance, provenanceWord, { "data-field": "/provenance", onchange: (e) => { doc.provenance = e.target.value; changed(); } });
    const draw = () => {
      form.replaceChildren(
        h("div.edrow.edset", labelled(K.t("Name of the set"), setName), labelled(K.t("Values"), setProvenance)),
        h("h2", K.t("Knights")), ...doc.knights.map(knightCard),
        h("button.button", { type: "button", id: "ed-add-knight", onclick: () => {
          doc.knights.push({ id: nextId("K", doc.knights), name: "", provenance: "user", attackDice: dice.min,
            red: { mounted: { 1: 0, 2: 0, 3: 0 }, foot: { 4: 0, 5: 0, 6: 0 } }, preferences: [] });
          draw(); changed();
        } }, "+ " + K.t("knight")),
        h("h2", K.t("Ladies")), ...doc.ladies.map(ladyCard),
        h("button.button", { type: "button", id: "ed-add-lady", onclick: () => {
          doc.ladies.push({ id: nextId("L", doc.ladies), name: "", provenance: "user", attributes: {} });
          draw(); changed();
        } }, "+ " + K.t("lady")));
    };
    draw();
    return { node: form, get: () => doc, mark };
  };
})();
