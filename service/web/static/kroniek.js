/* Kroniek's pages: the shared helpers (token, API calls, live stream, DOM).
   Hand-written, no build step, no CDN: see docs/ui.md. */
"use strict";
const Kroniek = (() => {
  const TOKEN_KEY = "kroniek.token";
  const K = {};

  K.token = () => localStorage.getItem(TOKEN_KEY) || "";
  K.setToken = (t) => localStorage.setItem(TOKEN_KEY, t.trim());
  K.signOut = async () => {
    if (K.offline && !(await K.offline.beforeSignOut())) return;
    localStorage.removeItem(TOKEN_KEY);
    location.reload();
  };
  /** Signed in: a pasted token, or a session cookie (the server names its user on the page's body). */
  K.signedIn = () => Boolean(K.token() || document.body.dataset.user);

  /** h("div.cls#id", {attrs}, children...) */
  K.h = (spec, attrs, ...kids) => {
    const m = /^([a-z0-9]+)?((?:[.#][\w-]+)*)$/i.exec(spec) || [];
    const node = document.createElement(m[1] || "div");
    for (const part of (m[2] || "").match(/[.#][\w-]+/g) || []) {
      if (part[0] === ".") node.classList.add(part.slice(1)); else node.id = part.slice(1);
    }
    if (attrs !== undefined && attrs !== null && (typeof attrs !== "object" || attrs instanceof Node || Array.isArray(attrs))) { kids.unshift(attrs); attrs = null; }
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else if (k === "dataset") Object.assign(node.dataset, v);
      else if (k === "style") node.style.cssText = v;  // through the CSSOM: the CSP refuses style attributes
      else node.setAttribute(k, v === true ? "" : v);
    }
    const add = (kid) => {
      if (kid === null || kid === undefined || kid === false) return;
      if (Array.isArray(kid)) kid.forEach(add);
      else node.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
    };
    kids.forEach(add);
    return node;
  };
  const h = K.h;

  /** The page's language ("en", "nl") and its messages: /assets/messages.<lang>.js, made from the catalogue
      (service/web/translations) and loaded before this script. English is the messages' own text. */
  const MESSAGES = window.KRONIEK_MESSAGES || { lang: "en", messages: {} };
  K.lang = MESSAGES.lang;
  /** The lang attribute of what only the engine says, in English (a move's summary, a rule's help, a worker's
      note): "en" on a page in another language, none on an English one. */
  K.enLang = K.lang === "en" ? null : "en";
  /** The lang attribute of what the page's game says through the API: none where the game says it in the
      page's language (says: its messages come from the catalogue), else as K.enLang. Set by K.game. */
  K.engineLang = K.enLang;
  const fill = (text, vars) => String(text).replace(/\{(\w+)\}/g, (m, k) => (vars && k in vars ? String(vars[k]) : m));
  /** A message in the page's language, its {name} placeholders filled in: K.t("Recorded seq {seq}", { seq: 3 }). */
  K.t = (msg, vars) => { const m = MESSAGES.messages[msg]; return fill(typeof m === "string" ? m : msg, vars); };
  /** A message about a count, {n} the count: K.tn(n, "{n} event", "{n} events"). Dutch, like English, uses the
      singular for exactly one (Plural-Forms: n != 1, checked by tests/test_i18n.py). */
  K.tn = (n, one, many, vars) => {
    const m = MESSAGES.messages[one];
    return fill((Array.isArray(m) ? m : [one, many])[n === 1 ? 0 : 1], { n, ...vars });
  };

  /** What an engine says (engine/text.py), in the page's language from the same catalogue: a message
      {msg, params[, plural, n]} with its values said in turn, a name given in each language ({words}), a
      number as the language writes it (Dutch 0,5), a list joined; anything else as it is. The API says its
      answers itself (Accept-Language); this is for the page's own engine. */
  K.say = (x) => {
    if (x === null || x === undefined) return "";
    if (typeof x === "number") return K.lang === "en" ? String(x) : x.toLocaleString(K.lang, { maximumFractionDigits: 6 });
    if (Array.isArray(x)) return x.map(K.say).join(", ");
    if (typeof x === "object" && x.words) return x.words[K.lang] || x.words.en || "";
    if (typeof x === "object" && typeof x.msg === "string") {
      // an engine's message: its id is checked against the catalogue by the Python side (tests/test_i18n.py)
      const vars = {};
      for (const [k, v] of Object.entries(x.params || {})) vars[k] = K.say(v);
      const m = MESSAGES.messages[x.msg];
      if (typeof x.plural === "string") return fill((Array.isArray(m) ? m : [x.msg, x.plural])[x.n === 1 ? 0 : 1], { n: K.say(x.n), ...vars });
      return fill(typeof m === "string" ? m : x.msg, vars);
    }
    return String(x);
  };

  /** "1 event", "2 events": a count with its noun, singular or plural. */
  K.plural = (n, one, many = one + "s") => `${n} ${n === 1 ? one : many}`;
  /** A count of a plural noun as an API names it ("matches", "events"): "1 match", "3 events". */
  K.counted = (n, many) => `${n} ${n === 1 ? String(many).replace(/(ch|sh|x|s)es$/, "$1").replace(/ies$/, "y").replace(/s$/, "") : many}`;
  /** Take a message off the screen before its time (one that no longer applies, as after stepping on). */
  K.unflash = (message) => {
    const box = document.getElementById("flash");
    if (box && !box.hidden && (message === undefined || box.textContent === message)) box.hidden = true;
  };

  K.flash = (message, kind = "info") => {
    const box = document.getElementById("flash");
    box.textContent = message;
    box.className = "flash " + kind;
    box.hidden = false;
    clearTimeout(K._flashTimer);
    K._flashTimer = setTimeout(() => { box.hidden = true; }, kind === "error" ? 12000 : 5000);
  };

  /** The API with the pasted token. Resolves {ok, status, data}; never throws on an HTTP error. */
  K.api = async (method, path, body, headers = {}) => {
    // the answers' texts in the page's language (the API's default is English)
    const init = { method, headers: { "Accept-Language": K.lang, ...headers } };
    const token = K.token();
    if (token) init.headers.Authorization = "Bearer " + token;
    if (body !== undefined) { init.headers["Content-Type"] = "application/json"; init.body = JSON.stringify(body); }
    let res;
    try { res = await fetch(path, init); } catch (e) {
      // offline: a match's GET answers with what the server last said to this device (offline.js), marked kept
      const kept = method === "GET" && K.offline ? await K.offline.kept(path) : undefined;
      if (kept) return { ok: true, status: 200, data: kept.data, kept: true };
      return { ok: false, status: 0, data: { error: { code: "network", message: K.t("no connection: {why}", { why: e.message }) } } };
    }
    let data = null;
    const type = res.headers.get("Content-Type") || "";
    if (type.includes("json")) { try { data = await res.json(); } catch (e) { data = null; } } else { data = await res.text(); }
    if (method === "GET" && res.ok && data && K.offline) K.offline.keep(path, data);
    return { ok: res.ok, status: res.status, data };
  };

  K.errorText = (r) => {
    const e = (r.data && r.data.error) || {};
    // (the page's engine gives what it says as a message, said: the server says it already)
    let text = (e.said ? K.say(e.said) : e.message) || ("HTTP " + r.status);
    if (e.rule) text += ` (${K.t("rule {rule}", { rule: e.rule })}${e.rule_text ? ": " + (e.rule_said ? K.say(e.rule_said) : e.rule_text) : ""})`;
    return text;
  };

  /** Whether this device runs the rules' own engine in the match page (engine.js): on unless its user turned it
      off on /me, or, before they chose, the browser's data saver is on (it costs about 6 MB, once). */
  const ENGINE_KEY = "kroniek.engine";
  K.engineWanted = () => {
    const chosen = localStorage.getItem(ENGINE_KEY);
    if (chosen) return chosen === "on";
    return !(navigator.connection && navigator.connection.saveData);
  };
  K.setEngineWanted = (on) => localStorage.setItem(ENGINE_KEY, on ? "on" : "off");

  K.uuid = () => (crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random().toString(16).slice(2));

  /** Server-sent events over fetch (EventSource cannot send a token), reconnecting with
      Last-Event-ID after each bounded stream ends. Returns {stop()}. */
  K.liveStream = (matchId, seat, lastSeq, onEvent, onStatus = () => {}) => {
    const ctrl = { stopped: false, abort: null, last: lastSeq };
    const run = async () => {
      let retry = 1000;
      while (!ctrl.stopped) {
        const abort = new AbortController();
        ctrl.abort = abort;
        const headers = { "Last-Event-ID": String(ctrl.last) };
        if (K.token()) headers.Authorization = "Bearer " + K.token();
        const q = seat === null || seat === undefined || seat === "" ? "" : "?seat=" + encodeURIComponent(seat);
        try {
          const res = await fetch(`/api/matches/${matchId}/stream${q}`, { headers, signal: abort.signal });
          if (!res.ok) { onStatus("error", res.status); await sleep(5000); continue; }
          onStatus("live");
          const reader = res.body.getReader();
          const decoder = new TextDecoder();
          let buf = "";
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            buf += decoder.decode(value, { stream: true });
            let cut;
            while ((cut = buf.indexOf("\n\n")) >= 0) {
              const block = buf.slice(0, cut); buf = buf.slice(cut + 2);
              let id = null, data = "", event = "message";
              for (const line of block.split("\n")) {
                if (line.startsWith("id:")) id = line.slice(3).trim();
                else if (line.startsWith("data:")) data += line.slice(5).trim();
                else if (line.startsWith("event:")) event = line.slice(6).trim();
                else if (line.startsWith("retry:")) retry = parseInt(line.slice(6), 10) || retry;
              }
              if (id !== null) ctrl.last = parseInt(id, 10);
              if (data && event === "event") onEvent(JSON.parse(data));
            }
          }
        } catch (e) {
          if (ctrl.stopped) return;
          onStatus("reconnecting");
        }
        if (!ctrl.stopped) { onStatus("reconnecting"); await sleep(retry); }
      }
    };
    run();
    return { stop() { ctrl.stopped = true; if (ctrl.abort) ctrl.abort.abort(); } };
  };
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  K.sleep = sleep;

  /** The sign-in box in the header: who is signed in (a sign-in link's session cookie, or a token pasted
      once, which stays in this browser), with their devices and a way out; else the token box. */
  K.authBox = async () => {
    const box = document.getElementById("auth");
    box.replaceChildren();
    if (!K.token() && document.body.dataset.user) {
      const me = await K.api("GET", "/api/me");
      if (me.ok && me.data.name !== "anonymous") {
        K.me = me.data;
        box.append(h("a.who", { id: "who", href: "/me", title: K.t("Your signed-in devices") }, me.data.name), " ",
          h("form.inline", { method: "post", action: "/signout", onsubmit: async (e) => {
            // what this device kept of the matches goes with the session; moves not yet sent are asked about first
            e.preventDefault();
            if (K.offline && !(await K.offline.beforeSignOut())) return;
            e.target.submit();
          } },
            h("button.button.small", { type: "submit", id: "sign-out" }, K.t("Sign out"))));
        return me.data;
      }
    }
    if (!K.token()) {
      // people sign in with a link someone made for them; /me says so, and keeps the token box for the API's users
      if (document.body.dataset.page !== "me") box.append(h("a.button.small", { id: "sign-in-link", href: "/me" }, K.t("Sign in")));
      return null;
    }
    const me = await K.api("GET", "/api/me");
    if (!me.ok) {
      box.append(h("span.muted", K.t("token not valid") + " "), h("button.button", { id: "sign-out", onclick: K.signOut }, K.t("Sign out")));
      return null;
    }
    K.me = me.data;
    box.append(h("span.who", { id: "who" }, me.data.name), " ", h("button.button.small", { id: "sign-out", onclick: K.signOut }, K.t("Sign out")));
    return me.data;
  };

  /** A form that signs this browser in with a pasted API token (kept in localStorage): for those who have one. */
  K.tokenForm = () => {
    const input = h("input#token-input", { type: "password", placeholder: K.t("paste a token"), autocomplete: "off", "aria-label": K.t("token") });
    return h("form.signin", { onsubmit: async (e) => {
      e.preventDefault();
      K.setToken(input.value);
      const me = await K.api("GET", "/api/me");
      if (!me.ok) { localStorage.removeItem(TOKEN_KEY); K.flash(K.t("That token is not valid: {why}", { why: K.errorText(me) }), "error"); return; }
      location.reload();
    } }, input, h("button.button", { type: "submit", id: "sign-in" }, K.t("Sign in")));
  };

  K.ready = (fn) => (document.readyState === "loading" ? document.addEventListener("DOMContentLoaded", fn) : fn());
  /** Resolves to the signed-in user (GET /api/me) or null, once the header's box is drawn. */
  K.authReady = new Promise((resolve) => K.ready(() => resolve(K.authBox())));

  /** A review step's line in the page's language: the engine's Dutch where the game gives it (summary_nl),
      else its English, marked so (a screen reader then reads it as English). */
  K.stepLine = (step, cls = null) => (K.lang === "nl" && step.summary_nl ? h("span", { class: cls }, step.summary_nl)
    : h("span", { class: cls, lang: K.engineLang }, step.summary));

  const games = {};
  K.game = async (id) => {
    if (!games[id]) { const r = await K.api("GET", `/api/games/${id}`); if (!r.ok) throw K.errorText(r); games[id] = r.data; }
    K.engineLang = games[id].says ? null : K.enLang;
    return games[id];
  };

  /** A viewer as the API takes it: a seat number, "referee", or null for the public view ("", "public",
   *  or anything that is not a seat number, which would otherwise become ?seat=NaN). */
  K.viewerValue = (v) => (v === "referee" ? "referee" : /^\d+$/.test(v ?? "") ? Number(v) : null);
  /** The seat selector: the public, each seat, or the referee; a recorder starts with everything. */
  K.seatSelector = async (select, matchId, players, stored) => {
    select.replaceChildren(h("option", { value: "" }, K.t("the public")), ...players.map((p, i) => h("option", { value: String(i) }, p)), h("option", { value: "referee" }, K.t("the referee (everything)")));
    await K.authReady;
    let initial = stored === "public" ? "" : stored;
    if (initial === undefined || initial === null) {
      const probe = K.signedIn() ? await K.api("GET", `/api/matches/${matchId}/state?seat=referee`) : { ok: false };
      initial = probe.ok ? "referee" : await K.playerSeat(matchId);
    }
    select.value = initial;
    return K.viewerValue(select.value);
  };

  /** The seat the signed-in user plays in this match ("" if none): a player's own view by default. */
  K.playerSeat = async (matchId) => {
    const me = await K.authReady;
    if (!me) return "";
    const r = await K.api("GET", `/api/matches/${matchId}/roles`);
    const mine = (r.ok && r.data.roles && r.data.roles[me.name]) || [];
    const seat = mine.map((x) => /^player:(\d+)$/.exec(x)).find(Boolean);
    return seat ? seat[1] : "";
  };

  /** A sign-in link as a person passes it on: the address, a button that copies it, and its QR code. */
  K.signInLink = (link) => h("div.signin-link",
    h("p", K.t("Sign-in link for {name}, good until {when}:", { name: link.name, when: new Date(link.expires_at).toLocaleString(K.lang) })),
    h("p", h("a", { href: link.url, class: "link-url", rel: "noreferrer" }, link.url)),
    h("img.qr", { src: link.qr, alt: K.t("QR code of the sign-in link for {name}", { name: link.name }), width: 220, height: 220 }),
    navigator.clipboard ? h("button.button.small", { type: "button", onclick: async () => {
      await navigator.clipboard.writeText(link.url); K.flash(K.t("Link copied"), "ok");
    } }, K.t("Copy the link")) : null);

  /** A new one-time sign-in link for ``name`` (the server says whether this user may make it), shown in
      ``box``; ``next``: the page it opens. Whether it was made. */
  K.newSignInLink = async (name, box, next = "/") => {
    const r = await K.api("POST", `/api/users/${encodeURIComponent(name)}/sign-in-links`, { next });
    if (!r.ok) { K.flash(K.errorText(r), "error"); return false; }
    box.replaceChildren(K.signInLink(r.data));
    box.hidden = false;
    return true;
  };

  K.seatName = (players, seat) => (seat === null || seat === undefined ? K.t("table") : `${players[seat]}`);

  /** A sign-in link opened (/signin#<secret>): the secret is read from the fragment (no log ever sees it) and
      taken out of the address bar; whom it signs in is asked in a POST; the button posts it in the form. */
  K.signinPage = async () => {
    const root = document.getElementById("signin");
    if (!root) return;
    const secret = decodeURIComponent(location.hash.slice(1));
    history.replaceState(null, "", location.pathname);  // not kept in the history or a bookmark
    const why = (w) => ({ used: K.t("It was used already: a link signs in one device, once."),
      revoked: K.t("It was made before this account's access was revoked: it signs no one in.") })[w]
      || K.t("It has expired (a link is good for 24 hours), or it is not a link this app made.");
    const r = secret ? await K.api("POST", "/signin/peek", { secret }) : { ok: true, data: { why: "expired" } };
    root.removeAttribute("aria-busy");
    if (!r.ok || !r.data.user) {
      document.getElementById("signin-title").textContent = K.t("This sign-in link cannot be used");
      const box = document.getElementById("signin-why");
      box.textContent = why(r.data && r.data.why);
      box.hidden = false;
      document.getElementById("signin-more").hidden = false;
      return;
    }
    const name = r.data.user;
    document.getElementById("signin-title").textContent = K.t("Sign in as {name}?", { name });
    const text = document.getElementById("signin-text");
    text.textContent = K.t("This link signs in this device as {name}, once. You stay signed in here until you sign out or end this device from another one.", { name });
    text.hidden = false;
    document.getElementById("signin-secret").value = secret;
    document.getElementById("signin-button").textContent = K.t("Sign in as {name}", { name });
    document.getElementById("signin-form").hidden = false;
  };

  /** A league's sheet for the wall (/leagues/<id>/print/…): drawn by the server; its button prints it. */
  K.printPage = () => {
    const button = document.getElementById("print-button");
    if (button) button.onclick = () => window.print();
  };
  return K;
})();
