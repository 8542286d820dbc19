// The offline page (offline.html), which the service worker shows for a page asked
// for without a network: it says how many rounds wait on this phone and opens the
// page asked for once the connection is back.
import { waitingCount } from "./draft_store.js";
import { interpolate, ngettext } from "./i18n.js";

if (document.body && document.body.hasAttribute("data-offline-page")) {
  var waiting = waitingCount();
  var line = document.querySelector("[data-drafts-waiting]");
  if (line && waiting) {
    line.textContent = interpolate(
      ngettext(
        "%(count)s round waits on this phone: it is sent once its page is open and the connection is back.",
        "%(count)s rounds wait on this phone: they are sent once their pages are open and the connection is back.",
        waiting
      ),
      { count: waiting }
    );
    line.hidden = false;
  }
  // The page asked for, as soon as it can be had: when the phone says it is back
  // online (a moment later: the service worker may learn it after the page), and
  // every few seconds while the network is up but the server out of reach.
  // (Not the offline page opened at its own address: it would only show itself again.)
  var reload = function () {
    if (navigator.onLine) window.location.reload();
  };
  var asked = window.location.pathname !== document.body.getAttribute("data-offline-page");
  if (asked) {
    window.addEventListener("online", function () {
      window.setTimeout(reload, 500);
    });
    window.setInterval(reload, 5000);
  }
}
