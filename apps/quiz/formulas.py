"""Formulas in answers and responses, and how a response's formula compares with the answer's."""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass

from .glossary import name_key, named, renamed
from .mathnorm import (
    BIG_OPERATORS,
    FUNCTIONS,
    Formula,
    Node,
    is_relation,
    looks_like_formula,
    parse_formula,
    render,
    unclamped,
)
from .tex import SEGMENT, plain_text, tex_bodies
from .texplain import ParseError, tex_to_plain
from .textnorm import STOPWORDS, fold, tokenize

_CLAUSE = re.compile(r"[,;\n]|\b(?:where|with|and|so|because|which|since|then|while)\b", re.IGNORECASE)
_BOUND = re.compile(r"[a-z](?:min|max)")  # "qmin", "xmax": the bounds of a range
_PIECE = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)?|\d+(?:\.\d+)?|[-+*/^=~(),]")


def _mathy(piece: str) -> bool:
    if not piece[0].isalpha():
        return True
    base = piece.split("_")[0]
    return len(base) == 1 or "_" in piece or base in FUNCTIONS or base in BIG_OPERATORS or bool(_BOUND.fullmatch(base))


def _trim(plain: str) -> str:
    """The formula inside a clause of prose: "the formula is q = round(r/s) + z" -> "q = round(r/s) + z".

    Only words are trimmed: a symbol inside the formula that is not understood ("q = |r/s| + z") leaves no
    formula, rather than one that silently lacks it and is then quoted back as what the student wrote.
    """
    matches = list(_PIECE.finditer(plain))
    pieces = [m.group() for m in matches]
    relation = next((i for i, p in enumerate(pieces) if p in "=~"), None)
    if relation is None:
        return ""
    start = relation
    while start > 0 and _mathy(pieces[start - 1]):
        start -= 1
    end = relation + 1
    while end < len(pieces) and _mathy(pieces[end]):
        end += 1
    if pieces[end - 1] == "(":  # "q = round(r/s) + z (where s is the scale)": the aside's bracket
        end -= 1
    gaps = (plain[a.end() : b.start()] for a, b in zip(matches[start : end - 1], matches[start + 1 : end], strict=True))
    if any(gap.strip() for gap in gaps):
        return ""
    return " ".join(pieces[start:end])


def _clauses(text: str) -> list[str]:
    """`text` split at punctuation and joining words, except at a comma between brackets: the arguments of
    "clamp(round(r/s) + z, qmin, qmax)" stay together."""
    out, last, depth, at = [], 0, 0, 0
    for match in _CLAUSE.finditer(text):
        for c in text[at : match.start()]:
            depth += 1 if c in "([{" else -1 if c in ")]}" and depth else 0
        at = match.start()
        if depth and match.group() == ",":
            continue
        out.append(text[last : match.start()])
        last = match.end()
    out.append(text[last:])
    return out


def find_formulas(text: str, names: dict[str, str] | None = None) -> list[tuple[Formula, str]]:
    """Equations in a response or answer: TeX segments, else clauses of plain text holding `=` or `≈`. `names`
    (see `glossary`): descriptive names to read as the answer's symbols."""
    found: list[tuple[Formula, str]] = []
    segments = [(next(g for g in m.groups() if g is not None), m.group()) for m in SEGMENT.finditer(text[:2000])]
    strict = not segments
    if strict and looks_like_formula(text):
        segments = [(clause, clause) for clause in _clauses(text[:2000]) if clause and looks_like_formula(clause)]
    for body, source in segments[:20]:
        formula = parse_formula(body, strict)
        if formula is None and strict and names:  # "q = round(r/scale) + zeropoint": a name is no word here
            formula = parse_formula(named(body, names), strict)
        if formula is None and strict:
            try:
                formula = parse_formula(_trim(tex_to_plain(body)), strict)
            except ParseError:
                formula = None
        if formula is None and strict:
            with contextlib.suppress(ParseError, RecursionError, IndexError):  # a stray TeX fragment: no formula
                formula = _with_unknowns(named(body, names or {}), text, names or {})
        if formula is not None and is_relation(formula):
            found.append((renamed(formula, names) if names else formula, source))
    return found


_OWN_GLOSS = (
    r"\b{}\s+(?:is|=|means|denotes|stands\s+for)\s+(?:the\s+|an?\s+)?([a-z][a-z -]{{1,40}}?)(?=\s*(?:[,;.)]|\band\b|$))"
)


