"""What form templates ask of a form beyond Django's own tags."""

from __future__ import annotations

from django import forms, template

register = template.Library()


# Widgets of several inputs: no one input to go to, so a link goes to the error list.
_SEVERAL = ("radioselect", "checkboxselectmultiple")


@register.filter
def fields_with_errors(form: forms.BaseForm) -> list[tuple[forms.BoundField, str]]:
    """The form's visible fields that have errors, in the form's order (a hidden
    field's error has nowhere on the page to point to), each with the id a link to it
    goes to: its input, else its list of errors (Django's id for it)."""
    return [
        (field, field.auto_id if field.widget_type not in _SEVERAL else f"{field.auto_id}_error")
        for field in form.visible_fields()
        if field.errors
    ]
