// Rounds waiting to be sent. Save without a network keeps the round on this phone,
// its submission token (or the version an edit started from) with it, says so beside
// the button, and sends it again by itself when the connection returns (the "online"
// event, and a timer while the server cannot be reached). The server saves one token
// once and an edit over its version once, so a round sent twice is stored once; if
// another phone saved that round meanwhile, its answer is the conflict view the form
// shows for any clash.
//
// It listens to htmx's requests in the capture phase, so that it hears of each one
// before static/js/outages.js (bubble phase) says whether it failed: a save kept
// here to send later is marked data-queued by then, and not said there.
import { on } from "./events.js";
import { SENT, onForget, ours, read, store, write, message } from "./draft_store.js";
import { keep, keyOf, numberOf, saveButton, say, unsay, valuesOf } from "./draft_forms.js";
import { gettext, interpolate } from "./i18n.js";

var RETRY_MS = 10000; // while rounds wait, the server is tried this often
// Translators: beside Save, when a round was saved without a network: it waits on the phone.
var QUEUED = gettext("Saved on this phone — will send when back online.");

// Drafts on their way to the server: the form an answer swaps in leaves them be.
export var sending = Object.create(null);

// The form a 422 brought back holds what was typed (the conflict view moves a new
// round on to the next number): static/js/drafts.js keeps it under that round at once.
var keepAnswered = null;

// The draft scope (data-draft) of the form a 422 brought back, until forgotten.
export function answeredScope() {
  return keepAnswered;
}

export function forgetAnswered() {
  keepAnswered = null;
}

var timer = null;

export function queue(form) {
  var values = valuesOf(form);
  write(keyOf(form), { values: values, at: Date.now(), queued: true });
  form._draftKey = keyOf(form);
  form.setAttribute("data-queued", "");
  // An earlier "not saved" from static/js/outages.js no longer says what happens.
  Array.prototype.forEach.call(form.querySelectorAll("[data-outage]"), function (note) {
    note.parentNode.removeChild(note);
  });
  say(form, QUEUED, "data-queued-note", false);
  if (!timer) timer = window.setInterval(tryAgain, RETRY_MS);
}

export function unqueue(form) {
  form.removeAttribute("data-queued");
  unsay(form, "data-queued-note");
  var draft = store && read(keyOf(form));
  if (ours(draft) && draft.queued) write(keyOf(form), { values: draft.values, at: draft.at, queued: false });
}

export function sendWaiting() {
  var waiting = document.querySelectorAll("form[data-draft][data-queued]");
  Array.prototype.forEach.call(waiting, function (form) {
    if (form._inFlight) return;
    var button = saveButton(form);
    if (form.requestSubmit) form.requestSubmit(button || undefined);
    else if (window.htmx) window.htmx.trigger(form, "submit");
  });
  if (!waiting.length && timer) {
    window.clearInterval(timer);
    timer = null;
  }
}

function tryAgain() {
  if (navigator.onLine) sendWaiting();
}

function ownRequest(event) {
  var form = event.detail && event.detail.elt;
  return form instanceof HTMLFormElement && form.hasAttribute("data-draft") ? form : null;
}

// A save on its way, by its request: once the answer is swapped in, the form is out
// of the page and htmx says so on an element still in it, with the same request.
var sent = [];

// The save this request was, if it was one, now over however it ended: its form is
// no longer in flight.
function sentBy(event) {
  var xhr = event.detail && event.detail.xhr;
  for (var i = 0; i < sent.length; i++) {
    if (sent[i].xhr !== xhr) continue;
    var save = sent.splice(i, 1)[0];
    save.form._inFlight = false;
    delete sending[save.key];
    return save;
  }
  return null;
}

function sentText(save) {
  var values = { number: save.number };
  return save.form.hasAttribute("data-seat-form")
    // Translators: table mode, a seat's phone: its hand, kept while offline, reached the server.
    ? interpolate(gettext("Your hand for round %(number)s was sent."), values)
    // Translators: a round kept on the phone while offline reached the server.
    : interpolate(gettext("Round %(number)s sent."), values);
}

