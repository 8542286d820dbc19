// Another phone saved this round. The live table (the session page's poll) brings the
// round count: an open form for a round that is now saved says so, keeps what was
// typed and becomes the next round, with its dealer.
import { on } from "./events.js";

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

on("htmx:afterSettle", "live", function () {
  // The live poll's element holds the round count and next dealer of the table shown.
  var board = document.getElementById("scoreboard-live");
  if (board) followTable(board);
});
