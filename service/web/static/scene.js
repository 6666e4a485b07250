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
  const say = (label, players) => String((label && (label[lang()] || label.en)) || "")
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
    /** One move: sent. Several: a picker of just those. */
    const offer = (near, title, moves) => {
      if (moves.length === 1) { sendMove(moves[0]); return; }
      showPanel(near, title, [h("div.buttons", moves.map((m, i) => h("button.move", { type: "button", "data-choice": i, onclick: () => sendMove(m) }, moveText(m))))]);
    };

    /** The chance picker: ``count`` values from ``values`` fill data[field], then Record. */
    const openChance = (near, e) => {
      const c = e.chance;
      const picked = [];
      const shown = h("div.sequence", { "data-picked": "" });
      const record = h("button.move.big", { type: "button", "data-scene-submit": c.type, disabled: true, onclick: () => {
        const value = c.scalar ? picked[0] : picked.slice();
        sendMove({ type: c.type, seat: c.seat, data: { [c.field]: value } });
      } }, Kroniek.t("Record"));
      const buttons = c.values.map((v) => h("button.pick", { type: "button", "data-value": v, "aria-label": labels && labels.of(v).title || v, onclick: (ev) => {
        if (picked.length >= c.count) return;
        picked.push(v);
        if (!c.repeat) ev.currentTarget.disabled = true;
        draw();
      } }, labels && labels.isCard(v) ? chip(v, { dutch: false }) : v));
      const back = h("button.button.small", { type: "button", "data-undo-pick": "", onclick: () => {
        const v = picked.pop();
        const b = buttons.find((x) => x.dataset.value === v);
        if (b) b.disabled = false;
        draw();
      } }, "←");
      const draw = () => {
        shown.replaceChildren(...picked.map((v) => chip(v, { dutch: false })), h("span.muted", ` ${picked.length}/${c.count}`));
        record.disabled = picked.length !== c.count;
        back.disabled = !picked.length;
      };
      draw();
      showPanel(near, say(c.label, players), [h("div.row", shown, " ", back), h("div.picker.cardpicker", buttons), h("div.row", record)]);
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
      if (e.moves && e.moves.length) offer(node, say(e.label, players), e.moves);
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
      const node = tappable(e) ? h("button", { ...attrs, type: "button", onclick: () => tap(e, node) }, body, caption, spoken) : h("div", attrs, body, caption, spoken);
      nodes[e.id] = node;
      return node;
    };

    for (const z of scene.zones) {
      const title = say(z.label, players);
      root.append(h("section.zone", { class: `zone k-${z.kind}`, "data-zone": z.id, "data-seat": z.seat ?? "" },
        h("div.zonetitle", title), h("div.zonebody", z.elements.map((e) => elementNode(e, z)))));
    }
    root.append(panel);
    if (live) root.classList.add("live");
    return root;
  };

  return { render, say };
})();
