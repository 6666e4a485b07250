/* Swagger UI on /api/docs, configured from its container's data attributes (no inline script: the CSP). */
window.addEventListener("load", () => {
  const root = document.getElementById("swagger-ui-container");
  const config = Object.assign({ url: root.dataset.specUrl, dom_id: "#swagger-ui-container" },
                               JSON.parse(root.dataset.config || "{}"));
  window.ui = SwaggerUIBundle(config);
  // Swagger UI names each operation's button "get /api/games" (aria-label) while it shows
  // "GET /api/games List the games": a name that differs from the visible text confuses
  // speech input. Without the aria-label the button is named by what it shows.
  const fix = () => root.querySelectorAll(".opblock-summary-control[aria-label]").forEach((b) => b.removeAttribute("aria-label"));
  new MutationObserver(fix).observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ["aria-label"] });
  fix();
});
