// A hand's field as the card picker types into it: the cards it holds, read as the
// rules read them, and a card, a group's bar or an Undo put in at the caret.

// The card notation as the rules service reads it (games/rules/cards.py NOTATION, in
// the picker's data-notation): its token pattern finds a joker, a range or one card,
// and the picker counts the cards the rules will score, as typed by hand too.
var notation = null;

function grammar() {
  if (notation) return notation;
  var source = document.querySelector("[data-notation]");
  if (!source) return null;
  var spec = JSON.parse(source.getAttribute("data-notation"));
  notation = {
    spec: spec,
    token: new RegExp(spec.token, "gi"),
    atEnd: new RegExp("(?:" + spec.token + ")$", "i"),
    separator: new RegExp("[" + spec.separators.replace(/[\]\\^-]/g, "\\$&") + "]")
  };
  return notation;
}

function letterOf(spec, suit) {
  return spec.suits[suit.charAt(0).toUpperCase()];
}

// A token's cards: a range's as cards.py's _expand_range gives them (an Ace is low at
// the start and high at the end; one running backwards or mixing suits is no cards).
function cardsOf(spec, token) {
  if (token.joker) return [spec.printed_joker];
  if (token.rank) return [spec.names[spec.ranks[token.rank.toUpperCase()]] + letterOf(spec, token.suit)];
  var suit = letterOf(spec, token.last_suit);
  var from = spec.ranks[token.first.toUpperCase()], to = spec.ranks[token.last.toUpperCase()];
  if (to === 1 && from !== 1) to = 14;
  if ((token.first_suit && letterOf(spec, token.first_suit) !== suit) || from >= to) return [];
  var codes = [];
  for (var rank = from; rank <= to; rank++) codes.push(spec.names[rank === 14 ? 1 : rank] + suit);
  return codes;
}

export function cardsIn(text) {
  var read = grammar(), codes = [];
  if (!read) return codes;
  String(text || "").replace(read.token, function () {
    var groups = arguments[arguments.length - 1]; // the named groups
    codes.push.apply(codes, cardsOf(read.spec, groups));
    return "";
  });
  return codes;
}

var lastTap = null; // the card the picker put in last: {field, code, start, end}
// Typed on the keyboard since: Undo takes the token before the caret, like the rest.
document.addEventListener("beforeinput", function (event) {
  if (lastTap && event.target === lastTap.field) lastTap = null;
});

// Where to type: at the caret while the field has focus, else at the end (a field
// that was never focused reports its caret at 0).
function selection(field) {
  if (document.activeElement === field) return [field.selectionStart, field.selectionEnd];
  return [field.value.length, field.value.length];
}

function replace(field, start, end, text) {
  field.value = field.value.slice(0, start) + text + field.value.slice(end);
  var caret = start + text.length;
  if (document.activeElement === field) field.setSelectionRange(caret, caret);
  // The same event typing fires, so htmx sends the same preview request.
  field.dispatchEvent(new Event("input", { bubbles: true }));
}

// Puts the card in; Undo takes it back first, wherever it stands (undoCard).
export function typeCard(field, code) {
  if (field.hasAttribute("data-cut")) {
    lastTap = null;
    return replace(field, 0, field.value.length, code);
  }
  var range = selection(field);
  var separator = grammar().separator;
  // A caret a finger put inside a card ("6|D") or before one: the card goes after
  // it, not into it ("6 QDD").
  while (range[0] === range[1] && range[1] < field.value.length && !separator.test(field.value.charAt(range[1]))) {
    range = [range[0] + 1, range[1] + 1];
  }
  var before = field.value.slice(0, range[0]);
  var spaced = before && !separator.test(before.slice(-1)) ? " " + code : code;
  replace(field, range[0], range[1], spaced);
  var end = range[0] + spaced.length;
  lastTap = { field: field, code: code, start: end - code.length, end: end };
}

export function newGroup(field) {
  lastTap = null; // Undo now takes the bar back first
  var range = selection(field);
  var before = field.value.slice(0, range[0]).replace(/\s+$/, "");
  replace(field, before.length, range[1], before ? " | " : "");
}

// Undo: the card the picker put in last, where it still stands as put (the caret
// may have been moved since: a tap inside the field); else the token before the
// caret (a card, a whole range typed by hand, or a group's bar).
export function undoCard(field) {
  var tapped = lastTap;
  lastTap = null;
  var range = selection(field);
  if (range[0] !== range[1]) return replace(field, range[0], range[1], ""); // text chosen
  if (tapped && tapped.field === field && field.value.slice(tapped.start, tapped.end) === tapped.code) {
    return takeOut(field, tapped.start, tapped.end);
  }
  var before = field.value.slice(0, range[0]).replace(/\s+$/, "");
  var read = grammar();
  var card = read && before.match(read.atEnd);
  var cut = card ? card[0].length : before.slice(-1) === "|" ? 1 : Math.min(1, before.length);
  takeOut(field, before.length - cut, range[1]);
}

// Take the text from start to end out, and the space before it; what stood on either
// side stays apart ("5H 6H 7H" less 6H is "5H 7H", never "5H7H").
function takeOut(field, start, end) {
  var kept = field.value.slice(0, start).replace(/\s+$/, "");
  var after = field.value.slice(end);
  var apart = kept && ((after && !/^\s/.test(after)) || (!after && /\|$/.test(kept)));
  replace(field, kept.length, end, apart ? " " : "");
}
