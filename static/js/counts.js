// A hand counted at the table (partials/round_fields.html#count_switch): its Count
// switch follows the outcome chosen, and the figures its cards give come in only where
// nothing was typed yet. Without this module the form works as served: the switch and
// the figures are plain fields, shown and hidden by round_form.css.
import { on } from "./events.js";

// An outcome at which the hand is not counted (data-for-<outcome> of its switch: a
// winner the table's show is not trusted for, a drop with nothing to count) switches
// it to its cards: a winner's are what the scorer taps next, and the card picker goes
// there (static/js/picker.js hears the switch). Chosen back before any card is typed,
// the hand is counted again: a mistaken tap costs nothing.
function followOutcome(event) {
  var radio = event.target;
  var hand = radio.closest && radio.closest("fieldset.player");
  var toggle = hand && hand.querySelector("input[data-count-switch]");
  if (!toggle) return;
  if (radio === toggle) {
    if (event.isTrusted) toggle.removeAttribute("data-count-off"); // the scorer's own choice
    return;
  }
  if (!radio.matches('.outcomes input[type="radio"]')) return;
  var counts = toggle.closest(".chip-count").hasAttribute("data-for-" + radio.value);
  var cards = hand.querySelector("textarea[data-groups]");
  if (toggle.checked && !counts) {
    toggle.checked = false;
    toggle.setAttribute("data-count-off", "");
  } else if (counts && toggle.hasAttribute("data-count-off") && !(cards && cards.value.trim())) {
    toggle.checked = true;
    toggle.removeAttribute("data-count-off");
  } else {
    return;
  }
  toggle.dispatchEvent(new Event("input", { bubbles: true }));
}

on("input", "counts", followOutcome);

// The figures of the cards typed, brought by a live check once the hand is switched to
// its count, fill fields still blank; figures typed meanwhile are the scorer's, kept.
document.addEventListener("htmx:oobBeforeSwap", function (event) {
  var shown = event.detail.target;
  if (!shown.matches("[data-figures]")) return;
  var typed = Array.prototype.some.call(shown.querySelectorAll("input[type=text]"), function (input) {
    return input.value.trim() || input === document.activeElement;
  });
  if (typed) event.detail.shouldSwap = false;
});
