// The rounds this phone keeps (static/js/drafts.js): where they are stored, whose they
// are, and how many wait to be sent. Phones are passed round the table, so each draft
// names whose it is (the page's data-owner): another account signed in on this phone
// is never shown it, nor sends it; its owner gets it back on signing in.

export var PREFIX = "scorekeeper:draft:";
var KEEP_MS = 7 * 24 * 60 * 60 * 1000; // a draft untouched for a week is forgotten
// sessionStorage: "Round N sent.", said after a page load (static/js/draft_queue.js).
export var SENT = "scorekeeper:sent";

// Whose drafts this page may show and send: the signed-in account ("u" and its id),
// "" where nobody is signed in (a seat phone's link), null where the page does not
// say (the offline page: it only counts what waits).
export var owner = document.body ? document.body.getAttribute("data-owner") : null;

// Set to null on signing out: nothing writes a draft again on the way out.
export var store = (function () {
  try {
    window.localStorage.getItem(PREFIX);
    return window.localStorage;
  } catch (error) {
    return null; // storage refused (private mode, a policy): the page works as before
  }
})();

export function read(key) {
  try {
    return JSON.parse(store.getItem(key));
  } catch (error) {
    return null;
  }
}

export function write(key, draft) {
  if (owner !== null) draft.owner = owner;
  try {
    store.setItem(key, JSON.stringify(draft));
  } catch (error) {
    // Storage full or refused: the form itself still holds what was typed.
  }
}

export function keys() {
  var found = [];
  for (var i = 0; store && i < store.length; i++) {
    var key = store.key(i);
    if (key && key.indexOf(PREFIX) === 0) found.push(key);
  }
  return found;
}

// This page's user's: a draft from before drafts named their owner counts as anyone's.
export function ours(draft) {
  return Boolean(draft) && (owner === null || draft.owner === undefined || draft.owner === owner);
}

// How many of this user's rounds wait on this phone to be sent.
export function waitingCount() {
  return keys().filter(function (key) {
    var draft = read(key);
    return ours(draft) && draft.queued;
  }).length;
}

// A message the drafts say, found again by its marker attribute.
export function message(text, marker, kind, role) {
  var note = document.createElement("p");
  note.className = "message " + kind;
  note.setAttribute("role", role);
  note.setAttribute(marker, "");
  note.textContent = text;
  return note;
}

// Old drafts go: a round typed a week ago and never saved is not coming back.
keys().forEach(function (key) {
  var draft = read(key);
  if (!draft || !(Date.now() - draft.at < KEEP_MS)) store.removeItem(key);
});

var forgetting = []; // what else goes with the drafts (forgetDrafts)

// ``forget`` runs when this phone's drafts are forgotten (signing out).
export function onForget(forget) {
  forgetting.push(forget);
}

// The next person to use this phone sees none of what was typed here. (Another
// account's drafts, which this page never shows, stay for that account.)
export function forgetDrafts() {
  keys().forEach(function (key) {
    if (ours(read(key))) store.removeItem(key);
  });
  try {
    window.sessionStorage.removeItem(SENT);
  } catch (error) {
    // Refused: nothing was kept there either.
  }
  forgetting.forEach(function (forget) {
    forget();
  });
  // Nothing writes a draft again on the way out (a late preview, a keystroke).
  store = null;
}
