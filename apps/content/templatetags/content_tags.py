from __future__ import annotations

import re

from django import template
from django.utils.html import escape
from django.utils.safestring import mark_safe

from apps.content.selectors import LESS_THAN, MATCH_END, MATCH_START, sees_drafts
from apps.content.styles import styles_url

register = template.Library()


@register.simple_tag
def content_styles_url() -> str:
    """The content stylesheet (KaTeX's positioning rules), versioned for long caching when the version is known."""
    return styles_url()


_FOOTNOTE_MARK = re.compile(r'<sup id="fnref-[^"]*">.*?</sup>', re.DOTALL)
# A start or end tag of a link in sanitized HTML (attribute values are quoted, and may hold ">").
_LINK_TAG = re.compile(r'</?a\b(?:[^>"]|"[^"]*")*>')


@register.filter(name="sees_drafts")
def sees_drafts_filter(user) -> bool:
    """Whether `user` may open the cards of draft decks: put after a cheaper test with `or`, as a student asks no
    query for it but one who authors decks does."""
    return sees_drafts(user)


@register.filter
def card_title(html: str) -> str:
    """A card's rendered HTML (question_html) to show as a title inside a link: the same text and formulas, its
    own links unwrapped to their text (a link cannot hold another). The `.card-title` rule runs its blocks
    together and clamps it to two lines (four on a phone)."""
    # Sanitized (nh3) when the card was saved; this only removes tags, and footnotes: the rendered block of them
    # always ends the HTML, and the marks linking to them are their own <sup>.
    html = _FOOTNOTE_MARK.sub("", (html or "").split('<div class="footnote">', 1)[0])
    return mark_safe(_LINK_TAG.sub("", html))  # noqa: S308 # nosec B308 B703


_MATCH = re.compile(f"{MATCH_START}([^{MATCH_START}{MATCH_END}]*){MATCH_END}")


@register.filter
def excerpt_marks(excerpt: str) -> str:
    """A search result's plain-text excerpt as HTML: escaped whole, its matched words (between the markers
    card_search puts around them) in <mark>; a stray marker is dropped. Empty when nothing in it matched."""
    if MATCH_START not in (excerpt or ""):
        return ""
    marked = _MATCH.sub(r"<mark>\1</mark>", str(escape(excerpt.replace(LESS_THAN, "<"))))
    return mark_safe(marked.replace(MATCH_START, "").replace(MATCH_END, ""))  # noqa: S308 # nosec B308 B703
