"""A limit on failed tries that stays exact under a burst: each try is counted before it is made, and given back if
it succeeds.

Counting a failure after it happened (check, try, count) lets every request of a burst pass the check before the
first one is counted, and a burst is how guessing is done. Here a try takes its place in the count atomically
(django-ratelimit's add/incr, which the cache backends do atomically), so exactly the limit's number of tries is
made; one that succeeds adds to a second count of refunds, and the limit compares the difference.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import timedelta

from django.http import HttpRequest
from django_ratelimit.core import get_usage


def try_reserve(request: HttpRequest, *, group: str, key: str | Callable, rate: str) -> timedelta | None:
    """Counts a try about to be made: None when the limit lets it through, else how long until it would."""
    tries = get_usage(request, group=group, key=key, rate=rate, increment=True)
    if tries is None:  # RATELIMIT_ENABLE off
        return None
    if tries["limit"] == 0:  # the cache failed: refused, as django-ratelimit itself does (RATELIMIT_FAIL_OPEN off)
        return timedelta(0)
    refunds = get_usage(request, group=f"{group}-refunds", key=key, rate=rate, increment=False)
    # The refunds' window is the tries' own: django-ratelimit places it by the key's value and the period only.
    if tries["count"] - refunds["count"] <= tries["limit"]:
        return None
    return timedelta(seconds=max(tries["time_left"], 0))


def try_refund(request: HttpRequest, *, group: str, key: str | Callable, rate: str) -> None:
    """Gives back a try counted by try_reserve: it succeeded, or was never made."""
    get_usage(request, group=f"{group}-refunds", key=key, rate=rate, increment=True)


def minutes_left(pause: timedelta) -> int:
    """A pause as the pages say it: whole minutes, rounded up, and at least one."""
    return max(1, math.ceil(pause.total_seconds() / 60))
