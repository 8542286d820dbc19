"""Django's makemessages, without msgmerge's guesses.

msgmerge offers a new string the translation of a similar old one, marked fuzzy: with
the app's short strings its guesses are other sentences ("The session ends" offered
"New session"'s), which a translator must find and undo. A new string comes
untranslated instead. (Django documents subclassing the command for its options.)"""

from __future__ import annotations

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    msgmerge_options = [*makemessages.Command.msgmerge_options, "--no-fuzzy-matching"]
