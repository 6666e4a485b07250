/* Starts the page's own script, named by the body's data-start (Kroniek.matchPage …): the pages'
   Content-Security-Policy allows no inline script, so the call that started a page cannot stand in it. */
(() => {
  const name = document.body.dataset.start;
  if (name) Kroniek[name]();  // kroniek.js's global (a const: not on window)
})();
