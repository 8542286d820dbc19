// Another phone saved this round. The live table (the session page's poll) brings the
// round count: an open form for a round that is now saved says so. A form nobody has
// typed into becomes the next round, with its dealer. One that holds a round keeps
// its number, and says so at its Save button: Save then shows their round beside
// this one, to discard this one or save it as the next round, knowingly
// (templates/partials/round_clash.html). Moved on silently, a second phone's copy of
// the same round was saved as the next round with one tap.
import { on } from "./events.js";
import { same, valuesOf } from "./draft_forms.js";
import { gettext, interpolate, interpolateNodes } from "./i18n.js";

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
  // Translators: the title over the form of the next round to enter.
  if (title) title.textContent = interpolate(gettext("Round %(number)s"), { number: next });
  var save = form.querySelector("[data-save]");
  // Translators: the button under a round's form.
  if (save) save.textContent = interpolate(gettext("Save round %(number)s"), { number: next });
  var dealer = board.getAttribute("data-dealer-next");
  var dealt = entry.querySelector("[data-dealer]");
  if (dealt) {
    dealt.textContent = "";
    if (dealer) {
      var strong = document.createElement("strong");
      strong.textContent = dealer;
      // Translators: under a round's title: who deals it (their name shown in bold).
      dealt.append(...interpolateNodes(gettext("Dealt by %(dealer)s."), { dealer: strong }));
    }
  }
  var said = interpolate(
    // Translators: over an empty round form the table overtook; it now enters the next round.
    gettext("Round %(number)s was just saved on another phone: this form is for round %(next)s now."),
    { number: number, next: next }
  );
  say(entry, function (note) {
    form.insertAdjacentElement("beforebegin", note);
  }, said);
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
    var said = interpolate(
      // Translators: over Save, when another phone saved the round this form holds typed cards of.
      gettext("Round %(number)s was just saved on another phone. Save shows it beside yours, " +
        "to keep theirs or save yours as the next round."),
      { number: number }
    );
    say(form, function (note) {
      save.insertAdjacentElement("beforebegin", note);
    }, said);
  });
}

on("htmx:afterSettle", "live", function () {
  // The live poll's element holds the round count and next dealer of the table shown.
  var board = document.getElementById("scoreboard-live");
  if (board) followTable(board);
});
