// Form fields as several features read and mark them.

// A field as it is now, or (``served``) as the page was served: its default, whatever
// was typed or tapped since. A box or radio: ticked or not; another field: its value
// (a select keeps no default: it reads as served). The drafts (static/js/drafts.js)
// and the early preview (static/js/outages.js) read fields by it, so both say alike
// what changed since the page was served.
export function fieldState(field, served) {
  if (field.type === "checkbox" || field.type === "radio") return served ? field.defaultChecked : field.checked;
  return served && "defaultValue" in field ? field.defaultValue : field.value;
}

// Marked wrong (aria-invalid) or not: read out with the field and styled so.
export function markWrong(fields, wrong) {
  Array.prototype.forEach.call(fields, function (field) {
    if (wrong) field.setAttribute("aria-invalid", "true");
    else field.removeAttribute("aria-invalid");
  });
}
