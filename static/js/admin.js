// The admin's search-as-you-type boxes (select2 4.0, as Django ships it) give the text
// inside them role="textbox", a text box with no name of its own (axe,
// aria-input-field-name). That text is what names the box around it, select2's
// combobox; without the role it is only that. Boxes appear as the page loads and as
// rows are added to it, so each new one is mended as it comes.
(function () {
  "use strict";

  function mend() {
    document
      .querySelectorAll('.select2-selection__rendered[role="textbox"]')
      .forEach(function (text) {
        text.removeAttribute("role");
        text.removeAttribute("aria-readonly");
      });
  }

  mend(); // any already there (the script is deferred: the page is parsed)
  new MutationObserver(mend).observe(document.documentElement, {
    childList: true,
    subtree: true,
  });
})();
