// A round's live check (the preview asked for as a round form or a seat's hand is
// typed): what it brings again unchanged is left in place, and the fields marked wrong
// follow what it says.
import { on } from "./events.js";
import { markWrong } from "./fields.js";

// A live check whose answer says in the settlement's place (or a seat's check) what
// the page says already leaves it as it is: that region is aria-live, and swapped in
// anew it would be read out again at every pause in typing. What comes out of band
// (each hand's preview and errors) is swapped as ever.
function squeezed(html) {
  return html.replace(/ class=""/g, "").replace(/\s+/g, " ").trim();
}

function keepSameAnswer(event) {
  var region = event.detail.target;
  var answer = event.detail.serverResponse;
  if (!region || !region.hasAttribute("data-live-check") || typeof answer !== "string") return;
  var parsed = document.createElement("template");
  parsed.innerHTML = answer;
  parsed.content.querySelectorAll("[hx-swap-oob], title").forEach(function (apart) {
    apart.remove();
  });
  if (squeezed(parsed.innerHTML) === squeezed(region.innerHTML)) event.detail.swapOverride = "none";
}
on("htmx:beforeSwap", "check", keepSameAnswer);

// A hand's errors, or the cut joker's, that a live check brings again unchanged stay
// as they are: swapped in anew, their alert would be read out again at every pause
// in typing. Changed, they are swapped, and read out once.
var WRONG_FLAGS = ["data-outcome-wrong", "data-groups-wrong", "data-counted-wrong", "data-figures-wrong"];
document.addEventListener("htmx:oobBeforeSwap", function (event) {
  var shown = event.detail.target;
  var fresh = event.detail.fragment.firstElementChild;
  if (!fresh || !shown.matches("[data-hand-errors], [data-cut-errors]")) return;
  var same = fresh.innerHTML === shown.innerHTML && WRONG_FLAGS.every(function (flag) {
    return fresh.getAttribute(flag) === shown.getAttribute(flag);
  });
  if (same) event.detail.shouldSwap = false;
});

// A round form's fields marked wrong (aria-invalid) by Save follow the live check,
// which is not swapped over the fields being typed in: each player's errors say
// whether their outcome and groups (or figures) are wrong now, the cut joker's errors
// whether it is.
function markFields() {
  document.querySelectorAll("[data-hand-errors][id^='errors-']").forEach(function (errors) {
    var fieldset = document.getElementById("player-" + errors.id.slice("errors-".length));
    if (!fieldset) return;
    markWrong(fieldset.querySelectorAll("textarea[data-groups]"), errors.hasAttribute("data-groups-wrong"));
    markWrong(fieldset.querySelectorAll(".outcomes input[type=radio]"), errors.hasAttribute("data-outcome-wrong"));
    // A counted hand's: its switch, and each figure named wrong (a seat's phone marks its own).
    if (!fieldset.hasAttribute("data-counts")) return;
    markWrong(fieldset.querySelectorAll("input[data-count-switch]"), errors.hasAttribute("data-counted-wrong"));
    var figures = " " + (errors.getAttribute("data-figures-wrong") || "") + " ";
    fieldset.querySelectorAll("input[data-figure]").forEach(function (input) {
      markWrong([input], figures.indexOf(" " + input.getAttribute("data-figure") + " ") !== -1);
    });
  });
  document.querySelectorAll("[data-cut-errors]").forEach(function (errors) {
    var field = errors.parentNode.querySelector("input[data-cut]");
    if (field) markWrong([field], Boolean(errors.querySelector("li")));
  });
}

on("htmx:afterSettle", "check", markFields);
