// Where focus goes after HTMX swaps part of a page, for the quiz's stage and the cohort dashboard's panel.
// Swapping out the focused element drops focus to <body>: a keyboard user would start again from the top of
// the page and a screen reader would announce nothing. htmx itself gives focus back to an element of the new
// content with the focused one's id (so a dashboard tab, sort header or filter link with a stable id keeps
// focus, its new copy saying aria-current or aria-sort). When there is none, focus goes to the new content's
// [data-focus] element, its heading (tabindex="-1"). Without JavaScript nothing is swapped and pages load whole.
(function () {
  "use strict";

  document.addEventListener("htmx:afterSettle", function (event) {
    const region = event.target;
    if (!region || !region.querySelector) return; // htmx also settles the text nodes around a swapped element
    const active = document.activeElement;
    if (active && active !== document.body && active !== document.documentElement) return; // not lost
    const target = region.matches("[data-focus]") ? region : region.querySelector("[data-focus]");
    if (target) target.focus({ preventScroll: false });
  });
})();
