// A display formula or a code block wider than the screen scrolls sideways inside its own box. A keyboard user
// can reach that scroll only if the box takes focus, and a screen reader should say what it is: such boxes get
// tabindex="0", a role and a name. Boxes that fit stay out of the tab order. Without JavaScript the boxes still
// scroll (Chromium makes scroll boxes focusable itself).
(function () {
  "use strict";

  const SELECTOR = ".katex-display, .prose pre";

  function mark(root) {
    root.querySelectorAll(SELECTOR).forEach(function (box) {
      const overflows = box.scrollWidth > box.clientWidth + 1;
      if (overflows && !box.hasAttribute("tabindex")) {
        box.setAttribute("tabindex", "0");
        box.setAttribute("role", "group");
        box.setAttribute("aria-label", box.matches("pre") ? "Code, scrolls sideways" : "Formula, scrolls sideways");
        box.dataset.scrollable = "";
      } else if (!overflows && box.hasAttribute("data-scrollable")) {
        ["tabindex", "role", "aria-label", "data-scrollable"].forEach(function (name) { box.removeAttribute(name); });
      }
    });
  }

  // A wide table's scroll box (data-scroll-x) is focusable and named in its markup, so it is without JavaScript
  // too. Here it leaves the tab order while it fits, and data-overflows shows its "scroll sideways" note (CSS)
  // only while it does not.
  function markWide(root) {
    root.querySelectorAll("[data-scroll-x]").forEach(function (box) {
      const overflows = box.scrollWidth > box.clientWidth + 1;
      box.toggleAttribute("data-overflows", overflows);
      if (overflows) box.setAttribute("tabindex", "0");
      else box.removeAttribute("tabindex");
    });
  }

  let pending = null;
  function markSoon() {
    if (pending) return;
    pending = window.requestAnimationFrame(function () {
      pending = null;
      mark(document);
      markWide(document);
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", markSoon);
  else markSoon();
  window.addEventListener("resize", markSoon);
  document.addEventListener("htmx:afterSettle", markSoon);
  // <details> ("Show answer" on a card page): a closed one lays out nothing, so nothing overflows until it opens.
  document.addEventListener("toggle", markSoon, true);
})();
