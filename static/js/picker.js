// The card picker: every card is one tap. The picker types into its target, the cut
// joker or a player's groups field, shown right under it; a complete hand moves it on
// to the next player who shows cards. It counts each card's copies in the whole round
// and greys out a card the decks hold no more of. Without this module the round form
// is a plain form and the picker stays hidden.
import { on } from "./events.js";
import { cardsIn, newGroup, typeCard, undoCard } from "./cards.js";
import { startKeyboard, toggleKeyboard } from "./picker_keyboard.js";
import { letGo, pickerScrolled, saveShown } from "./picker_place.js";
import { gettext, interpolate, ngettext } from "./i18n.js";

function formOf(picker) {
  return picker.closest("form");
}

function cutField(form) {
  return form.querySelector("input[data-cut]");
}

function groupsFields(form) {
  return Array.prototype.slice.call(form.querySelectorAll("textarea[data-groups]"));
}

// A hand counted at the table (its Count switch on) has no cards to tap: the picker
// skips it, and its cards typed before are kept aside, counted nowhere. (A seat's
// phone puts its picker away while its one hand is counted: static/js/table_seat.js.)
function counted(field) {
  var hand = field.closest("fieldset.player[data-counts]");
  return Boolean(hand && hand.querySelector("input[data-count-switch]:checked"));
}

function cardFields(form) {
  return groupsFields(form).filter(function (field) { return !counted(field); });
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
    line.textContent = gettext("Tap the cut joker");
  } else {
    // The legend's name first: a seat's phone swaps it in when the player is renamed.
    var fieldset = target.closest("fieldset.player");
    var named = fieldset.querySelector("[data-player-name]");
    var name = named ? named.textContent : fieldset.getAttribute("data-player");
    line.textContent = interpolate(
      // Translators: the card picker's line over its cards: the player whose cards are
      // tapped, how many of a hand's cards are in so far, and a hand's size.
      gettext("Cards for %(name)s: %(count)s of %(size)s"),
      { name: name, count: cardsIn(target.value).length, size: handSize(picker) }
    );
  }
}

// Copies held this round, card by card: every hand and the cut card on the table.
function countCopies(picker) {
  var form = formOf(picker);
  var decks = parseInt(picker.getAttribute("data-decks"), 10); // the ruleset's
  var cut = cardsIn(cutField(form) && cutField(form).value)[0];
  var held = Object.create(null);
  groupsFields(form).forEach(function (field) {
    if (field.hasAttribute("data-set-aside") || counted(field)) return; // a drop's: see markOutcomes
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
    pick.setAttribute(
      "aria-label",
      used
        ? interpolate(
            // Translators: a card's key in the picker, read out: the card, and how many
            // of its copies in the decks are in the round already.
            gettext("%(card)s, %(used)s of %(limit)s used"),
            { card: name, used: used, limit: limit }
          )
        : name
    );
  });
  say(picker);
}

// What the picker stands right after when it types into ``field``: the cut joker's field,
// or a hand's cards with its errors (round_fields.html), so an error stays beside it.
function spotOf(field) {
  if (field.hasAttribute("data-cut")) return field.closest(".field-cut");
  var next = field.nextElementSibling;
  return next && next.hasAttribute("data-hand-errors") ? next : field;
}

// ``stay``: the picker is not moved under the field (see cutCame).
export function aim(picker, field, scroll, stay) {
  var form = formOf(picker);
  form.querySelectorAll("[data-picker-target]").forEach(function (old) {
    old.removeAttribute("data-picker-target");
  });
  field.setAttribute("data-picker-target", "");
  picker.classList.remove("is-done");
  var after = spotOf(field);
  if (!stay && after.nextElementSibling !== picker) {
    letGo(picker);
    after.insertAdjacentElement("afterend", picker);
  }
  say(picker);
  // The whole picker in view, the field it fills just above it.
  if (scroll) {
    picker.scrollIntoView({ block: "end" });
    pickerScrolled();
  }
}

