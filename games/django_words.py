"""Django's own words that our pages show, said in our catalogue's words.

The sign-in, sign-up and password pages are Django's forms, and every form of the app
can answer with one of Django's field errors: their labels, help texts and errors come
from Django's catalogue. In Hindi that catalogue says "प्रयोक्ता नाम" and "कूटशब्द"
where our players say यूज़रनेम and पासवर्ड (docs/reference/hindi-words.md), calls an
e-mail address a postal one ("डाक पता"), and leaves the password rules in English.

Our catalogue (settings.LOCALE_PATHS) is read after Django's and wins where both hold a
message, so each message below, marked with Django's exact msgid (and plural), lands
in locale/<code>/LC_MESSAGES/django.po for `make messages` and is translated there with
the glossary's words. Nothing imports this module: makemessages reads it, and
tests/app/test_django_words.py checks that each msgid is still one of Django's, so an
upgrade that rewords one does not quietly bring Django's translation back.

Only what our pages can show is here: the admin keeps Django's words.
"""

from __future__ import annotations

from django.utils.translation import gettext_noop, ngettext_lazy

# The account forms (django.contrib.auth.forms) and the User model's fields they show.
ACCOUNTS = (
    gettext_noop("username"),
    gettext_noop("Required. 150 characters or fewer. Letters, digits and @/./+/-/_ only."),
    gettext_noop(
        "Enter a valid username. This value may contain only letters, numbers, and "
        "@/./+/-/_ characters."
    ),
    gettext_noop("A user with that username already exists."),
    # The password too similar to "the email address" (UserAttributeSimilarityValidator).
    gettext_noop("email address"),
    gettext_noop("Password"),
    gettext_noop("Password confirmation"),
    gettext_noop("Enter the same password as before, for verification."),
    gettext_noop("The two password fields didn’t match."),
    gettext_noop("Old password"),
    gettext_noop("New password"),
    gettext_noop("New password confirmation"),
    gettext_noop("Your old password was entered incorrectly. Please enter it again."),
    # Translators: %(username)s is the name of the username field ("username").
    gettext_noop(
        "Please enter a correct %(username)s and password. Note that both fields may be "
        "case-sensitive."
    ),
    gettext_noop("This account is inactive."),
)

# The password rules of settings.AUTH_PASSWORD_VALIDATORS: shown under a new password
# (help texts) and as its errors.
PASSWORD_RULES = (
    gettext_noop("Your password can’t be too similar to your other personal information."),
    gettext_noop("Your password can’t be a commonly used password."),
    gettext_noop("Your password can’t be entirely numeric."),
    # Translators: %(verbose_name)s is the field's name: "username" or "email address".
    gettext_noop("The password is too similar to the %(verbose_name)s."),
    gettext_noop("This password is too common."),
    gettext_noop("This password is entirely numeric."),
    ngettext_lazy(
        "Your password must contain at least %(min_length)d character.",
        "Your password must contain at least %(min_length)d characters.",
    ),
    ngettext_lazy(
        "This password is too short. It must contain at least %d character.",
        "This password is too short. It must contain at least %d characters.",
    ),
)

# The errors of the field types our forms use (games/forms/), where a form does not
# say its own.
FIELD_ERRORS = (
    gettext_noop("This field is required."),
    gettext_noop("Enter a valid email address."),
    gettext_noop("Enter a whole number."),
    gettext_noop("Enter a number."),
    gettext_noop("Enter a valid date."),
    gettext_noop("Ensure this value is less than or equal to %(limit_value)s."),
    gettext_noop("Ensure this value is greater than or equal to %(limit_value)s."),
    gettext_noop("Select a valid choice. %(value)s is not one of the available choices."),
    gettext_noop("Enter a list of values."),
    gettext_noop("No file was submitted. Check the encoding type on the form."),
    gettext_noop("No file was submitted."),
    gettext_noop("The submitted file is empty."),
    ngettext_lazy(
        "Ensure this value has at most %(limit_value)d character (it has %(show_value)d).",
        "Ensure this value has at most %(limit_value)d characters (it has %(show_value)d).",
    ),
    ngettext_lazy(
        "Ensure that there are no more than %(max)s digit in total.",
        "Ensure that there are no more than %(max)s digits in total.",
    ),
    ngettext_lazy(
        "Ensure that there are no more than %(max)s decimal place.",
        "Ensure that there are no more than %(max)s decimal places.",
    ),
    ngettext_lazy(
        "Ensure that there are no more than %(max)s digit before the decimal point.",
        "Ensure that there are no more than %(max)s digits before the decimal point.",
    ),
)
