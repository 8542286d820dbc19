// Share the night (the session page): the totals and who pays whom as one message for
// the group's chat. The server writes the text (games/services/night.py) into the
// page, in <template id="night-text"> by the money lines, which every save and live
// poll redraws; this only hands it on: to the system's share sheet where there is
// one, else to the clipboard, and says which in the status line beside the button.
import { gettext } from "./i18n.js";

var TEXT_ID = "night-text";

function nightText() {
  var template = document.getElementById(TEXT_ID);
  return template ? template.content.textContent.trim() : "";
}

function say(button, words) {
  var box = button.closest("[data-night]");
  var status = box && box.querySelector("[data-night-status]");
  if (!status) return;
  // Emptied first, so the same words said twice are announced twice.
  status.textContent = "";
  window.setTimeout(function () {
    status.textContent = words;
  }, 50);
}

function canShare(text) {
  if (typeof navigator.share !== "function") return false;
  if (typeof navigator.canShare !== "function") return true;
  try {
    return navigator.canShare({ text: text });
  } catch (e) {
    return false;
  }
}

// Where the clipboard API is missing or refused (an http:// page, an older browser):
// a field off screen, its text selected and copied the old way.
function copyBySelecting(text) {
  var field = document.createElement("textarea");
  field.value = text;
  field.setAttribute("readonly", "");
  field.className = "visually-hidden";
  document.body.appendChild(field);
  field.select();
  var copied = false;
  try {
    copied = document.execCommand("copy");
  } catch (e) {
    copied = false;
  }
  field.remove();
  return copied;
}

function copy(button, text) {
  var done = function () {
    say(button, gettext("Copied: paste it in your chat."));
  };
  var old = function () {
    if (copyBySelecting(text)) done();
    else say(button, gettext("This browser would not copy it: the totals are on this page."));
  };
  if (navigator.clipboard && typeof navigator.clipboard.writeText === "function") {
    navigator.clipboard.writeText(text).then(done, old);
  } else {
    old();
  }
}

function share(button) {
  var text = nightText();
  if (!text) return;
  if (!canShare(text)) {
    copy(button, text);
    return;
  }
  navigator.share({ text: text }).then(
    function () {
      // Translators: the night's totals were handed to the phone's share sheet.
      say(button, gettext("Shared."));
    },
    function (error) {
      // Closing the share sheet is not a failure; anything else falls back to copying.
      if (!error || error.name !== "AbortError") copy(button, text);
    }
  );
}

function reveal(root) {
  var buttons = root.querySelectorAll ? root.querySelectorAll("[data-share-night]") : [];
  Array.prototype.forEach.call(buttons, function (button) {
    button.hidden = false;
  });
}

document.addEventListener("click", function (event) {
  var button = event.target.closest("[data-share-night]");
  if (button) share(button);
});

reveal(document);
// The money lines come again with every save and poll, the button with them.
document.addEventListener("htmx:load", function (event) {
  reveal(event.detail.elt);
});
