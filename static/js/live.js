// Another phone saved this round. The live table (the session page's poll) brings the
// round count: an open form for a round that is now saved says so. A form nobody has
// typed into becomes the next round, with its dealer. One that holds a round keeps
// its number, and says so at its Save button: Save then shows their round beside
// this one, to discard this one or save it as the next round, knowingly
// (templates/partials/round_clash.html). Moved on silently, a second phone's copy of
// the same round was saved as the next round with one tap.
import { on } from "./events.js";
import { same, valuesOf } from "./draft_forms.js";

function say(place, where, text) {
  var note = place.querySelector("[data-moved]") || document.createElement("p");
  note.className = "message message-warning";
  note.setAttribute("role", "alert");
  note.setAttribute("data-moved", "");
  note.textContent = text;
  if (!note.parentNode) where(note);
}

function moveOn(form, board, number, rounds) {
  var next = rounds + 1;
  form.setAttribute("data-new-round", String(next));
  var hidden = form.querySelector('input[name="number"]');
  if (hidden) hidden.value = String(next);
  // Opened, in effect, at the next round: nothing typed was there to compare.
  var opened = form.querySelector('input[name="opened"]');
  if (opened) opened.value = String(next);
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
  say(entry, function (note) {
    form.insertAdjacentElement("beforebegin", note);
  }, "Round " + number + " was just saved on another phone: this form is for round " + next + " now.");
}

function followTable(board) {
  var rounds = parseInt(board.getAttribute("data-rounds"), 10);
  document.querySelectorAll("form[data-new-round]").forEach(function (form) {
    var number = parseInt(form.getAttribute("data-new-round"), 10);
    if (!(rounds >= number)) return;
    if (same(valuesOf(form), valuesOf(form, true))) return moveOn(form, board, number, rounds);
    var save = form.querySelector("[data-save]");
    if (!save || form.hasAttribute("data-overtaken")) return;
    form.setAttribute("data-overtaken", "");
    say(form, function (note) {
      save.insertAdjacentElement("beforebegin", note);
    }, "Round " + number + " was just saved on another phone. Save shows it beside yours, " +
      "to keep theirs or save yours as the next round.");
  });
}

on("htmx:afterSettle", "live", function () {
  // The live poll's element holds the round count and next dealer of the table shown.
  var board = document.getElementById("scoreboard-live");
  if (board) followTable(board);
});
