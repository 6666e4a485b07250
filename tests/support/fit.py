"""Does a page fit a phone, and can a finger hit what it offers? Checked in
the page as it is drawn (issue 34):

- nothing scrolls sideways: not the page, and no box inside it (a board
  wider than its frame, a row of cards);
- every tap target (a link, a button, a field, anything focusable or with a
  button's role that a pointer can reach) is at least 24x24 CSS px, and no
  other target lies within the 24 px circle around its centre, so no two
  overlap (WCAG 2.2, 2.5.8 Target Size, with its spacing rule applied to
  every target). A target's area is its box; a board's spot is its circle,
  a hex the circle inside it.
  Left out, as WCAG leaves them out: a link inside a sentence, and a control
  the browser draws as it is (a check box inside its label: the label is
  the target).

``problems(page)`` returns what fails, each naming the element.
"""

from __future__ import annotations

FIT_JS = r"""() => {
  const out = [];
  const name = (el) => {
    const id = el.id ? `#${el.id}` : "";
    const data = el.dataset && (el.dataset.element || el.dataset.value || el.dataset.move || el.dataset.path);
    const text = (el.getAttribute("aria-label") || el.textContent || "").trim().replace(/\s+/g, " ").slice(0, 30);
    return `${el.tagName.toLowerCase()}${id}${data ? `[${data}]` : ""} "${text}"`;
  };
  const vw = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > vw + 1) out.push(`the page is ${document.documentElement.scrollWidth} px wide in ${vw}`);
  for (const el of document.querySelectorAll("body *")) {
    const cs = getComputedStyle(el);
    if (cs.display === "none" || cs.visibility === "hidden") continue;
    if ((cs.overflowX === "auto" || cs.overflowX === "scroll") && el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1) {
      out.push(`${name(el)} scrolls sideways: ${el.scrollWidth} px in ${el.clientWidth}`);
    }
  }
  const visible = (el) => {
    if (el.closest("[hidden], details:not([open]) > :not(summary)")) return false;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) return false;
    const cs = getComputedStyle(el);
    return cs.visibility !== "hidden" && cs.pointerEvents !== "none" && Number(cs.opacity) > 0;
  };
  /** A link in a run of text: WCAG's inline exception. */
  const inline = (el) => el.tagName === "A" && getComputedStyle(el).display === "inline" &&
    [...el.parentElement.childNodes].some((n) => n !== el && n.nodeType === 3 && n.textContent.trim());
  const all = [...document.querySelectorAll("a[href], button, input, select, textarea, summary, [role=button], [tabindex]:not([tabindex='-1'])")];
  const targets = [];
  for (let el of all) {
    if (el.disabled || !visible(el) || inline(el)) continue;
    if (el.matches("input[type=checkbox], input[type=radio]") && el.closest("label")) el = el.closest("label");
    if (el.matches("[tabindex]") && !el.matches("a, button, input, select, textarea, summary, [role=button]") &&
        el.querySelector("a, button, [role=button]")) continue;  // a region a keyboard scrolls, not a thing to tap
    if (targets.some((t) => t.el === el)) continue;
    // a board's spot is its circle, a hex its inner circle (hexes side by side touch, their boxes overlap)
    const spot = el.querySelector(":scope > .spot, :scope > .tile");
    const r = (spot || el).getBoundingClientRect();
    const d = Math.min(r.width, r.height);
    targets.push(spot ? { el, x: r.left + r.width / 2, y: r.top + r.height / 2, w: d, h: d, round: true }
      : { el, x: r.left + r.width / 2, y: r.top + r.height / 2, w: r.width, h: r.height, round: false });
  }
  const ancestry = (a, b) => a.el.contains(b.el) || b.el.contains(a.el);
  /** How far a point is from a target's area (0: inside it). */
  const away = (o, x, y) => o.round ? Math.max(Math.hypot(o.x - x, o.y - y) - o.w / 2, 0)
    : Math.hypot(Math.max(Math.abs(o.x - x) - o.w / 2, 0), Math.max(Math.abs(o.y - y) - o.h / 2, 0));
  /** Whether two targets' areas overlap (more than half a pixel). */
  const overlap = (a, b) => {
    if (a.round && b.round) return Math.hypot(a.x - b.x, a.y - b.y) < (a.w + b.w) / 2 - 0.5;
    if (a.round || b.round) { const [c, r] = a.round ? [a, b] : [b, a]; return away(r, c.x, c.y) < c.w / 2 - 0.5; }
    return Math.min(a.x + a.w / 2, b.x + b.w / 2) - Math.max(a.x - a.w / 2, b.x - b.w / 2) > 0.5 &&
      Math.min(a.y + a.h / 2, b.y + b.h / 2) - Math.max(a.y - a.h / 2, b.y - b.h / 2) > 0.5;
  };
  for (const t of targets) {
    const small = t.w < 23.5 || t.h < 23.5;
    if (small) out.push(`${name(t.el)} is ${t.w.toFixed(0)}x${t.h.toFixed(0)} px, under 24x24`);
    for (const o of targets) {
      if (o === t || ancestry(o, t)) continue;
      if (overlap(t, o)) out.push(`${name(t.el)} and ${name(o.el)} overlap`);
      else if (small && away(o, t.x, t.y) < 11.5) out.push(`${name(o.el)} lies within 12 px of ${name(t.el)}'s centre`);
    }
  }
  return [...new Set(out)];
}"""


def problems(page) -> list[str]:
    return page.evaluate(FIT_JS)
