"""What form templates ask of a form beyond Django's own tags."""

from __future__ import annotations

from django import forms, template

register = template.Library()


@register.filter
def fields_with_errors(form: forms.BaseForm) -> list[forms.BoundField]:
    """The form's visible fields that have errors, in the form's order (a hidden
    field's error has nowhere on the page to point to)."""
    return [field for field in form.visible_fields() if field.errors]
