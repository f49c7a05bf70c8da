"""In a real Chromium: the affine quantization formula is typeset with KaTeX's own fonts."""

from __future__ import annotations

from django.core.management import call_command


def test_affine_quantization_formula_is_typeset_with_katex_fonts(live_server, page, transactional_db):
    call_command("load_content", verbosity=0)
    fonts = []
    page.on("response", lambda r: fonts.append((r.url, r.status)) if "/vendor/katex/fonts/" in r.url else None)

    page.goto(f"{live_server.url}/decks/deep-learning-frameworks-production-syllabus/?answers=shown")
    card = page.locator(".card-item", has_text="Give the standard affine quantization formula")
    formula = card.locator(".card-answer .katex").first
    formula.wait_for()
    font_family = formula.evaluate("el => getComputedStyle(el).fontFamily")
    assert "KaTeX_Main" in font_family

    page.evaluate("document.fonts.ready")
    page.wait_for_load_state("networkidle")
    loaded = page.evaluate("[...document.fonts].filter(f => f.status === 'loaded').map(f => f.family)")
    assert any(family.startswith("KaTeX") for family in loaded)
    assert fonts, "no KaTeX font was requested"
    assert all(status == 200 for _, status in fonts), fonts
    # The MathML stays for screen readers; the visual HTML is hidden from them.
    assert card.locator(".card-answer .katex-mathml math").count() >= 1
    assert card.locator(".card-answer .katex-html[aria-hidden=true]").count() >= 1
