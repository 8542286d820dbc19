// Progressive enhancement for the scorekeeper. Every page works without this file:
// the round form is a plain form and the keypad stays hidden; here the keypad types
// cards into the groups field being edited, known players can be seated by tap, and a
// request that fails (no network, a 5xx, a timeout) is said beside the button tapped.
(function () {
  "use strict";

  var CARD_AT_END = /(?:10|[2-9TJQKA])[SHDC\u2660\u2665\u2666\u2663]$|(?:PJ|JK|\*)$/i;
  var pendingRank = null; // a rank key pressed, waiting for its suit
  var touchFirst = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;

  function groupsField(el) {
    return el instanceof HTMLTextAreaElement && el.hasAttribute("data-groups");
  }

  // The field a keypad types into: the groups field of the player it sits under.
  function targetOf(keypad) {
    var fieldset = keypad.closest("fieldset");
    return fieldset && fieldset.querySelector("textarea[data-groups]");
  }

  function placeKeypad(keypad, field) {
    if (field.nextElementSibling !== keypad) field.insertAdjacentElement("afterend", keypad);
  }

  function setPending(keypad, rank) {
    pendingRank = rank;
    keypad.querySelectorAll("[data-rank]").forEach(function (key) {
      key.setAttribute("aria-pressed", String(key.getAttribute("data-rank") === rank));
    });
  }

  // Where to type: at the caret while the field has focus, else at the end (a field
  // that was never focused reports its caret at 0).
  function selection(field) {
    if (document.activeElement === field) return [field.selectionStart, field.selectionEnd];
    return [field.value.length, field.value.length];
  }

  function replace(field, start, end, text) {
    field.value = field.value.slice(0, start) + text + field.value.slice(end);
    var caret = start + text.length;
    if (document.activeElement === field) field.setSelectionRange(caret, caret);
    // The same event typing fires, so htmx sends the same preview request.
    field.dispatchEvent(new Event("input", { bubbles: true }));
  }

  function typeCard(field, code) {
    var range = selection(field);
    var before = field.value.slice(0, range[0]);
    var spaced = before && !/[\s|/;,]$/.test(before) ? " " + code : code;
    replace(field, range[0], range[1], spaced);
  }

  function newGroup(field) {
    var range = selection(field);
    var before = field.value.slice(0, range[0]).replace(/\s+$/, "");
    replace(field, before.length, range[1], before ? " | " : "");
  }

  function backspace(field) {
    var range = selection(field);
    if (range[0] !== range[1]) return replace(field, range[0], range[1], "");
    var before = field.value.slice(0, range[0]).replace(/\s+$/, "");
    var card = before.match(CARD_AT_END);
    var cut = card ? card[0].length : before.slice(-1) === "|" ? 1 : Math.min(1, before.length);
    var kept = before.slice(0, before.length - cut).replace(/\s+$/, "");
    replace(field, kept.length, range[1], kept && /\|$/.test(kept) ? " " : "");
  }

  function press(keypad, key) {
    var field = targetOf(keypad);
    if (!field) return;
    if (key.hasAttribute("data-rank")) return setPending(keypad, key.getAttribute("data-rank"));
    if (key.hasAttribute("data-suit")) {
      if (pendingRank) typeCard(field, pendingRank + key.getAttribute("data-suit"));
      return setPending(keypad, null);
    }
    var action = key.getAttribute("data-key");
    setPending(keypad, null);
    if (action === "joker") typeCard(field, "PJ");
    else if (action === "group") newGroup(field);
    else if (action === "back") backspace(field);
    else if (action === "keyboard") toggleKeyboard(keypad, key);
  }

  // On a phone the system keyboard hides most of the screen; with the keypad it can
  // stay closed (inputmode=none) until the keyboard key asks for it.
  function toggleKeyboard(keypad, key) {
    var form = keypad.closest("form");
    var on = key.getAttribute("aria-pressed") !== "true";
    key.setAttribute("aria-pressed", String(on));
    form.querySelectorAll("textarea[data-groups]").forEach(function (field) {
      if (on) field.removeAttribute("inputmode");
      else field.setAttribute("inputmode", "none");
    });
    var field = targetOf(keypad);
    if (field) {
      field.blur();
      field.focus();
    }
  }

  function init(root) {
    var keypads = root.matches && root.matches("[data-keypad]") ? [root] : [];
    keypads = keypads.concat(Array.prototype.slice.call(root.querySelectorAll("[data-keypad]")));
    keypads.forEach(function (keypad) {
      var form = keypad.closest("form");
      var first = form && form.querySelector("textarea[data-groups]");
      if (!first) return;
      placeKeypad(keypad, first);
      keypad.hidden = false;
      if (touchFirst) {
        form.querySelectorAll("textarea[data-groups]").forEach(function (field) {
          field.setAttribute("inputmode", "none");
        });
      } else {
        keypad.querySelector('[data-key="keyboard"]').setAttribute("aria-pressed", "true");
      }
    });
    var picks = root.querySelectorAll ? root.querySelectorAll("[data-picks]") : [];
    picks.forEach(function (box) {
      box.hidden = false;
      markPicks(box.closest("fieldset"));
    });
  }

  // The keypad follows the player being typed for.
  document.addEventListener("focusin", function (event) {
    if (!groupsField(event.target)) return;
    var keypad = event.target.form && event.target.form.querySelector("[data-keypad]");
    if (keypad && !keypad.hidden) placeKeypad(keypad, event.target);
  });

  // Pressing a key must not take the focus (and the caret) away from the field.
  document.addEventListener("mousedown", function (event) {
    if (event.target.closest && event.target.closest("[data-keypad] button")) event.preventDefault();
  });

  document.addEventListener("click", function (event) {
    var key = event.target.closest && event.target.closest("[data-keypad] button");
    if (key) return press(key.closest("[data-keypad]"), key);
    var pick = event.target.closest && event.target.closest("[data-pick]");
    if (pick) seat(pick);
  });

  // Quick picks on the new-session form: seat a known player in the first empty
  // seat, or unseat them if they are already seated.
  function seat(pick) {
    var name = pick.getAttribute("data-pick");
    var inputs = Array.prototype.slice.call(
      pick.closest("fieldset").querySelectorAll("input[data-seat]")
    );
    var seated = inputs.filter(function (input) {
      return input.value.trim().toLowerCase() === name.toLowerCase();
    });
    if (seated.length) {
      seated.forEach(function (input) {
        input.value = "";
      });
    } else {
      var empty = inputs.find(function (input) {
        return !input.value.trim();
      });
      if (empty) empty.value = name;
    }
    markPicks(pick.closest("fieldset"));
  }

  // A pick is a toggle: it says whether that player is seated (aria-pressed, shown
  // filled), however the name got into a seat: a tap, typing, or the toss.
  function markPicks(fieldset) {
    if (!fieldset) return;
    var seated = Object.create(null);
    fieldset.querySelectorAll("input[data-seat]").forEach(function (input) {
      var name = input.value.trim().toLowerCase();
      if (name) seated[name] = true;
    });
    fieldset.querySelectorAll("[data-pick]").forEach(function (pick) {
      var on = seated[pick.getAttribute("data-pick").toLowerCase()] === true;
      pick.setAttribute("aria-pressed", String(on));
    });
  }

  document.addEventListener("input", function (event) {
    var field = event.target;
    if (field.matches && field.matches("input[data-seat]")) markPicks(field.closest("fieldset"));
  });

  // --- When a request fails --------------------------------------------------------
  // htmx swaps nothing for a 5xx, a dropped connection or a timeout, so without this a
  // tap on Save would seem to do nothing at all. The message goes right under the
  // button that was tapped (role="alert", so it is read out); the form is left exactly
  // as typed, its hidden submission token included, so tapping Save again can never
  // save the round twice: the server answers a token it has seen with the round it
  // saved. Background requests (the live table's poll, the round preview) fail quietly:
  // one "offline" note that goes once they get through again.

  var OFFLINE = "Offline \u2014 retrying\u2026";
  var RETRY_MS = 5000; // a failed preview is tried again this often
  // What is shown: {owner: the element that sent the request, note: the message,
  // quiet: a background note, timer/retry: a preview waiting to be asked for again}.
  var notes = [];

  function why(event) {
    if (event.type === "htmx:timeout") return "the server took too long to answer.";
    if (event.type === "htmx:sendError") return "the server could not be reached.";
    var xhr = event.detail.xhr;
    var status = xhr ? xhr.status : 0;
    if (status >= 500) {
      // errors/database.html marks itself: say what the 503 page would have said.
      var databaseDown = /data-database-down/.test((xhr && xhr.responseText) || "");
      return databaseDown
        ? "the server is having trouble: its database is not answering."
        : "the server is having trouble (error " + status + ").";
    }
    return "the server refused it (error " + status + "). Reload the page and try again.";
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
    var entry = noteOf(elt);
    if (elt.hasAttribute("data-background")) return sayOffline(elt, entry);
    if (entry) {
      forget(entry);
      notes.splice(notes.indexOf(entry), 1);
    }
    var button = tapped(elt, event);
    var place = elt.closest("[data-outage-lead]") || elt;
    var lead = place.getAttribute("data-outage-lead") || "Not done";
    var keep = place.getAttribute("data-outage-keep") || "Try again in a moment.";
    var refused = event.type === "htmx:responseError" && event.detail.xhr.status < 500;
    var alert = document.createElement("p");
    alert.className = "message message-error outage";
    alert.setAttribute("role", "alert");
    alert.setAttribute("data-outage", "");
    alert.textContent = lead + ": " + why(event) + (refused ? "" : " " + keep);
    // Under the button; a button in a row of its own (Arrange beside its label) gets
    // the message under that row.
    var row = button.parentElement;
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

  if (window.htmx) {
    // Runs for the page and again for every piece htmx swaps in (a fresh form).
    window.htmx.onLoad(init);
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
  } else {
    document.addEventListener("DOMContentLoaded", function () {
      init(document.body);
    });
  }
})();
