// Importing a league: the league's name field shows the name in the file chosen, to
// keep or change. A name typed by hand stays; empty, the import takes the file's anyway.
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
  }).catch(function () {
    // Not a league file: the import says why.
  });
});
