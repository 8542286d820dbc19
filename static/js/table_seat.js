// Table mode, a seat's phone: its hand's edits counted, and the hand closed where the
// table link is gone. Where each answer goes the server says (htmx's responseHandling
// in templates/base.html, HX-Retarget and HX-Reswap): nothing here reads an answer.
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

// The table link is gone: the server says so with the seat's status line alone,
// declared to replace #seat-status whichever region asked (games/views/table.py,
// _link_gone; docs/inside/table-mode.md). The hand, still open as typed, is closed
// here as games/table_seat.html's closed state shows it (the one place that says how
// it looks: data-closed, which the stylesheet and static/js/drafts.js read; fields
// disabled; no picker, Hand in or Leave), to be read out. It reads the status swapped
// into the page, never an answer's body or status code.
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
