from django.core.checks import Error, register

from .katex import KatexUnavailableError, katex_version


@register()
def katex_renderer_check(app_configs, **kwargs):
    """Content cannot be saved without the KaTeX renderer, so say so at start, not at first save."""
    try:
        katex_version()
    except KatexUnavailableError as exc:
        return [
            Error(
                f"The KaTeX renderer is not available: {exc}",
                hint="Install Node.js >= 18 and run `npm ci` in the project folder (`make install` does both).",
                id="content.E001",
            )
        ]
    return []
