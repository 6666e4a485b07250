/* The "Signed in" page (/me): this user's signed-in devices, each with a way to end it, and a one-time
   sign-in link (with its QR code) for another device. Everything goes through the API, which decides. */
(() => {
  const K = Kroniek;
  const h = K.h;

  K.mePage = async () => {
    const engineOn = document.getElementById("engine-on");
    engineOn.checked = K.engineWanted();
    engineOn.onchange = () => K.setEngineWanted(engineOn.checked);
    const me = await K.authReady;
    const list = document.getElementById("devices");
    if (!me) {
      document.getElementById("me-title").textContent = K.t("Sign in");
      document.getElementById("me-who").textContent = K.t("You are not signed in on this device.");
      document.getElementById("me-signed-in").hidden = true;
      document.getElementById("me-out").hidden = false;
      document.getElementById("token-box").append(K.tokenForm());
      return;
    }
    document.getElementById("me-who").textContent = K.t("You are signed in as {name}.", { name: me.name });
    /** A device as its user knows it: "Chrome Mobile op Android", never the raw user agent. */
    const deviceName = (d) => (d.browser && d.os ? K.t("{browser} on {system}", { browser: d.browser, system: d.os })
      : d.browser || d.os || K.t("an unknown browser"));
    const draw = async () => {
      const r = await K.api("GET", `/api/users/${encodeURIComponent(me.name)}/sessions`);
      if (!r.ok) { K.flash(K.errorText(r), "error"); return; }
      list.replaceChildren(...(r.data.sessions.length ? r.data.sessions.map((s) => h("li", { "data-session": s.id },
        h("strong", s.current ? K.t("this device") : K.t("another device")), " ",
        h("span.muted", K.t("since {when}", { when: new Date(s.created_at).toLocaleString(K.lang) })),
        h("span.muted.small", " · ", deviceName(s.device || {})), " ",
        h("button.button.small", { type: "button", class: "end-session", onclick: async () => {
          const ended = await K.api("DELETE", `/api/users/${encodeURIComponent(me.name)}/sessions/${s.id}`);
          if (!ended.ok) { K.flash(K.errorText(ended), "error"); return; }
          if (s.current) { location.href = "/"; return; }
          K.flash(K.t("That device is signed out."), "ok");
          draw();
        } }, s.current ? K.t("Sign out here") : K.t("End")))) : [h("li.muted", K.t("No device is signed in with a link (you use a token)."))]));
    };
    draw();
    if (me.admin) {
      document.getElementById("club").hidden = false;
      document.getElementById("club-add").onsubmit = async (e) => {
        e.preventDefault();
        const input = document.getElementById("club-name");
        const made = await K.api("POST", "/api/users", { name: input.value.trim() });
        if (!made.ok) { K.flash(K.t("Not added: {why}", { why: K.errorText(made) }), "error"); return; }
        if (await K.newSignInLink(made.data.name, document.getElementById("club-link"))) input.value = "";
      };
      document.getElementById("club-end").onsubmit = async (e) => {
        e.preventDefault();
        const input = document.getElementById("club-end-name");
        const r = await K.api("DELETE", `/api/users/${encodeURIComponent(input.value.trim())}/sessions`);
        if (!r.ok) { K.flash(K.errorText(r), "error"); return; }
        K.flash(K.tn(r.data.ended, "{name}: {n} device signed out.", "{name}: {n} devices signed out.", { name: r.data.name }), "ok");
        input.value = "";
        draw();
      };
    }
    document.getElementById("new-link").onclick = () => K.newSignInLink(me.name, document.getElementById("link-out"));
  };
})();
