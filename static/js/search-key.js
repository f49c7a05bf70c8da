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
    box.focus();
    box.select();
  });
})();
