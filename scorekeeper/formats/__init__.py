"""The app's own date formats, where a language's differ from Django's
(FORMAT_MODULE_PATH): Django's ``en`` is American English ("Jan. 5, 2024"), the app has
always written days as most of its clubs do ("5 Jan 2024"); Django's Hindi has no
date and time together. Indian English (en_IN), which Django has no formats for,
reads the English ones. What a module leaves out is Django's."""