// The next player (after `from`, in seat order) who shows cards and has fewer than a
// hand's worth; none left: the picker has done its work.
function nextHand(picker, from) {
  var fields = groupsFields(formOf(picker));
  var start = from ? fields.indexOf(from) + 1 : 0;
  for (var i = 0; i < fields.length; i++) {
    var field = fields[(start + i) % fields.length];
    if (field === from || counted(field)) continue;
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
  if (line) line.textContent = picker.getAttribute("data-done") || gettext("Every hand is in: check the settlement and save.");
  // Nothing left to tap: the cards fold away, as they stood open over the last hand's
  // outcomes (a last player marked Middle drop) and between them and Save. Undo and the
  // other keys stay; a tap on a field opens the cards again (aim).
  picker.classList.add("is-done");
  // Hands counted at the table wait for their figures: the first of them comes into view.
  var figure = Array.prototype.find.call(formOf(picker).querySelectorAll("input[data-figure]"), function (input) {
    return input.type === "text" && !input.value && input.getClientRects().length;
  });
  if (figure) {
    if (line) line.textContent = gettext("Cards done: type the counts, then save.");
    return figure.scrollIntoView({ block: "center" });
  }
  if (save) {
    save.scrollIntoView({ block: "center" });
    saveShown();
  }
}

var lastTyped = null; // the field the picker's last card went into (press)
function press(picker, key) {
  var field = targetOf(picker);
  var action = key.getAttribute("data-key");
  if (cameCut && key.getAttribute("data-card") === cameCut.code && Date.now() - cameCut.at < CUT_TAP_MS) {
    cameCut = null; // the cut joker, tapped here as it came from another phone: it is in
    return;
  }
  cameCut = null;
  if (action === "keyboard") return toggleKeyboard(picker, key, field);
  if (action === "next") return moveOn(picker, field && !field.hasAttribute("data-cut") ? field : null);
  // Undo takes back the last card tapped, in the hand it went into, even once the
  // picker has moved on from it: to the next hand, still empty, or to none (every hand
  // in). It took a card of the first player's hand, out of sight.
  var last = lastTyped && lastTyped.isConnected && formOf(picker).contains(lastTyped) &&
    !lastTyped.hasAttribute("data-set-aside") ? lastTyped : null;
  if (action === "undo" && last && (!field || (field !== last && !field.value.trim()))) {
    field = last;
    aim(picker, field, true);
  }
  if (!field) {
    // Every hand was complete: a card tapped now goes to the first player again.
    field = cardFields(formOf(picker))[0];
    if (!field) return;
    aim(picker, field, false);
  }
  if (key.hasAttribute("data-card")) {
    if (key.getAttribute("aria-disabled") === "true") return refuse(picker, key);
    if (spotOf(field).nextElementSibling !== picker && !field.hasAttribute("data-cut")) aim(picker, field, true);
    typeCard(field, key.getAttribute("data-card"));
    lastTyped = field;
    if (field.hasAttribute("data-cut")) return moveOn(picker, null);
    if (cardsIn(field.value).length >= handSize(picker)) return moveOn(picker, field);
  } else if (action === "group" && !field.hasAttribute("data-cut")) {
    newGroup(field);
  }
  else if (action === "undo") undoCard(field);
  countCopies(picker);
}

// A greyed-out card tapped: the line the picker speaks in says why it took nothing,
// until the next tap counts again. One line on a phone, so that no key moves.
function refuse(picker, key) {
  var line = picker.querySelector("[data-picker-for]");
  if (!line) return;
  var form = formOf(picker);
  var code = key.getAttribute("data-card");
  var decks = parseInt(picker.getAttribute("data-decks"), 10); // the ruleset's
  var face = key.querySelector(".pick-face").textContent;
  // Why a card tapped took nothing: the decks hold no more of it (its face, "Q♥").
  // One deck has one copy ("it"), several have several ("one" of them).
  var said;
  if (cardsIn(cutField(form) && cutField(form).value)[0] === code) {
    said = decks > 1
      // Translators: a card tapped in the picker; the decks hold no copy of it but the cut joker's.
      ? gettext("No %(card)s left: one is the cut joker")
      // Translators: a card tapped in the picker; its only copy (one deck) is the cut joker.
      : gettext("No %(card)s left: it is the cut joker");
  } else if (decks === 1) {
    // Translators: a card tapped in the picker; one deck, its only copy is in a hand.
    said = gettext("The only %(card)s is already used");
  } else if (decks === 2) {
    // Translators: a card tapped in the picker; two decks, both copies are in hands.
    said = gettext("Both %(card)s are already used");
  } else {
    // Translators: a card tapped in the picker; %(count)s decks (three or more), every copy in a hand.
    said = ngettext("All %(count)s %(card)s are already used", "All %(count)s %(card)s are already used", decks);
  }
  line.textContent = interpolate(said, { card: face, count: decks });
}

// A player who drops shows no cards: their groups field folds away. The cards a hand
// held when the scorer switched it to a drop (a declarer who dropped after all) are set
// aside with it, disabled: counted nowhere, neither here nor by the live check nor by
// Save, which are not sent them. A card outcome chosen again brings them back as they
// were. A drop served with cards (the rules take a Paplu drop's value cards, from a
// league file) keeps them in view, counted, as they were saved; under Paplu's drop
// rules (data-drops-keep-cards) a drop's cards are its value cards, so none is set aside.
function markOutcomes(form, picker, switched) {
  var keep = picker.hasAttribute("data-drops-keep-cards");
  form.querySelectorAll("fieldset.player").forEach(function (fieldset) {
    var field = fieldset.querySelector("textarea[data-groups]");
    if (!field) return;
    var drops = !showsCards(picker, field);
    var aside = field.hasAttribute("data-set-aside");
    if (aside && !drops) {
      field.removeAttribute("data-set-aside");
      field.disabled = false;
    } else if (!keep && !aside && drops && fieldset === switched && field.value.trim() && !field.disabled) {
      field.setAttribute("data-set-aside", "");
      field.disabled = true;
    }
    var none = drops && (field.hasAttribute("data-set-aside") || !field.value.trim());
    fieldset.classList.toggle("shows-no-cards", none);
  });
}

// Where the picker starts: under the cut joker while it is empty, else under the
// first hand still short of cards (all of them in: the first player's).
function aimAtStart(picker) {
  var form = formOf(picker);
  var cut = cutField(form);
  if (cut && !cut.value.trim()) return aim(picker, cut, false);
  var hand = nextHand(picker, null) || cardFields(form)[0];
  if (hand) return aim(picker, hand, false);
  // Every hand counted at the table: folded under the cut joker, nothing to tap.
  if (!cut) return;
  aim(picker, cut, false);
  picker.classList.add("is-done");
  picker.querySelector("[data-picker-for]").textContent = gettext("Every hand is counted: type the counts, then save.");
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

// What was typed, put back after a reload (static/js/drafts.js), fills the fields
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
    startKeyboard(picker);
    markOutcomes(form, picker);
    aimAtStart(picker);
    countCopies(picker);
  });
}

