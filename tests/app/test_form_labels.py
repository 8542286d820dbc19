"""Every field of the app's forms is named in the page's language. A field without a
label is named by Django after its attribute ("league" → "League"), in English
whatever the page's: the list of a form's problems (partials/form_errors.html) links
each wrong field by its label, even where the page heads the field with words of its
own."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Iterator

from django import forms

import games.forms


def _fields() -> Iterator[tuple[str, forms.Field]]:
    """Each field a form of games/forms/ declares (those a form adds as it is made, a
    player's in the round form, are labelled where they are added)."""
    for module in pkgutil.iter_modules(games.forms.__path__):
        found = importlib.import_module(f"games.forms.{module.name}")
        for name, form in inspect.getmembers(found, inspect.isclass):
            if issubclass(form, forms.BaseForm) and form.__module__ == found.__name__:
                for field_name, field in form.base_fields.items():
                    yield f"{module.name}.{name}.{field_name}", field


def test_every_field_a_person_sees_has_a_label_of_its_own() -> None:
    shown = {where: field for where, field in _fields() if not field.widget.is_hidden}
    assert len(shown) > 20  # the forms were found
    assert [where for where, field in sorted(shown.items()) if field.label is None] == []
