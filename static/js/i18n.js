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
