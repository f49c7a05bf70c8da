from __future__ import annotations

from django import template

from apps.content.styles import styles_url

register = template.Library()


@register.simple_tag
def content_styles_url() -> str:
    """The content stylesheet (KaTeX's positioning rules), versioned for long caching when the version is known."""
    return styles_url()
