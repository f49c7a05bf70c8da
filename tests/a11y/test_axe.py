"""axe-core, in a real Chromium, finds no WCAG 2.2 A/AA violation on any main page or quiz state."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.a11y.conftest import AXE, limits_used_up

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]


def _axe(page) -> list[dict]:
    """The violations axe reports on the whole page as it is now (nothing excluded, the admin included)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    return page.evaluate(
        "(options) => axe.run(document, options).then(r => r.violations)",
        {"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]},
    )


def _describe(name: str, violations: list[dict]) -> str:
    lines = []
    for violation in violations:
        lines.append(f"[{name}] {violation['id']} ({violation['impact']}): {violation['help']}")
        for node in violation["nodes"]:
            lines.append(f"    {' '.join(map(str, node['target']))}")
            lines.append(f"        {node['html'][:300]}")
            summary = (node.get("failureSummary") or "").replace("\n", "\n        ")
            lines.append(f"        {summary}")
    return "\n".join(lines)


@pytest.fixture
def contexts(chromium, live_server, site):
    """One browser context per person, signed in by session cookie.

    bypass_csp: the site's Content-Security-Policy (script-src 'self') blocks axe, which Playwright
    injects as an inline <script>. The audit contexts bypass it; `strict=True` gives one that
    enforces it, to show the pages break no rule of the policy, so that what axe sees with the
    policy bypassed is what a visitor gets with it enforced.
    """
    made = {}

    def get(user: str | None, *, strict: bool = False, dark: bool = False, phone: bool = False):
        if (user, strict, dark, phone) not in made:
            viewport = {"width": 375, "height": 812} if phone else {"width": 1280, "height": 900}
            context = chromium.new_context(
                bypass_csp=not strict, color_scheme="dark" if dark else "light", viewport=viewport
            )
            if user is not None:
                context.add_cookies([{**site.session_cookie(user), "url": live_server.url}])
            context.set_default_timeout(10_000)
            made[user, strict, dark, phone] = context
        return made[user, strict, dark, phone]

    yield get
    for context in made.values():
        context.close()


def _audit_into(failures: list[str], page, name: str) -> None:
    page.wait_for_load_state("load")
    page.evaluate("document.fonts.ready")
    violations = _axe(page)
    if violations:
        failures.append(_describe(name, violations))
    # axe skips what is hidden, so what closed <details> hold (answers, chart tables, shortcuts) gets its own run.
    if page.locator("details:not([open])").count():
        page.evaluate("() => document.querySelectorAll('details:not([open])').forEach(d => { d.open = true; })")
        violations = _axe(page)
        if violations:
            failures.append(_describe(f"{name}, details open", violations))


def test_every_page_passes_axe(live_server, site, contexts, settings):
    failures: list[str] = []
    missing_math: list[str] = []

    def audit(page, name: str, *, math: bool = False) -> None:
        page.wait_for_load_state("load")
        if math and not page.locator(".katex-mathml math").count():
            missing_math.append(name)
        _audit_into(failures, page, name)

    refused: list[str] = []
    pages, strict_pages = {}, {}
    for spec in site.pages:
        if spec.user not in pages:
            pages[spec.user] = contexts(spec.user).new_page()
            strict_pages[spec.user] = contexts(spec.user, strict=True).new_page()
        strict = strict_pages[spec.user]
        if spec.before:
            spec.before()
        strict.goto(f"{live_server.url}{spec.path}")
        messages = strict.console_messages(filter="since-navigation")
        refused += [f"[{spec.name}] {m.text}" for m in messages if "Content Security Policy" in m.text]
        page = pages[spec.user]
        response = page.goto(f"{live_server.url}{spec.path}")
        answered = response and response.status
        assert answered == spec.status, f"{spec.name}: {spec.path} answered {answered}"
        audit(page, spec.name, math=spec.math)

    # The states HTMX swaps in, as the student reaches them in the page rather than by URL.
    page = pages["alice"]
    page.goto(f"{live_server.url}{site.recall_quiz}")
    page.get_by_label("Your answer").fill("It makes the logits larger")
    page.get_by_role("button", name="Check answer").click()
    expect(page.locator(".verdict")).to_be_visible()
    audit(page, "quiz feedback after an HTMX submit, free recall", math=True)
    page.get_by_role("button", name="I was right").click()
    expect(page.locator(".override-note")).to_be_visible()
    audit(page, "quiz feedback after an override", math=True)

    page.goto(f"{live_server.url}{site.choice_quiz}")
    page.locator(".option").first.click()
    page.get_by_role("button", name="Check answer").click()
    expect(page.locator(".verdict")).to_be_visible()
    audit(page, "quiz feedback after an HTMX submit, multiple choice")
    page.locator("[data-next]").click()
    expect(page.locator(".question-heading")).to_be_visible()
    page.get_by_role("button", name="Show answer").click()
    expect(page.locator(".verdict")).to_be_visible()
    page.locator("[data-next]").click()
    expect(page.locator(".question-heading")).to_be_visible()
    page.get_by_role("button", name="Check answer").click()  # no option chosen: the error state
    expect(page.locator("#option-error")).to_be_visible()
    audit(page, "quiz question with an error")
    # Without JavaScript, "Show answer" with an option chosen comes back asking first: sent here as such a page
    # sends it (quiz.js would ask in the page instead), then the page it is redirected to.
    action = page.locator("form.question-form").get_attribute("action")
    fields = {name: page.locator(f"form.question-form input[name={name}]").input_value()
              for name in ("csrfmiddlewaretoken", "token")}  # fmt: skip
    sent = page.request.post(
        f"{live_server.url}{action}", form={**fields, "option": "1", "reveal": "1"},
        headers={"Referer": page.url}, max_redirects=0,
    )  # fmt: skip
    page.goto(f"{live_server.url}{sent.headers['location']}")
    expect(page.locator("#reveal-ask")).to_be_visible()
    audit(page, "quiz question asking before showing the answer")
    page.get_by_role("link", name="End the quiz here").click()  # a page that asks first
    page.get_by_role("button", name="End the quiz").click()
    expect(page.locator(".summary")).to_be_visible()
    audit(page, "quiz summary after ending early")

    dashboard = pages["carol"]
    dashboard.goto(f"{live_server.url}/cohorts/")
    dashboard.get_by_role("link", name="Autumn 2026", exact=True).click()
    dashboard.get_by_role("link", name="Item statistics").click()
    expect(dashboard.locator("table.items")).to_be_visible()
    audit(dashboard, "cohort dashboard, item statistics after an HTMX tab switch")

    card_form = f"{live_server.url}{site.pages[-1].path}"
    admin = pages["carol"]
    admin.goto(card_form)
    admin.locator("#id_answer").fill("The ratio $\\frac{a}{b}$, scaled.")
    # The answer's section: the card's distractors are previewed too, and the seed's hold fractions of their own.
    expect(admin.locator("#card-preview section", has_text="The ratio").locator(".katex mfrac")).to_have_count(1)
    admin.get_by_label("A student's answer").fill("q = round(r/s) + z")
    admin.get_by_role("button", name="Grade it").click()
    expect(admin.locator(".grader-result")).to_be_visible()
    audit(admin, "admin card form, preview and grader after typing", math=True)

    # The admin follows the system's dark mode, and the authoring styles must follow it too.
    admin = contexts("carol", dark=True).new_page()
    admin.goto(card_form)
    admin.locator("#id_question").fill("What is $q$ when the field is `code` and the answer is empty?")
    admin.locator("#id_answer").fill("")
    expect(admin.locator("#card-preview .empty")).to_be_visible()
    admin.get_by_label("A student's answer").fill("no idea")
    admin.get_by_role("button", name="Grade it").click()
    expect(admin.locator(".grader-result")).to_be_visible()
    audit(admin, "admin card form, dark mode", math=True)

    visitor = pages[None]
    visitor.goto(f"{live_server.url}/accounts/signup/")
    visitor.get_by_label("Username").fill("dora")
    visitor.get_by_label("Email").fill("dora@example.com")
    visitor.get_by_label("Password", exact=True).fill("short")
    visitor.get_by_label("Password confirmation").fill("different")
    visitor.get_by_role("button", name="Create account").click()
    expect(visitor.locator(".errorlist").first).to_be_visible()
    audit(visitor, "sign up with errors")
    visitor.goto(f"{live_server.url}/accounts/login/")
    visitor.get_by_label("Username").fill("alice")
    visitor.get_by_label("Password").fill("not the password")
    visitor.get_by_role("button", name="Sign in").click()
    expect(visitor.locator(".form-errors")).to_be_visible()
    audit(visitor, "sign in with errors")

    # The pages a limit answers with (429), as a visitor reaches them: a name locked after wrong passwords, and
    # sign-ups and reset links from this address used up.
    for _ in range(settings.AXES_FAILURE_LIMIT):
        visitor.goto(f"{live_server.url}/accounts/login/")
        visitor.get_by_label("Username").fill("bob")
        visitor.get_by_label("Password").fill("not the password")
        visitor.get_by_role("button", name="Sign in").click()
    expect(visitor.get_by_role("heading", name="Too many sign-in attempts")).to_be_visible()
    audit(visitor, "sign-in lockout")
    limits_used_up(settings)
    visitor.goto(f"{live_server.url}/accounts/signup/")
    visitor.get_by_label("Username").fill("dora")
    visitor.get_by_label("Email").fill("dora@example.com")
    visitor.get_by_label("Password", exact=True).fill("a-long-passphrase-2026")
    visitor.get_by_label("Password confirmation").fill("a-long-passphrase-2026")
    visitor.get_by_role("button", name="Create account").click()
    expect(visitor.get_by_role("heading", name="Too many sign-ups from your network")).to_be_visible()
    audit(visitor, "sign-ups paused")
    visitor.goto(f"{live_server.url}/accounts/password_reset/")
    visitor.get_by_label("Email").fill("alice@example.com")
    visitor.get_by_role("button", name="Send the link").click()
    expect(visitor.get_by_role("heading", name="Too many reset requests")).to_be_visible()
    audit(visitor, "reset links paused")

    problems = []
    if failures:
        problems.append("axe found WCAG violations:\n" + "\n\n".join(failures))
    if missing_math:
        problems.append(f"KaTeX MathML (.katex-mathml math) missing on: {', '.join(missing_math)}")
    if refused:
        problems.append("the CSP refused something, so the bypassed audit saw another page:\n" + "\n".join(refused))
    assert not problems, "\n\n".join(problems)


def test_the_site_in_dark_mode_passes_axe(live_server, site, contexts):
    """The system's dark mode: every page and the coloured quiz states (verdicts, options) keep AA contrast."""
    failures: list[str] = []
    pages = {}
    for spec in site.pages:
        if spec.path.startswith("/admin/"):
            continue  # the admin's own dark mode; the authoring styles in it are audited above
        if spec.user not in pages:
            pages[spec.user] = contexts(spec.user, dark=True).new_page()
        page = pages[spec.user]
        if spec.before:
            spec.before()
        assert page.goto(f"{live_server.url}{spec.path}").status == spec.status, spec.name
        assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
        _audit_into(failures, page, f"{spec.name}, dark")
    page = pages["alice"]
    page.goto(f"{live_server.url}{site.choice_quiz}")
    page.locator(".option").first.click()
    _audit_into(failures, page, "quiz option chosen, dark")
    page.get_by_role("button", name="Check answer").click()
    expect(page.locator(".verdict")).to_be_visible()
    _audit_into(failures, page, "quiz feedback, multiple choice, dark")
    page.goto(f"{live_server.url}/")
    page.keyboard.press("Tab")  # the skip link, shown on focus in the page's ink
    expect(page.locator(".skip-link")).to_be_focused()
    _audit_into(failures, page, "skip link focused, dark")
    assert not failures, "axe found WCAG violations in dark mode:\n" + "\n\n".join(failures)


def test_the_site_on_a_phone_passes_axe(live_server, site, contexts):
    """At a phone's width the header folds its links under "Menu" and the quiz is laid out tighter: audited closed
    and open (_audit_into opens every <details>, the menu's too), light and dark."""
    failures: list[str] = []
    for dark in (False, True):
        for user, path in ((None, "/"), ("alice", "/"), ("alice", site.choice_quiz), ("alice", site.recall_quiz)):
            page = contexts(user, dark=dark, phone=True).new_page()
            page.goto(f"{live_server.url}{path}")
            expect(page.get_by_text("Menu", exact=True)).to_be_visible()
            _audit_into(failures, page, f"{path} on a phone{', dark' if dark else ''}{', signed in' if user else ''}")
            page.close()
    assert not failures, "axe found WCAG violations on a phone:\n" + "\n\n".join(failures)
