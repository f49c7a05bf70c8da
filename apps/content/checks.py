"""Whether the KaTeX renderer starts: content cannot be saved without it, so say so at start, not at first save."""

from __future__ import annotations

from django.core.checks import Error, Warning, register

from .katex import KatexUnavailableError, katex_version

_HINT = (
    "Install Node.js >= 18 and run `npm ci` in the project folder (`make install` does both), or set NODE_BINARY to "
    "the node to use."
)


def _katex_problem() -> str | None:
    try:
        katex_version()
    except KatexUnavailableError as exc:
        return f"The KaTeX renderer is not available: {exc}"
    return None


@register()
def katex_renderer_check(app_configs, **kwargs) -> list[Warning]:
    """A warning only: pages show stored HTML, so runserver on a machine without Node still serves them; saving
    content (the admin, import_deck, load_content) is what needs KaTeX, and says so itself."""
    problem = _katex_problem()
    return [Warning(problem, hint=_HINT, id="content.W001")] if problem else []


@register(deploy=True)
def katex_renderer_deploy_check(app_configs, **kwargs) -> list[Error]:
    """An error under `check --deploy`: a production server whose instructors cannot save a card is not ready.
    Django passes a check no word of --deploy, so the warning above comes too."""
    problem = _katex_problem()
    return [Error(problem, hint=_HINT, id="content.E001")] if problem else []
