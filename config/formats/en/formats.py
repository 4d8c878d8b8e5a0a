# The moderators' panel writes short dates as 2026-12-03 14:32 (Django's English: 12/03/2026).
SHORT_DATE_FORMAT = "Y-m-d"
SHORT_DATETIME_FORMAT = "Y-m-d H:i"
