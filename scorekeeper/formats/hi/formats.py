"""Hindi days and times as the app writes them: 5 जनवरी 2024, 20:15. Django's Hindi
has no DATETIME_FORMAT (its fallback is American English's) and a 12-hour clock;
the app's times are on a 24-hour one in every language. The rest is Django's
(django/conf/locale/hi/formats.py)."""

DATETIME_FORMAT = "j F Y, H:i"
