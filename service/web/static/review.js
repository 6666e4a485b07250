/* The review page: the table at any step, the move list with annotations, keys to step. */
"use strict";
(() => {
  const K = Kroniek, h = K.h;
  const GLYPHS = ["!!", "!", "!?", "?!", "?", "??"];
  const MISTAKES = new Set(["??", "?"]);
  /** A log's validation as words (the API says valid, pending, invalid…). */
  const validationWords = (v) => ({ valid: K.t("valid"), pending: K.t("pending"), invalid: K.t("invalid") })[v] || v;
  const NO_MISTAKE = K.t("No ?? or ? after this move.");

  K.reviewPage = async () => {
    const root = document.getElementById("review");
    const id = root.dataset.match;
    const params = new URLSearchParams(location.search);
    // Everything the first step needs is asked for at once: the viewer is ?seat=, else the
    // referee's view for a signed-in viewer (a recorder's; the public's if refused), else the public's.
    const asked = params.get("seat");
    let viewer = asked !== null ? K.viewerValue(asked) : K.signedIn() ? "referee" : null;
    const qs = (v) => (v === null ? "" : `seat=${v}`);
    // the review (the heaviest answer) is asked for once the table is on its way, not alongside:
    // one server process answers both, and the small answers should not wait behind the big one
    const first = { state: K.api("GET", `/api/matches/${id}/state?${qs(viewer)}`) };
    first.review = first.state.then(() => K.api("GET", `/api/matches/${id}/review?${qs(viewer)}`));
    const [m, game] = await Promise.all([K.api("GET", `/api/matches/${id}`), K.game(root.dataset.game || (await K.api("GET", `/api/matches/${id}`)).data.game)]);
    if (!m.ok) { K.flash(K.errorText(m), "error"); return; }
    const match = m.data;
    const players = match.players;
    const labels = new Boards.Labels(game, null);
    document.getElementById("title").textContent = `${K.t("Review")} · ${game.name}: ${players.join(" – ")}`;
    if (match.result) document.getElementById("status").replaceChildren(K.t("Finished:") + " ", h("span", { lang: K.engineLang }, K.say(match.result.reason)));
    else document.getElementById("status").textContent = K.t("In progress at seq {seq}", { seq: match.seq });
    if (asked === null && viewer === "referee" && !(await first.state).ok) {
      const seat = await K.playerSeat(id);  // a player sees their own seat's view, anyone else the public's
      viewer = seat === "" ? null : Number(seat);
      first.review = K.api("GET", `/api/matches/${id}/review?${qs(viewer)}`);
      first.state = K.api("GET", `/api/matches/${id}/state?${qs(viewer)}`);
    }
    const select = document.getElementById("viewer");
    await K.seatSelector(select, id, players, viewer === null ? "" : String(viewer));
    const list = document.getElementById("steps");
    const board = document.getElementById("board");
    const stepTitle = document.getElementById("step-title");
    let steps = [], index = 0, cache = new Map(), shown = 0, listShown = false;
    list.addEventListener("click", (e) => { const li = e.target.closest("li[data-index]"); if (li) go(Number(li.dataset.index)); });

    const q = () => (viewer === null ? "" : `seat=${viewer}`);
    const loadSteps = async (pending) => {
      const r = await (pending || K.api("GET", `/api/matches/${id}/review?${q()}`));
      if (!r.ok) { K.flash(K.errorText(r), "error"); steps = []; return; }
      steps = r.data.steps;
      evaluation = r.data.evaluation;  // undefined: the game has none; null: its analysis has not run yet
      drawEvaluation();
    };
    // the evaluation graph under the table (evalgraph.js)
    const evalBox = document.getElementById("evaluation");
    let evaluation, graph = null;
    const drawEvaluation = () => {
      graph = null;
      if (evaluation === undefined) { evalBox.hidden = true; return; }
      evalBox.hidden = false;
      if (evaluation === null) { evalBox.replaceChildren(h("p.muted.small", K.t("Evaluation: waiting for the analysis"))); return; }
      graph = EvalGraph.render(evaluation, steps, players, (i) => go(i));
      evalBox.replaceChildren(graph.node);
      graph.show(index);
    };
    const drawList = () => {
      list.replaceChildren(...steps.map((s, i) => {
        const glyphs = s.annotations.map((a) => a.glyph).filter(Boolean);
        return h("li", { "data-seq": s.seq, "data-index": i, "data-glyphs": glyphs.join(" "), class: s.undone_by ? "undone" : "" },
          h("span.seq", s.seq), " ", K.stepLine(s, "summary"),
          glyphs.length ? h("span.glyph", glyphs.join(" ")) : null,
          // a note that only says again what the summary says (a worker's description of the move) is left out
          s.annotations.filter((a) => (a.text || a.comment) && (a.comment || a.text).trim() !== String(s.summary).trim() && (a.comment || a.text).trim() !== String(s.summary_nl).trim()).map((a) => h("div.note", { "data-source": a.source },
            // a worker's note is the engine's English (as the summary is); a person's comment is in their own words
            a.source === "human" ? [`${a.author}: `, a.comment || a.text] : h("span", { lang: K.engineLang }, a.comment || a.text))));
      }));
    };
    const stateAt = async (seq) => {
      const key = `${viewer}:${seq}`;
      if (!cache.has(key)) cache.set(key, K.api("GET", `/api/matches/${id}/state?at=${seq}&${q()}`));
      return cache.get(key);
    };
    // a game drawn by its scene (scene.js) is drawn so here too, without moves; 404 once: drawn by Boards
    let hasScene = typeof Scene !== "undefined" && game.scene ? null : false;
    const sceneAt = (seq) => {
      if (hasScene === false) return null;
      const key = `scene:${viewer}:${seq}`;
      if (!cache.has(key)) cache.set(key, K.api("GET", `/api/matches/${id}/scene?at=${seq}&${q()}`).then((r) => { if (r.status === 404) hasScene = false; return r; }));
      return cache.get(key);
    };
    const table = (view, sc) => (sc && sc.ok ? Scene.render(sc.data, { players, labels }) : Boards.render(game, view, { players, labels }));
    // Scroll the move list alone to the current step: scrollIntoView would scroll the page as well,
    // and the header slid out of sight on load.
    // The rows off screen are laid out at a guessed height (content-visibility: auto) until they come near:
    // the first scroll lands where the guesses said, the rows then take their real heights (a frame or two
    // later) and push the current one out of the box. So it is checked again at each frame until it has
    // stood inside for two frames in a row.
    const showInList = (li, frames = 12, still = 0) => {
      if (!li.isConnected || !li.classList.contains("current")) return;
      const box = list.getBoundingClientRect(), at = li.getBoundingClientRect();
      let moved = false;
      if (at.top < box.top) { list.scrollTop -= box.top - at.top; moved = true; }
      else if (at.bottom > box.bottom) { list.scrollTop += Math.min(at.bottom - box.bottom, at.top - box.top); moved = true; }
      still = moved ? 0 : still + 1;
      if (frames > 1 && still < 2) requestAnimationFrame(() => showInList(li, frames - 1, still));
    };
    const go = async (i) => {
      if (!steps.length) return;
      index = Math.max(0, Math.min(steps.length - 1, i));
      const step = steps[index];
      const ticket = ++shown;
      K.unflash(NO_MISTAKE);  // it spoke of the step left behind
      const was = list.querySelector("li.current");
      if (was) was.classList.remove("current");
      const cur = list.children[index];
      if (cur) { cur.classList.add("current"); if (listShown) showInList(cur); }
      if (graph) graph.show(index);
      stepTitle.replaceChildren(K.t("Seq {seq} of {last}:", { seq: step.seq, last: steps[steps.length - 1].seq }) + " ", K.stepLine(step));
      root.dataset.seq = step.seq;
      const [r, sc] = await Promise.all([stateAt(step.seq), sceneAt(step.seq)]);
      if (ticket !== shown) return;
      if (!r.ok) { board.replaceChildren(h("p.muted", K.errorText(r))); return; }
      board.replaceChildren(table(r.data, sc));
      root.dataset.shown = step.seq;
      if (!window.kroniekFirstStep) window.kroniekFirstStep = performance.now();  // ms since navigation started (bench/web.py)
      if (!listShown) {  // the move list right after the first step is on screen
        listShown = true;
        await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
        drawList();
        const li = list.children[index];
        if (li) { li.classList.add("current"); showInList(li); }
        window.kroniekListShown = performance.now();
        root.dataset.listed = "1";
      }
      // prefetch the neighbours, so stepping is instant
      for (const j of [index + 1, index - 1]) if (steps[j]) { stateAt(steps[j].seq); sceneAt(steps[j].seq); }
    };
    const nextMistake = () => {
      for (let j = index + 1; j < steps.length; j++) {
        if (steps[j].annotations.some((a) => MISTAKES.has(a.glyph))) return go(j);
      }
      K.flash(NO_MISTAKE);
    };
    document.getElementById("first").onclick = () => go(0);
    document.getElementById("prev").onclick = () => go(index - 1);
    document.getElementById("next").onclick = () => go(index + 1);
    document.getElementById("last").onclick = () => go(steps.length - 1);
    document.getElementById("mistake").onclick = nextMistake;
    document.addEventListener("keydown", (e) => {
      if (e.target && (e.target.tagName === "TEXTAREA" || e.target.tagName === "INPUT" || e.target.tagName === "SELECT")) return;
      const keys = { ArrowLeft: () => go(index - 1), k: () => go(index - 1), ArrowRight: () => go(index + 1), j: () => go(index + 1),
        Home: () => go(0), End: () => go(steps.length - 1), n: nextMistake };
      if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
    });
    select.onchange = async () => {
      viewer = K.viewerValue(select.value);
      cache = new Map();
      const seq = steps[index] && steps[index].seq;
      await loadSteps();
      drawList();
      const j = steps.findIndex((s) => s.seq === seq);
      await go(j >= 0 ? j : steps.length - 1);
    };

    // annotations: a recorder's, referee's or player's
    const me = await K.authReady;
    if (me) {
      const box = document.getElementById("annotate");
      box.hidden = false;
      let glyph = null;
      const glyphs = document.getElementById("glyphs");
      glyphs.append(...GLYPHS.map((g) => h("button.pick", { type: "button", "data-glyph": g, onclick: (e) => {
        glyph = glyph === g ? null : g;
        for (const b of glyphs.children) b.classList.toggle("on", b.dataset.glyph === glyph);
      } }, g)));
      document.getElementById("save-note").onclick = async () => {
        const comment = document.getElementById("comment").value.trim() || null;
        const r = await K.api("POST", `/api/matches/${id}/annotations`, { seq: steps[index].seq, comment, glyph });
        if (!r.ok) { K.flash(K.t("Not saved: {why}", { why: K.errorText(r) }), "error"); return; }
        K.flash(K.t("Annotation saved."), "ok");
        document.getElementById("comment").value = "";
        const keep = index;
        await loadSteps();
        drawList();
        go(keep);
      };
    }

    // downloads and audit
    const dl = document.getElementById("dl-log");
    dl.href = `/api/matches/${id}/events`;
    dl.onclick = async (e) => {
      if (!K.signedIn()) return;  // the public log needs no token
      e.preventDefault();
      const r = await K.api("GET", `/api/matches/${id}/events?${q()}`);
      const blob = new Blob([JSON.stringify(r.data, null, 1)], { type: "application/json" });
      const a = h("a", { href: URL.createObjectURL(blob), download: `match-${id}.json` });
      a.click();
    };
    document.getElementById("dl-proof").href = `/api/log/proofs/inclusion?kind=m&id=${encodeURIComponent(id)}`;

    // the table as it stands now goes on screen first; the move list follows when it arrives
    const latest = await first.state;
    if (latest.ok) {
      cache.set(`${viewer}:${latest.data.seq}`, first.state);
      if (!params.get("seq")) {
        board.replaceChildren(Boards.render(game, latest.data, { players, labels }));
        stepTitle.textContent = K.t("Seq {seq}: the position now", { seq: latest.data.seq });
        window.kroniekFirstStep = performance.now();  // ms since navigation started (bench/web.py)
      }
    }
    await loadSteps(first.review);
    const at = params.get("seq");
    const start = at ? steps.findIndex((s) => String(s.seq) === at) : -1;
    await go(start >= 0 ? start : steps.length - 1);
    const audit = await K.api("GET", `/api/matches/${id}/audit`);
    const a = document.getElementById("audit");
    if (audit.ok) {
      a.replaceChildren(h("span", { class: audit.data.valid ? "ok" : "bad", id: "audit-result" }, audit.data.valid ? "✓ " + K.t("the hash chain checks out") : `✗ ${audit.data.reason || K.t("the chain is broken")}`),
        // the head's hash is for whoever checks it by hand: behind a fold, never in a player's way
        ` · ${K.tn(audit.data.length, "{n} event", "{n} events")} · `,
        h("details.inline-details", h("summary", K.t("details")), `${K.t("head")} `, h("code#head-hash", audit.data.head || "—")),
        ` · ${K.t("validation:")} `, validationWords(match.validation));
    } else a.textContent = K.errorText(audit);
  };
})();
