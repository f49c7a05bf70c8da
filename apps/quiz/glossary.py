"""What the symbols of a formula stand for ("$s$ is the scale"), and formulas written with names instead of symbols
("round(r/scale) + zero_point") read in the answer's symbols. Pure, stdlib only."""

from __future__ import annotations

import re
from itertools import pairwise

from .mathnorm import Formula, Node, parse_formula, render
from .tex import plain_text

# "$s$ is the scale", "z the zero-point", "where r denotes the real value": a symbol and what it stands for
_GLOSS = re.compile(
    r"(?<![\w\\])\$?([a-z])\$?\s+(?:(?:is|denotes|means|stands\s+for)\s+(?:the\s+|an?\s+)?|the\s+)"
    r"([a-z][a-z -]{1,40}?)(?=\s*(?:[,;.)]|\band\b|$))",
    re.IGNORECASE,
)


def name_key(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def glossary(text: str) -> dict[str, str]:
    """What a text says its symbols stand for, keyed by the name written as one word: {"scale": "s",
    "zeropoint": "z", "realvalue": "r", ...}; each word of a name too, when no other name shares it."""
    names = {name_key(m.group(2)): m.group(1).lower() for m in _GLOSS.finditer(plain_text(text))}
    words: dict[str, set[str]] = {}
    for phrase, symbol in ((m.group(2), m.group(1).lower()) for m in _GLOSS.finditer(plain_text(text))):
        for word in re.findall(r"[a-z]{4,}", phrase.lower()):
            words.setdefault(word, set()).add(symbol)
    return {**{w: next(iter(s)) for w, s in words.items() if len(s) == 1}, **names}


def response_names(response: str, names: dict[str, str]) -> dict[str, str]:
    """The answer's `names`, and the response's own symbols for what the answer names: "where x is the real
    value" reads x as the answer's r."""
    own = {symbol: names[key] for key, symbol in glossary(response).items() if key in names and len(key) > 1}
    return {**names, **{symbol: target for symbol, target in own.items() if symbol != target}}


def renamed(formula: Formula, names: dict[str, str]) -> Formula:
    """`formula` with its descriptive names written as the answer's symbols ("round(r/scale) + zero_point" as
    "round(r/s) + z"), when `names` (see `glossary`) knows them all; else `formula` itself."""

    written: dict[str, str] = {}

    def walk(node: Node) -> Node:
        if node.kind == "var" and (len(node.name) > 1 or node.name in names):
            symbol = names.get(name_key(node.name))
            if symbol is None:
                raise KeyError(node.name)
            written[node.name] = symbol
            return Node("var", symbol)
        return Node(node.kind, node.name, tuple(walk(a) for a in node.args), node.signs) if node.args else node

    try:
        tree = walk(formula.tree)
    except KeyError:
        return formula
    if tree == formula.tree:
        return formula
    new = parse_formula(render(tree))
    # A letter given another meaning is shown as the answer's ("s is the zero point": "round(r/s) + z" reads
    # "round(r/z) + s"); names stay as written ("round(scale/r)").
    letters = {name: symbol for name, symbol in written.items() if len(name) == 1}
    shown = re.sub(r"\b[a-z]\b", lambda m: letters.get(m.group(), m.group()), formula.shown) if letters else None
    return Formula(new.tree, new.canonical, shown or formula.shown) if new is not None else formula


_NAME = re.compile(r"(?<![\w\\])[a-z][a-z0-9]*(?:[_-][a-z0-9]+)*(?!\w)", re.IGNORECASE)


def named(clause: str, names: dict[str, str]) -> str:
    """Descriptive names in a plain formula written as symbols: "round(r / scale) + zero point" ->
    "round(r / s) + z". A name of two or three words is one symbol, not one for each word ("z z", a product)."""
    out, last, words, i = [], 0, list(_NAME.finditer(clause)), 0
    while i < len(words):
        for size in (3, 2, 1):
            run = words[i : i + size]
            spaced = all(clause[a.end() : b.start()].isspace() for a, b in pairwise(run))
            name = "".join(word.group() for word in run)
            if len(run) == size and spaced and ((len(name) > 1 and name_key(name) in names) or size == 1):
                symbol = names.get(name_key(name), name) if len(name) > 1 else name
                out.append(clause[last : run[0].start()] + symbol)
                last, i = run[-1].end(), i + size
                break
    return "".join(out) + clause[last:]
