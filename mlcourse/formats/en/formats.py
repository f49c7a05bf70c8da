# The site's date formats, given to Django's too: the admin's lists and forms wrote "Dec. 4, 2026, 3:53 p.m." beside
# the site's "4 Dec 2026, 15:53". The time zone is named after the time: times are shown in the reader's zone
# (apps/common/timezones.py), or the server's before the browser has named one, and a time alone reads as local
# either way. Used where a template does not give its own format.
DATE_FORMAT = "j M Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j M Y, H:i T"
SHORT_DATE_FORMAT = "Y-m-d"
SHORT_DATETIME_FORMAT = "Y-m-d H:i T"
