"""System checks of a deployment that settings alone cannot refuse at start (they may be right without a proxy)."""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Tags, Warning, register


@register(Tags.security, deploy=True)
def proxy_addresses(app_configs, **kwargs) -> list[Warning]:
    """HTTPS redirects on, with gunicorn speaking plain HTTP: a TLS proxy is in front. With TRUSTED_PROXY_COUNT at
    0 every client then has the proxy's address, and five wrong passwords for a name, from anyone, lock that name
    out for everyone."""
    if settings.DEBUG or not settings.SECURE_SSL_REDIRECT or settings.TRUSTED_PROXY_COUNT:
        return []
    return [
        Warning(
            "TRUSTED_PROXY_COUNT is 0 behind the TLS proxy HTTPS needs: every client has the proxy's address, so one "
            "person's wrong passwords lock a name out for everyone, and the sign-up and reset limits are shared.",
            hint="Set TRUSTED_PROXY_COUNT to the number of proxies that append to X-Forwarded-For (1 for one TLS "
            "proxy), or SECURE_SSL_REDIRECT=0 where clients connect to the app directly.",
            id="mlcourse.W001",
        )
    ]
