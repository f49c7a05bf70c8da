// The phone header's menu (a <details>, which opens and closes without this): Escape closes it and gives the
// focus back to its button, and a tap or click anywhere else closes it, as a menu does.
(function () {
  "use strict";

  function openMenu() {
    return document.querySelector("[data-menu-toggle][open]");
  }

  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape" || event.defaultPrevented) return;
    const menu = openMenu();
    if (!menu) return;
    // Not while the student is elsewhere (typing an answer): only from the menu, or from nothing in particular.
    const target = event.target;
    if (target !== document.body && !(target.closest && target.closest("[data-menu-toggle], .site-nav"))) return;
    event.preventDefault();
    menu.open = false;
    menu.querySelector("summary").focus();
  });

  document.addEventListener("click", function (event) {
    const menu = openMenu();
    if (!menu || !event.target.closest) return;
    // The button itself toggles it; the links under it are in the nav beside it.
    if (event.target.closest("[data-menu-toggle], .site-nav")) return;
    menu.open = false;
  });
})();
