/* The evaluation graph under the review's table (issue 37): the chance of winning after each move everyone may
   see, an SVG the page draws itself (Lichess's graph, for our games). A click picks the nearest point's step; the
   graph is one slider for the keyboard (the review's own keys step through the moves); a judged move's glyph is
   marked where it was played. A drawing never decides anything: it shows what the API's evaluation says. */
"use strict";
const EvalGraph = (() => {
  const NS = "http://www.w3.org/2000/svg";
  // the seats' colours, as the tables draw them (Red and Blue first: BraveRats, Troubadour)
  const COLOURS = ["#c0262d", "#1f5fa8", "#1d7a3a", "#8a5a00", "#6b3fa0", "#0e7c86", "#7a4b2a", "#444b55"];
  const GLYPH_COLOURS = { "?!": "#b8860b", "?": "#d4561c", "??": "#9b111e" };
  const W = 600, H = 150, PAD = 8;

  const svg = (tag, attrs, ...kids) => {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined) e.setAttribute(k, v);
    e.append(...kids.filter((k) => k !== null && k !== undefined));
    return e;
  };
  const percent = (c) => `${Math.round(c * 100)}%`;

  /** ``ev``: the review's evaluation; ``steps``: its steps; ``players``: names by seat; ``pick(i)``: go to step i.
   *  Returns the element and ``show(i)``, which moves the graph's cursor to step i. */
  const render = (ev, steps, players, pick) => {
    const K = Kroniek, h = K.h;
    const at = new Map(steps.map((s, i) => [s.seq, i]));
    const points = (ev.points || []).filter((p) => at.has(p.seq));
    const n = Math.max(1, steps.length - 1);
    const X = (i) => PAD + ((W - 2 * PAD) * i) / n;
    const Y = (c) => PAD + (H - 2 * PAD) * (1 - c);
    const table = ev.perspective === "table";
    // two seats: one line, the first seat's (the other's is its mirror); more: a line each; a cooperative game: one
    const lines = table || players.length === 2 ? [0] : players.map((_, i) => i);
    const name = (seat) => players[seat] || `#${seat}`;
    const who = (seat) => (table ? K.t("the table") : name(seat));
    const said = (p) => (table ? [`${who(0)} ${percent(p.chances[0])}`] : players.map((_, s) => `${who(s)} ${percent(p.chances[s])}`)).join(", ")
      + (p.stderr ? ` (± ${percent(p.stderr)})` : "");
    const pointAt = (i) => {  // the latest point at or before step i
      let found = null;
      for (const p of points) if (at.get(p.seq) <= i) found = p;
      return found;
    };
    const graph = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "evalgraph", role: "slider", tabindex: "0",
      "aria-label": table ? K.t("Chance of winning after each move") : K.t("{name}'s chance of winning after each move", { name: who(0) }),
      "aria-valuemin": 1, "aria-valuemax": steps.length, "aria-valuenow": steps.length, preserveAspectRatio: "none" });
    graph.append(svg("rect", { x: 0, y: 0, width: W, height: H, fill: "#f4f2ec" }),
      svg("line", { x1: PAD, x2: W - PAD, y1: Y(0.5), y2: Y(0.5), stroke: "#b9b4a8", "stroke-dasharray": "4 4", "stroke-width": 1 }));
    if (points.length) {
      for (const seat of lines) {
        const path = points.map((p) => `${X(at.get(p.seq)).toFixed(1)},${Y(p.chances[seat]).toFixed(1)}`);
        if (lines.length === 1) {  // the first seat's share shaded, as Lichess shades White's
          const first = X(at.get(points[0].seq)).toFixed(1), last = X(at.get(points[points.length - 1].seq)).toFixed(1);
          graph.append(svg("polygon", { points: `${first},${Y(0)} ${path.join(" ")} ${last},${Y(0)}`, fill: COLOURS[seat], "fill-opacity": 0.14 }));
        }
        graph.append(svg("polyline", { points: path.join(" "), fill: "none", stroke: COLOURS[seat], "stroke-width": 2, "stroke-linejoin": "round",
          "vector-effect": "non-scaling-stroke", "data-seat": seat }));
      }
      for (const p of points) {
        graph.append(svg("circle", { cx: X(at.get(p.seq)), cy: Y(p.chances[lines[0]]), r: 3, fill: COLOURS[lines[0]], class: "point", "data-seq": p.seq },
          svg("title", {}, `${K.t("Seq {seq}", { seq: p.seq })}: ${said(p)}`)));
      }
      for (const m of ev.moves || []) {
        if (!m.glyph || !at.has(m.seq)) continue;
        const p = pointAt(at.get(m.seq));
        const y = p ? Y(p.chances[lines[0]]) : Y(0.5);
        graph.append(svg("g", { class: "glyph", "data-seq": m.seq, "data-glyph": m.glyph },
          svg("circle", { cx: X(at.get(m.seq)), cy: y, r: 6, fill: GLYPH_COLOURS[m.glyph], stroke: "#fff", "stroke-width": 1.5 }),
          svg("title", {}, `${name(m.seat)}: ${m.glyph} ${m.glyph_said || ""}`)));
      }
    }
    const cursor = svg("line", { y1: 0, y2: H, stroke: "#20262f", "stroke-width": 1.5, "vector-effect": "non-scaling-stroke", class: "cursor" });
    graph.append(cursor);
    graph.addEventListener("click", (e) => {
      if (!points.length) return;
      const box = graph.getBoundingClientRect();
      const x = ((e.clientX - box.left) / box.width) * W;
      let best = points[0];
      for (const p of points) if (Math.abs(X(at.get(p.seq)) - x) < Math.abs(X(at.get(best.seq)) - x)) best = p;
      pick(at.get(best.seq));
    });
    graph.addEventListener("keydown", (e) => {  // PageUp / PageDown: the previous or next evaluated point
      if (e.key !== "PageUp" && e.key !== "PageDown") return;
      e.preventDefault();
      const now = Number(graph.getAttribute("aria-valuenow")) - 1;
      const seqs = points.map((p) => at.get(p.seq));
      const next = e.key === "PageDown" ? seqs.find((i) => i > now) : [...seqs].reverse().find((i) => i < now);
      if (next !== undefined) pick(next);
    });

    const method = ev.method_said ? K.t("Evaluation: {method}", { method: ev.method_said }) : K.t("Evaluation");
    const summary = ev.summary || [];
    const glyphCounts = (s) => Object.entries(s.glyphs || {}).filter(([, c]) => c).map(([g, c]) => `${c}× ${g}`).join(" ");
    const given = (v) => v !== null && v !== undefined;
    // only the columns something fills: accuracy where moves were judged, luck where chance rules, the robber's toll
    const columns = [
      summary.some((s) => given(s.accuracy)) && { th: K.t("accuracy"), cls: "accuracy", get: (s) => (given(s.accuracy) ? `${K.say(s.accuracy)}%` : "—") },
      summary.some((s) => given(s.luck)) && { th: K.t("luck"), cls: "luck", get: (s) => (given(s.luck) ? `${s.luck > 0 ? "+" : ""}${K.say(Math.round(s.luck * 10) / 10)}` : "—") },
      summary.some((s) => s.robber) && { th: K.t("robber"), cls: "robber", get: (s) => (s.robber ? K.t("{stolen} stolen, {withheld} withheld", s.robber) : "—") },
      summary.some((s) => glyphCounts(s)) && { th: K.t("marked"), cls: "marked", get: glyphCounts },
    ].filter(Boolean);
    const rows = summary.map((s) => h("tr", { "data-seat": s.seat },
      h("th", { scope: "row" }, table ? null : h("span.swatch", { "data-seat": s.seat, style: `background: ${COLOURS[s.seat % COLOURS.length]}` }), name(s.seat)),
      columns.map((c) => h(`td.${c.cls}`, c.get(s)))));
    const node = h("figure.evaluation",
      graph,
      h("figcaption",
        h("span.method", method), ev.note ? h("span.muted", { lang: K.engineLang }, " · ", K.say(ev.note)) : null,
        ev.luck ? h("span.muted", { lang: K.engineLang }, " · ", K.t("luck: {unit}", { unit: K.say(ev.luck.unit) })) : null,
        !points.length ? null : table ? h("span.muted", " · ", K.t("the line: the table's chance of winning together"))
          : lines.length === 1 ? h("span.muted", " · ", K.t("the line: {name}'s chance of winning (a draw counts half)", { name: who(0) })) : null),
      rows.length && columns.length ? h("table.evalsummary",
        h("thead", h("tr", h("th", { scope: "col" }, K.t("Player")), columns.map((c) => h("th", { scope: "col" }, c.th)))),
        h("tbody", ...rows)) : null);
    const show = (i) => {
      cursor.setAttribute("x1", X(i));
      cursor.setAttribute("x2", X(i));
      graph.setAttribute("aria-valuenow", i + 1);
      const p = pointAt(i);
      graph.setAttribute("aria-valuetext", `${K.t("Seq {seq}", { seq: steps[i] ? steps[i].seq : i + 1 })}${p ? ": " + said(p) : ""}`);
    };
    return { node, show };
  };
  return { render, COLOURS };
})();