// "Round N sent." is said once the answer is in the page: swapped in by htmx, or a
// page loaded after it (an edit's answer sends the browser to the session page), so
// it waits in sessionStorage (SENT), which a page load in this tab keeps.
var sentNote = null; // where sessionStorage is refused

function noteSent(text) {
  sentNote = text;
  try {
    window.sessionStorage.setItem(SENT, text);
  } catch (error) {
    // Said after a swap all the same, from sentNote.
  }
}

function placeSentNote() {
  var text = sentNote;
  try {
    text = window.sessionStorage.getItem(SENT) || text;
    window.sessionStorage.removeItem(SENT);
  } catch (error) {
    // sentNote alone
  }
  sentNote = null;
  var main = document.getElementById("main") || document.body;
  // Sent, but the server's own message says it was not taken (an edit of a round
  // deleted meanwhile): that message alone is right.
  if (!text || main.querySelector(".messages .message-error")) return;
  var note = message(text, "data-sent", "draft-note", "status");
  // Above the next round's form where there is one, else at the top of the page.
  var next = main.querySelector("form[data-draft]");
  if (next) next.insertAdjacentElement("beforebegin", note);
  else main.insertAdjacentElement("afterbegin", note);
}

if (window.htmx) {
  // Capture, so these run before static/js/outages.js's listeners for the same events.
  document.addEventListener(
    "htmx:beforeRequest",
    function (event) {
      var form = ownRequest(event);
      if (!form) return;
      keep(form);
      if (!navigator.onLine) {
        // No network at all: not even tried; kept here until it returns.
        event.preventDefault();
        queue(form);
        return;
      }
      form._inFlight = true;
      sending[keyOf(form)] = true;
      sent.push({
        xhr: event.detail.xhr,
        form: form,
        key: keyOf(form),
        number: numberOf(form),
        queued: form.hasAttribute("data-queued"),
      });
    },
    true
  );

  // No answer at all: kept here and sent again by itself (data-queued also tells
  // static/js/outages.js that this failure is said here, not there).
  document.addEventListener(
    "htmx:sendError",
    function (event) {
      var save = sentBy(event);
      if (save) queue(save.form);
    },
    true
  );

  // No answer in time: the server may still be saving it, so outages.js says so and a
  // tap on Save sends it again (the same token: never twice); it waits no longer.
  document.addEventListener(
    "htmx:timeout",
    function (event) {
      var save = sentBy(event);
      if (save) unqueue(save.form);
    },
    true
  );

  document.addEventListener(
    "htmx:afterRequest",
    function (event) {
      var xhr = event.detail.xhr;
      if (!xhr || !xhr.status) return; // no answer: sendError or timeout follows
      var save = sentBy(event);
      if (!save) return;
      if (xhr.status === 200 && save.form.hasAttribute("data-seat-form")) {
        // Handed in: kept, marked so (sayHanded), until the round is saved.
        var kept = store && read(save.key);
        var values = ours(kept) ? kept.values : valuesOf(save.form);
        if (store) write(save.key, { values: values, at: Date.now(), queued: false, handed: true });
        save.form.removeAttribute("data-queued");
        if (save.queued) noteSent(sentText(save));
        return;
      }
      if (xhr.status === 200) {
        // Saved: nothing left to keep for this round.
        if (store) store.removeItem(save.key);
        save.form.removeAttribute("data-queued");
        if (save.queued) noteSent(sentText(save));
        return;
      }
      // Answered but not saved: the form with its problems, or the conflict view.
      // It is no longer waiting; outages.js says a refusal; what was typed stays kept.
      unqueue(save.form);
      if (xhr.status === 422) {
        // The form that comes back holds it, under its own round (below).
        if (store) store.removeItem(save.key);
        keepAnswered = save.form.getAttribute("data-draft");
      }
    },
    true
  );

  on("htmx:afterSettle", "drafts", placeSentNote);
}

window.addEventListener("online", sendWaiting);
placeSentNote(); // a page loaded after a round was sent

onForget(function () {
  sentNote = null;
  if (timer) window.clearInterval(timer);
  timer = null;
});
