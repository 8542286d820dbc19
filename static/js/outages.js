// When a request fails. htmx swaps nothing for a 5xx, a dropped connection or a
// timeout, so without this a tap on Save would seem to do nothing at all. The message
// goes right under the button that was tapped (role="alert", so it is read out); the
// form is left exactly as typed, its hidden submission token included, so tapping
// Save again can never save the round twice: the server answers a token it has seen
// with the round it saved. Background requests (the live table's poll, the round
// preview) fail quietly: one "offline" note that goes once they get through again.
//
// static/js/draft_queue.js hears of each failure first (it listens in the capture
// phase): a round form's save it keeps to send later is marked data-queued, and said
// there, not here.
import { on } from "./events.js";
import { fieldState } from "./fields.js";
import { gettext, interpolate } from "./i18n.js";

// Translators: a quiet note over the live table or a preview while the server cannot be reached.
var OFFLINE = gettext("Offline — retrying…");
var RETRY_MS = 5000; // a failed preview is tried again this often
// What is shown: {owner: the element that sent the request, note: the message,
// quiet: a background note, timer/retry: a preview waiting to be asked for again}.
var notes = [];

// Why a request failed: said after what was not done ("Not saved: ..."), so each
// begins as a clause of its own.
function why(event) {
  // Translators: why a tap did nothing, said after what was not done ("Not saved: the server ...").
  if (event.type === "htmx:timeout") return gettext("the server took too long to answer.");
  // Translators: why a tap did nothing, said after what was not done ("Not saved: the server ...").
  if (event.type === "htmx:sendError") return gettext("the server could not be reached.");
  var xhr = event.detail.xhr;
  var status = xhr ? xhr.status : 0;
  if (status >= 500) {
    // errors/database.html marks itself: say what the 503 page would have said.
    var databaseDown = /data-database-down/.test((xhr && xhr.responseText) || "");
    return databaseDown
      // Translators: why a tap did nothing, said after what was not done ("Not saved: the server ...").
      ? gettext("the server is having trouble: its database is not answering.")
      // Translators: why a tap did nothing, said after what was not done; %(status)s is an HTTP status (503).
      : interpolate(gettext("the server is having trouble (error %(status)s)."), { status: status });
  }
  return interpolate(
    // Translators: why a tap did nothing, said after what was not done; %(status)s is an HTTP status (404).
    gettext("the server refused it (error %(status)s). Reload the page and try again."),
    { status: status }
  );
}

// The button tapped: a form's submitter, else the element that sent the request.
function tapped(elt, event) {
  var trigger = event.detail.requestConfig && event.detail.requestConfig.triggeringEvent;
  if (trigger && trigger.submitter && elt.contains(trigger.submitter)) return trigger.submitter;
  if (elt instanceof HTMLFormElement) {
    var buttons = elt.querySelectorAll(
      'button:not([type]), button[type="submit"], input[type="submit"]'
    );
    if (buttons.length) return buttons[buttons.length - 1]; // its own, after any inner ones
  }
  return elt;
}

function forget(entry) {
  if (entry.timer) window.clearTimeout(entry.timer);
  if (entry.note.parentNode) entry.note.parentNode.removeChild(entry.note);
}

function noteOf(owner) {
  return notes.filter(function (entry) {
    return entry.owner === owner;
  })[0];
}

