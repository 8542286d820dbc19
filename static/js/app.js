// Progressive enhancement for the scorekeeper. Every page works without this file:
// the round form is a plain form and the card picker stays hidden; here the picker
// types cards into the field being entered, known players can be seated by tap, the
// problems after Save are shown where the finger is, an open form follows a round
// saved on another phone, the house rules say what differs from the preset as they
// are changed, and a request that fails (no network, a 5xx, a timeout) is said
// beside the button tapped.
(function () {
  "use strict";

  var touchFirst = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;

  // --- The card picker ------------------------------------------------------------
  // Every card is one tap. The picker types into its target, the cut joker or a
  // player's groups field, shown right under it; a complete hand moves it on to the
  // next player who shows cards. It counts each card's copies in the whole round and
  // greys out a card the decks hold no more of.

  var UNDO_MS = 5 * 60 * 1000; // how long "Round N saved" offers Undo
  var scrolledAt = 0; // when the picker was last brought into view, moving on
  var saveShownAt = 0; // when Save was brought into view, every hand being in

  // The live preview that follows a complete hand changes the height of what is above
  // the picker: keep it in view for a moment after it moved on.
  function keepPickerInView() {
    // The settlement lands above Save once every hand is in: keep Save in view.
    if (Date.now() - saveShownAt < 2000) {
      var save = document.querySelector("[data-save]");
      var at = save && save.getBoundingClientRect();
      if (at && (at.bottom > window.innerHeight || at.top < 0)) save.scrollIntoView({ block: "end" });
      return;
    }
    if (Date.now() - scrolledAt > 2000) return;
    var picker = document.querySelector("[data-picker]:not([hidden])");
    if (!picker) return;
    var box = picker.getBoundingClientRect();
    if (box.bottom > window.innerHeight || box.top < 0) picker.scrollIntoView({ block: "end" });
  }

  // The card notation as the rules service reads it (games/rules/cards.py NOTATION, in
  // the picker's data-notation): its token pattern finds a joker, a range or one card,
  // and the picker counts the cards the rules will score, as typed by hand too.
  var notation = null;

  function grammar() {
    if (notation) return notation;
    var source = document.querySelector("[data-notation]");
    if (!source) return null;
    var spec = JSON.parse(source.getAttribute("data-notation"));
    notation = {
      spec: spec,
      token: new RegExp(spec.token, "gi"),
      atEnd: new RegExp("(?:" + spec.token + ")$", "i"),
      separator: new RegExp("[" + spec.separators.replace(/[\]\\^-]/g, "\\$&") + "]")
    };
    return notation;
  }

  function letterOf(spec, suit) {
    return spec.suits[suit.charAt(0).toUpperCase()];
  }

  // A token's cards: a range's as cards.py's _expand_range gives them (an Ace is low at
  // the start and high at the end; one running backwards or mixing suits is no cards).
  function cardsOf(spec, token) {
    if (token.joker) return [spec.printed_joker];
    if (token.rank) return [spec.names[spec.ranks[token.rank.toUpperCase()]] + letterOf(spec, token.suit)];
    var suit = letterOf(spec, token.last_suit);
    var from = spec.ranks[token.first.toUpperCase()], to = spec.ranks[token.last.toUpperCase()];
    if (to === 1 && from !== 1) to = 14;
    if ((token.first_suit && letterOf(spec, token.first_suit) !== suit) || from >= to) return [];
    var codes = [];
    for (var rank = from; rank <= to; rank++) codes.push(spec.names[rank === 14 ? 1 : rank] + suit);
    return codes;
  }

  function cardsIn(text) {
    var read = grammar(), codes = [];
    if (!read) return codes;
    String(text || "").replace(read.token, function () {
      var groups = arguments[arguments.length - 1]; // the named groups
      codes.push.apply(codes, cardsOf(read.spec, groups));
      return "";
    });
    return codes;
  }

  function formOf(picker) {
    return picker.closest("form");
  }

  function cutField(form) {
    return form.querySelector("input[data-cut]");
  }

  function groupsFields(form) {
    return Array.prototype.slice.call(form.querySelectorAll("textarea[data-groups]"));
  }

  // The player's chosen outcome, and whether it shows cards (a drop needs none).
  function showsCards(picker, field) {
    var fieldset = field.closest("fieldset.player");
    var chosen = fieldset && fieldset.querySelector('input[type="radio"]:checked');
    var outcomes = (picker.getAttribute("data-card-outcomes") || "").split(" ");
    return !chosen || outcomes.indexOf(chosen.value) !== -1;
  }

  function handSize(picker) {
    return parseInt(picker.getAttribute("data-hand-size"), 10); // the ruleset's
  }

  function targetOf(picker) {
    var form = formOf(picker);
    return form && form.querySelector("[data-picker-target]");
  }

  function say(picker) {
    var target = targetOf(picker);
    var line = picker.querySelector("[data-picker-for]");
    if (!target || !line) return;
    if (target.hasAttribute("data-cut")) {
      line.textContent = "Tap the cut joker";
    } else {
      // The legend's name first: a seat's phone swaps it in when the player is renamed.
      var fieldset = target.closest("fieldset.player");
      var named = fieldset.querySelector("[data-player-name]");
      var name = named ? named.textContent : fieldset.getAttribute("data-player");
      line.textContent = "Cards for " + name + ": " + cardsIn(target.value).length + " of " + handSize(picker);
    }
  }

  // Copies held this round, card by card: every hand and the cut card on the table.
  function countCopies(picker) {
    var form = formOf(picker);
    var decks = parseInt(picker.getAttribute("data-decks"), 10); // the ruleset's
    var cut = cardsIn(cutField(form) && cutField(form).value)[0];
    var held = Object.create(null);
    groupsFields(form).forEach(function (field) {
      cardsIn(field.value).forEach(function (code) {
        held[code] = (held[code] || 0) + 1;
      });
    });
    picker.querySelectorAll("[data-card]").forEach(function (pick) {
      var code = pick.getAttribute("data-card");
      var used = held[code] || 0;
      var limit = decks - (code === cut ? 1 : 0);
      var full = used >= limit;
      pick.querySelector("[data-count]").textContent = used ? used + "/" + limit : "";
      pick.classList.toggle("is-used", used > 0);
      pick.classList.toggle("is-full", full);
      pick.setAttribute("aria-disabled", String(full));
      var name = pick.getAttribute("data-name");
      pick.setAttribute("aria-label", used ? name + ", " + used + " of " + limit + " used" : name);
    });
    say(picker);
  }

  // What the picker stands right after when it types into ``field``: the cut joker's
  // whole field, or a hand's cards with what is wrong with them (partials/round_fields.html,
  // player_errors), so that an error stays beside its field.
  function spotOf(field) {
    if (field.hasAttribute("data-cut")) return field.closest(".field-cut");
    var next = field.nextElementSibling;
    return next && next.hasAttribute("data-hand-errors") ? next : field;
  }

  // ``stay``: the picker is not moved under the field (see cutCame).
  function aim(picker, field, scroll, stay) {
    var form = formOf(picker);
    form.querySelectorAll("[data-picker-target]").forEach(function (old) {
      old.removeAttribute("data-picker-target");
    });
    field.setAttribute("data-picker-target", "");
    var after = spotOf(field);
    if (!stay && after.nextElementSibling !== picker) {
      letGo(picker);
      after.insertAdjacentElement("afterend", picker);
    }
    say(picker);
    // The whole picker in view, the field it fills just above it.
    if (scroll) {
      picker.scrollIntoView({ block: "end" });
      scrolledAt = Date.now();
    }
  }

  // A hand's errors that go, or get shorter, while the picker stands right under them
  // (Undo took away a copy too many) must not pull its keys up under a finger on its way
  // to one: the picker keeps its place, by a margin making up what the errors lost,
  // until it moves on (letGo, from aim). Only a live check's answer, which leaves the
  // picker where it is, is held so. The margin is the picker's, set as a property: the
  // errors are htmx's to swap (it copies their attributes, and the Content-Security-
  // Policy refuses a style attribute so copied).
  // What grows or shrinks further up (another hand's preview, a line that wraps once the
  // round scores) moves what the picker stands after: the page scrolls by as much.
  var held = null; // {picker, room, top}: before a swap, from the errors' top to the
  // picker's, and the top of what the picker stands after
  var cssMargin = null; // the picker's own margin above it (app.css)
  function roomAbove(picker, spot) {
    return picker.getBoundingClientRect().top - spot.getBoundingClientRect().top;
  }
  document.addEventListener("htmx:beforeSwap", function (event) {
    var picker = document.querySelector("[data-picker]:not([hidden])");
    var spot = picker && picker.previousElementSibling;
    held = null;
    if (!spot || event.detail.target.contains(picker)) return;
    if (!picker.style.marginTop) cssMargin = parseFloat(window.getComputedStyle(picker).marginTop);
    held = { picker: picker, room: roomAbove(picker, spot), top: spot.getBoundingClientRect().top };
  });
  function hold(event) {
    // A picker put away meanwhile (a seat's hand closed at a link gone) holds nothing.
    if (held && (held.picker.hidden || !held.picker.isConnected)) held = null;
    var spot = held && held.picker.previousElementSibling;
    if (spot && spot.hasAttribute("data-hand-errors")) {
      var picker = held.picker;
      var margin = parseFloat(window.getComputedStyle(picker).marginTop) + held.room - roomAbove(picker, spot);
      picker.style.marginTop = margin > cssMargin + 0.5 ? margin + "px" : "";
    }
    // Scrolled right after the swap, before what the new content brings runs (it may
    // scroll to something of its own: closeSeatHand).
    var moved = spot && event.type === "htmx:afterSwap" ? spot.getBoundingClientRect().top - held.top : 0;
    if (Math.abs(moved) >= 1) window.scrollBy(0, moved);
    if (event.type === "htmx:afterSettle") held = null;
  }
  document.addEventListener("htmx:afterSwap", hold);
  document.addEventListener("htmx:afterSettle", hold);

  function letGo(picker) {
    picker.style.marginTop = "";
  }

  // A live check whose answer says in the settlement's place (or a seat's check) what
  // the page says already leaves it as it is: that region is aria-live, and swapped in
  // anew it would be read out again at every pause in typing. What comes out of band
  // (each hand's preview and errors) is swapped as ever.
  function squeezed(html) {
    return html.replace(/ class=""/g, "").replace(/\s+/g, " ").trim();
  }
  document.addEventListener("htmx:beforeSwap", function (event) {
    var region = event.detail.target;
    var answer = event.detail.serverResponse;
    if (!region || !region.hasAttribute("data-live-check") || typeof answer !== "string") return;
    var parsed = document.createElement("template");
    parsed.innerHTML = answer;
    parsed.content.querySelectorAll("[hx-swap-oob], title").forEach(function (apart) {
      apart.remove();
    });
    if (squeezed(parsed.innerHTML) === squeezed(region.innerHTML)) event.detail.swapOverride = "none";
  });

  // A hand's errors, or the cut joker's, that a live check brings again unchanged stay
  // as they are: swapped in anew, their alert would be read out again at every pause
  // in typing. Changed, they are swapped, and read out once.
  var WRONG_FLAGS = ["data-outcome-wrong", "data-groups-wrong"];
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var shown = event.detail.target;
    var fresh = event.detail.fragment.firstElementChild;
    if (!fresh || !shown.matches("[data-hand-errors], [data-cut-errors]")) return;
    var same = fresh.innerHTML === shown.innerHTML && WRONG_FLAGS.every(function (flag) {
      return fresh.hasAttribute(flag) === shown.hasAttribute(flag);
    });
    if (same) event.detail.shouldSwap = false;
  });

  // The next player (after `from`, in seat order) who shows cards and has fewer than a
  // hand's worth; none left: the picker has done its work.
  function nextHand(picker, from) {
    var fields = groupsFields(formOf(picker));
    var start = from ? fields.indexOf(from) + 1 : 0;
    for (var i = 0; i < fields.length; i++) {
      var field = fields[(start + i) % fields.length];
      if (field === from) continue;
      if (showsCards(picker, field) && cardsIn(field.value).length < handSize(picker)) return field;
    }
    return null;
  }

  function moveOn(picker, from) {
    var next = nextHand(picker, from);
    if (next) return aim(picker, next, true);
    var save = formOf(picker).querySelector("[data-save], .button-save");
    if (from) from.removeAttribute("data-picker-target");
    say(picker);
    var line = picker.querySelector("[data-picker-for]");
    // A seat's phone (table mode) enters one hand: its picker says what comes next there.
    if (line) line.textContent = picker.getAttribute("data-done") || "Every hand is in: check the settlement and save.";
    if (save) {
      save.scrollIntoView({ block: "center" });
      saveShownAt = Date.now();
    }
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
    if (field.hasAttribute("data-cut")) return replace(field, 0, field.value.length, code);
    var range = selection(field);
    var separator = grammar().separator;
    // A caret a finger put inside a card ("6|D") or before one: the card goes after
    // it, not into it ("6 QDD").
    while (range[0] === range[1] && range[1] < field.value.length && !separator.test(field.value.charAt(range[1]))) {
      range = [range[0] + 1, range[1] + 1];
    }
    var before = field.value.slice(0, range[0]);
    var spaced = before && !separator.test(before.slice(-1)) ? " " + code : code;
    replace(field, range[0], range[1], spaced);
    var end = range[0] + spaced.length;
    return { field: field, code: code, start: end - code.length, end: end };
  }

  function newGroup(field) {
    var range = selection(field);
    var before = field.value.slice(0, range[0]).replace(/\s+$/, "");
    replace(field, before.length, range[1], before ? " | " : "");
  }

  // Undo: the card the picker put in last, where it still stands as put (the caret
  // may have been moved since: a tap inside the field); else the token before the
  // caret (a card, a whole range typed by hand, or a group's bar).
  function undoCard(field) {
    var tapped = lastTap;
    lastTap = null;
    var range = selection(field);
    if (range[0] !== range[1]) return replace(field, range[0], range[1], ""); // text chosen
    if (tapped && tapped.field === field && field.value.slice(tapped.start, tapped.end) === tapped.code) {
      return takeOut(field, tapped.start, tapped.end);
    }
    var before = field.value.slice(0, range[0]).replace(/\s+$/, "");
    var read = grammar();
    var card = read && before.match(read.atEnd);
    var cut = card ? card[0].length : before.slice(-1) === "|" ? 1 : Math.min(1, before.length);
    takeOut(field, before.length - cut, range[1]);
  }

  // Take the text from start to end out, and the space before it; what stood on either
  // side stays apart ("5H 6H 7H" less 6H is "5H 7H", never "5H7H").
  function takeOut(field, start, end) {
    var kept = field.value.slice(0, start).replace(/\s+$/, "");
    var after = field.value.slice(end);
    var apart = kept && ((after && !/^\s/.test(after)) || (!after && /\|$/.test(kept)));
    replace(field, kept.length, end, apart ? " " : "");
  }

  var lastTap = null; // the card the picker put in last: {field, code, start, end}
  // Typed on the keyboard since: Undo takes the token before the caret, like the rest.
  document.addEventListener("beforeinput", function (event) {
    if (lastTap && event.target === lastTap.field) lastTap = null;
  });
  var lastTyped = null; // the field the picker's last card went into (press)
  function press(picker, key) {
    var field = targetOf(picker);
    var action = key.getAttribute("data-key");
    if (cameCut && key.getAttribute("data-card") === cameCut.code && Date.now() - cameCut.at < CUT_TAP_MS) {
      cameCut = null; // the cut joker, tapped here as it came from another phone: it is in
      return;
    }
    cameCut = null;
    if (action === "keyboard") return toggleKeyboard(picker, key);
    if (action === "next") return moveOn(picker, field && !field.hasAttribute("data-cut") ? field : null);
    // Undo takes back the last card tapped, in the hand it went into, even once the
    // picker has moved on from it: to the next hand, still empty, or to none (every hand
    // in). It took a card of the first player's hand, out of sight.
    var last = lastTyped && lastTyped.isConnected && formOf(picker).contains(lastTyped) ? lastTyped : null;
    if (action === "undo" && last && (!field || (field !== last && !field.value.trim()))) {
      field = last;
      aim(picker, field, true);
    }
    if (!field) {
      // Every hand was complete: a card tapped now goes to the first player again.
      field = groupsFields(formOf(picker))[0];
      if (!field) return;
      aim(picker, field, false);
    }
    if (key.hasAttribute("data-card")) {
      if (key.getAttribute("aria-disabled") === "true") return;
      if (spotOf(field).nextElementSibling !== picker && !field.hasAttribute("data-cut")) aim(picker, field, true);
      lastTap = typeCard(field, key.getAttribute("data-card"));
      lastTyped = field;
      if (field.hasAttribute("data-cut")) return moveOn(picker, null);
      if (cardsIn(field.value).length >= handSize(picker)) return moveOn(picker, field);
    } else if (action === "group" && !field.hasAttribute("data-cut")) {
      lastTap = null; // Undo now takes the bar back first
      newGroup(field);
    }
    else if (action === "undo") undoCard(field);
    countCopies(picker);
  }

  // On a phone the system keyboard hides most of the screen; with the picker it can
  // stay closed (inputmode=none) until the keyboard key asks for it. On a phone the
  // choice holds for the forms that come after in this tab (a refused Save's, the next
  // round's, a reload's): a player who types keeps typing. (With a mouse and a keyboard
  // both work from the start, and the key only folds the cards away.)
  var KEYBOARD = "scorekeeper:keyboard"; // sessionStorage: "on" or "off", once chosen
  var keyboardChosen = null; // where sessionStorage is refused
  function chosenKeyboard() {
    if (!touchFirst) return null;
    try {
      var kept = window.sessionStorage.getItem(KEYBOARD);
      if (kept) return kept === "on";
    } catch (refused) {}
    return keyboardChosen;
  }

  function toggleKeyboard(picker, key) {
    var on = key.getAttribute("aria-pressed") !== "true";
    if (touchFirst) {
      keyboardChosen = on;
      try {
        window.sessionStorage.setItem(KEYBOARD, on ? "on" : "off");
      } catch (refused) {}
    }
    useKeyboard(picker, on);
    var field = targetOf(picker);
    if (field) {
      field.blur();
      field.focus();
    }
  }

  function useKeyboard(picker, on) {
    picker.querySelector('[data-key="keyboard"]').setAttribute("aria-pressed", String(on));
    // Typing on the system keyboard: the cards fold away so the fields stay in view.
    picker.classList.toggle("is-folded", on);
    formOf(picker).querySelectorAll("textarea[data-groups], input[data-cut]").forEach(function (field) {
      if (on) field.removeAttribute("inputmode");
      else field.setAttribute("inputmode", "none");
    });
  }

  // A player who drops shows no cards: their groups field folds away while empty.
  function markOutcomes(form, picker) {
    form.querySelectorAll("fieldset.player").forEach(function (fieldset) {
      var field = fieldset.querySelector("textarea[data-groups]");
      var none = field && !showsCards(picker, field) && !field.value.trim();
      fieldset.classList.toggle("shows-no-cards", Boolean(none));
    });
  }

  // Where the picker starts: under the cut joker while it is empty, else under the
  // first hand still short of cards (all of them in: the first player's).
  function aimAtStart(picker) {
    var form = formOf(picker);
    var cut = cutField(form);
    if (cut && !cut.value.trim()) return aim(picker, cut, false);
    aim(picker, nextHand(picker, null) || groupsFields(form)[0], false);
  }

  // The table's cut joker came by the poll (another phone entered it first) while this
  // phone's picker waited for it: the field became the known cut in its place and size
  // (games/table_seat.html), and the picker now asks for the hand where it stands, so
  // nothing moves under a finger on its way to a card; it follows the hand's field
  // from the next tap (press). A tap on that very card just after is the cut joker,
  // tapped here too: not the hand's first card.
  var CUT_TAP_MS = 2000;
  var cameCut = null; // {code, at}
  function cutCame(root) {
    if (root.id !== "seat-cut") return;
    var form = root.closest("form");
    var picker = pickerOf(form);
    var cut = cutField(form);
    if (!picker || !cut || !cut.value) return;
    countCopies(picker); // the cut's copies (the scorer may have corrected it)
    // Waiting for the cut: the picker stood right under its field (aim).
    if (root.nextElementSibling !== picker || targetOf(picker)) return;
    cameCut = { code: cut.value, at: Date.now() };
    var field = nextHand(picker, null);
    if (field) aim(picker, field, false, true);
  }

  // What was typed, put back after a reload (static/js/offline.js), fills the fields
  // the picker was aimed among when the page was drawn: aim it again from the start.
  // Left under the cut joker put back, the next card tapped would replace it.
  // (The input events of the fields put back have recounted and marked already.)
  document.addEventListener("draft:restored", function (event) {
    var picker = pickerOf(event.target);
    if (picker) aimAtStart(picker);
  });

  function init(root) {
    var pickers = root.matches && root.matches("[data-picker]") ? [root] : [];
    pickers = pickers.concat(Array.prototype.slice.call(root.querySelectorAll("[data-picker]")));
    pickers.forEach(function (picker) {
      var form = formOf(picker);
      if (!form || !groupsFields(form).length) return;
      picker.hidden = false;
      var chosen = chosenKeyboard();
      if (chosen !== null) {
        useKeyboard(picker, chosen);
      } else if (touchFirst) {
        form.querySelectorAll("textarea[data-groups], input[data-cut]").forEach(function (field) {
          field.setAttribute("inputmode", "none");
        });
      } else {
        picker.querySelector('[data-key="keyboard"]').setAttribute("aria-pressed", "true");
      }
      markOutcomes(form, picker);
      aimAtStart(picker);
      countCopies(picker);
    });
    // The picks come alone too (out of band, once another league is picked).
    var picks = root.querySelectorAll ? Array.prototype.slice.call(root.querySelectorAll("[data-picks]")) : [];
    if (root.matches && root.matches("[data-picks]")) picks.push(root);
    picks.forEach(function (box) {
      box.hidden = false;
      markPicks(box.closest("fieldset"));
    });
    followProblems(root);
  }

  function pickerOf(form) {
    var picker = form && form.querySelector("[data-picker]");
    return picker && !picker.hidden ? picker : null;
  }

  // A tap on the field still focused, the picker having moved on from it, brings the
  // picker back to it: no focusin comes, as the picker's keys never take the focus.
  document.addEventListener("click", function (event) {
    var field = event.target;
    if (!(field.matches && field.matches("textarea[data-groups], input[data-cut]"))) return;
    var picker = pickerOf(field.form);
    if (picker && targetOf(picker) !== field) aim(picker, field, false);
  });

  // The picker follows the field being typed into.
  document.addEventListener("focusin", function (event) {
    var field = event.target;
    if (!(field.matches && field.matches("textarea[data-groups], input[data-cut]"))) return;
    var picker = pickerOf(field.form);
    if (picker) aim(picker, field, false);
  });

  document.addEventListener("input", function (event) {
    var field = event.target;
    var picker = field.form && pickerOf(field.form);
    if (!picker) return;
    if (field.matches("textarea[data-groups], input[data-cut]")) countCopies(picker);
    if (field.matches('fieldset.player input[type="radio"]')) {
      markOutcomes(field.form, picker);
      // Choosing a drop for the player the picker serves: on to the next hand.
      var target = targetOf(picker);
      if (target && target.closest("fieldset.player") === field.closest("fieldset.player") &&
          !showsCards(picker, target) && !target.value.trim()) moveOn(picker, target);
    }
  });

  // Pressing a key must not take the focus (and the caret) away from the field.
  document.addEventListener("mousedown", function (event) {
    if (event.target.closest && event.target.closest("[data-picker] button")) event.preventDefault();
  });

  document.addEventListener("click", function (event) {
    var key = event.target.closest && event.target.closest("[data-picker] button");
    if (key) return press(key.closest("[data-picker]"), key);
    var pick = event.target.closest && event.target.closest("[data-pick]");
    if (pick) seat(pick);
    var problem = event.target.closest && event.target.closest("[data-problems] a[href^='#']");
    if (problem) goToProblem(event, problem);
  });

  // --- After Save -----------------------------------------------------------------
  // The problems are listed right above Save: show them there and let a screen reader
  // read them first (not the list a preview brings again, with those left, while the
  // player types). A link in the list goes to its player (and aims the picker there).
  function followProblems(root) {
    var problems = root.querySelector && root.querySelector("[data-problems][data-read-first]");
    if (problems) {
      problems.scrollIntoView({ block: "center" });
      problems.focus({ preventScroll: true });
    }
    var saved = root.querySelector && root.querySelector("[data-saved], [data-undone]");
    // The next round starts here: the totals line, "Round N saved", the cut joker.
    if (saved) (saved.closest("#round-entry") || saved).scrollIntoView({ block: "start" });
    // What the page said before (a hand handed in, a round deleted) came before this
    // save or undo: its message replaces them.
    if (saved) {
      document.querySelectorAll("main > .page-messages").forEach(function (old) {
        old.parentNode.removeChild(old);
      });
    }
    // Undo is for the moment after Save; later a round is deleted from its own page.
    var undo = root.querySelector && root.querySelector("[data-undo]");
    if (undo) {
      window.setTimeout(function () {
        if (undo.parentNode) undo.parentNode.removeChild(undo);
      }, UNDO_MS);
    }
  }

  function goToProblem(event, link) {
    var place = document.getElementById(link.getAttribute("href").slice(1));
    if (!place) return;
    event.preventDefault();
    var field = place.matches("input, textarea") ? place : place.querySelector("textarea[data-groups]");
    if (field) {
      field.focus({ preventScroll: true });
      // The caret at the end, where the picker's cards and Undo work: focused by a
      // script, a field puts it at its start.
      field.setSelectionRange(field.value.length, field.value.length);
      var picker = pickerOf(field.form);
      if (picker) {
        // Scrolled to once the picker has come (from above, it took a screen with it):
        // the whole picker in view, Undo card included, and the field with its label
        // and its errors above it, or, where not all fit, the field first.
        aim(picker, field, false);
        picker.scrollIntoView({ block: "end" });
        var head = field.hasAttribute("data-cut") ? field.closest(".field-cut") : field.previousElementSibling;
        if ((head || field).getBoundingClientRect().top < 0) (head || field).scrollIntoView({ block: "start" });
        return;
      }
    }
    place.scrollIntoView({ block: "start" });
  }

  // --- Another phone saved this round ---------------------------------------------
  // The live table brings the round count: an open form for a round that is now saved
  // says so, keeps what was typed and becomes the next round, with its dealer.
  function followTable(board) {
    var rounds = parseInt(board.getAttribute("data-rounds"), 10);
    document.querySelectorAll("form[data-new-round]").forEach(function (form) {
      var number = parseInt(form.getAttribute("data-new-round"), 10);
      if (!(rounds >= number)) return;
      var next = rounds + 1;
      form.setAttribute("data-new-round", String(next));
      var hidden = form.querySelector('input[name="number"]');
      if (hidden) hidden.value = String(next);
      var entry = form.closest("#round-entry") || form.parentElement;
      var title = entry.querySelector("[data-round-title]");
      if (title) title.textContent = "Round " + next;
      var save = form.querySelector("[data-save]");
      if (save) save.textContent = "Save round " + next;
      var dealer = board.getAttribute("data-dealer-next");
      var dealt = entry.querySelector("[data-dealer]");
      if (dealt) {
        dealt.textContent = "";
        if (dealer) {
          var strong = document.createElement("strong");
          strong.textContent = dealer;
          dealt.append("Dealt by ", strong, ".");
        }
      }
      var note = entry.querySelector("[data-moved]") || document.createElement("p");
      note.className = "message message-warning";
      note.setAttribute("role", "alert");
      note.setAttribute("data-moved", "");
      note.textContent =
        "Round " + number + " was just saved on another phone. What you typed is kept " +
        "and saves as round " + next + "; if it was the same round, reload to start afresh.";
      if (!note.parentNode) form.insertAdjacentElement("beforebegin", note);
    });
  }

  // A form's list of problems at its top (partials/form_errors.html) outlives a swap of
  // part of the form (another preset, the house rules reset): drop each problem whose
  // field is no longer marked wrong, and the list once none is left.
  function pruneErrorSummaries() {
    var summaries = document.querySelectorAll(".error-summary");
    Array.prototype.forEach.call(summaries, function (summary) {
      var links = summary.querySelectorAll(".error-links a[href^='#']");
      Array.prototype.forEach.call(links, function (link) {
        var field = document.getElementById(link.getAttribute("href").slice(1));
        var wrong =
          field &&
          (field.getAttribute("aria-invalid") === "true" || field.classList.contains("errorlist"));
        if (!wrong) link.closest("li").remove();
      });
      var list = summary.querySelector(".error-links");
      if (list && !list.children.length) {
        if (summary.querySelector(".errorlist")) {
          list.previousElementSibling.remove(); // "Check what is marked below:"
          list.remove();
        } else {
          summary.remove();
        }
      }
    });
  }

  // A round form's fields marked wrong (aria-invalid) by Save follow the live check,
  // which is not swapped over the fields being typed in: each player's errors say
  // whether their outcome and groups are wrong now, the cut joker's errors whether it is.
  function markFields() {
    document.querySelectorAll("[data-hand-errors][id^='errors-']").forEach(function (errors) {
      var fieldset = document.getElementById("player-" + errors.id.slice("errors-".length));
      if (!fieldset) return;
      markWrong(fieldset.querySelectorAll("textarea[data-groups]"), errors.hasAttribute("data-groups-wrong"));
      markWrong(fieldset.querySelectorAll(".outcomes input[type=radio]"), errors.hasAttribute("data-outcome-wrong"));
    });
    document.querySelectorAll("[data-cut-errors]").forEach(function (errors) {
      var field = errors.parentNode.querySelector("input[data-cut]");
      if (field) markWrong([field], Boolean(errors.querySelector("li")));
    });
  }

  function markWrong(fields, wrong) {
    Array.prototype.forEach.call(fields, function (field) {
      if (wrong) field.setAttribute("aria-invalid", "true");
      else field.removeAttribute("aria-invalid");
    });
  }

  document.addEventListener("htmx:afterSettle", function () {
    // The live poll's element holds the round count and next dealer of the table shown.
    var board = document.getElementById("scoreboard-live");
    if (board) followTable(board);
    keepPickerInView();
    pruneErrorSummaries();
    markFields();
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

  // --- House rules: what differs from the preset -------------------------------------
  // Each option carries its preset's value as its field shows it (data-preset, JSON:
  // templates/partials/ruleset_fields.html). As an option is changed, it is marked
  // changed (its bar, its "Changed: the preset's is ..." note) or not, and each
  // heading over it counts its changes again: none says "as the preset" of a value
  // that is not. The server judges the same once the form comes back.

  // A value as the server's field reads it (games/forms/fields.py, data-list; Django's
  // number field), so the page never says "as the preset" where the server then says
  // "changed": a list of numbers split at spaces, commas, ";" or "/"; a list of cards
  // split at those and "|", as typed (case counts); a number (empty: none); a choice
  // exactly. null: the server would not take it, so it is not the preset's.
  function asRead(field, value) {
    var text = String(value === null ? "" : value).trim();
    var kind = field.getAttribute("data-list") || field.type;
    if (kind === "cards") return text.split(/[\s,;/|]+/).filter(Boolean).join(" ");
    if (kind === "numbers") return wholeNumbers(text.split(/[\s,;/]+/).filter(Boolean), /^-?\d{1,7}$/);
    if (kind === "number") return text && wholeNumbers([text], /^-?\d+(\.0*)?$/);
    return text;
  }

  // Each as Python's int() has it ("050" is 50, "5.0" is 5, "-0" is 0); null if one is
  // not a whole number, or there is none.
  function wholeNumbers(parts, whole) {
    var all = parts.length && parts.every(function (part) {
      return whole.test(part);
    });
    return all ? parts.map(function (part) {
      return String(parseInt(part, 10));
    }).join(" ") : null;
  }

  function asThePreset(option) {
    var preset = JSON.parse(option.getAttribute("data-preset"));
    var fields = Array.prototype.slice.call(option.querySelectorAll("[name]"));
    if (Array.isArray(preset)) {
      // The boxes of a choice of several: the same ones ticked, in any order.
      var ticked = fields.filter(function (box) {
        return box.checked;
      }).map(function (box) {
        return box.value;
      });
      return ticked.sort().join(" ") === preset.slice().sort().join(" ");
    }
    if (typeof preset === "boolean") return fields[0].checked === preset;
    var typed = asRead(fields[0], fields[0].value);
    return typed !== null && typed === asRead(fields[0], preset);
  }

  function markAgainstPreset(option) {
    var changed = !asThePreset(option);
    option.classList.toggle("option-changed", changed);
    var note = option.querySelector("[data-changed]");
    if (note) note.hidden = !changed;
    // Each fold over it (its heading, its "more") says how many of its options differ.
    for (var fold = option.closest("details"); fold; fold = fold.parentElement.closest("details")) {
      var count = fold.querySelector(":scope > summary [data-rule-count]");
      if (!count) continue;
      var changes = fold.querySelectorAll("[data-preset].option-changed").length;
      count.querySelector("[data-count]").textContent = String(changes);
      count.querySelector("[data-changed-count]").hidden = !changes;
      count.querySelector("[data-as-preset]").hidden = Boolean(changes);
    }
  }

  // "input" alone: browsers send it for boxes and choices as for typing, each "change"
  // after one.
  document.addEventListener("input", function (event) {
    var option = event.target.closest && event.target.closest("[data-option][data-preset]");
    if (option) markAgainstPreset(option);
  });

  // A form the browser fills again (Back, a reload that keeps what was typed) shows the
  // server's marks for values no longer there: every option is judged again once the
  // page (or a piece swapped in) is loaded, and when it is shown again.
  function markAllAgainstPreset(root) {
    var options = Array.prototype.slice.call(root.querySelectorAll("[data-option][data-preset]"));
    if (root.matches && root.matches("[data-option][data-preset]")) options.push(root);
    options.forEach(markAgainstPreset);
  }

  window.addEventListener("pageshow", function () {
    markAllAgainstPreset(document);
  });

  // --- House rules: a number the rule does not take ----------------------------------
  // A house rule's number field carries the least and the most its rule takes (min,
  // max: games/forms/rulesets.py, from games/rules). A number outside them, or not a
  // whole one, is said beside the field in the browser's words as it is typed (more
  // digits cannot bring it back inside), and unsaid as soon as it is fixed or cleared.
  // Not when the field is left: a line appearing then would move Save from under the
  // finger that is tapping it. Save still sends it: the server then says why in the
  // rules' words, and marks the field until the next Save. A number with an exponent
  // ("1e3"), which the browser takes and the server does not, is said in the server's
  // words (the note's data-not-whole).
  function sayIfNotTaken(field) {
    var note = document.getElementById(field.id + "_not_taken");
    if (!note) return;
    var validity = field.validity;
    var exponent = /e/i.test(field.value);
    var wrong = validity.rangeUnderflow || validity.rangeOverflow || validity.stepMismatch || exponent;
    note.textContent = !wrong ? "" : exponent ? note.getAttribute("data-not-whole") : field.validationMessage;
    // What the server said of it after Save (its error list beside it) stands until the
    // next Save.
    markWrong([field], wrong || Boolean(note.parentNode.querySelector(".errorlist")));
    // Read with the field from the first time it says something (empty, it adds nothing).
    var described = (field.getAttribute("aria-describedby") || "").split(" ").filter(Boolean);
    if (wrong && described.indexOf(note.id) === -1) {
      field.setAttribute("aria-describedby", described.concat(note.id).join(" "));
    }
  }

  document.addEventListener("input", function (event) {
    var field = event.target;
    if (field.matches && field.matches("[data-option] input[type=number]")) sayIfNotTaken(field);
  });

  // A page the browser fills again (a reload, Back) holds numbers typed, not sent: each
  // is said again as it was. A number the page came with is the server's to judge.
  window.addEventListener("pageshow", function () {
    document.querySelectorAll("[data-option] input[type=number]").forEach(function (field) {
      if (field.value !== field.defaultValue) sayIfNotTaken(field);
    });
  });

  // --- Importing a league ----------------------------------------------------------
  // The league's name field shows the name in the file chosen, to keep or change. A
  // name typed by hand stays; empty, the import takes the file's anyway.
  document.addEventListener("change", function (event) {
    var input = event.target;
    if (!input.matches || !input.matches("input[data-league-file]")) return;
    var name = input.form && input.form.querySelector("input[data-league-name]");
    var file = input.files && input.files[0];
    if (!name || !file || !file.text) return;
    file.text().then(function (text) {
      var league = JSON.parse(text).league;
      var given = league && typeof league.name === "string" ? league.name.trim() : "";
      var untouched = !name.value.trim() || name.value === name.getAttribute("data-from-file");
      if (given && untouched) {
        name.value = given;
        name.setAttribute("data-from-file", given);
      }
    }).catch(function () {
      // Not a league file: the import says why.
    });
  });

  // --- Table mode: a seat's phone --------------------------------------------------
  // Every change to the hand counts one edit (the picker's taps fire "input" too). The
  // server keeps a write only if it is no older than the hand it holds, so a check
  // still in flight when the hand was handed in can never bring an older hand back.
  document.addEventListener(
    "input",
    function (event) {
      var form = event.target.form;
      var edit = form && form.hasAttribute("data-seat-form") && form.querySelector("input[data-edit]");
      if (edit) edit.value = String((parseInt(edit.value, 10) || 0) + 1);
    },
    true
  );

  // A hand sent for a round already saved (or changed meanwhile by the scorer) is
  // refused with a 403 or 409 that says so and shows the round open now, and one sent
  // at a table link gone with a 410 that shows the page there (or, from a page of a
  // seat this phone no longer holds, the status alone): swap it in like a form error,
  // rather than "the server refused it".
  document.addEventListener("htmx:beforeSwap", function (event) {
    var xhr = event.detail.xhr;
    var target = event.detail.target || event.target; // the seat's section the form swaps
    var seatHand = target && target.id === "seat-hand";
    var says = /id="seat-hand"|data-table-closed/;
    if (seatHand && xhr && xhr.status >= 400 && xhr.status < 500 && says.test(xhr.responseText || "")) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });

  // The status says the table link is gone while the hand is still open: the server
  // swaps the closed page in itself when it knows this phone's seat there
  // (views/table.py, _gone_in_place), but when it does not (the phone's seat cookie
  // ran out, or is another seat's by now: games.access.seat_of_page) only the status
  // comes. The hand is closed here as
  // games/table_seat.html's closed state shows it (the one place that says how it
  // looks: data-closed, which app.css and offline.js read; fields disabled; no picker,
  // Hand in or Leave), to be read out as typed.
  function closeSeatHand(root) {
    var told = root.id === "seat-status" && root.querySelector("[data-table-closed]");
    var open = document.querySelectorAll("form[data-seat-form]:not([data-closed])");
    if (!told || !open.length) return;
    open.forEach(function (form) {
      form.setAttribute("data-closed", ""); // first: offline.js keeps the draft as it was
      if (form.contains(document.activeElement)) document.activeElement.blur();
      form.querySelectorAll("fieldset.player, input[type='text'][data-cut]").forEach(function (field) {
        field.disabled = true;
      });
      form.querySelectorAll("[data-picker], [data-hand-in]").forEach(function (part) {
        part.hidden = true;
      });
      // offline.js: never sent now, and "You had handed this hand in" if it was.
      form.dispatchEvent(new CustomEvent("seat:closed", { bubbles: true }));
    });
    document.querySelectorAll("#seat-hand .leave-form").forEach(function (leave) {
      leave.hidden = true;
    });
    told.scrollIntoView({ block: "nearest" }); // the finger was on the picker, below it
  }

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
    // No answer to a round form's save: static/js/offline.js keeps it and says so.
    if (event.type === "htmx:sendError" && elt.hasAttribute("data-queued")) return;
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

  // A field changed before htmx listened (a tap while a slow phone was still loading
  // the page's scripts, or the browser restoring a form on Back) asked for no preview:
  // ask for it once htmx listens, or the preview would show the round as it was
  // (static/js/offline.js keeps it as a draft too). A round form holds text fields
  // and radios, no select.
  function changedBeforeLoad(field) {
    return fieldState(field, true) !== fieldState(field, false);
  }

  // A field as it is now, or (``served``) as the page was served: its default, whatever
  // was typed or tapped since. A box or radio: ticked or not; another field: its value
  // (a select keeps no default: it reads as served). offline.js's drafts read fields by
  // it too, so both say alike what changed since the page was served (this file runs
  // first: templates/base.html).
  function fieldState(field, served) {
    if (field.type === "checkbox" || field.type === "radio") return served ? field.defaultChecked : field.checked;
    return served && "defaultValue" in field ? field.defaultValue : field.value;
  }

  window.scorekeeper = { fieldState: fieldState };

  function previewEarlyChanges(root) {
    if (root !== document.body) return;
    document.querySelectorAll("form").forEach(function (form) {
      if (!form.querySelector("[hx-trigger^='input']")) return;
      if (Array.prototype.some.call(form.elements, changedBeforeLoad)) window.htmx.trigger(form, "input");
    });
  }

  if (window.htmx) {
    // Runs for the page and again for every piece htmx swaps in (a fresh form).
    window.htmx.onLoad(init);
    window.htmx.onLoad(previewEarlyChanges);
    window.htmx.onLoad(closeSeatHand);
    window.htmx.onLoad(cutCame);
    window.htmx.onLoad(markAllAgainstPreset);
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
