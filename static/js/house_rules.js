// The house rules of a new session or a league: what differs from the preset is said
// as the options are changed, and a number the rule does not take as it is typed.
import { on } from "./events.js";
import { markWrong } from "./fields.js";
import { gettext, interpolate } from "./i18n.js";

// --- What differs from the preset ------------------------------------------------------
// Each option carries its preset's value as its field shows it (data-preset, JSON:
// templates/partials/ruleset_fields.html). As an option is changed, it is marked
// changed (its bar, its "Changed: the preset's is ..." note) or not, and each
// heading over it counts its changes again: none says "as the preset" of a value
// that is not. The server judges the same once the form comes back.

// A value as the server's field reads it (games/forms/fields.py, data-list; Django's
// number field), so the page never says "as the preset" where the server then says
// "changed": a list of numbers split at spaces, commas, ";" or "/"; a list of cards
// split at those and "|", as typed (case counts); a number (empty: none); a choice
// exactly. null: the server would not take it, so it is not the preset's.
function asRead(field, value) {
  var text = String(value === null ? "" : value).trim();
  var kind = field.getAttribute("data-list") || field.type;
  if (kind === "cards") return text.split(/[\s,;/|]+/).filter(Boolean).join(" ");
  if (kind === "numbers") return wholeNumbers(text.split(/[\s,;/]+/).filter(Boolean), /^-?\d{1,7}$/);
  if (kind === "number") return text && wholeNumbers([text], /^-?\d+(\.0*)?$/);
  return text;
}

// Each as Python's int() has it ("050" is 50, "5.0" is 5, "-0" is 0); null if one is
// not a whole number, or there is none.
function wholeNumbers(parts, whole) {
  var all = parts.length && parts.every(function (part) {
    return whole.test(part);
  });
  return all ? parts.map(function (part) {
    return String(parseInt(part, 10));
  }).join(" ") : null;
}

function asThePreset(option) {
  var preset = JSON.parse(option.getAttribute("data-preset"));
  var fields = Array.prototype.slice.call(option.querySelectorAll("[name]"));
  if (Array.isArray(preset)) {
    // The boxes of a choice of several: the same ones ticked, in any order.
    var ticked = fields.filter(function (box) {
      return box.checked;
    }).map(function (box) {
      return box.value;
    });
    return ticked.sort().join(" ") === preset.slice().sort().join(" ");
  }
  if (typeof preset === "boolean") return fields[0].checked === preset;
  var typed = asRead(fields[0], fields[0].value);
  return typed !== null && typed === asRead(fields[0], preset);
}

function markAgainstPreset(option) {
  var changed = !asThePreset(option);
  option.classList.toggle("option-changed", changed);
  var note = option.querySelector("[data-changed]");
  if (note) note.hidden = !changed;
  // Each fold over it (its heading, its "more") says how many of its options differ.
  for (var fold = option.closest("details"); fold; fold = fold.parentElement.closest("details")) {
    var count = fold.querySelector(":scope > summary [data-rule-count]");
    if (!count) continue;
    var changes = fold.querySelectorAll("[data-preset].option-changed").length;
    count.querySelector("[data-count]").textContent = String(changes);
    count.querySelector("[data-changed-count]").hidden = !changes;
    count.querySelector("[data-as-preset]").hidden = Boolean(changes);
  }
}

// A form the browser fills again (Back, a reload that keeps what was typed) shows the
// server's marks for values no longer there: every option is judged again once the
// page (or a piece swapped in) is loaded, and when it is shown again.
function markAllAgainstPreset(root) {
  var options = Array.prototype.slice.call(root.querySelectorAll("[data-option][data-preset]"));
  if (root.matches && root.matches("[data-option][data-preset]")) options.push(root);
  options.forEach(markAgainstPreset);
}