function sayFailed(elt, event) {
  // No answer to a round form's save: static/js/draft_queue.js keeps it and says so.
  if (event.type === "htmx:sendError" && elt.hasAttribute("data-queued")) return;
  var entry = noteOf(elt);
  if (elt.hasAttribute("data-background")) return sayOffline(elt, entry);
  if (entry) {
    forget(entry);
    notes.splice(notes.indexOf(entry), 1);
  }
  var button = tapped(elt, event);
  var place = elt.closest("[data-outage-lead]") || elt;
  // Translators: what a tap did not do, when the page names nothing more precise.
  var lead = place.getAttribute("data-outage-lead") || gettext("Not done");
  var keep = place.getAttribute("data-outage-keep") || gettext("Try again in a moment.");
  var refused = event.type === "htmx:responseError" && event.detail.xhr.status < 500;
  var alert = document.createElement("p");
  alert.className = "message message-error outage";
  alert.setAttribute("role", "alert");
  alert.setAttribute("data-outage", "");
  var values = { lead: lead, reason: why(event), keep: keep };
  alert.textContent = refused
    // Translators: what a tap did not do ("Not saved"), then why ("the server refused it ...").
    ? interpolate(gettext("%(lead)s: %(reason)s"), values)
    // Translators: what a tap did not do ("Not saved"), why ("the server could not be
    // reached."), and what the player can do ("Try again in a moment.").
    : interpolate(gettext("%(lead)s: %(reason)s %(keep)s"), values);
  // Under the button; a button in a row of its own (Arrange beside its label) gets
  // the message under that row: the row that says so (data-outage-row, where the
  // button sits in a group of its own within it), else a flex parent.
  var row = button.closest("[data-outage-row]") || button.parentElement;
  var inRow = row && row !== elt && getComputedStyle(row).display.indexOf("flex") !== -1;
  var after = inRow ? row : button;
  after.insertAdjacentElement("afterend", alert);
  // The browser's scroll anchoring may push the button up out of sight as the
  // message goes in: show the button, then the message under it.
  button.scrollIntoView({ block: "nearest" });
  alert.scrollIntoView({ block: "nearest" });
  notes.push({ owner: elt, note: alert, quiet: false });
  // Saving cancelled the preview in flight: bring it up to date with what is typed.
  if (elt instanceof HTMLFormElement && elt.querySelector("[data-background]")) {
    window.htmx.trigger(elt, "input");
  }
}

// A background request failed: one quiet note above it, however often it fails. A
// poll retries by itself; a preview is asked for again until it gets through.
function sayOffline(elt, entry) {
  if (!entry) {
    var note = document.createElement("p");
    note.className = "offline-note";
    note.setAttribute("role", "status");
    note.setAttribute("data-offline", "");
    note.textContent = OFFLINE;
    elt.insertAdjacentElement("beforebegin", note);
    entry = { owner: elt, note: note, quiet: true };
    notes.push(entry);
  }
  var form = elt.closest("form");
  if (form && !entry.timer) {
    entry.retry = function () {
      window.clearTimeout(entry.timer);
      entry.timer = null;
      if (document.body.contains(elt)) window.htmx.trigger(form, "input");
    };
    entry.timer = window.setTimeout(entry.retry, RETRY_MS);
  }
}

function saySucceeded(elt) {
  // A success clears this element's message and any whose element is gone (the form
  // was swapped for a fresh one). The server answers again, so a preview waiting to
  // retry need not wait any longer.
  notes = notes.filter(function (entry) {
    var done = entry.owner === elt || !document.body.contains(entry.owner);
    if (done) forget(entry);
    else if (entry.timer) entry.retry();
    return !done;
  });
}

// A field changed before htmx listened (a tap while a slow phone was still loading
// the page's scripts, or the browser restoring a form on Back) asked for no preview:
// ask for it once htmx listens, or the preview would show the round as it was
// (static/js/drafts.js keeps it as a draft too). A round form holds text fields and
// radios, no select.
function changedBeforeLoad(field) {
  return fieldState(field, true) !== fieldState(field, false);
}

function previewEarlyChanges(root) {
  if (root !== document.body) return;
  document.querySelectorAll("form").forEach(function (form) {
    if (!form.querySelector("[hx-trigger^='input']")) return;
    if (Array.prototype.some.call(form.elements, changedBeforeLoad)) window.htmx.trigger(form, "input");
  });
}

if (window.htmx) {
  on("htmx:load", "outages", previewEarlyChanges);
  ["htmx:responseError", "htmx:sendError", "htmx:timeout"].forEach(function (name) {
    document.addEventListener(name, function (event) {
      sayFailed(event.detail.elt, event);
    });
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.successful) saySucceeded(event.detail.elt);
  });
  // Saving replaces the form: a preview still in flight has nothing left to show.
  // (One sent after the save started is harmless too: its regions carry the old
  // form's key, so its out-of-band parts find no target in the fresh form.)
  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.detail.elt;
    if (!(form instanceof HTMLFormElement)) return;
    form.querySelectorAll("[hx-post][hx-trigger]").forEach(function (previewer) {
      window.htmx.trigger(previewer, "htmx:abort");
    });
  });
}
