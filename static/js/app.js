// Progressive enhancement for the scorekeeper. Every page works without this file:
// the round form is a plain form and the keypad stays hidden; here the keypad types
// cards into the groups field being edited, and known players can be seated by tap.
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
      return;
    }
    var empty = inputs.find(function (input) {
      return !input.value.trim();
    });
    if (empty) empty.value = name;
  }

  if (window.htmx) {
    // Runs for the page and again for every piece htmx swaps in (a fresh form).
    window.htmx.onLoad(init);
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
