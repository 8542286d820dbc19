// A round form's draft (a form marked data-draft: the scorer's next round, a round
// being edited, a seat's hand in table mode): the key it is kept under, what it holds,
// and the notes said beside it.
import { PREFIX, owner, ours, read, store, write, message } from "./draft_store.js";
import { fieldState } from "./fields.js";

// Not part of what was typed: the page's own tokens, and the seat's edit count,
// which must stay the server's (static/js/table_seat.js counts edits from it).
var SKIP = { csrfmiddlewaretoken: true, key: true, edit: true };

// The form's round: a new round's number travels in its hidden "number" field (the
// page moves it on when another phone saves first); an edit names its round.
export function numberOf(form) {
  var number = form.querySelector('input[name="number"]');
  return number ? number.value : form.getAttribute("data-draft-number") || "";
}

// A signed-in account's drafts are kept under keys of its own, so another account
// typing into the same round on this phone never writes over them. (``legacy``: the
// key a draft had before drafts named their account.)
export function scopeOf(form, legacy) {
  var scope = PREFIX + form.getAttribute("data-draft");
  return owner && !legacy ? scope + "@" + owner : scope;
}

export function keyOf(form, legacy) {
  var scope = scopeOf(form, legacy);
  return form.querySelector('input[name="number"]') ? scope + ":" + numberOf(form) : scope;
}

// A draft kept before drafts named their account, moved under this account's key.
export function adopted(form) {
  var old = keyOf(form, true);
  var draft = old !== keyOf(form) ? read(old) : null;
  if (!ours(draft)) return null;
  store.removeItem(old);
  write(keyOf(form), draft);
  return draft;
}

// What the form holds now, or (``served``) what the page was served with: each
// field's default, whatever was typed or tapped since (fieldState, by
// which static/js/outages.js says the same for its preview of what changed early).
export function valuesOf(form, served) {
  var values = {};
  Array.prototype.forEach.call(form.elements, function (field) {
    if (!field.name || SKIP[field.name] || field.disabled) return;
    if (field.type === "submit" || field.type === "button" || field.type === "file") return;
    var state = fieldState(field, served);
    if (field.type !== "radio") values[field.name] = state;
    else if (state) values[field.name] = field.value;
  });
  return values;
}

export function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

// Puts the values back; returns the fields whose value changed.
export function apply(form, values) {
  var changed = [];
  Array.prototype.forEach.call(form.elements, function (field) {
    if (!field.name || SKIP[field.name] || !(field.name in values)) return;
    var value = values[field.name];
    if (field.type === "radio") {
      var on = field.value === value;
      if (field.checked !== on) {
        field.checked = on;
        if (on) changed.push(field);
      }
    } else if (field.type === "checkbox") {
      if (field.checked !== Boolean(value)) {
        field.checked = Boolean(value);
        changed.push(field);
      }
    } else if (field.type !== "submit" && field.type !== "button" && field.value !== value) {
      field.value = value;
      changed.push(field);
    }
  });
  return changed;
}

// Kept as typed; a form nobody has typed into leaves nothing behind. (A seat's hand at
// a table link gone is only shown, its fields disabled: its draft stays as typed.)
export function keep(form) {
  if (!store || !form.isConnected || form.hasAttribute("data-closed")) return;
  var key = keyOf(form);
  var values = valuesOf(form);
  var before = read(key);
  if (!before && form._draftInitial && same(values, form._draftInitial)) return;
  if (form._draftKey && form._draftKey !== key) store.removeItem(form._draftKey); // renumbered
  form._draftKey = key;
  // Still the hand handed in while nothing in it changed (a swap that rewrites it as is).
  var handed = ours(before) && Boolean(before.handed) && same(values, before.values);
  write(key, { values: values, at: Date.now(), queued: ours(before) && Boolean(before.queued), handed: handed });
}

export function saveButton(form) {
  var buttons = form.querySelectorAll('[data-save], button[type="submit"]:not([name])');
  return buttons[buttons.length - 1] || null;
}


export function say(form, text, marker, above) {
  var old = form.parentNode && form.parentNode.querySelector("[" + marker + "]");
  if (old) old.parentNode.removeChild(old);
  var note = message(text, marker, "draft-note", "status");
  var button = saveButton(form);
  if (above || !button) form.insertAdjacentElement("beforebegin", note);
  else button.insertAdjacentElement("afterend", note);
  return note;
}

export function unsay(form, marker) {
  var notes = form.querySelectorAll("[" + marker + "]");
  Array.prototype.forEach.call(notes, function (note) {
    note.parentNode.removeChild(note);
  });
}
