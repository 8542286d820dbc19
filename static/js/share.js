// Share and Copy link beside every link the app hands out
// (templates/partials/link_actions.html). Without this script the link is still
// there to select in its field; with it, "Copy link" puts it in the clipboard and
// "Share" (shown only where the browser has a share sheet) opens the system's.
// What happened is said in the partial's status line, which screen readers announce.
import { gettext } from "./i18n.js";

var COPIED = gettext("Link copied");

function say(box, text) {
  var status = box.querySelector("[data-link-status]");
  if (!status) return;
  // Emptied first, so the same words said twice are announced twice.
  status.textContent = "";
  window.setTimeout(function () {
    status.textContent = text;
  }, 50);
}

function canShare(url) {
  if (typeof navigator.share !== "function") return false;
  if (typeof navigator.canShare !== "function") return true;
  try {
    return navigator.canShare({ url: url });
  } catch (e) {
    return false;
  }
}

function reveal(root) {
  var boxes = root.querySelectorAll ? root.querySelectorAll("[data-link-actions]") : [];
  Array.prototype.forEach.call(boxes, function (box) {
    var input = box.querySelector("[data-link-url]");
    var button = box.querySelector("[data-share-link]");
    if (input && button) button.hidden = !canShare(input.value);
  });
}

// The old way, where the clipboard API is missing or refused (an http:// page, an
// older browser): select the field and ask the browser to copy the selection.
function copyBySelecting(box, input) {
  input.focus();
  input.select();
  input.setSelectionRange(0, input.value.length);
  var copied = false;
  try {
    copied = document.execCommand("copy");
  } catch (e) {
    copied = false;
  }
  say(box, copied ? COPIED : gettext("Link selected: copy it with your keyboard or the menu."));
}

function copy(box) {
  var input = box.querySelector("[data-link-url]");
  if (!input) return;
  if (navigator.clipboard && typeof navigator.clipboard.writeText === "function") {
    navigator.clipboard.writeText(input.value).then(
      function () {
        say(box, COPIED);
      },
      function () {
        copyBySelecting(box, input);
      }
    );
  } else {
    copyBySelecting(box, input);
  }
}

function share(box) {
  var input = box.querySelector("[data-link-url]");
  if (!input) return;
  var data = { url: input.value };
  if (box.dataset.title) data.title = box.dataset.title;
  navigator.share(data).then(
    function () {
      say(box, gettext("Link shared"));
    },
    function (error) {
      // Closing the share sheet is not a failure; anything else falls back to Copy.
      if (!error || error.name !== "AbortError") copy(box);
    }
  );
}

document.addEventListener("click", function (event) {
  var button = event.target.closest("[data-copy-link], [data-share-link]");
  if (!button) return;
  var box = button.closest("[data-link-actions]");
  if (!box) return;
  if (button.hasAttribute("data-share-link")) share(box);
  else copy(box);
});

reveal(document);
// Links swapped in later (a new share link, table mode opened) get their buttons too.
document.addEventListener("htmx:load", function (event) {
  reveal(event.detail.elt);
});
