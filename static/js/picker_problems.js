// A hand's problem beside the card picker. The picker moves on once a hand is
// complete, and what the live check then finds wrong with that hand (a declaration
// that is not valid, a card too many) is said under it: behind the picker, soon above
// the screen, learnt only at Save. So the picker says it too, at its top, until it is
// fixed, with a link that brings that hand into view: its outcome buttons (Invalid
// declaration, say), its cards and the problem under them.
import { on } from "./events.js";
import { gettext, interpolate, interpolateNodes } from "./i18n.js";

// What is said wrong with a hand: Save's errors under its cards, or the live check's.
function problemOf(fieldset) {
  var said = fieldset.querySelector("[data-hand-errors] li, [data-preview] .problem");
  return said ? said.textContent.trim() : "";
}

function slotOf(picker) {
  return picker.querySelector("[data-picker-problem]");
}

// The first hand in seat order, other than the one the picker fills (its errors stand
// right above the picker), that has a problem.
function firstProblem(picker) {
  var form = picker.closest("form");
  var target = form && form.querySelector("[data-picker-target]");
  var serving = target && target.closest("fieldset.player");
  var hands = form ? form.querySelectorAll("fieldset.player") : [];
  for (var i = 0; i < hands.length; i++) {
    var problem = hands[i] !== serving && problemOf(hands[i]);
    if (problem) return { hand: hands[i], text: problem };
  }
  return null;
}

function show(slot, found) {
  slot.textContent = "";
  if (!found) return;
  var name = found.hand.getAttribute("data-player");
  var strong = document.createElement("strong");
  strong.textContent = name;
  var text = document.createElement("span");
  text.className = "picker-problem-text";
  text.append(
    // Translators: over the card picker, a player (shown in bold) and what is wrong with their hand.
    ...interpolateNodes(gettext("%(name)s: %(problem)s"), { name: strong, problem: found.text })
  );
  var link = document.createElement("a");
  link.href = "#" + found.hand.id;
  link.setAttribute("data-show-hand", "");
  // Translators: a link over the card picker to a player's hand that has a problem.
  link.textContent = interpolate(gettext("Show %(name)s"), { name: name });
  slot.append(text, " ", link);
}

// Said again after each change; the picker's cards keep their place on the screen
// as the line comes or goes above them (a finger may be on its way to one).
function update(picker) {
  var slot = slotOf(picker);
  if (!slot || picker.hidden) return;
  var found = firstProblem(picker);
  var key = found ? found.hand.id + "\n" + found.text : "";
  if (slot.getAttribute("data-said") === key) return;
  var cards = picker.querySelector(".picker-suit") || picker;
  var before = cards.getBoundingClientRect().top;
  show(slot, found);
  slot.setAttribute("data-said", key);
  var moved = cards.getBoundingClientRect().top - before;
  var seen = before > 0 && before < window.innerHeight;
  if (seen && Math.abs(moved) >= 1) window.scrollBy(0, moved);
}

function updateAll() {
  document.querySelectorAll("[data-picker]").forEach(update);
}

// The live check's answers (a hand's problem found, or gone); the picker's taps and
// the fields it follows (static/js/picker.js, whose listeners come first: this module
// is loaded after it).
on("htmx:afterSettle", "picker-problems", updateAll);
on("input", "picker-problems", updateAll);
document.addEventListener("click", updateAll);
document.addEventListener("focusin", updateAll);

// The link: the hand from its top (its name and outcome buttons), its cards and
// what is wrong with them below. The picker stays where it is.
document.addEventListener("click", function (event) {
  var link = event.target.closest && event.target.closest("[data-show-hand]");
  var hand = link && document.getElementById(link.getAttribute("href").slice(1));
  if (!hand) return;
  event.preventDefault();
  hand.scrollIntoView({ block: "start" });
});