def _with_unknowns(body: str, text: str, names: dict[str, str]) -> Formula | None:
    """A formula holding a word the answer does not name, standing alone between operators: "q = round(r /
    scale) + offset". The word stays a symbol of its own (so the formula is not the answer's, see `_stand_in`),
    unless the response says what it is in the answer's words: "where offset is the zero point"."""
    plain = tex_to_plain(body) if "\\" in body else body
    pieces = [m.group() for m in _PIECE.finditer(plain)]
    if not any(p in "=~" for p in pieces):
        return None
    words = [i for i, p in enumerate(pieces) if not _mathy(p)]
    alone = all(
        (i == 0 or not pieces[i - 1][0].isalnum()) and (i + 1 == len(pieces) or not pieces[i + 1][0].isalnum())
        for i in words
    )
    if not words or len(words) > 2 or not alone or "".join(pieces) != re.sub(r"\s+", "", plain):
        return None
    glossed = {}
    for i in words:
        said = re.search(_OWN_GLOSS.format(re.escape(pieces[i])), plain_text(text), re.IGNORECASE)
        if said and name_key(said.group(1)) in names:
            glossed[name_key(pieces[i])] = names[name_key(said.group(1))]
    formula = parse_formula(plain)
    return renamed(formula, {**names, **glossed}) if formula is not None and glossed else formula


def _stand_in(formula: Formula, reference: Formula) -> bool:
    """The reference with one of its symbols written as a word the answer does not name: "+ offset" for "+ z"."""
    unknown = {n.name for n in _vars(formula.tree) if len(n.name) > 1}
    missing = {n.name for n in _vars(reference.tree)} - {n.name for n in _vars(formula.tree)}
    for word in unknown:
        for symbol in missing:
            swapped = renamed(formula, {name_key(word): symbol})
            if swapped is not formula and swapped.canonical == reference.canonical:
                return True
    return False


def _relabelled(formula: Formula, reference: Formula) -> bool:
    """The reference with one of its one-letter symbols written as another letter it does not use: "q =
    round(x/s) + z" for "q = round(r/s) + z", the real value called x."""
    swapped = _relabel(formula, reference)
    return swapped is not formula and swapped.canonical == reference.canonical


def _relabel(formula: Formula, reference: Formula) -> Formula:
    """`formula` with its one one-letter symbol the reference does not use written as the reference's one symbol it
    lacks, else as it is. One letter only: with two, "round(x/y)" would match whatever the letters stand for."""
    own = {n.name for n in _vars(formula.tree)}
    theirs = {n.name for n in _vars(reference.tree)}
    unknown, missing = own - theirs, theirs - own
    if len(unknown) != 1 or len(missing) != 1 or any(len(name) != 1 for name in unknown | missing):
        return formula
    return renamed(formula, {next(iter(unknown)): next(iter(missing))})


def _vars(node: Node) -> list[Node]:
    return [node] if node.kind == "var" else [v for a in node.args for v in _vars(a)]


def _runs(plain: str) -> list[str]:
    """Stretches of plain text made only of symbols, numbers, functions and operators: "(1/n) * sum l_i"."""
    runs, current, last_end = [], [], 0
    for match in _PIECE.finditer(plain):
        piece = match.group()
        joined = not plain[last_end : match.start()].strip()
        if not (_mathy(piece) and (joined or not current)):
            runs.append(current)
            current = [piece] if _mathy(piece) else []
        else:
            current.append(piece)
        last_end = match.end()
    return [" ".join(run) for run in [*runs, current] if len(run) >= 3 and any(p in "+-*/^" for p in run)]


def find_expressions(text: str, tex_only: bool = False) -> frozenset[str]:
    """Canonical forms of the expressions (not equations) in `text`: TeX segments, and unless `tex_only`
    also runs of plain maths in prose. Only expressions with an operator count: a lone "$N$" is a name."""
    return frozenset(formula.canonical for formula in _expressions(text, tex_only))


_PRODUCT = re.compile(r"\b([A-Za-z]\w?)\s*(?:\*|\u00d7|\bx\b)\s*\(?([A-Za-z]+(?:[- ][A-Za-z]+){0,3})")


def _products(prose: str) -> list[str]:
    """A symbol times a name written in words, the name as one word however long: "N * micro-batch size" gives
    "N * microbatch", "N * microbatchsize" ... (the answer's "$N \\times (\\text{micro-batch size})$")."""
    out = []
    for match in _PRODUCT.finditer(prose):
        words = re.split(r"[- ]", match.group(2))
        out += [f"{match.group(1)} * {''.join(words[:k])}" for k in range(2, len(words) + 1)]
    return out


def _expressions(text: str, tex_only: bool = False, names: dict[str, str] | None = None) -> list[Formula]:
    found = []
    bodies = tex_bodies(text)
    if not tex_only:
        # A stray TeX fragment in prose ("\frac{1}{T") does not parse: then the prose holds no expression.
        with contextlib.suppress(ParseError, RecursionError, IndexError):
            bodies += _runs(named(tex_to_plain(SEGMENT.sub(" ", text[:2000])), names or {}))
        bodies += _products(SEGMENT.sub(" ", text[:2000]))
    for body in bodies[:20]:
        formula = parse_formula(body)
        if formula is not None and not is_relation(formula) and formula.tree.kind not in ("var", "num"):
            found.append(formula)
    return found


@dataclass(frozen=True)
class FormulaCheck:
    # correct | clamped (correct, inside a clamp) | other (another formula of the answer) | aside | close | wrong
    # | wrong_in_prose | none
    outcome: str
    given: str = ""
    expected: str = ""


