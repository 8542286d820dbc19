// The events several features answer, and the order in which they answer them.
//
// A page loads only the features it uses (each a module of its own, named by its
// template), so the order in which their modules happen to run says nothing. Where
// two features answer the same event and one relies on what the other did first, the
// order is written here instead, once: one listener per event calls each feature's
// part in the order below, skipping the features the page did not load.
//
// Listeners outside this list act on elements no other feature's listeners act on,
// or order themselves by phase: static/js/draft_queue.js listens to htmx's requests
// in the capture phase so that it runs before static/js/outages.js (bubble phase),
// and static/js/table_seat.js counts an edit in the capture phase so that the count
// goes with the request htmx sends from the form's own listener.
const ORDER = {
  // The page itself, then every piece htmx swaps in (htmx.onLoad).
  "htmx:load": [
    "picker", // the card picker shown and aimed first: the drafts' input events recount it
    "seats",
    "problems",
    "outages", // a preview asked for a field changed early, read before a draft is put back
    "table-seat", // a seat's hand closed at a link gone, before its draft is looked at
    "picker-cut",
    "house-rules",
    "drafts", // last: puts back what was typed, firing the events the others answer
  ],
  // Measured before any swap, whichever feature then keeps or changes it.
  "htmx:beforeSwap": ["picker-hold", "check"],
  "htmx:afterSwap": ["picker-hold"],
  "htmx:afterSettle": [
    "picker-hold", // the picker's place mended before anything else moves the page
    "picker-problems", // a hand's problem said in the picker, its cards kept in place
    "live", // a round saved elsewhere renames the open form, moving what is below it
    "picker-view", // so the picker is brought back into view after that
    "house-rules",
    "check",
    "drafts", // "Round N sent." goes in last, above the form as it now stands
  ],
  // None relies on another's work; the order is the one the features were written in.
  // A counted hand's switch first: an outcome that turns it to cards, which the picker
  // then follows.
  input: ["counts", "picker", "picker-problems", "seats", "house-rules", "drafts"],
};

const steps = Object.create(null);

function run(name, argument) {
  steps[name].forEach(function (step) {
    try {
      step.handler(argument);
    } catch (error) {
      // One feature failing leaves the others working, as separate listeners would.
      if (window.reportError) window.reportError(error);
      else window.setTimeout(function () { throw error; });
    }
  });
}

function listen(name) {
  if (name !== "htmx:load") {
    document.addEventListener(name, function (event) {
      run(name, event);
    });
  } else if (window.htmx) {
    window.htmx.onLoad(function (root) {
      run(name, root);
    });
  } else {
    // No htmx (the offline page, or htmx failed to load): the page alone is loaded.
    document.addEventListener("DOMContentLoaded", function () {
      run(name, document.body);
    });
  }
}

// ``feature`` answers ``name`` (an event, or "htmx:load", whose handler gets the root
// loaded) at its place in ORDER.
export function on(name, feature, handler) {
  const order = ORDER[name];
  const place = order ? order.indexOf(feature) : -1;
  if (place === -1) throw new Error(feature + " has no place in the order of " + name);
  if (!steps[name]) {
    steps[name] = [];
    listen(name);
  }
  steps[name].push({ place: place, handler: handler });
  steps[name].sort(function (a, b) {
    return a.place - b.place;
  });
}
