"""The client's address behind the proxies in front of the app, for sign-in lockouts and rate limits."""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def client_ip(request: HttpRequest) -> str:
    """The X-Forwarded-For entry TRUSTED_PROXY_COUNT from the right, else REMOTE_ADDR.

    Each trusted proxy appends the address it received the request from, so the last
    TRUSTED_PROXY_COUNT entries are theirs and anything further left is whatever the client
    sent: taking the leftmost would let a client pick its own address. A header shorter
    than the count, or an entry that is not an address, means the proxies are not as
    configured, and REMOTE_ADDR is the one address still known to be real.
    """
    remote_addr = request.META.get("REMOTE_ADDR", "")
    count = settings.TRUSTED_PROXY_COUNT
    if count <= 0:
        return remote_addr
    header = request.META.get("HTTP_X_FORWARDED_FOR", "")
    entries = [entry.strip() for entry in header.split(",")] if header else []
    if len(entries) < count:
        return remote_addr
    candidate = entries[-count]
    try:
        ipaddress.ip_address(candidate)
    except ValueError:
        return remote_addr
    return candidate
