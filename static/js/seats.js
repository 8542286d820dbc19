// Quick picks on the new-session form: a known player's name, tapped, takes the first
// empty seat, or leaves the seat it holds. The picks stay hidden without this module.
import { on } from "./events.js";

function seat(pick) {
  var name = pick.getAttribute("data-pick");
  var inputs = Array.prototype.slice.call(
    pick.closest("fieldset").querySelectorAll("input[data-seat]")
  );
  var seated = inputs.filter(function (input) {
    return input.value.trim().toLowerCase() === name.toLowerCase();
  });
  if (seated.length) {
    seated.forEach(function (input) {
      input.value = "";
    });
  } else {
    var empty = inputs.find(function (input) {
      return !input.value.trim();
    });
    if (empty) empty.value = name;
  }
  markPicks(pick.closest("fieldset"));
}

// A pick is a toggle: it says whether that player is seated (aria-pressed, shown
// filled), however the name got into a seat: a tap, typing, or the toss.
function markPicks(fieldset) {
  if (!fieldset) return;
  var seated = Object.create(null);
  fieldset.querySelectorAll("input[data-seat]").forEach(function (input) {
    var name = input.value.trim().toLowerCase();
    if (name) seated[name] = true;
  });
  fieldset.querySelectorAll("[data-pick]").forEach(function (pick) {
    var on = seated[pick.getAttribute("data-pick").toLowerCase()] === true;
    pick.setAttribute("aria-pressed", String(on));
  });
}

// The picks come alone too (out of band, once another league is picked).
function showPicks(root) {
  var picks = root.querySelectorAll ? Array.prototype.slice.call(root.querySelectorAll("[data-picks]")) : [];
  if (root.matches && root.matches("[data-picks]")) picks.push(root);
  picks.forEach(function (box) {
    box.hidden = false;
    markPicks(box.closest("fieldset"));
  });
}

on("htmx:load", "seats", showPicks);

on("input", "seats", function (event) {
  var field = event.target;
  if (field.matches && field.matches("input[data-seat]")) markPicks(field.closest("fieldset"));
});

document.addEventListener("click", function (event) {
  var pick = event.target.closest && event.target.closest("[data-pick]");
  if (pick) seat(pick);
});
