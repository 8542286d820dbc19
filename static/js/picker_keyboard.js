// The card picker's keyboard key. On a phone the system keyboard hides most of the
// screen; with the picker it can stay closed (inputmode=none) until the keyboard key
// asks for it. On a phone the choice holds for the forms that come after in this tab
// (a refused Save's, the next round's, a reload's): a player who types keeps typing.
// (With a mouse and a keyboard both work from the start, and the key only folds the
// cards away.)

var touchFirst = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;

var KEYBOARD = "scorekeeper:keyboard"; // sessionStorage: "on" or "off", once chosen
var keyboardChosen = null; // where sessionStorage is refused
function chosenKeyboard() {
  if (!touchFirst) return null;
  try {
    var kept = window.sessionStorage.getItem(KEYBOARD);
    if (kept) return kept === "on";
  } catch (refused) {}
  return keyboardChosen;
}

// The key tapped, while the picker types into ``field`` (if any).
export function toggleKeyboard(picker, key, field) {
  var on = key.getAttribute("aria-pressed") !== "true";
  if (touchFirst) {
    keyboardChosen = on;
    try {
      window.sessionStorage.setItem(KEYBOARD, on ? "on" : "off");
    } catch (refused) {}
  }
  useKeyboard(picker, on);
  if (field) {
    field.blur();
    field.focus();
  }
}

function useKeyboard(picker, typing) {
  picker.querySelector('[data-key="keyboard"]').setAttribute("aria-pressed", String(typing));
  // Typing on the system keyboard: the cards fold away so the fields stay in view.
  picker.classList.toggle("is-folded", typing);
  picker.closest("form").querySelectorAll("textarea[data-groups], input[data-cut]").forEach(function (field) {
    if (typing) field.removeAttribute("inputmode");
    else field.setAttribute("inputmode", "none");
  });
}

// A picker shown: the keyboard as chosen before in this tab, else closed on a phone.
export function startKeyboard(picker) {
  var chosen = chosenKeyboard();
  if (chosen !== null) {
    useKeyboard(picker, chosen);
  } else if (touchFirst) {
    picker.closest("form").querySelectorAll("textarea[data-groups], input[data-cut]").forEach(function (field) {
      field.setAttribute("inputmode", "none");
    });
  } else {
    picker.querySelector('[data-key="keyboard"]').setAttribute("aria-pressed", "true");
  }
}