_ROUNDINGS = frozenset({"round", "floor", "ceil", "rint", "trunc"})


def _unround(node: Node) -> Node:
    if node.kind == "call" and node.name in _ROUNDINGS and len(node.args) == 1:
        return _unround(node.args[0])
    args = tuple(_unround(a) for a in node.args)
    return Node(node.kind, node.name, args, node.signs) if args != node.args else node


def _unrounded(formula: Formula, reference: Formula) -> bool:
    """The reference with its rounding left out: "q = r/s + z" for "q = round(r/s) + z", the right idea short of
    the integer it must give."""
    bare = _unround(reference.tree)
    return bare != reference.tree and render(bare) == formula.canonical


def _close(formula: Formula, reference: Formula) -> bool:
    """Same left-hand side and at least half of the terms of the right-hand side in common."""
    if formula.tree.kind != "rel" or reference.tree.kind != "rel" or len(formula.sides) != 2 != len(reference.sides):
        return False
    for mine, theirs in ((0, 0), (0, 1), (1, 0), (1, 1)):
        if formula.sides[mine] == reference.sides[theirs]:
            a, b = set(formula.terms(1 - mine)), set(reference.terms(1 - theirs))
            return len(a & b) / len(a | b) >= 0.5
    return False


def check_formulas(
    found: list[tuple[Formula, str]], formulas: tuple[Formula, ...], core: tuple[Formula, ...], text: str
) -> FormulaCheck:
    """Compare the response's formulas with the answer's; `core` are the ones the question asks for."""
    for formula, _ in found:
        for reference in core:
            if formula.canonical == reference.canonical or _relabelled(formula, reference):
                return FormulaCheck("correct", formula.shown, reference.shown)
    # The formula clamped to the integer range, as implementations write it: a more complete answer.
    for formula, _ in found:
        inner = unclamped(formula)
        for reference in core if inner is not None else ():
            if inner.canonical == reference.canonical:
                return FormulaCheck("clamped", formula.shown, reference.shown)
    for formula, _ in found:
        for reference in formulas:
            if formula.canonical == reference.canonical:
                return FormulaCheck("other", reference.shown, core[0].shown) if core else FormulaCheck("aside")
    if not core:
        return FormulaCheck("none")
    for formula, _ in found:
        # Near misses under another name too: "q = x/s + z" is short of the rounding as "q = r/s + z" is.
        forms = (formula, unclamped(formula) or formula, _relabel(formula, core[0]))
        if any(near(f, core[0]) for near in (_close, _unrounded) for f in forms) or _stand_in(formula, core[0]):
            return FormulaCheck("close", formula.shown, core[0].shown)
    prose = text
    for _, source in found:
        prose = prose.replace(source, " ")
    words = [t for t in tokenize(fold(prose)) if t.norm not in STOPWORDS and len(t.norm) > 1]
    return FormulaCheck("wrong" if len(words) <= 3 else "wrong_in_prose", found[0][0].shown, core[0].shown)


def check_expression(
    text: str, formulas: tuple[Formula, ...], core: tuple[Formula, ...], names: dict[str, str] | None = None
) -> FormulaCheck:
    """An expression (no `=`) in the response that is one side of the answer's formula: "round(r/s) + z" for
    "q = round(r/s) + z". Only a side that defines something counts, never a lone symbol such as "q"."""
    for expression in _expressions(text, names=names):
        candidates = [(expression, "correct")]
        inner = unclamped(expression)
        if inner is not None:
            candidates.append((inner, "clamped"))
        for reference in (*core, *formulas):
            sides = [render(side) for side in reference.tree.args if side.kind not in ("var", "num")]
            for candidate, outcome in candidates:
                if candidate.canonical in sides:
                    if reference not in core:
                        return FormulaCheck("other", reference.shown, core[0].shown)
                    return FormulaCheck(outcome, expression.shown, reference.shown)
        for reference in core:  # the defining side with its rounding left out: "r/s + z"
            bare = [render(_unround(side)) for side in reference.tree.args if _unround(side) != side]
            if any(candidate.canonical in bare for candidate, _ in candidates):
                return FormulaCheck("close", expression.shown, reference.shown)
    return FormulaCheck("none")


_IDENTIFIER = re.compile(r"[a-z_][a-z0-9_]*")


def wrong_expressions(text: str, expected: frozenset[str]) -> bool:
    """The response writes an expression over the same names as one of the answer's (`expected`, canonical forms)
    but not that expression: "N * sum L_i" for "(1/N) sum L_i". Other names ("N x mini-batch size" beside the
    answer's micro-batch) may be another notation, and are left be."""
    given = find_expressions(text) - expected
    if not given or find_expressions(text) & expected:
        return False
    names = [set(_IDENTIFIER.findall(form)) for form in expected]
    return any(wanted and wanted == set(_IDENTIFIER.findall(form)) for form in given for wanted in names)
