/* One renderer for every game's scene (engine/scene.py): zones of elements, each tappable element carrying the
   legal moves it stands for. The renderer knows the zone kinds, never a game's rules: it shows what the server says
   may be tapped now and turns a tap into one of those moves (as chessground turns a drag into one of its dests).
   - an element with one move: a tap sends it; with several: a small picker lists just those;
   - a pair of elements (a card and where it goes, the two cards of a pair): tap one, then the other, either order;
   - a chance picker (a card drawn from the stock, the deal): tap the outcomes, then record. */
"use strict";
const Scene = (() => {
  const h = Kroniek.h;
  const lang = () => ((document.documentElement.lang || "en").toLowerCase().startsWith("nl") ? "nl" : "en");
  /** A label in the page's language, with {seat0}, {seat1}… as the players' names. */
  // a label is {en, nl}, or an engine's message ({msg, params}: a result's reason) said from the catalogue
  const say = (label, players) => String((label && (label.msg ? Kroniek.say(label) : label[lang()] || label.en)) || "")
    .replace(/\{seat(\d+)\}/g, (_, i) => (players && players[i]) || Kroniek.t("player {n}", { n: Number(i) + 1 }));
  const bare = (m) => ({ type: m.type, seat: m.seat, data: m.data });

  /** The partners of each element: id -> {other id -> moves}, both ways (a move is declared once, on one side). */
  const pairsOf = (elements) => {
    const out = {};
    const add = (a, b, moves) => { ((out[a] = out[a] || {})[b] = (out[a][b] || []).concat(moves)); };
    for (const e of elements) for (const [b, moves] of Object.entries(e.targets || {})) { add(e.id, b, moves); add(b, e.id, moves); }
    return out;
  };

  /**
   * Draw ``scene``. ctx: {players, labels (Boards.Labels), send(move) -> Promise, interactive}.
   * Without ``send`` (or interactive false) nothing is tappable: the watch and review pages.
   */
  /** A board's spot: its radius in board units (a hex's side is 30), and the px a unit that makes it a 24 px
      circle. Two spots half a side apart (an intersection and its road) then touch and do not overlap. */
  const SPOT = 7.5, FINGER = 24 / (2 * SPOT);
  /** Hexes (side 30 units) whose inner circle is 24 px wide. */
  const HEX_FINGER = 24 / (30 * Math.sqrt(3));
  /** The part of each board last zoomed to (by its key), and its width: kept while a page redraws the board. */
  const zoomed = {}, boardWidth = {};

  /** A board of hexes that a finger can tap (the match's board, a board editor's). The whole board is drawn in
      the width of its frame, nothing scrolls sideways. Where its targets would be smaller than a finger at that
      width (``needs``: the px a unit they want; Catan's spots on a phone), the whole board is an overview: a tap
      zooms to that part of it at that scale, and its targets take taps there; the button returned ("Whole
      board") goes back. A keyboard tabs to a target as ever, and the board zooms to it (``where(node)``: its
      point on the board). The part zoomed to is kept under ``key`` for the next drawing of the board. */
  const zoomable = (board, box, needs, key, where) => {
    const f = (n) => n.toFixed(1);
    const whole = h("button.button.small.wholeboard", { type: "button", hidden: true, onclick: () => focus(null) }, "⤢ " + Kroniek.t("Whole board"));
    const hint = h("small.zoomhint", { hidden: true }, Kroniek.t("Tap the board where you play: it zooms in."));
    const button = h("span.zoomctl", hint, whole);
    const focus = (at) => {
      // the board's width: as drawn, or (not in the page yet) as it was drawn last time, so a redraw after a move
      // comes zoomed as it was, never the whole board for one frame
      const width = board.isConnected ? board.getBoundingClientRect().width : boardWidth[key];
      if (!width) return;
      boardWidth[key] = width;
      const scale = width / box[2];
      const k = at && needs > scale ? Math.min(needs / scale, 4) : 1;
      zoomed[key] = k > 1 ? at : null;
      const w = box[2] / k, hh = box[3] / k;
      const x = k > 1 ? Math.min(Math.max(at[0] - w / 2, box[0]), box[0] + box[2] - w) : box[0];
      const y = k > 1 ? Math.min(Math.max(at[1] - hh / 2, box[1]), box[1] + box[3] - hh) : box[1];
      board.setAttribute("viewBox", [x, y, w, hh].map(f).join(" "));
      board.classList.toggle("overview", k === 1 && needs > scale);
      board.classList.toggle("zoomed", k > 1);
      whole.hidden = k === 1;
      hint.hidden = !(k === 1 && needs > scale);
    };
    /** The part zoomed to last time, while it shows a target (after a move the next may lie elsewhere: another
        player's turn on the other side of the board, and then the whole of it is shown, to be tapped there). */
    const kept = () => {
      const at = zoomed[key];
      if (!at || !boardWidth[key]) return null;
      const k = Math.min(needs / (boardWidth[key] / box[2]), 4), w = box[2] / k / 2, hh = box[3] / k / 2;
      const shows = [...board.querySelectorAll("[role=button]")].some((g) => {
        const p = where(g);
        return p && Math.abs(p[0] - at[0]) < w && Math.abs(p[1] - at[1]) < hh;
      });
      return shows ? at : null;
    };
    focus(kept());
    requestAnimationFrame(() => focus(kept()));
    board.addEventListener("click", (ev) => {
      if (!board.classList.contains("overview")) return;
      const p = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(board.getScreenCTM().inverse());
      focus([p.x, p.y]);
    });
    board.addEventListener("focusin", (ev) => {
      const g = ev.target.closest && ev.target.closest("[role=button]");
      const at = g && board.classList.contains("overview") && where(g);
      if (at) focus(at);
    });
    return { button, focus };
  };

  const render = (scene, ctx) => {
    const players = ctx.players || [];
    const labels = ctx.labels;
    const live = !!(ctx.interactive && ctx.send);
    const elements = scene.zones.flatMap((z) => z.elements);
    const byId = Object.fromEntries(elements.map((e) => [e.id, e]));
    const pairs = pairsOf(elements);
    const nodes = {};
    let selected = null;
    const root = h("div.scene", { "data-scene": "" });
    const panel = h("div.scenepanel", { hidden: true, role: "dialog", "aria-live": "polite" });

    const chip = (card, opts) => (labels ? labels.chip(card, opts) : h("span.card", card));
    const tappable = (e) => live && ((e.moves && e.moves.length) || e.chance || pairs[e.id]);

    const close = () => { panel.hidden = true; panel.replaceChildren(); };
    const select = (id) => {
      selected = id;
      for (const [eid, node] of Object.entries(nodes)) {
        node.classList.toggle("sel", eid === id);
        node.classList.toggle("target", !!(id && pairs[id] && pairs[id][eid]));
        node.classList.toggle("quiet", !!(id && eid !== id && !(pairs[id] && pairs[id][eid])));
      }
    };
    const showPanel = (near, title, kids) => {
      panel.replaceChildren(h("div.paneltitle", h("b", title), h("button.button.small.close", { type: "button", "aria-label": Kroniek.t("close"), onclick: () => { close(); select(null); } }, "✕")), ...kids);
      panel.setAttribute("aria-label", title);
      panel.hidden = false;
      const zone = near && near.closest(".zone");
      (zone || root).after(panel);
      panel.scrollIntoView({ block: "nearest" });
    };
    const sendMove = async (m) => {
      close(); select(null);
      root.classList.add("busy");
      try { await ctx.send(bare(m)); } finally { root.classList.remove("busy"); }
    };
    const moveText = (m) => (m.label ? say(m.label, players) : `${m.type.replace(/_/g, " ")} ${JSON.stringify(m.data)}`);
    /** One move: sent. Several (or one of an element that is also one of a pair, so that a tap on a partner can
        still make the pair): a picker of just those. Moves in two groups or more (each move's ``group`` label) are
        picked in two steps: the group, then one of its moves (a button's ``data-choice`` is still the move's
        index among all of them). */
    const offer = (near, title, moves, ask = false) => {
      if (moves.length === 1 && !ask) { sendMove(moves[0]); return; }
      const choice = (i) => h("button.move", { type: "button", "data-choice": i, onclick: () => sendMove(moves[i]) }, moveText(moves[i]));
      const groups = [];
      moves.forEach((m, i) => {
        const key = m.group ? JSON.stringify(m.group) : "";
        let g = groups.find((x) => x.key === key);
        if (!g) groups.push((g = { key, label: m.group, choices: [] }));
        g.choices.push(i);
      });
      if (groups.length < 2 || groups.some((g) => !g.label)) {
        showPanel(near, title, [h("div.buttons", moves.map((_, i) => choice(i)))]);
        return;
      }
      const pickGroup = () => showPanel(near, title, [h("div.buttons", groups.map((g, j) =>
        h("button.move", { type: "button", "data-group": j, "data-choices": g.choices.join(","), onclick: () => openGroup(g) },
          `${say(g.label, players)} (${g.choices.length})`)))]);
      const openGroup = (g) => showPanel(near, `${title}: ${say(g.label, players)}`, [h("div.buttons",
        h("button.button.small", { type: "button", "data-back": "", onclick: pickGroup }, "← " + Kroniek.t("back")),
        ...g.choices.map(choice))]);
      pickGroup();
    };

    /** The chance picker: ``count`` values from ``values`` fill data[field] (beside its fixed ``data``), then Record.
        A picker with ``parts`` fills more fields beside the first, each its own row (a trade: given, got); its
        buttons carry ``data-part`` (0 the first field). */
    const openChance = (near, e) => {
      const c = e.chance;
      const named = (v) => (c.names && c.names[v] ? say(c.names[v], players) : null);
      const as = (v) => (c.numeric ? Number(v) : v);  // a die's faces go as numbers
      const tally = (picked) => picked.reduce((out, v) => ({ ...out, [v]: (out[v] || 0) + 1 }), {});  // counts: {value: times}
      const rows = [c, ...(c.parts || [])].map((part, i) => {
        const row = { part, picked: [], least: typeof part.least === "number" ? part.least : part.count };
        row.shown = h("div.sequence", { "data-picked": i ? String(i) : "" });
        row.buttons = part.values.map((v) => h("button.pick", { type: "button", "data-value": v, "data-part": i, "aria-label": named(v) || (labels && labels.of(v).title) || v, onclick: (ev) => {
          if (row.picked.length >= part.count) return;
          row.picked.push(v);
          if (!part.repeat) ev.currentTarget.disabled = true;
          draw();
        } }, named(v) || (labels && labels.isCard(v) ? chip(v, { dutch: false }) : v)));
        row.back = h("button.button.small", { type: "button", "data-undo-pick": i ? String(i) : "", "aria-label": Kroniek.t("back"), onclick: () => {
          const v = row.picked.pop();
          const b = row.buttons.find((x) => x.dataset.value === v);
          if (b) b.disabled = false;
          draw();
        } }, "←");
        return row;
      });
      const valueOf = (row) => {
        const p = row.part, picked = row.picked;
        if (row.part !== c) return p.counts ? tally(picked) : picked;
        // groups: one list per group of these sizes, in turn (each seat's cards of one event)
        return c.scalar ? as(picked[0]) : c.counts ? tally(picked) : c.groups ? c.groups.map((n, i) => picked.slice(c.groups.slice(0, i).reduce((a, b) => a + b, 0)).slice(0, n).map(as)) : picked.map(as);
      };
      const record = h("button.move.big", { type: "button", "data-scene-submit": c.type, disabled: true, onclick: () => {
        const data = { ...(c.data || {}) };
        for (const row of rows) data[row.part.field] = valueOf(row);
        sendMove({ type: c.type, seat: c.seat, data });
      } }, Kroniek.t("Record"));
      const draw = () => {
        for (const row of rows) {
          row.shown.replaceChildren(...row.picked.map((v) => named(v) ? h("span.card", named(v)) : chip(v, { dutch: false })),
            h("span.muted", ` ${row.picked.length}/${row.least < row.part.count ? `${row.least}–` : ""}${row.part.count}`));
          row.back.disabled = !row.picked.length;
        }
        record.disabled = rows.some((row) => row.picked.length < row.least || row.picked.length > row.part.count);
      };
      draw();
      showPanel(near, say(c.label, players), [...rows.flatMap((row, i) => [
        ...(i ? [h("div.partlabel", h("b", say(row.part.label, players)))] : []),
        h("div.row", row.shown, " ", row.back), h("div.picker.cardpicker", row.buttons)]), h("div.row", record)]);
    };

    const tap = (e, node) => {
      if (root.classList.contains("busy")) return;
      if (selected && selected !== e.id && pairs[selected] && pairs[selected][e.id]) {
        const first = byId[selected];
        const title = `${say(first.label, players)} + ${say(e.label, players)}`;
        offer(node, title, pairs[selected][e.id]);  // the pair stays marked while its picker is open
        return;
      }
      if (selected === e.id) { select(null); close(); return; }
      close();
      if (pairs[e.id]) select(e.id); else select(null);
      if (e.chance) { openChance(node, e); return; }
      if (e.moves && e.moves.length) offer(node, say(e.label, players), e.moves, !!pairs[e.id]);
    };

    /** What an element shows besides its picture and caption: short lines, rows of dice, tracks of marks. */
    const facts = (s) => {
      const out = [];
      for (const line of Array.isArray(s.lines) ? s.lines : []) out.push(h("span.line", say(line, players)));
      for (const row of Array.isArray(s.dice) ? s.dice : []) {
        out.push(h("span.dicerow", h("span.dicelabel", { "aria-hidden": "true" }, say(row.label, players)),
          h("span.dicefaces", { "aria-hidden": "true" }, (row.faces || []).map((f) => {
            const face = typeof f === "object" && f ? f : { face: f };
            return h("span", { class: `die t-${face.tone || "plain"}` }, String(face.face));
          })),
          h("span.sronly", `${say(row.label, players)}: ${row.spoken ? say(row.spoken, players) : (row.faces || []).map((f) => (typeof f === "object" && f ? f.face : f)).join(", ")}`)));
      }
      for (const m of Array.isArray(s.marks) ? s.marks : []) {
        const max = Math.max(0, Number(m.max) || 0), value = Math.max(0, Number(m.value) || 0);
        out.push(h("span.marks", h("span.marklabel", say(m.label, players)),
          h("span.track", { "aria-hidden": "true" }, Array.from({ length: max }, (_, i) => h("i", { class: i < value ? "on" : null }))),
          h("b", `${value}/${max}`)));
      }
      return out;
    };

    const elementNode = (e, zone) => {
      const s = e.shows || {};
      let body;
      if (Array.isArray(s.cards) && zone.kind === "columns") {
        body = s.cards.length ? h("span.stackcards", s.cards.map((c) => chip(c, { dutch: false })))
          : h("span.emptyslot", "·");
      } else if (e.face_down) {
        body = h("span.pilecount", h("span.card.back", { title: Kroniek.t("face down") }, "🂠"), typeof s.count === "number" ? h("b", String(s.count)) : null);
      } else if (s.card) {
        body = h("span.pilecount", chip(s.card), typeof s.count === "number" && s.count > 1 ? h("small", `×${s.count}`) : null);
      } else if (e.kind === "trick" && Array.isArray(s.cards)) {
        body = h("span.cards", s.cards.map((c) => chip(c, { dutch: false })));
      } else if (e.kind === "slot") {
        body = h("span.emptyslot", "·");
      } else body = null;
      const text = say(e.label, players);
      const caption = e.kind === "action" || e.kind === "label" || (!s.card && !Array.isArray(s.cards)) ? h("span.caption", text)
        : (zone.kind === "columns" ? h("span.colno", String(s.column || s.row || "")) : h("span.caption.small", text));
      const cls = [e.highlight ? "hl" : "", e.face_down ? "down" : "", e.kind].filter(Boolean).join(" ");
      // The name a screen reader says is the element's own text (no aria-label: a name that leaves out what
      // the button shows, "🂠 52", fails axe's label-content-name-mismatch); where the caption is only a column's
      // number, the whole label follows for screen readers alone.
      const attrs = { class: `el ${cls}`, "data-element": e.id, title: text };
      const spoken = caption.textContent === text ? null : h("span.sronly", text);
      const more = facts(s);
      const node = tappable(e) ? h("button", { ...attrs, type: "button", onclick: () => tap(e, node) }, body, caption, more, spoken) : h("div", attrs, body, caption, more, spoken);
      nodes[e.id] = node;
      return node;
    };

    /** A board of hexes (pointy-top, axial [q, r]) as SVG: the hexes, then the paths and intersections sent (those
        with a piece, a harbour or a move); a tappable one is a button of the drawing, outlined, big enough for a finger. */
    const hexBoard = (z, title) => {
      const NS = "http://www.w3.org/2000/svg", R = 30, S3 = Math.sqrt(3);
      const svg = (tag, attrs, ...kids) => {
        const n = document.createElementNS(NS, tag);
        for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined) n.setAttribute(k, String(v));
        for (const k of kids) if (k) n.append(k);
        return n;
      };
      const centre = ([q, r]) => [R * S3 * (q + r / 2), R * 1.5 * r];
      const mean = (pts) => [pts.reduce((a, p) => a + p[0], 0) / pts.length, pts.reduce((a, p) => a + p[1], 0) / pts.length];
      const f = (n) => n.toFixed(1);
      const hexes = z.elements.filter((e) => e.kind === "hex");
      const land = hexes.map((e) => centre(e.shows.at));
      const mid = mean(land);
      const xs = land.map((p) => p[0]), ys = land.map((p) => p[1]), pad = R * 1.75;
      const box = [Math.min(...xs) - pad, Math.min(...ys) - pad, Math.max(...xs) - Math.min(...xs) + 2 * pad, Math.max(...ys) - Math.min(...ys) + 2 * pad];
      // the whole board in the width of its frame: nothing scrolls sideways (see focus() below for its spots)
      const root2 = svg("svg", { class: "hexboard", viewBox: box.map(f).join(" "), role: "group", "aria-label": title });
      const layers = { hex: svg("g"), edge: svg("g"), vertex: svg("g"), mark: svg("g") };
      const spot = (e) => mean(e.shows.hexes.map(centre));
      const ends = (e) => {
        const [a, b] = e.shows.hexes.map(centre), m = mean([a, b]);
        const d = Math.hypot(b[0] - a[0], b[1] - a[1]), px = -(b[1] - a[1]) / d * R / 2, py = (b[0] - a[0]) / d * R / 2;
        return [[m[0] + px, m[1] + py], [m[0] - px, m[1] - py]];
      };
      /** An element of the board: a button (focusable, Enter/Space tap it) when tappable, else a group with a title. */
      const node = (e, ...kids) => {
        const name = say(e.label, players);
        const live2 = tappable(e);
        const g = svg("g", { class: `el ${e.kind}${e.highlight ? " hl" : ""}`, "data-element": e.id,
          ...(live2 ? { role: "button", tabindex: 0, "aria-label": name } : {}) }, live2 ? null : svg("title", {}, name), ...kids);
        if (live2) {
          g.addEventListener("click", () => tap(e, g));
          g.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); tap(e, g); } });
        }
        nodes[e.id] = g;
        return g;
      };
      const hexPoints = ([cx, cy]) => Array.from({ length: 6 }, (_, k) => { const a = Math.PI / 180 * (60 * k - 30); return `${f(cx + R * Math.cos(a))},${f(cy + R * Math.sin(a))}`; }).join(" ");
      /** A little boat (hull and sails) centred on (x, y), k times a ship symbol's size. */
      const boat = (x, y, k) => {
        const p = (dx, dy) => `${f(x + dx * k)},${f(y + dy * k)}`;
        return `M${p(-10, 2)} L${p(10, 2)} L${p(6, 8)} L${p(-6, 8)} Z M${p(0, 0)} L${p(0, -11)} L${p(8, 0)} Z M${p(-2, 0)} L${p(-2, -9)} L${p(-8, 0)} Z`;
      };
      hexes.forEach((e, i) => {
        const [cx, cy] = land[i], s = e.shows;
        // a sea tile's number (tag), ship symbol, ship (its owner's colour, its advantage under the hull) and the
        // sea people beside its middle; a named hex (Troy) its name
        layers.hex.append(node(e, svg("polygon", { class: "tile", points: hexPoints([cx, cy]), fill: s.fill || "#ccc" }),
          s.tag ? svg("text", { x: f(cx), y: f(cy - R * 0.6), class: "tag", "text-anchor": "middle" }, s.tag) : null,
          s.symbol && !s.ship ? svg("path", { class: "symbol", d: boat(cx, cy - 2, 0.9) }) : null,
          s.ship ? svg("path", { class: `ship${s.ship.blocked ? " blocked" : ""}`, d: boat(cx, cy - 2, 1.25), fill: s.ship.colour }) : null,
          s.ship ? svg("text", { x: f(cx), y: f(cy + R * 0.62), class: "advantage", "text-anchor": "middle" }, s.ship.mark) : null,
          s.people ? svg("path", { class: "people", d: `M${f(cx + R * 0.5 - 7.5)},${f(cy + 6)} L${f(cx + R * 0.5 + 7.5)},${f(cy + 6)} L${f(cx + R * 0.5)},${f(cy - 8)} Z M${f(cx + R * 0.5 + 5)},${f(cy - 11.5)} a5,5 0 1,0 -10,0 a5,5 0 1,0 10,0` }) : null,
          s.name ? svg("text", { x: f(cx), y: f(cy + (s.number ? -12 : 3)), class: "hexname", "text-anchor": "middle" }, say(s.name, players)) : null,
          s.number ? svg("circle", { cx: f(cx), cy: f(cy), r: 10, class: "token" }) : null,
          s.number ? svg("text", { x: f(cx), y: f(cy + 4), class: `number${s.hot ? " hot" : ""}`, "text-anchor": "middle" }, String(s.number)) : null,
          s.pawn ? svg("circle", { cx: f(cx + 12), cy: f(cy - 12), r: 7, class: "pawn" }) : null));
      });
      const harbours = [];
      for (const e of z.elements) {
        const s = e.shows || {};
        if (e.kind === "edge") {
          const [a, b] = ends(e), m = mean([a, b]);
          layers.edge.append(node(e, s.colour ? svg("line", { class: "road", x1: f(a[0]), y1: f(a[1]), x2: f(b[0]), y2: f(b[1]), stroke: s.colour }) : null,
            tappable(e) ? svg("circle", { class: "spot", cx: f(m[0]), cy: f(m[1]), r: SPOT }) : null));
        } else if (e.kind === "vertex") {
          const [x, y] = spot(e), k = s.piece === "city" ? 8 : 5.5;
          if (s.harbour) harbours.push([e, [x, y]]);
          layers.vertex.append(node(e, s.harbour ? svg("circle", { class: "harbourdot", cx: f(x), cy: f(y), r: 3 }) : null,
            s.piece ? svg("rect", { class: `piece ${s.piece}`, x: f(x - k), y: f(y - k), width: 2 * k, height: 2 * k, fill: s.colour }) : null,
            tappable(e) ? svg("circle", { class: "spot", cx: f(x), cy: f(y), r: SPOT }) : null));
        }
      }
      // a harbour serves two neighbouring intersections (they share two hexes): one label between them, out to sea
      const key = (c) => `${c[0]},${c[1]}`;
      const shareTwo = (a, b) => a.shows.hexes.filter((x) => b.shows.hexes.some((y) => key(y) === key(x))).length >= 2;
      const done = new Set();
      for (const [e, at] of harbours) {
        if (done.has(e.id)) continue;
        done.add(e.id);
        const other = harbours.find(([o]) => !done.has(o.id) && o.shows.harbour === e.shows.harbour && shareTwo(e, o));
        if (other) done.add(other[0].id);
        const p = other ? mean([at, other[1]]) : at;
        const d = Math.hypot(p[0] - mid[0], p[1] - mid[1]) || 1;
        const word = e.shows.harbour_text ? say(e.shows.harbour_text, players) : e.shows.harbour;  // "2:1 wol" on a Dutch page
        const half = word.length * 2.8;  // about half the text's width: kept inside the board
        const x = Math.min(Math.max(p[0] + (p[0] - mid[0]) / d * R * 0.7, box[0] + half + 2), box[0] + box[2] - half - 2);
        layers.mark.append(svg("text", { class: "harbour", x: f(x), y: f(p[1] + (p[1] - mid[1]) / d * R * 0.7 + 3), "text-anchor": "middle" }, word));
      }
      root2.append(layers.hex, layers.mark, layers.edge, layers.vertex);
      const spotted = z.elements.some((e) => (e.kind === "vertex" || e.kind === "edge") && tappable(e));
      const hexTapped = z.elements.some((e) => e.kind === "hex" && tappable(e));
      // px a unit for 24 px targets: spots half a hex side apart, else hexes (their inner circle)
      const zoom = zoomable(root2, box, spotted ? FINGER : hexTapped ? HEX_FINGER : 0, z.id,
        (g) => { const e = byId[g.dataset.element]; return e && (e.kind === "hex" ? centre(e.shows.at) : spot(e)); });
      const zone = h("section.zone", { class: `zone k-${z.kind}`, "data-zone": z.id, "data-seat": z.seat ?? "" },
        h("div.zonetitle", title, " ", zoom.button), h("div.zonebody", root2));
      return zone;
    };

    for (const z of scene.zones) {
      const title = say(z.label, players);
      if (z.kind === "hexboard") { root.append(hexBoard(z, title)); continue; }
      root.append(h("section.zone", { class: `zone k-${z.kind}`, "data-zone": z.id, "data-seat": z.seat ?? "" },
        h("div.zonetitle", title), h("div.zonebody", z.elements.map((e) => elementNode(e, z)))));
    }
    root.append(panel);
    if (live) root.classList.add("live");
    return root;
  };

  return { render, say, zoomable, HEX_FINGER };
})();
