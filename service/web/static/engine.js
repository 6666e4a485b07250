/* The page's own engine, from the page's side (docs/ui.md, "The engine in the page"): a Web Worker running
   the project's engine/ under Pyodide (engine-worker.js, served as /engine/worker.js), started once the page
   is drawn, so first paint never waits for it. Where it cannot start (no WebAssembly, no Pyodide on the
   server, an old phone) it says why, and the pages work as before: each move waits for the server. */
"use strict";
(() => {
  const K = Kroniek;
  let worker = null, loading = null, calls = 0;
  const waiting = new Map();
  const engine = { status: "off", why: "", readyMs: null };

  /** Why this browser cannot run the engine at all (null: it can try). */
  const unsupported = () => {
    if (typeof WebAssembly !== "object") return K.t("this browser cannot run WebAssembly");
    if (typeof Worker !== "function") return K.t("this browser cannot run Web Workers");
    return null;
  };

  const call = (op, args) => new Promise((resolve, reject) => {
    const id = ++calls;
    waiting.set(id, { resolve, reject });
    worker.postMessage({ id, op, args });
  });

  /** Start the worker (once) and load the engine; resolves when it is ready, rejects with the reason. */
  engine.start = () => {
    if (loading) return loading;
    loading = (async () => {
      const no = unsupported();
      if (no) throw new Error(no);
      engine.status = "loading";
      worker = new Worker("/engine/worker.js");
      worker.onmessage = (e) => {
        const w = waiting.get(e.data.id);
        if (!w) return;
        waiting.delete(e.data.id);
        if ("error" in e.data) w.reject(new Error(e.data.error)); else w.resolve(e.data.result);
      };
      worker.onerror = (e) => {
        e.preventDefault();
        const why = new Error(e.message || K.t("the engine's worker did not start"));
        for (const w of waiting.values()) w.reject(why);
        waiting.clear();
      };
      const t0 = performance.now();
      const ready = await call("ready").catch(async (err) => {
        // whether the server has one at all, said in words rather than as the worker's opaque error
        const probe = await fetch("/engine/worker.js", { method: "HEAD" }).catch(() => null);
        throw probe && probe.status === 404 ? new Error(K.t("this server has no page engine installed")) : err;
      });
      engine.readyMs = Math.round(performance.now() - t0);
      engine.loadMs = ready.ms;
      engine.from = ready.from;
      engine.phases = ready.phases;
      engine.status = "ready";
      // the service worker keeps the engine's files from now on (from the browser's cache: no second download)
      if (navigator.serviceWorker && navigator.serviceWorker.controller) navigator.serviceWorker.controller.postMessage({ keepEngine: true });
      return engine;
    })().catch((err) => {
      engine.status = "failed";
      engine.why = err.message || String(err);
      if (worker) { worker.terminate(); worker = null; }
      throw err;
    });
    return loading;
  };

  /** One match's table in the engine (engine.page_table.PageTable). */
  engine.table = (key) => ({
    open: (payload) => call("open", { key, payload: JSON.stringify(payload) }),
    advance: (events) => call("advance", { key, events: JSON.stringify(events) }),
    payload: async () => JSON.parse(await call("payload", { key })),
    play: (moves, viewer) => call("play", { key, moves: JSON.stringify(moves), viewer: JSON.stringify(viewer ?? null) }),
    close: () => call("close", { key }),
  });

  K.engine = engine;
})();
