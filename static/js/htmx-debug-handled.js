// Development only (DEBUG): keeps django-htmx's debug script away from answers the page handles itself.
// That script shows any 400, 403, 404 or 500 answer to an htmx request as the whole page, so a traceback is not
// lost in a part of it. But some of the site's error answers say where they go or what the browser should do:
// a stale form's 403 comes with HX-Retarget: #messages, a refused answer's 400 with HX-Refresh. Shown as the
// page, the 403's message replaced the quiz and what the student had typed. Those are left to htmx; any other
// error still gets the debug page. Both listeners are on document, so this one, loaded first
// (common_tags.site_htmx_script), runs first and can stop the other.
(function () {
  "use strict";

  const HANDLED = ["HX-Retarget", "HX-Refresh", "HX-Redirect", "HX-Location"];

  document.addEventListener("htmx:beforeOnLoad", function (event) {
    const xhr = event.detail.xhr;
    if (HANDLED.some(function (header) { return xhr.getResponseHeader(header) !== null; })) {
      event.stopImmediatePropagation();
    }
  });
})();
