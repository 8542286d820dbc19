// Table mode, a seat's phone: its hand's edits counted, and the hand closed where the
// table link is gone. Where each answer goes the server says (htmx's responseHandling
// in templates/base.html, HX-Retarget and HX-Reswap): nothing here reads an answer.
import { on } from "./events.js";
import { markWrong } from "./fields.js";

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

// A hand counted at the table (partials/seat_hand.html#count_fields): the Count switch
// shows for the outcomes that may be counted, each figure for the outcomes that give
// it, and the fieldset is data-counting while the switch is on for such an outcome:
// the stylesheet then shows the figures in the cards' place. The server reads the
// form the same way (games/forms/table.py, HandForm.counting). Where the house rules
// trust the table's show, Declared on a hand with no cards typed turns the switch on:
// the winner's one tap.
function listed(element, name) {
  return (element.getAttribute(name) || "").split(" ");
}

function followCount(fieldset, tapped) {
  var row = fieldset.querySelector("[data-count-switch-row]");
  if (!row) return;
  var chosen = fieldset.querySelector('.outcomes input[type="radio"]:checked');
  var outcome = chosen ? chosen.value : "";
  var countable = listed(row, "data-count-outcomes").indexOf(outcome) !== -1;
  var toggle = row.querySelector("[data-count-switch]");
  var cards = fieldset.querySelector("textarea[data-groups]");
  row.hidden = !countable;
  if (tapped === chosen && outcome === "declared" && countable && !toggle.checked && cards && !cards.value.trim()) {
    toggle.checked = true;
    toggle.dispatchEvent(new Event("input", { bubbles: true })); // kept, counted, checked
    return;
  }
  fieldset.toggleAttribute("data-counting", countable && toggle.checked);
  fieldset.querySelectorAll("[data-figure-outcomes]").forEach(function (figure) {
    figure.hidden = listed(figure, "data-figure-outcomes").indexOf(outcome) === -1;
  });
  placePicker(fieldset.form);
}

// A counted hand has no cards to tap: the picker is put away once the cut joker is in
// (the table's, or typed here), and back as it was when the switch goes off. Put away
// with its hidden attribute, so static/js/picker.js and picker_place.js leave it be
// (neither aims nor keeps in view a picker that is hidden), and a figure's error
// coming above its place never scrolls the page.
function placePicker(form) {
  var picker = form && form.querySelector("[data-picker]");
  if (!picker || form.hasAttribute("data-closed")) return;
  var cut = form.querySelector("input[data-cut]");
  var cutIn = !cut || Boolean(cut.value.trim());
  picker.hidden = Boolean(form.querySelector("fieldset.player[data-counting]")) && cutIn;
}

document.addEventListener("input", function (event) {
  var form = event.target.form;
  if (!form || !form.hasAttribute("data-seat-form")) return;
  var fieldset = event.target.closest("fieldset.player");
  if (fieldset && event.target.matches('[data-count-switch], .outcomes input[type="radio"]')) {
    followCount(fieldset, event.target);
  } else if (event.target.matches("input[data-cut]")) {
    placePicker(form);
  }
});

// The page, a hand swapped in (Hand in's answer) or the table's cut joker come by the
// poll: after static/js/picker.js has shown its picker (events.js orders them).
on("htmx:load", "table-seat", function (root) {
  var forms = root.matches && root.matches("form[data-seat-form]") ? [root] : [];
  var inside = root.closest && root.closest("form[data-seat-form]");
  if (inside) forms.push(inside);
  if (root.querySelectorAll) forms = forms.concat(Array.prototype.slice.call(root.querySelectorAll("form[data-seat-form]")));
  forms.forEach(placePicker);
});

// A figure marked wrong (aria-invalid) follows the live check, which brings its errors
// again beside it (out of band), never the field being typed in; brought again
// unchanged, they stay as they are, not read out again.
document.addEventListener("htmx:oobBeforeSwap", function (event) {
  var shown = event.detail.target;
  var fresh = event.detail.fragment.firstElementChild;
  if (!fresh || !shown.matches("[data-figure-errors]")) return;
  var same = fresh.innerHTML === shown.innerHTML &&
    fresh.hasAttribute("data-figure-wrong") === shown.hasAttribute("data-figure-wrong");
  if (same) event.detail.shouldSwap = false;
});

document.addEventListener("htmx:afterSettle", function () {
  document.querySelectorAll("form[data-seat-form] [aria-describedby^='figure-errors-']").forEach(function (field) {
    var errors = document.getElementById(field.getAttribute("aria-describedby"));
    if (errors) markWrong([field], errors.hasAttribute("data-figure-wrong"));
  });
});
