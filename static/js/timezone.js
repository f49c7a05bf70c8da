// Names the browser's time zone in the "tz" cookie, so the server shows times in it (apps/common/timezones.py).
// Set again only when it differs: a traveller's next page follows the clock of where they are.
(function () {
  "use strict";
  let zone;
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch (error) {
    return;
  }
  if (!zone || !/^[A-Za-z0-9_+\-\/]{1,64}$/.test(zone)) return;
  const current = document.cookie.split("; ").find((pair) => pair.startsWith("tz="));
  if (current && current.slice(3) === zone) return;
  const secure = location.protocol === "https:" ? "; Secure" : "";
  // Raw, not URL-encoded: Django reads cookie values as they are, and the test above keeps them plain.
  document.cookie = "tz=" + zone + "; path=/; max-age=31536000; SameSite=Lax" + secure;
})();
