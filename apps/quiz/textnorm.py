"""Text normalisation for grading: folding, tokens, light stemming, word lists. Pure, stdlib only."""

from __future__ import annotations

import html
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

# A Greek letter or a symbol of calculus is read as its name, typed ("θ", "∇") or in TeX ("\\theta", "\\nabla"):
# "θ - η∇L" is the answer "$\\theta - \\eta \\nabla L$", and "\\alpha - \\beta L" is not.
_GREEK_NAMES = (
    "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu", "nu", "xi",
    "omicron", "pi", "rho", "sigma", "tau", "upsilon", "phi", "chi", "psi", "omega",
)  # fmt: skip
GREEK = {
    **{chr(0x3B1 + i): name for i, name in enumerate(_GREEK_NAMES[:17])},  # α..ρ (ς, final sigma, skipped)
    **{chr(0x3C3 + i): name for i, name in enumerate(_GREEK_NAMES[17:])},  # σ..ω
    **{chr(0x391 + i): name for i, name in enumerate(_GREEK_NAMES[:17])},  # Α..Ρ
    **{chr(0x3A4 + i): name for i, name in enumerate(_GREEK_NAMES[18:])},  # Τ..Ω (Σ is the sum, below)
    "ϵ": "epsilon", "ϑ": "theta", "ϕ": "phi", "∇": "nabla", "∂": "partial",
}  # fmt: skip
_TRANSLATE = str.maketrans(
    {
        "‘": "'", "’": "'", "‚": "'", "‛": "'", "′": "'", "´": "'", "“": '"', "”": '"', "„": '"', "″": '"',
        "«": '"', "»": '"', "‐": "-", "‑": "-", "‒": "-", "–": "-", "—": "-", "―": "-", "−": "-", "﹣": "-",
        "`": "", "\u00a0": " ", "\u200b": "", "∑": " sum ", "Σ": " sum ", "∏": " prod ",
        **{letter: f" {name} " for letter, name in GREEK.items()},
    }
)  # fmt: skip
_HTML_TAG = re.compile(r"<[^<>]{0,200}>")
# TeX commands are notation, not words ("\frac", "\left"); those that name an operation are read as the word.
_TEX_COMMAND = re.compile(r"\\([A-Za-z]+)")
_TEX_WORDS = frozenset(
    {"sum", "prod", "max", "min", "exp", "log", "sqrt", "argmax", "argmin", "mean", "nabla", "partial",
     *_GREEK_NAMES, *(name.capitalize() for name in _GREEK_NAMES), "varepsilon", "vartheta", "varphi"}
)  # fmt: skip
_TEX_VARIANTS = {"varepsilon": "epsilon", "vartheta": "theta", "varphi": "phi"}
_TEX_MATH = re.compile(r"\$\$(.+?)\$\$|\$(.+?)\$|\\\((.+?)\\\)|\\\[(.+?)\\\]", re.DOTALL)
_TEX_TEXT = re.compile(r"\\(?:text|mathrm|operatorname|textrm|mathit|mathbf)\s*\{([^{}]*)\}")
_WORD = re.compile(r"[^\W_]+(?:['.\-_][^\W_]+)*")
# Punctuation between two words that ends a phrase ("Job, which ...", "Job (a resource)").
_BOUNDARY = re.compile(r"[,;:!?()\[\]{}/|\"+=<>&*]|\.(?:\s|$)|(?:^|\s)-+(?:\s|$)|\n")
_ACRONYM = re.compile(r"[A-Z][A-Z0-9]+s?")
# Short forms students write for a tool's name, read as the name itself: "K8s Job", "torch DDP".
ABBREVIATIONS = {
    "k8s": "kubernetes", "kube": "kubernetes", "torch": "pytorch", "trt": "tensorrt",
    # Shorthand of notes and code comments ("fwd fp16, master weights fp32 -> less mem"), one word each.
    "fwd": "forward", "bwd": "backward", "mem": "memory", "accum": "accumulate", "eff": "effective",
    "optim": "optimizer", "perf": "performance", "ckpt": "checkpoint", "arch": "architecture", "calc": "calculate",
    "impl": "implementation", "quant": "quantization", "approx": "approximately", "req": "request",
    "reqs": "requests", "prob": "probability", "probs": "probabilities",
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Token:
    norm: str  # casefolded, with - . _ ' removed: "all-reduce" -> "allreduce", "tf.data" -> "tfdata"
    surface: str  # as written, for feedback
    parts: tuple[str, ...]  # pieces of a hyphenated or dotted word, else ()
    boundary: bool  # punctuation separates this token from the previous one
    technical: bool  # acronym, contains a digit, or hyphenated/dotted compound


def fold(text: str) -> str:
    """NFKC, accents stripped, quotes and dashes unified, backticks, HTML tags and TeX notation removed.

    Case is kept.
    """
    text = html.unescape(text) if "&" in text else text
    text = unicodedata.normalize("NFKC", text)
    text = "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))
    text = _HTML_TAG.sub(" ", text.translate(_TRANSLATE))
    if "\\" not in text:
        return text
    return _TEX_COMMAND.sub(lambda m: f" {_TEX_VARIANTS.get(m[1], m[1])} " if m[1] in _TEX_WORDS else " ", text)


def plain_from_tex(text: str) -> str:
    """Prose with TeX maths reduced to its words (\\text{...}); symbols are dropped."""

    def words(match: re.Match[str]) -> str:
        body = next(g for g in match.groups() if g is not None)
        return " " + " ".join(_TEX_TEXT.findall(body)) + " "

    return _TEX_MATH.sub(words, text)


def canon(word: str) -> str:
    word = word.casefold()
    if word.endswith(("'s", "s'")):
        word = word[:-2] if word.endswith("'s") else word[:-1]
    if any(c.isdigit() for c in word) and re.fullmatch(r"[\d.]+", word):
        return word
    return re.sub(r"['.\-_]", "", word)


@lru_cache(maxsize=4096)
def _token(surface: str, boundary: bool) -> Token:
    bare = surface.strip(".'-_")
    norm = canon(bare)
    norm = ABBREVIATIONS.get(norm, norm)
    pieces = tuple(p for p in re.split(r"[.\-_]", bare.casefold()) if p)
    compound = len(pieces) > 1
    technical = compound or bool(_ACRONYM.fullmatch(bare)) or any(c.isdigit() for c in bare)
    return Token(norm, bare, pieces if compound else (), boundary, technical)


def tokenize(text: str, limit: int = 600) -> list[Token]:
    """Words of `text` (already folded), each flagged when punctuation separates it from the one before."""
    out: list[Token] = []
    last_end = 0
    for match in _WORD.finditer(text):
        gap = text[last_end : match.start()]
        out.append(_token(match.group(), bool(out) and bool(_BOUNDARY.search(gap))))
        last_end = match.end()
        if len(out) >= limit:
            break
    return [t for t in out if t.norm]


_SUFFIXES = ("ation", "ness", "ment", "ing", "ism", "ity", "ed", "ly", "er")
# British spellings read as American ones (-ise is handled with the suffixes): behaviour, analyse, catalogue.
_BRITISH = tuple(
    (re.compile(pattern), replacement)
    for pattern, replacement in (
        (r"(?<=[a-z]{2}[bilmnpv])our(s|ed|ing|ite|ites)?$", r"or\1"),
        (r"(?<=[a-z]{2})ys(e|es|ed|ing)$", r"yz\1"),
        (r"(?<=[a-z]{2})(log|gog)ue(s)?$", r"\1\2"),
        (r"^artefact", "artifact"),
    )
)


@lru_cache(maxsize=16384)
def stem(word: str) -> str:
    """A deliberately light stemmer: plural, -ing/-ed/-ation/-ment/-er..., British -ise spellings.

    A word listed apart (_APART) whose suffixes the stemmer would cut down to the other family's stem keeps them:
    "transformer" stays "transformer", not "transform".
    """
    return _KEPT.get(word) or _stem(word)


def _stem(word: str) -> str:
    w = word
    if len(w) <= 3 or any(c.isdigit() for c in w):
        return w
    w = re.sub(r"is(e|es|ed|ing|ation|ations|er|ers)$", r"iz\1", w) if len(w) > 5 else w
    for british, american in _BRITISH:
        w = british.sub(american, w)
    if w.endswith("ies") and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith("sses"):
        w = w[:-2]
    elif w.endswith("s") and not w.endswith(("ss", "is")) and (len(w) <= 4 or not w.endswith("us")):
        w = w[:-1]
    for suffix in ("ibility", "ability"):
        if w.endswith(suffix) and len(w) > 10:
            return w[:-7] + suffix[0] + "bl"
    for suffix in _SUFFIXES:
        floor = 5 if suffix == "er" else 4 if suffix in ("ly", "ment") else 3
        if w.endswith(suffix) and len(w) - len(suffix) >= floor and not (suffix == "ed" and w.endswith("eed")):
            w = w[: -len(suffix)]
            if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "lsz":
                w = w[:-1]
            break
    if w.endswith("e") and len(w) > 4:
        w = w[:-1]
    return w


# Words whose stems extend one another, or are one stem, but which name different things: an agent noun is the
# device, not the act ("accelerator", "processor", "transformer"), an adjective no instance of the noun
# ("productive" is not "product"), a determiner no pronoun ("every" epoch is not "everything"), and the light
# stemmer cuts "transfer" to a prefix of "transform".
# Each line: two word families, "|" between them; no stem of one side matches a stem of the other. Where the
# stemmer would give both sides one stem, the left side's words keep their endings (see `stem`).
_APART = """
accelerator, accelerators | accelerate, accelerated, accelerating, acceleration
processor, processors | process, processes, processed, processing
product, products | production, produce, produced, producing
transfer, transfers, transferred, transferring | transform, transformed, transforming, transformation
transformer, transformers | transform, transforms, transformed, transforming, transformation
productive, productively, productivity | product, products, production, produce, produces, produced, producing
repeatable, repeatability | repeat, repeated, repeating
adaptive, adaptively | adapt, adapted, adapting, adaptation
every, everyone, everybody | everything
"""


def _families() -> list[tuple[list[str], list[str]]]:
    out = []
    for line in filter(None, map(str.strip, _APART.splitlines())):
        left, right = ([word.strip() for word in side.split(",")] for side in line.split("|"))
        out.append((left, right))
    return out


def _kept() -> dict[str, str]:
    """Left-side words the stemmer would merge into the right side's stem, each kept as its singular."""
    kept: dict[str, str] = {}
    for left, right in _families():
        theirs = {_stem(word) for word in right}
        for word in left:
            if _stem(word) in theirs:
                kept[word] = word[:-1] if word.endswith("s") and not word.endswith("ss") else word
    return kept


_KEPT = _kept()


def _apart() -> frozenset[tuple[str, str]]:
    pairs: set[tuple[str, str]] = set()
    for sides in _families():
        left, right = ({stem(word) for word in side} for side in sides)
        pairs.update((a, b) for a in left for b in right if a != b)
        pairs.update((b, a) for a in left for b in right if a != b)
    return frozenset(pairs)


def stems_related(a: str, b: str) -> bool:
    """Same stem, or one a short extension of the other ("replica"/"replicat", "aggreg"/"aggregat").

    An extension holding a digit is a version, another term: "float" is not "float16"; words listed apart
    (_APART) are other words however alike their stems: "accelerator" is not "accelerate".
    """
    if a == b:
        return True
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    return (
        len(short) >= 5
        and len(long_) - len(short) <= 3
        and long_.startswith(short)
        and not any(c.isdigit() for c in long_[len(short) :])
        and (short, long_) not in _APART_STEMS
    )


_APART_STEMS = _apart()


def listed_apart(a: str, b: str) -> bool:
    """Two words, or stems, of families listed apart (_APART): neither is a misspelling of the other either."""
    return (a, b) in _APART_STEMS or (stem(a), stem(b)) in _APART_STEMS


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Words that rule out what follows them in the same clause: "not a Job", "Not DDP, Horovod".
NEGATORS = _words(
    """
    not no never neither nor none cannot except excluding isnt arent wasnt werent dont doesnt didnt cant wont
    wouldnt shouldnt couldnt hasnt havent hadnt aint
    """
)


STOPWORDS = _words(
    """
    a an the and or but if then else of to in on at by for with from into onto over under about as is are was were
    be been being am do does did doing done have has had having it its itself this that these those there here which
    who whom whose what when where why how than so such not no nor only own too very can could should would will shall
    may might must just also each every all any both few more most other some many much via per between across among
    within without through during before after above below up down out off again further once i me my we our you your
    he she they them their his her us etc eg ie vs versus e g one two three four five first second third dont doesnt
    isnt arent cant wont im youre thats theres whats while whereas because since though although instead rather
    usually typically often generally roughly mostly mainly primarily commonly always never sometimes e.g i.e thus
    therefore hence like unlike yes yeah ok okay well really quite way ways thing things something someone lot lots
    same different new given whole called around along toward towards upon onto back ones otherwise already still
    yet even either neither whether itd itll youd youll theyd theyll theyre weve youve theyve ive didnt hasnt
    havent wasnt werent wouldnt shouldnt couldnt
    """
)

# Words a student adds around a short answer without changing it ("I think it's a Job").
FILLER = STOPWORDS | _words(
    """
    think answer guess believe probably maybe perhaps likely named known use used using uses sure pretty basically
    correct right option would im i'd reckon say said call kind type sort form actually simply just final
    """
)

# Words that open a noun phrase ("the", "their", "many"): what follows them is a thing, not a verb.
DETERMINERS = _words("the a an its their his her our your my this that these those each every all much many")

# Words of quantity: they qualify a thing ("a single GPU", "multiple devices"), they say no point of their own.
QUANTITY = _words("single one sole multiple several many various different")
# Everyday words of degree: each a word of its own, never a misspelling of a term ("less" is not "loss").
DEGREE = _words("less lesser least fewer fewest lower lowest higher highest smaller larger bigger greater")

# Generic nouns that may follow or precede a term without making it another term ("a Job resource").
GENERIC_HEADS = _words(
    """
    resource resources object objects api class module component tool library framework approach method technique
    wrapper wrappers package packages
    feature concept mechanism strategy kind type controller workload
    """
)

# Verbs and fillers that say nothing about the concept; never key terms.
GENERIC_VERBS = _words(
    """
    use used uses using make makes made making allow allows allowed allowing enable enables enabled enabling provide
    provides provided providing let lets help helps helped get gets got give gives gave take takes took keep keeps
    kept keeping include includes including involve involves need needs needed require requires required
    called known based become becomes achieve achieves achieved perform performs performed work works done go goes
    tend tends want wants lead leads result results thing things part parts certain various several multiple many
    much very typically usually often also however possible possibly particular specific specifically value values
    instead approach method way whole main primary common commonly standard others other addition close order case
    example instance respect regard term terms far able
    """
)

# Frequent, unspecific words in ML answers: still key terms, but weak evidence of recall.
WEAK_WORDS = _words(
    """
    model models data training train trained network networks neural deep learning number time large small larger
    smaller big high higher low lower good better best fast faster slow slower new single each set sets run runs
    step steps system systems process processes output outputs input inputs size sizes
    level levels amount extra additional efficient efficiently effective directly immediately automatically
    minimal small little huge
    """
)


_GENERIC_STEMS = frozenset(stem(w) for w in GENERIC_VERBS)
_WEAK_STEMS = frozenset(stem(w) for w in WEAK_WORDS)


def is_generic(word: str) -> bool:
    """A word (any inflection) that says nothing about the concept."""
    return word in GENERIC_VERBS or stem(word) in _GENERIC_STEMS


def is_weak(word: str) -> bool:
    return word in WEAK_WORDS or stem(word) in _WEAK_STEMS
