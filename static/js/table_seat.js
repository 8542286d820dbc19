// Table mode, a seat's phone: its hand's edits counted, a refusal shown as the page
// the server sent, and the hand closed where the table link is gone.
import { on } from "./events.js";

// Every change to the hand counts one edit (the picker's taps fire "input" too). The
// server keeps a write only if it is no older than the hand it holds, so a check
// still in flight when the hand was handed in can never bring an older hand back.
// Counted in the capture phase, before the form's own listener (htmx's) sends the
// check with the count in it.
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
on("htmx:beforeSwap", "table-seat", function (event) {
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
// looks: data-closed, which the stylesheet and static/js/drafts.js read; fields disabled; no picker,
// Hand in or Leave), to be read out as typed.
function closeSeatHand(root) {
  var told = root.id === "seat-status" && root.querySelector("[data-table-closed]");
  var open = document.querySelectorAll("form[data-seat-form]:not([data-closed])");
  if (!told || !open.length) return;
  open.forEach(function (form) {
    form.setAttribute("data-closed", ""); // first: static/js/drafts.js keeps the draft as it was
    if (form.contains(document.activeElement)) document.activeElement.blur();
    form.querySelectorAll("fieldset.player, input[type='text'][data-cut]").forEach(function (field) {
      field.disabled = true;
    });
    form.querySelectorAll("[data-picker], [data-hand-in]").forEach(function (part) {
      part.hidden = true;
    });
    // static/js/drafts.js: never sent now, and "You had handed this hand in" if it was.
    form.dispatchEvent(new CustomEvent("seat:closed", { bubbles: true }));
  });
  document.querySelectorAll("#seat-hand .leave-form").forEach(function (leave) {
    leave.hidden = true;
  });
  told.scrollIntoView({ block: "nearest" }); // the finger was on the picker, below it
}

on("htmx:load", "table-seat", closeSeatHand);
