"""TeX in a grader's note, written as a reader reads it: "$\\theta - \\eta \\nabla L$" is "θ − η∇L". Pure, stdlib only.

The note is plain text under the verdict, shown long after its card was typeset (and in the admin's "Try the
grader"), so the formula it quotes cannot be typeset with the card: left as TeX it read as code. What this does not
know (an unusual command) is shown by its name, without the backslash.
"""

from __future__ import annotations

import re

from .textnorm import GREEK

# As pandoc reads them: no space just inside the dollars, no digit right after the closing one ("$0.30 or $1").
_MATH = re.compile(r"\$\$(\S.*?)\$\$|\$(?=\S)(.+?)(?<=\S)\$(?!\d)", re.DOTALL)
_LETTERS = {name: letter for letter, name in GREEK.items() if "α" <= letter <= "ω" or name in ("nabla", "partial")}
_CAPITALS = {name.capitalize(): letter for letter, name in GREEK.items() if "Α" <= letter <= "Ω"}
_SYMBOLS = {
    **_LETTERS, **_CAPITALS, "Sigma": "Σ", "varepsilon": "ε", "vartheta": "θ", "varphi": "φ",
    "times": "×", "cdot": "·", "sum": "Σ", "prod": "Π", "infty": "∞", "leq": "≤", "le": "≤", "geq": "≥",
    "ge": "≥", "neq": "≠", "ne": "≠", "approx": "≈", "sim": "~", "to": "→", "rightarrow": "→", "leftarrow": "←",
    "gets": "←", "in": "∈", "pm": "±", "ldots": "…", "cdots": "⋯", "lfloor": "⌊", "rfloor": "⌋", "lceil": "⌈",
    "rceil": "⌉", "mid": "|", "log": "log", "exp": "exp", "max": "max", "min": "min",
}  # fmt: skip
_ACCENTS = {"hat": "\u0302", "bar": "\u0304", "tilde": "\u0303", "vec": "\u20d7", "dot": "\u0307"}
_GROUP = r"\{([^{}]*)\}"
_WORDS = re.compile(r"\\(?:text|mathrm|operatorname|textrm|mathit|mathbf|mathsf|mathcal|textit|boldsymbol)\s*" + _GROUP)
_FRACTION = re.compile(r"\\[dt]?frac\s*" + _GROUP + r"\s*" + _GROUP)
_ROOT = re.compile(r"\\sqrt\s*" + _GROUP)
_ACCENT = re.compile(r"\\(" + "|".join(_ACCENTS) + r")\s*(?:" + _GROUP + r"|([A-Za-z]))")
_SIZING = re.compile(r"\\(?:left|right|bigl|bigr|Bigl|Bigr|big|Big)(?![A-Za-z])\s*\\?")
_SPACING = re.compile(r"\\[,;:! ]|\\q?quad(?![A-Za-z])|~")
_COMMAND = re.compile(r"\\([A-Za-z]+)\s*")  # TeX takes the space after a command as its end
_SCRIPT = re.compile(r"([_^])\{([^{}]*)\}")


def readable(text: str) -> str:
    """`text` with each of its $…$ and $$…$$ formulas written in Unicode."""
    return _MATH.sub(lambda m: _formula(m[1] if m[1] is not None else m[2]), text) if "$" in text else text


def _bracketed(part: str) -> str:
    part = part.strip()
    return part if re.fullmatch(r"\w+|\\[A-Za-z]+", part) else f"({part})"


def _formula(tex: str) -> str:
    tex = _WORDS.sub(lambda m: m[1], tex)
    tex = _SIZING.sub("", _SPACING.sub(" ", tex))
    for _ in range(3):  # from the innermost group out: a script inside a fraction, a fraction inside a root
        tex = _SCRIPT.sub(lambda m: m[1] + (m[2] if len(m[2]) == 1 else f"({m[2]})"), tex)
        tex = _FRACTION.sub(lambda m: f"{_bracketed(m[1])}/{_bracketed(m[2])}", tex)
        tex = _ROOT.sub(lambda m: f"√{_bracketed(m[1])}", tex)
        tex = _ACCENT.sub(lambda m: (m[2] if m[2] is not None else m[3]) + _ACCENTS[m[1]], tex)
    tex = _COMMAND.sub(lambda m: _SYMBOLS.get(m[1], m[1]), tex)
    tex = tex.replace("{", "").replace("}", "").replace("-", "−")
    tex = re.sub(r"\s*([=+−×·≤≥≠≈→←±])\s*", r" \1 ", tex)  # spaced as typeset
    return re.sub(r"\s+", " ", tex).strip()
