"""TeX notation rewritten to plain notation, the first step of reading a formula (mathnorm.py), and the signs a
formula is written with. Pure, stdlib only.

`\\frac{r}{s}` is `((r)/(s))`, `\\text{round}` is `round`, `\\cdot` and `×` are `*`, a Greek letter is its name,
`⌊r/s⌉` (`\\lfloor r/s \\rceil`) is `round(r/s)`, `⌊x⌋` is `floor(x)`, `⌈x⌉` is `ceil(x)`, and the index and bounds
of a sum or product are dropped: `\\sum_{i=1}^{N} L_i` is `sum L_i`.
"""

from __future__ import annotations

import re
import unicodedata

from .textnorm import GREEK

_TEX_WORD = re.compile(r"\\(?:text|mathrm|operatorname|textrm|mathit|mathbf|mathsf|textit)\s*\{([^{}]*)\}")
_TEX_SIZING = re.compile(r"\\(?:left|right|bigl|bigr|Bigl|Bigr|big|Big)\s*(\\[{}]|[()\[\]|.])?")
_UNICODE = str.maketrans(
    {"×": "*", "·": "*", "⋅": "*", "∗": "*", "÷": "/", "−": "-", "–": "-", "≃": "≈", "∑": " sum ", "Σ": " sum ",
     "∏": " prod ", "²": "^2", "³": "^3", "{": "(", "}": ")", "[": "(", "]": ")",
     **{letter: f" {name} " for letter, name in GREEK.items()}}
)  # fmt: skip
_TEX_BRACKET = re.compile(r"\\(lfloor|rfloor|lceil|rceil)(?![a-zA-Z])")
_BRACKETS = {"lfloor": "⌊", "rfloor": "⌋", "lceil": "⌈", "rceil": "⌉"}
# ⌈x⌋ is not a notation anyone uses; read as rounding to nearest like ⌊x⌉.
_ROUNDING_PAIRS = {"⌊⌉": "round", "⌊⌋": "floor", "⌈⌉": "ceil"}
# The index and bounds of a sum or product ("sum_i", "\\sum_{i=1}^{N}") bind a dummy variable: dropped, so
# "\\sum_i L_i" and "sum L_i" are one formula.
_LIMITS = re.compile(r"\b(sum|prod)((?:\s*[_^]\s*(?:\([^()]*\)|[a-z0-9]+))+)")


class ParseError(ValueError):
    pass


def tex_to_plain(text: str) -> str:
    """Rewrite TeX notation to plain notation; plain input passes through."""
    text = text.replace("$", " ").replace("~", " ")
    text = _TEX_SIZING.sub(lambda m: "" if m.group(1) in (None, ".") else m.group(1).lstrip("\\"), text)
    text = _TEX_WORD.sub(lambda m: re.sub(r"[\s\-]", "", m.group(1)), text)
    text = _rounding_brackets(_TEX_BRACKET.sub(lambda m: _BRACKETS[m.group(1)], text))
    text = _expand_fractions(text)
    text = re.sub(r"\\(?:cdot|times|ast)(?![a-zA-Z])", "*", text)
    text = re.sub(r"\\(?:approx|simeq|sim|thickapprox|cong)(?![a-zA-Z])", "≈", text)
    text = re.sub(r"\\[,;:! ]|\\\\", " ", text)
    text = re.sub(r"\\([a-zA-Z]+)", r" \1", text)
    text = unicodedata.normalize("NFKC", text.translate(_UNICODE)).casefold()
    text = re.sub(r"_\(\s*([a-z0-9]+)\s*\)", r"_\1", text)
    text = _LIMITS.sub(r"\1 ", text)
    return text.replace("≈", "~")


def _rounding_brackets(text: str) -> str:
    """⌊x⌉ -> round(x), ⌊x⌋ -> floor(x), ⌈x⌉ -> ceil(x): the bracket notations of rounding."""
    if not any(c in text for c in "⌊⌋⌈⌉"):
        return text
    out: list[str] = []
    openers: list[tuple[int, str]] = []
    for c in text:
        if c in "⌊⌈":
            openers.append((len(out), c))
            out.append("")
        elif c in "⌋⌉":
            if not openers:
                raise ParseError("unbalanced rounding brackets")
            at, opener = openers.pop()
            out[at] = f" {_ROUNDING_PAIRS.get(opener + c, 'round')}("
            out.append(")")
        else:
            out.append(c)
    if openers:
        raise ParseError("unbalanced rounding brackets")
    return "".join(out)


def _group(text: str, i: int) -> tuple[str, int]:
    """The brace group (or single character) starting at text[i], and the index after it."""
    while i < len(text) and text[i].isspace():
        i += 1
    if i >= len(text):
        raise ParseError("missing argument")
    if text[i] != "{":
        return text[i], i + 1
    depth = 0
    for j in range(i, len(text)):
        depth += {"{": 1, "}": -1}.get(text[j], 0)
        if depth == 0:
            return text[i + 1 : j], j + 1
    raise ParseError("unbalanced braces")


def _expand_fractions(text: str) -> str:
    for _ in range(20):
        match = re.search(r"\\[dt]?frac", text)
        if not match:
            return text
        top, after = _group(text, match.end())
        bottom, end = _group(text, after)
        text = f"{text[: match.start()]}(({top})/({bottom})){text[end:]}"
    raise ParseError("too many fractions")


_OPERATOR = re.compile(r"[+/=]|(?<![a-z]{2})-|-(?![a-z]{2})")


def operators(text: str) -> tuple[str, ...]:
    """The signs of addition, subtraction, division and equality in `text`, in order, TeX or plain: "θ − η∇L" and
    "\\theta - \\eta \\nabla L" both give ("-",). Multiplication is left out, being often unwritten; a hyphen inside a
    word ("all-reduce") is no minus."""
    return tuple(_OPERATOR.findall(tex_to_plain(text)))
