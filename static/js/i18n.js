// The scripts' words in the page's language. Each page loads that language's catalogue
// first (base.html, offline.html: static/jsi18n/<language>/djangojs.js, written from
// locale/<language>/LC_MESSAGES/djangojs.po by compilejsi18n), which gives Django's
// gettext functions; a module takes them from here. Without a catalogue a string is
// its English self, as Django's own functions would leave it.
const catalogue = globalThis.django || {};

export const gettext = catalogue.gettext || ((text) => text);

export const ngettext = catalogue.ngettext || ((one, many, count) => (count === 1 ? one : many));

// interpolate("%(count)s rounds", { count: 3 }): named values only, as the app writes them.
export function interpolate(format, values) {
  if (catalogue.interpolate) return catalogue.interpolate(format, values, true);
  return format.replace(/%\((\w+)\)s/g, (whole, name) => String(values[name]));
}

// A sentence with an element in it, "Dealt by <strong>Asha</strong>.": the translated
// sentence's pieces in its own order, a placeholder's value a string or an element,
// for element.append(...). The translator may move the element; the text around it
// comes as whole strings, never split where the sentence has no element.
export function interpolateNodes(format, values) {
  const pieces = [];
  format.split(/(%\(\w+\)s)/).forEach((piece, index) => {
    const value = index % 2 ? values[piece.slice(2, -2)] : piece;
    const last = pieces.length - 1;
    if (value instanceof Node) pieces.push(value);
    else if (last >= 0 && typeof pieces[last] === "string") pieces[last] += String(value);
    else if (String(value)) pieces.push(String(value));
  });
  return pieces;
}
