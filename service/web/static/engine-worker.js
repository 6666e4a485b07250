/* The page's own engine: Pyodide running the project's engine/ package in a Web Worker, so the match page
   draws a tap at once and goes on taking taps offline (docs/ui.md, "The engine in the page").

   Served as /engine/worker.js, with this version's addresses written in: Pyodide from its npm package and
   the engine as the server runs it (a zip of engine/ and fastjsonschema), both from the app itself. The
   Python here is only engine.page_table; every rule is the engine's own.

   Messages in: {id, op, args}; out: {id, result} or {id, error}. Ops:
   - "ready": load (once) and say how long it took;
   - "open" {key, payload}: a match's table from the server's snapshot (GET /api/matches/<id>/snapshot);
   - "advance" {key, events}: follow the server's events; "payload" {key}: the table as a snapshot again;
   - "play" {key, moves, viewer}: the table after the moves waiting on the device, as viewer sees it;
   - "close" {key}. */
"use strict";

const PYODIDE = "__PYODIDE__";
const ENGINE = "__ENGINE__";

let loading = null;
const tables = new Map();

const load = async () => {
  const t0 = performance.now();
  importScripts(PYODIDE + "pyodide.js");
  const py = await loadPyodide({ indexURL: PYODIDE, fullStdLib: false, stdout: () => {}, stderr: () => {} });
  const zip = await fetch(ENGINE);
  if (!zip.ok) throw new Error(`the engine did not load: HTTP ${zip.status}`);
  py.unpackArchive(await zip.arrayBuffer(), "zip", { extractDir: "/kroniek" });
  py.runPython("import sys; sys.path.insert(0, '/kroniek')");
  const t1 = performance.now();
  const PageTable = py.pyimport("engine.page_table").PageTable;
  return { py, PageTable, ms: Math.round(performance.now() - t0), pyodideMs: Math.round(t1 - t0) };
};

const table = (key) => {
  const t = tables.get(key);
  if (!t) throw new Error(`no table ${key} is open`);
  return t;
};

const run = (engine, op, args) => {
  switch (op) {
    case "ready": return { ms: engine.ms, pyodideMs: engine.pyodideMs };
    case "open": {
      const old = tables.get(args.key);
      if (old) old.destroy();
      const t = engine.PageTable(args.payload);
      tables.set(args.key, t);
      return { seq: t.seq };
    }
    case "advance": return JSON.parse(table(args.key).advance(args.events));
    case "payload": return table(args.key).payload();
    case "play": {
      const t0 = performance.now();
      const out = JSON.parse(table(args.key).play(args.moves, args.viewer));
      out.engine_ms = performance.now() - t0;
      return out;
    }
    case "close": { const t = tables.get(args.key); if (t) { t.destroy(); tables.delete(args.key); } return null; }
    default: throw new Error(`unknown op ${op}`);
  }
};

self.onmessage = async (e) => {
  const { id, op, args } = e.data || {};
  try {
    if (!loading) loading = load();
    const engine = await loading;
    self.postMessage({ id, result: run(engine, op, args || {}) });
  } catch (err) {
    self.postMessage({ id, error: String((err && err.message) || err).slice(-2000) });
  }
};
