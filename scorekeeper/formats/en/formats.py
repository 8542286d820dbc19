"""English days as the app writes them: 5 Jan 2024, 5 Jan 2024, 20:15. What is not
here is Django's (django/conf/locale/en/formats.py)."""

DATE_FORMAT = "j M Y"
DATETIME_FORMAT = "j M Y, H:i"
MONTH_DAY_FORMAT = "j M"
SHORT_DATE_FORMAT = "j M y"