// --- A number the rule does not take ----------------------------------------------------
// A house rule's number field carries the least and the most its rule takes (min,
// max: games/forms/rulesets.py, from games/rules). A number outside them, or not a
// whole one, is said beside the field in the browser's words as it is typed (more
// digits cannot bring it back inside), and unsaid as soon as it is fixed or cleared.
// Not when the field is left: a line appearing then would move Save from under the
// finger that is tapping it. Save still sends it: the server then says why in the
// rules' words, and marks the field until the next Save. A number with an exponent
// ("1e3"), which the browser takes and the server does not, is said in the server's
// words (the note's data-not-whole).
//
// The browser speaks its own language, which need not be the page's (Hindi chosen in
// the footer of a phone set up in English): where the two differ, the page says it in
// its own words instead (a number that is no whole one, in the server's).
function browserSpeaksThePage() {
  var page = (document.documentElement.lang || "").toLowerCase().split("-")[0];
  var browser = (navigator.language || "").toLowerCase().split("-")[0];
  return page === browser;
}

function notTakenMessage(field, note) {
  var validity = field.validity;
  if (/e/i.test(field.value)) return note.getAttribute("data-not-whole");
  if (browserSpeaksThePage()) return field.validationMessage;
  if (validity.rangeUnderflow) {
    // Translators: beside a house rule's number as it is typed, below the least its rule takes.
    return interpolate(gettext("Must be at least %(least)s."), { least: field.min });
  }
  if (validity.rangeOverflow) {
    // Translators: beside a house rule's number as it is typed, above the most its rule takes.
    return interpolate(gettext("Must be at most %(most)s."), { most: field.max });
  }
  return note.getAttribute("data-not-whole");
}

function sayIfNotTaken(field) {
  var note = document.getElementById(field.id + "_not_taken");
  if (!note) return;
  var validity = field.validity;
  var exponent = /e/i.test(field.value);
  var wrong = validity.rangeUnderflow || validity.rangeOverflow || validity.stepMismatch || exponent;
  note.textContent = wrong ? notTakenMessage(field, note) : "";
  // What the server said of it after Save (its error list beside it) stands until the
  // next Save.
  markWrong([field], wrong || Boolean(note.parentNode.querySelector(".errorlist")));
  // Read with the field from the first time it says something (empty, it adds nothing).
  var described = (field.getAttribute("aria-describedby") || "").split(" ").filter(Boolean);
  if (wrong && described.indexOf(note.id) === -1) {
    field.setAttribute("aria-describedby", described.concat(note.id).join(" "));
  }
}

// A page the browser fills again (a reload, Back) holds numbers typed, not sent: each
// is said again as it was. A number the page came with is the server's to judge.
function sayAgainIfNotTaken() {
  document.querySelectorAll("[data-option] input[type=number]").forEach(function (field) {
    if (field.value !== field.defaultValue) sayIfNotTaken(field);
  });
}

// A form's list of problems at its top (partials/form_errors.html) outlives a swap of
// part of the form (another preset, the house rules reset): drop each problem whose
// field is no longer marked wrong, and the list once none is left.
function pruneErrorSummaries() {
  var summaries = document.querySelectorAll(".error-summary");
  Array.prototype.forEach.call(summaries, function (summary) {
    var links = summary.querySelectorAll(".error-links a[href^='#']");
    Array.prototype.forEach.call(links, function (link) {
      var field = document.getElementById(link.getAttribute("href").slice(1));
      var wrong =
        field &&
        (field.getAttribute("aria-invalid") === "true" || field.classList.contains("errorlist"));
      if (!wrong) link.closest("li").remove();
    });
    var list = summary.querySelector(".error-links");
    if (list && !list.children.length) {
      if (summary.querySelector(".errorlist")) {
        list.previousElementSibling.remove(); // "Check what is marked below:"
        list.remove();
      } else {
        summary.remove();
      }
    }
  });
}

// "input" alone: browsers send it for boxes and choices as for typing, each "change"
// after one.
on("input", "house-rules", function (event) {
  var option = event.target.closest && event.target.closest("[data-option][data-preset]");
  if (option) markAgainstPreset(option);
  var field = event.target;
  if (field.matches && field.matches("[data-option] input[type=number]")) sayIfNotTaken(field);
});

window.addEventListener("pageshow", function () {
  markAllAgainstPreset(document);
  sayAgainIfNotTaken();
});

on("htmx:load", "house-rules", markAllAgainstPreset);
on("htmx:afterSettle", "house-rules", pruneErrorSummaries);
