// After Save: the problems are listed right above Save. They are shown there and a
// screen reader reads them first (not the list a preview brings again, with those
// left, while the player types); a link in the list goes to its player and aims the
// card picker there. A round saved (or undone) starts the next one in view.
import { on } from "./events.js";
import { aim, pickerOf } from "./picker.js";

var UNDO_MS = 5 * 60 * 1000; // how long "Round N saved" offers Undo

function followProblems(root) {
  var problems = root.querySelector && root.querySelector("[data-problems][data-read-first]");
  if (problems) {
    problems.scrollIntoView({ block: "center" });
    problems.focus({ preventScroll: true });
  }
  // Another phone saved this round first: their round beside mine and the two ways
  // on, at the Save button. All of it in view where it fits, else its end (the
  // choices) with as much of the rounds above as fits; read out from its start.
  var clash = root.querySelector && root.querySelector("[data-clash]");
  if (clash) {
    clash.scrollIntoView({ block: clash.offsetHeight <= window.innerHeight ? "center" : "end" });
    clash.focus({ preventScroll: true });
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
  // A hand counted at the table: its figure or switch itself, no cards, no picker.
  if (field && link.getAttribute("data-fix") === "count") {
    field.focus({ preventScroll: true });
    return field.scrollIntoView({ block: "center" });
  }
  if (field && field.getClientRects().length) { // not the cards put aside by a count
    field.focus({ preventScroll: true });
    // The caret at the end, where the picker's cards and Undo work: focused by a
    // script, a field puts it at its start.
    field.setSelectionRange(field.value.length, field.value.length);
    var picker = pickerOf(field.form);
    if (picker && link.getAttribute("data-fix") === "outcome") {
      // Fixed by an outcome button as often as by the cards (a declaration that is
      // not valid: Invalid declaration): the player's whole part from its top, the
      // outcome buttons, the cards and what is wrong with them, the picker below.
      aim(picker, field, false);
      place.scrollIntoView({ block: "start" });
      return;
    }
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

on("htmx:load", "problems", followProblems);

document.addEventListener("click", function (event) {
  var problem = event.target.closest && event.target.closest("[data-problems] a[href^='#']");
  if (problem) goToProblem(event, problem);
});
