# Django's English date formats, with the time zone named after the time: times are shown in the reader's zone
# (apps/common/timezones.py), or the server's before the browser has named one, and "10:51 a.m." alone reads as
# local either way. Used where a template does not give its own format: the admin's lists and forms.
DATETIME_FORMAT = "N j, Y, P T"
SHORT_DATETIME_FORMAT = "m/d/Y P T"
