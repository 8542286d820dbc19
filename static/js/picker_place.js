// Where the card picker stands on the screen while the page changes around it: the
// preview that follows each hand, a hand's errors coming and going right above it.
import { on } from "./events.js";

var scrolledAt = 0; // when the picker was last brought into view, moving on
var saveShownAt = 0; // when Save was brought into view, every hand being in

// The picker moved on and was scrolled to (static/js/picker.js).
export function pickerScrolled() {
  scrolledAt = Date.now();
}

// Every hand is in and Save was scrolled to.
export function saveShown() {
  saveShownAt = Date.now();
}


// The live preview that follows a complete hand changes the height of what is above
// the picker: keep it in view for a moment after it moved on.
function keepPickerInView() {
  // A count being typed (a hand counted at the table) keeps the page where it is.
  var typing = document.activeElement;
  if (typing && typing.matches && typing.matches("input[data-figure]")) return;
  // The settlement lands above Save once every hand is in: keep Save in view.
  if (Date.now() - saveShownAt < 2000) {
    var save = document.querySelector("[data-save]");
    var at = save && save.getBoundingClientRect();
    if (at && (at.bottom > window.innerHeight || at.top < 0)) save.scrollIntoView({ block: "end" });
    return;
  }
  if (Date.now() - scrolledAt > 2000) return;
  var picker = document.querySelector("[data-picker]:not([hidden])");
  if (!picker) return;
  var box = picker.getBoundingClientRect();
  if (box.bottom > window.innerHeight || box.top < 0) picker.scrollIntoView({ block: "end" });
}


// A hand's errors that go, or get shorter, while the picker stands right under them
// (Undo took away a copy too many) must not pull its keys up under a finger on its way
// to one: the picker keeps its place, by a margin making up what the errors lost,
// until it moves on (letGo, from aim). Only a live check's answer, which leaves the
// picker where it is, is held so. The margin is the picker's, set as a property: the
// errors are htmx's to swap (it copies their attributes, and the Content-Security-
// Policy refuses a style attribute so copied).
// What grows or shrinks further up (another hand's preview, a line that wraps once the
// round scores) moves what the picker stands after: the page scrolls by as much.
var held = null; // {picker, room, top}: before a swap, from the errors' top to the
// picker's, and the top of what the picker stands after
var cssMargin = null; // the picker's own margin above it (its stylesheet's)
function roomAbove(picker, spot) {
  return picker.getBoundingClientRect().top - spot.getBoundingClientRect().top;
}
function measure(event) {
  var picker = document.querySelector("[data-picker]:not([hidden])");
  var spot = picker && picker.previousElementSibling;
  held = null;
  // A swap that replaces the picker's form (a save's answer, the next round's form)
  // ends its moving on: what it brought into view is gone, and a fresh form's Save or
  // picker pulled into view would take the page away from "Round N saved".
  if (picker && event.detail.target.contains(picker)) scrolledAt = saveShownAt = 0;
  if (!spot || event.detail.target.contains(picker)) return;
  if (!picker.style.marginTop) cssMargin = parseFloat(window.getComputedStyle(picker).marginTop);
  held = { picker: picker, room: roomAbove(picker, spot), top: spot.getBoundingClientRect().top };
}
function hold(event) {
  // A picker put away meanwhile (a seat's hand closed at a link gone) holds nothing.
  if (held && (held.picker.hidden || !held.picker.isConnected)) held = null;
  var spot = held && held.picker.previousElementSibling;
  if (spot && spot.hasAttribute("data-hand-errors")) {
    var picker = held.picker;
    var margin = parseFloat(window.getComputedStyle(picker).marginTop) + held.room - roomAbove(picker, spot);
    picker.style.marginTop = margin > cssMargin + 0.5 ? margin + "px" : "";
  }
  // Scrolled right after the swap, before what the new content brings runs (it may
  // scroll to something of its own: static/js/table_seat.js).
  var moved = spot && event.type === "htmx:afterSwap" ? spot.getBoundingClientRect().top - held.top : 0;
  if (Math.abs(moved) >= 1) window.scrollBy(0, moved);
  if (event.type === "htmx:afterSettle") held = null;
}
on("htmx:beforeSwap", "picker-hold", measure);
on("htmx:afterSwap", "picker-hold", hold);
on("htmx:afterSettle", "picker-hold", hold);
on("htmx:afterSettle", "picker-view", keepPickerInView);

// Moved on: the margin held for it goes.
export function letGo(picker) {
  picker.style.marginTop = "";
}
