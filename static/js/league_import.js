// Importing a league: the league's name field shows the name in the file chosen, to
// keep or change. A name typed by hand stays; empty, the import takes the file's anyway.
import { gettext, interpolate } from "./i18n.js";

document.addEventListener("change", function (event) {
  var input = event.target;
  if (!input.matches || !input.matches("input[data-league-file]")) return;
  var name = input.form && input.form.querySelector("input[data-league-name]");
  var file = input.files && input.files[0];
  if (!name || !file || !file.text) return;
  file.text().then(function (text) {
    var league = JSON.parse(text).league;
    var given = league && typeof league.name === "string" ? league.name.trim() : "";
    var untouched = !name.value.trim() || name.value === name.getAttribute("data-from-file");
    if (given && untouched) {
      name.value = given;
      name.setAttribute("data-from-file", given);
    }
    sayIfTaken(name.form);
  }).catch(function () {
    // Not a league file: the import says why.
  });
});

// The name one of the user's leagues has already (the file of a league of theirs,
// imported into the server it came from): said before the import, with the name the
// league gets beside theirs (games/transfer/league_naming.py, names_taken).
var taken = null;
function sayIfTaken(form) {
  var line = form.querySelector("[data-name-taken]");
  var name = form.querySelector("input[data-league-name]");
  if (!line || !name) return;
  if (!taken) taken = JSON.parse(document.getElementById("names-taken").textContent);
  var typed = name.value.trim();
  var instead = Object.prototype.hasOwnProperty.call(taken, typed.toLowerCase()) ? taken[typed.toLowerCase()] : "";
  line.textContent = instead
    ? interpolate(
        // Translators: importing a league under a name one of the user's leagues has;
        // %(instead)s is the name the import would give it.
        gettext("You already have a league called “%(name)s”. Importing adds a second league, " +
          "“%(instead)s”; type another name to call it something else."),
        { name: typed, instead: instead }
      )
    : "";
}

document.addEventListener("input", function (event) {
  if (event.target.matches && event.target.matches("input[data-league-name]")) sayIfTaken(event.target.form);
});
