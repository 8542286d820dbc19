// A round survives a dead connection. What is typed into a round form (one marked
// data-draft: the scorer's next round, a round being edited, a seat's hand in table
// mode) is kept in this phone's localStorage as it is typed, per session (or table
// seat) and round; a reload, a crashed tab or a lost connection brings it back.
// static/js/draft_queue.js sends what Save could not.
import { on } from "./events.js";
import { keys, ours, read, store } from "./draft_store.js";
import { adopted, apply, keep, keyOf, numberOf, say, scopeOf, valuesOf } from "./draft_forms.js";
import { answeredScope, forgetAnswered, queue, sending, sendWaiting, unqueue } from "./draft_queue.js";
import { gettext } from "./i18n.js";

// Translators: over a round form, once a reload or a lost connection brought back what was typed.
var RESTORED = gettext("What you typed on this phone before is back.");

// A seat's hand handed in stays kept on the phone, marked "handed", until its round
// is saved (earlierQueued drops it then): at a table link gone since, the server
// shows nothing of the seat's hand (the seat may be someone else's by then), so this
// is what brings it back, to be read out, and what says it had been handed in.
function sayHanded() {
  var fate = document.querySelector("#seat-status [data-hand-fate]");
  var forms = document.querySelectorAll("form[data-seat-form][data-closed][data-draft]");
  var handed = Array.prototype.some.call(forms, function (form) {
    var draft = store && read(keyOf(form));
    return ours(draft) && Boolean(draft.handed);
  });
  if (!fate || !handed) return;
  fate.textContent = fate.getAttribute("data-handed");
  fate.hidden = false;
}

// A new-round (or seat) form meets its scope's drafts: one for a round saved since
// is dropped, unless it waits to be sent: that one is put back and sent, so the
// server says whether it was saved already (its token) or clashed (the conflict view).
function earlierQueued(form) {
  if (!form.querySelector('input[name="number"]')) return null;
  var current = parseInt(numberOf(form), 10);
  var waiting = null;
  keys().forEach(function (key) {
    if (key.indexOf(scopeOf(form) + ":") !== 0) return;
    var number = parseInt(key.slice(scopeOf(form).length + 1), 10);
    if (!(number < current) || sending[key]) return;
    var draft = read(key);
    if (draft && !ours(draft)) return; // another account's: kept for them
    if (draft && draft.queued && !waiting) waiting = draft;
    else store.removeItem(key);
  });
  return waiting;
}

// A form changed before this file was set up (a tap while a slow phone was still
// loading the page's scripts, the browser restoring a form on Back): kept as it
// stands, as if typed now. Its changed fields win over a draft put back at the same
// time, being the newer; they are the ones that differ from the page as served.
function setUp(form) {
  if (form._draftReady || !store) return;
  form._draftReady = true;
  form._draftInitial = valuesOf(form, true);
  var now = valuesOf(form);
  var early = Object.keys(now).concat(Object.keys(form._draftInitial)).filter(function (name) {
    return now[name] !== form._draftInitial[name];
  });
  restore(form, early);
  if (early.length) keep(form);
}

// This form's draft, if this phone keeps one, put back (all but the fields ``early``
// changed, which keep what they hold).
function restore(form, early) {
  var draft = earlierQueued(form) || read(keyOf(form)) || adopted(form);
  if (!ours(draft) || !draft.values) return;
  var closed = form.hasAttribute("data-closed");
  // Handed in: the server holds it (the scorer may have corrected it since), its page
  // is right while the link works.
  if (draft.handed && !closed) return;
  var values = {};
  Object.keys(draft.values).forEach(function (name) {
    if (early.indexOf(name) < 0) values[name] = draft.values[name];
  });
  var changed = apply(form, values);
  form._draftKey = keyOf(form);
  if (changed.length) {
    // The same events typing fires: the picker recounts, the preview asks the server.
    changed.forEach(function (field) {
      field.dispatchEvent(new Event("input", { bubbles: true }));
    });
    // The card picker (static/js/picker.js) aims itself again at what is left to enter.
    form.dispatchEvent(new CustomEvent("draft:restored", { bubbles: true }));
    // (At a link gone, the one message there says all: the hand is simply back.)
    if (!draft.queued && !closed) say(form, RESTORED, "data-draft-restored", true);
  }
  sayHanded();
  if (draft.queued && form.hasAttribute("data-closed")) {
    unqueue(form); // its table link is gone: shown, never to be sent
  } else if (draft.queued) {
    queue(form);
    if (navigator.onLine) window.setTimeout(sendWaiting, 500);
  }
}

// A seat's hand closed in place (static/js/table_seat.js: its status says the link is gone,
// the server knowing no seat of this phone's there), as restore() does at load: shown,
// never to be sent, and said to have been handed in if it was.
document.addEventListener("seat:closed", function (event) {
  unqueue(event.target);
  sayHanded();
});

on("htmx:load", "drafts", function (root) {
  var forms = [];
  if (root.matches && root.matches("form[data-draft]")) forms.push(root);
  if (root.querySelectorAll) forms = forms.concat(Array.prototype.slice.call(root.querySelectorAll("form[data-draft]")));
  var answered = answeredScope();
  forms.forEach(function (form) {
    if (answered && form.getAttribute("data-draft") === answered) {
      form._draftReady = true;
      form._draftInitial = null;
      keep(form);
    }
    setUp(form);
  });
  if (forms.length) forgetAnswered();
  // A piece swapped inside a form (Arrange rewrites a hand) changes what is typed.
  var inside = root.closest && root.closest("form[data-draft]");
  if (inside && inside._draftReady) keep(inside);
});

// Discard mine (another phone saved this form's round first: partials/round_clash.html):
// what this phone kept of it goes too, or the form the link brings (the next round's,
// or the round edited as they saved it) would put it back (restore). Its form is on
// its way out: it keeps no more.
document.addEventListener("click", function (event) {
  var discard = event.target.closest && event.target.closest("[data-discard]");
  var form = discard && discard.closest("form[data-draft]");
  if (!form || !store) return;
  form._draftReady = false;
  store.removeItem(keyOf(form));
  if (form._draftKey) store.removeItem(form._draftKey);
});

// Every keystroke and every card the picker types (it fires "input" too).
function keepTyped(event) {
  var form = event.target && event.target.form;
  if (form && form._draftReady && form.hasAttribute("data-draft")) keep(form);
}
on("input", "drafts", keepTyped);
document.addEventListener("change", keepTyped);
