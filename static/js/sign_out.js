// Signing out. Phones are passed round the table: signing out (the form marked
// data-sign-out) takes this app's drafts (and htmx's copies of pages) with it, after
// asking first if a round is still waiting to be sent. A sign-in that simply ran out
// does not pass through that form: static/js/draft_store.js keeps each account's
// drafts apart for that.
import { forgetDrafts, message, store, waitingCount } from "./draft_store.js";
import { gettext, interpolate, ngettext } from "./i18n.js";

var OFFLINE_SIGN_OUT = gettext(
  "No connection: you are still signed in, and nothing typed was cleared. Sign out once the phone is back online."
);

function signOutOffline() {
  var main = document.getElementById("main") || document.body;
  var old = main.querySelector("[data-sign-out-offline]");
  if (old) old.parentNode.removeChild(old);
  main.insertAdjacentElement("afterbegin", message(OFFLINE_SIGN_OUT, "data-sign-out-offline", "message-error", "alert"));
}

// The next person to use this phone sees none of what was typed here. A round that
// waits to be sent would be lost with it: that is asked first.
function forgetEverything() {
  try {
    // htmx's copies of the pages it moved between in place (hx-push-url: a league's
    // standings by game and dates), kept in this tab for its Back: the account's.
    window.sessionStorage.removeItem("htmx-history-cache");
  } catch (error) {
    // Refused: nothing was kept there either.
  }
  forgetDrafts();
}

document.addEventListener("submit", function (event) {
  var form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-sign-out")) return;
  if (!navigator.onLine) {
    // The server would not hear it: the phone would stay signed in, its drafts gone.
    event.preventDefault();
    signOutOffline();
    return;
  }
  var waiting = waitingCount();
  var ask = interpolate(
    // Translators: asked (the browser's OK and Cancel) when Sign out is tapped while rounds wait on the phone.
    ngettext("%(count)s round not yet sent: sign out anyway?", "%(count)s rounds not yet sent: sign out anyway?", waiting),
    { count: waiting }
  );
  if (waiting && !window.confirm(ask)) {
    event.preventDefault();
    return;
  }
  if (store) forgetEverything();
});
