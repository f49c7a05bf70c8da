"""TeX and plain-text formulas reduced to one canonical form, so notation does not matter.

`q = \\text{round}\\left(\\frac{r}{s}\\right) + z`, `q=round(r / s)+z` and `q = z + round(r/s)` all become
`q=round(r/s)+z`: TeX is rewritten to plain text (texplain.py), parsed into a small tree, and printed with the terms of
sums, the factors of products and the two sides of an equation in a fixed order. Factors of 1 are dropped
(`1/N * x` is `x/N`) and a lone symbol or integer added inside round/floor/ceil is moved out
(`round(r/s + z)` is `round(r/s) + z`: rounding commutes with adding an integer such as a zero-point).
The bracket notations of rounding are the functions: `⌊r/s⌉` (`\\lfloor r/s \\rceil`) is `round(r/s)`, `⌊x⌋` is
`floor(x)`, `⌈x⌉` is `ceil(x)`. The index and bounds of a sum or product are dropped: `\\sum_{i=1}^{N} L_i`
is `sum L_i`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .texplain import ParseError, tex_to_plain

FUNCTIONS = frozenset(
    {"round", "exp", "log", "ln", "sqrt", "abs", "max", "min", "floor", "ceil", "clip", "clamp", "softmax",
     "sigmoid", "tanh", "mean", "argmax", "sin", "cos"}
)  # fmt: skip
BIG_OPERATORS = frozenset({"sum", "prod"})
_LEXEME = re.compile(r"\s*(?:(\d+(?:\.\d+)?)|([a-z][a-z0-9]*(?:_[a-z0-9]+)?)|([-+*/^=~(),]))")
_MATHY = re.compile(r"[=~≈≃]")
MAX_LENGTH = 300


@dataclass(frozen=True)
class Node:
    kind: str  # num var call add mul pow neg rel
    name: str = ""
    args: tuple[Node, ...] = ()
    signs: tuple[bool, ...] = ()  # add: True = subtracted; mul: True = divisor


class _Parser:
    def __init__(self, text: str, strict: bool) -> None:
        self.strict = strict
        self.items: list[tuple[str, str]] = []
        pos = 0
        text = text.strip()
        while pos < len(text):
            match = _LEXEME.match(text, pos)
            if not match or match.end() == pos:
                raise ParseError(f"unexpected {text[pos]!r}")
            number, name, symbol = match.groups()
            self.items.append(("num", number) if number else ("var", name) if name else ("sym", symbol))
            pos = match.end()
            while pos < len(text) and text[pos].isspace():
                pos += 1
        self.i, self.depth, self.calls = 0, 0, 0

    def peek(self) -> tuple[str, str]:
        return self.items[self.i] if self.i < len(self.items) else ("end", "")

    def take(self, symbol: str) -> bool:
        if self.peek() == ("sym", symbol):
            self.i += 1
            return True
        return False

    def parse(self) -> Node:
        sides = [self.expr()]
        while self.peek()[1] in ("=", "~") and self.peek()[0] == "sym":
            self.i += 1
            sides.append(self.expr())
        if self.peek()[0] != "end":
            raise ParseError("trailing input")
        return sides[0] if len(sides) == 1 else Node("rel", args=tuple(sides))

    def expr(self) -> Node:
        self.depth += 1
        if self.depth > 60:
            raise ParseError("too deep")
        terms, signs = [], []
        negative = False
        while self.peek() in (("sym", "+"), ("sym", "-")):
            negative ^= self.items[self.i][1] == "-"
            self.i += 1
        terms.append(self.term())
        signs.append(negative)
        while self.peek()[0] == "sym" and self.peek()[1] in "+-":
            negative = self.items[self.i][1] == "-"
            self.i += 1
            terms.append(self.term())
            signs.append(negative)
        self.depth -= 1
        return _add(terms, signs)

    def term(self) -> Node:
        factors, signs = [self.power()], [False]
        while True:
            kind, value = self.peek()
            if kind == "sym" and value in "*/":
                self.i += 1
                factors.append(self.power())
                signs.append(value == "/")
            elif kind in ("num", "var") or (kind, value) == ("sym", "("):
                factors.append(self.power())
                signs.append(False)
            else:
                return _mul(factors, signs)

    def power(self) -> Node:
        base = self.atom()
        if self.take("^"):
            sign = self.take("-")
            exponent = self.power()
            return Node("pow", args=(base, Node("neg", args=(exponent,)) if sign else exponent))
        return base

    def atom(self) -> Node:
        kind, value = self.peek()
        self.i += 1
        if kind == "num":
            return Node("num", value.rstrip("0").rstrip(".") if "." in value else value)
        if kind == "var":
            base = value.split("_")[0]
            if base in BIG_OPERATORS:
                return Node("call", base, (self.power(),))
            if base in FUNCTIONS and self.take("("):
                self.calls += 1
                args = [self.expr()]
                while self.take(","):
                    args.append(self.expr())
                if not self.take(")"):
                    raise ParseError("unclosed call")
                self.calls -= 1
                return Node("call", value, tuple(args))
            # A function's arguments are maths whatever their names: "clamp(x, qmin, qmax)".
            if self.strict and not self.calls and len(base) > 1 and "_" not in value:
                raise ParseError(f"a word, not a symbol: {value!r}")
            return Node("var", value)
        if (kind, value) == ("sym", "("):
            inner = self.expr()
            if not self.take(")"):
                raise ParseError("unclosed parenthesis")
            return inner
        raise ParseError(f"unexpected {value!r}")


_ONE = Node("num", "1")


def _add(terms: list[Node], signs: list[bool]) -> Node:
    flat_terms, flat_signs = [], []
    for term, sign in zip(terms, signs, strict=True):
        if term.kind == "add":
            flat_terms.extend(term.args)
            flat_signs.extend(s ^ sign for s in term.signs)
        else:
            flat_terms.append(term)
            flat_signs.append(sign)
    if len(flat_terms) == 1:
        return flat_terms[0] if not flat_signs[0] else Node("neg", args=(flat_terms[0],))
    return Node("add", args=tuple(flat_terms), signs=tuple(flat_signs))


def _mul(factors: list[Node], signs: list[bool]) -> Node:
    flat, flat_signs = [], []
    for factor, sign in zip(factors, signs, strict=True):
        if factor == _ONE and len(factors) > 1:  # 1/N * x is x/N
            continue
        if factor.kind == "mul" and not sign:
            flat.extend(factor.args)
            flat_signs.extend(factor.signs)
        else:
            flat.append(factor)
            flat_signs.append(sign)
    if not flat:
        return _ONE
    if len(flat) == 1 and not flat_signs[0]:
        return flat[0]
    return Node("mul", args=tuple(flat), signs=tuple(flat_signs))


def render(node: Node, ordered: bool = True) -> str:
    """Print a tree; `ordered` sorts commutative parts so equal formulas print equally."""

    def wrap(child: Node, weak: tuple[str, ...]) -> str:
        text = render(child, ordered)
        return f"({text})" if child.kind in weak else text

    if node.kind in ("num", "var"):
        return node.name
    if node.kind == "call":
        return f"{node.name}({','.join(render(a, ordered) for a in node.args)})"
    if node.kind == "neg":
        return "-" + wrap(node.args[0], ("add", "rel"))
    if node.kind == "pow":
        return wrap(node.args[0], ("add", "mul", "neg", "pow", "rel")) + "^" + wrap(node.args[1], ("add", "mul", "rel"))
    if node.kind == "add":
        parts = [(("-" if s else "+"), render(a, ordered)) for a, s in zip(node.args, node.signs, strict=True)]
        parts = sorted(parts, key=lambda p: (p[1], p[0])) if ordered else parts
        text = "".join(sign + body for sign, body in parts)
        return text[1:] if text.startswith("+") else text
    if node.kind == "mul":
        top = [wrap(a, ("add", "rel", "neg")) for a, s in zip(node.args, node.signs, strict=True) if not s]
        bottom = [wrap(a, ("add", "rel", "neg", "mul")) for a, s in zip(node.args, node.signs, strict=True) if s]
        if ordered:
            top, bottom = sorted(top), sorted(bottom)
        text = "*".join(top) or "1"
        return text + "".join("/" + b for b in bottom)
    sides = [render(a, ordered) for a in node.args]
    return "=".join(sorted(sides) if ordered else sides)


@dataclass(frozen=True)
class Formula:
    tree: Node
    canonical: str
    shown: str  # readable plain form, sides in the order written

    @property
    def sides(self) -> tuple[str, ...]:
        return tuple(render(a) for a in self.tree.args) if self.tree.kind == "rel" else (self.canonical,)

    def terms(self, side: int) -> tuple[str, ...]:
        node = self.tree.args[side] if self.tree.kind == "rel" else self.tree
        return tuple(render(a) for a in node.args) if node.kind == "add" else (render(node),)


def parse_formula(text: str, strict: bool = False) -> Formula | None:
    """A canonical formula, or None when `text` is not one we can read.

    `strict` rejects multi-letter names other than known functions, for formulas typed amid prose.
    """
    if len(text) > MAX_LENGTH:
        return None
    try:
        tree = _Parser(tex_to_plain(text), strict).parse()
    except (ParseError, RecursionError, IndexError):
        return None
    shown = _shown(tree)
    tree = _hoist_offsets(tree)
    return Formula(tree, render(tree), shown)


def _shown(tree: Node) -> str:
    """A readable plain form, sides and terms in the order written."""
    shown = render(tree, ordered=False).replace("=", " = ").replace("+", " + ").replace(",", ", ")
    return re.sub(r"(?<=\w)-(?=\w)", " - ", shown)


_ROUNDING = frozenset({"round", "floor", "ceil"})


def _offset(node: Node) -> bool:
    """A term read as an integer offset: an integer literal or a lone symbol (a zero-point, an index)."""
    return (node.kind == "num" and node.name.isdigit()) or (node.kind == "var" and len(node.name.split("_")[0]) == 1)


def _hoist_offsets(node: Node) -> Node:
    """round(x + z) -> round(x) + z: rounding commutes with adding an integer, so both notations are one formula.

    Only lone symbols and integer literals are moved out; anything else stays inside the rounding.
    """
    args = tuple(_hoist_offsets(a) for a in node.args)
    node = Node(node.kind, node.name, args, node.signs) if args != node.args else node
    if node.kind != "call" or node.name not in _ROUNDING or len(args) != 1 or args[0].kind != "add":
        return node
    inner = args[0]
    terms = list(zip(inner.args, inner.signs, strict=True))
    kept = [(a, s) for a, s in terms if not _offset(a)] or [(a, s) for a, s in terms if a.kind != "num"]
    moved = [(a, s) for a, s in terms if (a, s) not in kept]
    if not kept or not moved:
        return node
    rounded = Node("call", node.name, (_add([a for a, _ in kept], [s for _, s in kept]),))
    return _add([rounded] + [a for a, _ in moved], [False] + [s for _, s in moved])


_CLAMPS = frozenset({"clamp", "clip"})


def _unclamp(node: Node) -> Node:
    """The value inside a clamp to a range: clamp(x, lo, hi), clip(x, lo, hi), min(max(x, lo), hi) and
    max(min(x, hi), lo) are x."""
    if node.kind == "call" and node.name in _CLAMPS and len(node.args) == 3:
        return _unclamp(node.args[0])
    if node.kind == "call" and node.name in ("min", "max") and len(node.args) == 2:
        other = "max" if node.name == "min" else "min"
        for inner, bound in (node.args, node.args[::-1]):
            if inner.kind == "call" and inner.name == other and len(inner.args) == 2 and bound.kind in ("var", "num"):
                values = [a for a in inner.args if a.kind not in ("var", "num")]
                if len(values) == 1:
                    return _unclamp(values[0])
    args = tuple(_unclamp(a) for a in node.args)
    return Node(node.kind, node.name, args, node.signs) if args != node.args else node


def unclamped(formula: Formula) -> Formula | None:
    """`formula` without the clamping of a value to a range, or None when nothing is clamped."""
    tree = _unclamp(formula.tree)
    if tree == formula.tree:
        return None
    return Formula(tree, render(tree), _shown(tree))


def is_relation(formula: Formula) -> bool:
    return formula.tree.kind == "rel"


def looks_like_formula(text: str) -> bool:
    return bool(_MATHY.search(text)) or "\\" in text