export function pickerOf(form) {
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

on("input", "picker", function (event) {
  var field = event.target;
  var picker = field.form && pickerOf(field.form);
  if (!picker) return;
  if (field.matches("textarea[data-groups], input[data-cut]")) countCopies(picker);
  if (field.matches("[data-counts] input[data-count-switch]")) switched(picker, field);
  if (field.matches('fieldset.player input[type="radio"]')) {
    var hand = field.closest("fieldset.player");
    markOutcomes(field.form, picker, hand);
    countCopies(picker); // a hand's cards set aside, or back
    // Choosing a drop for the player the picker serves: on to the next hand.
    var target = targetOf(picker);
    if (target && target.closest("fieldset.player") === hand && hand.classList.contains("shows-no-cards")) {
      moveOn(picker, target);
    }
  }
});

// A hand switched to its count: the picker moves on from it. Switched back to its
// cards (Count off, or a winner's Declared: static/js/counts.js), the picker comes to
// them, unless the cut joker is still to tap.
function switched(picker, toggle) {
  var cards = toggle.closest("fieldset.player").querySelector("textarea[data-groups]");
  var target = targetOf(picker);
  countCopies(picker);
  if (toggle.checked && target === cards) return moveOn(picker, cards);
  if (toggle.checked || !showsCards(picker, cards) || (target && target.hasAttribute("data-cut") && !target.value.trim())) return;
  if (cardsIn(cards.value).length < handSize(picker)) aim(picker, cards, true);
}

// Pressing a key must not take the focus (and the caret) away from the field.
document.addEventListener("mousedown", function (event) {
  if (event.target.closest && event.target.closest("[data-picker] button")) event.preventDefault();
});

document.addEventListener("click", function (event) {
  var key = event.target.closest && event.target.closest("[data-picker] button");
  if (key) press(key.closest("[data-picker]"), key);
});

// Once htmx listens: for the page, and again for every piece it swaps in (a fresh form).
on("htmx:load", "picker", init);
on("htmx:load", "picker-cut", cutCame);
