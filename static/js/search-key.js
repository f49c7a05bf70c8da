// "/" puts the cursor in the search box, as on GitHub or YouTube, unless one is typing somewhere already.
(function () {
  "use strict";

  document.addEventListener("keydown", function (event) {
    if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
    const target = event.target;
    if (target && target.closest && (target.isContentEditable || target.closest("input, textarea, select"))) return;
    const box = document.querySelector("input[type=search][aria-keyshortcuts='/']");
    if (!box) return;
    event.preventDefault();
    // On a narrow screen the header's box gives way to a link to the search page, whose own box has the focus.
    const link = document.querySelector("[data-search-link]");
    if (!box.getClientRects().length && link && link.getClientRects().length) {
      window.location.assign(link.href);
      return;
    }
    box.focus();
    box.select();
  });
})();
