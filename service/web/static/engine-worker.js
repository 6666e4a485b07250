/* The page's own engine: Pyodide running the project's engine/ package in a Web Worker, so the match page
   draws a tap at once and goes on taking taps offline (docs/ui.md, "The engine in the page").

   Served as /engine/worker.js, with this version's addresses written in: Pyodide from its npm package and
   the engine as the server runs it (a zip of engine/ and fastjsonschema), both from the app itself. The
   Python here is only engine.page_table; every rule is the engine's own.

   Starting Python and importing the engine takes seconds on a phone. So the first start on a device keeps
   a snapshot of the interpreter's memory with the engine imported (Pyodide's memory snapshot), in this
   device's IndexedDB under the versions of Pyodide and of the engine; later starts restore it instead,
   in a fraction of that. A snapshot that does not restore is dropped and made again.

   Messages in: {id, op, args}; out: {id, result} or {id, error}. Ops:
   - "ready": load (once) and say how long it took, and how (a fresh start or a kept snapshot);
   - "open" {key, payload}: a match's table from the server's snapshot (GET /api/matches/<id>/snapshot);
   - "advance" {key, events}: follow the server's events; "payload" {key}: the table as a snapshot again;
   - "play" {key, moves, viewer}: the table after the moves waiting on the device, as viewer sees it;
   - "close" {key}. */
"use strict";

const PYODIDE = "__PYODIDE__";
const ENGINE = "__ENGINE__";
/** The interpreter's snapshot is good for exactly this Pyodide and this engine. */
const SNAPSHOT_KEY = `${PYODIDE}|${ENGINE}`;

let loading = null;
const tables = new Map();

// -- the device's kept snapshot (IndexedDB: also on a page served over plain http, unlike Cache Storage) ----
const snapshotDb = () => new Promise((resolve, reject) => {
  const rq = indexedDB.open("kroniek-engine", 1);
  rq.onupgradeneeded = () => rq.result.createObjectStore("snapshots");
  rq.onsuccess = () => resolve(rq.result);
  rq.onerror = () => reject(rq.error);
});
const snapshotTx = async (mode, fn) => {
  const db = await snapshotDb();
  return new Promise((resolve, reject) => {
    const t = db.transaction("snapshots", mode);
    const rq = fn(t.objectStore("snapshots"));
    let out;
    if (rq) rq.onsuccess = () => { out = rq.result; };
    t.oncomplete = () => { db.close(); resolve(out); };
    t.onerror = t.onabort = () => { db.close(); reject(t.error); };
  });
};
/** Bytes through a (de)compression stream, where the browser has one. */
const through = async (bytes, stream) => new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer());
const keptSnapshot = async () => {
  try {
    const kept = await snapshotTx("readonly", (s) => s.get(SNAPSHOT_KEY));
    if (!kept) return null;
    return kept.gzip ? await through(kept.bytes, new DecompressionStream("gzip")) : new Uint8Array(kept.bytes);
  } catch (e) {
    return null;
  }
};
const keepSnapshot = async (bytes) => {
  try {
    const gzip = typeof CompressionStream === "function";
    const stored = gzip ? await through(bytes, new CompressionStream("gzip")) : bytes;
    // one snapshot a device: an older version's goes
    await snapshotTx("readwrite", (s) => { s.clear(); return s.put({ bytes: stored, gzip, at: Date.now() }, SNAPSHOT_KEY); });
  } catch (e) { /* made again at the next start */ }
};
const dropSnapshot = () => snapshotTx("readwrite", (s) => s.delete(SNAPSHOT_KEY)).catch(() => {});

const load = async () => {
  const t0 = performance.now();
  const zip = fetch(ENGINE).then((r) => {
    if (!r.ok) throw new Error(`the engine did not load: HTTP ${r.status}`);
    return r.arrayBuffer();
  });
  importScripts(PYODIDE + "pyodide.js");
  const phases = { script: Math.round(performance.now() - t0) };
  const options = { indexURL: PYODIDE, fullStdLib: false, stdout: () => {}, stderr: () => {} };
  const kept = await keptSnapshot();
  let py = null, from = "fresh";
  if (kept) {
    try {
      py = await loadPyodide({ ...options, _loadSnapshot: kept });
      from = "snapshot";
    } catch (e) {
      py = null;
      await dropSnapshot();
    }
  }
  if (!py) py = await loadPyodide({ ...options, _makeSnapshot: true });
  phases.python = Math.round(performance.now() - t0);
  // the engine's files, for what it reads after it is imported (a board, a card set, a module imported later)
  py.unpackArchive(await zip, "zip", { extractDir: "/kroniek" });
  let made = null;
  if (from === "fresh") {
    py.runPython("import sys; sys.path.insert(0, '/kroniek'); import engine.page_table");
    made = py.makeMemorySnapshot();  // before any Python object is handed to JavaScript
  }
  const PageTable = py.pyimport("engine.page_table").PageTable;
  phases.engine = Math.round(performance.now() - t0);
  // kept for the next start when the page is at rest (compressing it takes a moment)
  if (made) setTimeout(() => keepSnapshot(made), 3000);
  return { py, PageTable, from, phases, ms: Math.round(performance.now() - t0) };
};

const table = (key) => {
  const t = tables.get(key);
  if (!t) throw new Error(`no table ${key} is open`);
  return t;
};

const run = (engine, op, args) => {
  switch (op) {
    case "ready": return { ms: engine.ms, from: engine.from, phases: engine.phases };
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
