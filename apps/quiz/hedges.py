"""An answer that offers something right and something else, and says it is unsure which ("FP16 or INT8, not sure",
"Portability, or maybe it makes the model smaller"): partly right at most, as a short answer offered with another
term is ("Job or Deployment"). Pure, stdlib only.

Both offers must say something: "maybe by 1024 or 65536" hedges a detail, not the answer, and "whether it removes
whole rows or not" is no choice. Nor is "I think" unsure: it opens many a right answer.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from .textnorm import Token, stem

_UNSURE = (("maybe",), ("perhaps",), ("not", "sure"), ("not", "certain"), ("i", "guess"), ("one", "of", "those"))
# "or not", "more or less", "or so", "or something": no second offer.
_NO_OFFER = frozenset({"not", "less", "so", "something", "anything", "whatever", "other", "others"})


def unsure_between(tokens: list[Token], content: Collection[str], earns: Callable[[str], bool]) -> bool:
    """The response is unsure, and of the two things it offers with "or", each saying something (`content`: the
    response's content stems), one names a point of the answer (`earns`, of a stem) and the other none, and the
    answer stands on that offer: it holds half of what the response earns. A right answer hedging a detail of its
    own ("…extra compute, maybe one more forward pass or a bit more") is not unsure of the answer."""
    norms = [t.norm for t in tokens]
    if not any(_says(norms, i, phrase) for phrase in _UNSURE for i in range(len(norms))):
        return False
    earned = {s for s in content if earns(s)}
    for i, norm in enumerate(norms):
        if norm != "or" or (i + 1 < len(norms) and norms[i + 1] in _NO_OFFER) or "whether" in norms[:i]:
            continue
        sides = [
            _stems(_clause(tokens[i - 1 :: -1] if i else []), content),
            _stems(_clause(tokens[i + 1 :], ahead=True), content),
        ]
        credited = [side & earned for side in sides]
        if all(sides) and any(credited) and not all(credited) and 2 * max(map(len, credited)) >= len(earned):
            return True
    return False


def _says(norms: list[str], i: int, phrase: tuple[str, ...]) -> bool:
    return tuple(norms[i : i + len(phrase)]) == phrase


def _clause(tokens: list[Token], *, ahead: bool = False) -> list[Token]:
    """The tokens as far as punctuation: ahead, up to it; read backwards, up to the token just after it."""
    out = []
    for token in tokens:
        if ahead and token.boundary and out:
            break
        out.append(token)
        if not ahead and token.boundary:
            break
    return out


def _stems(tokens: list[Token], content: Collection[str]) -> frozenset[str]:
    return frozenset(s for t in tokens if (s := stem(t.norm)) in content)
