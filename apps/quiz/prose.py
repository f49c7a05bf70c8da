"""The last layer of grading.grade: a prose answer judged by its coverage of the model answer's key terms.

The score starts from r = covered weight / weight needed for full marks, where "needed" is 40 % of the answer's
key-term weight, capped at 4.5 (about four ordinary words), or every instructor key term (up to four). The score is
min(r, 1) ** 0.85 (** 0.75 for instructor terms), so covering part of a long answer is already "partly right", then
multiplied down when most of the response's own content words (items, for "Name three ...") earn nothing (another
concept, keyword stuffing; less and less as r passes 0.5, where they elaborate an answer mostly given) or when it is
far longer than the model answer, and cut for what it says wrong (faults.py): a sibling of a versioned term the
answer needs (FP32 for FP16), a claim of direction the other way ("increase precision"; directions.py), splitting
what the answer copies ("split the model"; bindings.py), a denial of what the answer affirms ("does not enable
interoperability"; polarity.py), whose words earn nothing, a sameness where the answer names a difference ("features
always match"; contrasts.py), "only X" where the answer lists X among others ("the full model keeps just the
weights"; restrictions.py). An expression of the answer in any notation ("(1/N) * sum L_i") counts as one more key
term, and so does a comparative of the answer between the two things a question compares, said either way round
("DDP is faster than DP" for "DP ... slower"; comparatives.py), which alone makes an answer that says nothing wrong
PARTIAL; said the other way round ("QAT is faster than PTQ") it is a fault. A corrective contrast agreeing with the
answer ("an average instead of a sum"; contrasts.py) also counts as one; an expression over the answer's names that
is not the answer's ("N * sum L_i") keeps the verdict below CORRECT. The answer's distinguishing words given to the
right things of a comparison in two clauses, none to the wrong one, also make an answer that says nothing wrong
PARTIAL (roles.py). Two adjustments follow the shape of the question: a fragment of two or more words, every one
earning a key term (two terms, or one distinctive term such as "systolic arrays"), is at least PARTIAL however
short, as is a word or two naming one point of the answer and saying nothing wrong ("reproducibility"; points.py),
or the kind of thing the answer says the subject is with another word of that sentence ("a file format for models";
points.py), unless it puts the subject in another kind ("A type of GPU memory" for a grid: no such credit), and a
question asking two things ("what is X and why ...", "compare A and B") answered from one sentence of the model
answer only (judged by the terms that belong to that sentence alone) is at most PARTIAL. Vague answers (vague.py): a
topic named, nothing said of it, or another means to the answer's end, earns nothing; a formula's parts, or the
answer's words strung together with nothing joining them, PARTIAL at most (HEDGE_SCORE for the string). The note
writes the TeX it quotes in Unicode (mathtext.py).
Also at most PARTIAL: a list short of the answer's items (items.py, factors.py), no name for the formats asked for
(named.py), two kinds compared, the thing not defined (sides.py), only what the point is about ("frameworks";
asides.py); "storing models" for a store: PARTIAL (storage.py).
"""

from __future__ import annotations

from functools import partial

from .asides import aside_only, names_only
from .bindings import misbound
from .cadence import too_often
from .comparatives import comparisons, judged, unsaid
from .contrasts import agreeing, core_said, restated, sameness_claims
from .covary import judge
from .directions import compare, misnumbered, swapped
from .factors import too_few
from .faults import CLASH, affirmed, clashes, denied, names_term, weigh
from .feedback import coverage_feedback, join_words, phrased
from .hedges import unsure_between
from .items import short_list
from .keyterms import coverage, index_response
from .learners import learner_swapped
from .named import unnamed
from .offtarget import penalty
from .opposites import opposed, said_one
from .points import category, denies_difference, focused, item_precision, miscategorised, one_point
from .polarity import blocked, denials_of, polarity, response_scopes
from .profile import Profile
from .restrictions import restrictions
from .roles import contrasted, misattributed
from .sides import compared_only
from .storage import stores_only
from .tex import tex_bodies
from .textnorm import Token, fold, stem, tokenize
from .vague import other_means, parts_only, strung, topic_only
from .verdicts import CORRECT_AT, HEDGE_SCORE, PARTIAL_AT, Grade, Verdict, verdict_of

COMPARE_WEIGHT = 1.0  # a comparative the answer makes, said either way round: "DDP is faster" for "DP ... slower"
COVARY_WEIGHT = 1.0  # both ends of what the answer says moves together: "lower T sharper, higher T softer"
CORRECTIVE_WEIGHT = 1.0  # "an average instead of a sum": the answer's result against what it replaces (contrasts.py)
# Coverage ratio -> score is concave: naming one real element of a long answer is already "partly right".
COVERAGE_CURVE = 0.85
AUTHORED_CURVE = 0.75  # one of three instructor key terms is partly right
ONE_PART_CAP = 0.7


def coverage_grade(profile: Profile, text: str, tokens: list[Token], bonus: float, note: str) -> Grade:
    """`bonus`: key-term weight the earlier layers found (a formula of the answer amid the prose); `note`: theirs."""
    if not profile.key_terms and not bonus:
        return Grade(Verdict.INCORRECT, 0.0, "")
    if topic_only(text):  # "some answer about gradients": a topic named, nothing said of it
        return Grade(Verdict.INCORRECT, 0.0, "That names a topic without saying anything about it.")
    if profile.contrast and denies_difference(text):  # "there is no difference": whatever terms it names
        return Grade(Verdict.INCORRECT, 0.0, "The question asks how they differ; they are not the same.")
    # A claim that reverses the answer's ("increase precision" where it reduces it) is no evidence of its terms, nor
    # is a phrase that misstates it ("a step after every micro-batch", "a single framework").
    agree, flipped = judge(profile.covaries, text) if profile.covaries else (0, ())
    reversed_ = (compare(profile.claims, text) if profile.claims else ()) + flipped
    wrong_way = {norm for said, _ in reversed_ for norm in said.words}
    misstated = too_often(profile.cadences, text) if profile.cadences else ()
    misstated += () if profile.contrast else said_one(profile.answer_words, tokens)
    wrong_way |= {t.norm for phrase in misstated for t in tokenize(fold(phrase))}
    names = partial(names_term, profile.term_stems, profile.term_groups)
    own = partial(names_term, profile.term_stems, frozenset())  # the answer's own words, not synonyms
    found = response_scopes(text, tokens, profile.question_norms)
    # What the answer states only negatively, stated plainly ("stores all activations"), is no evidence either.
    # In a comparison the denial is of one of the two things ("PTQ, without retraining"): roles.py judges that.
    plain = [] if profile.contrast else affirmed(tokens, found, profile.polarity.denied, own)
    if plain:
        wrong_way |= {t.norm for t in tokens if stem(t.norm) in profile.polarity.denied}
    kept = restated([t for t in tokens if t.norm not in wrong_way], names, own)  # "not matching": a mismatch
    index = index_response(kept, profile.known, profile.question_stems)
    # Words the response denies ("does not enable interoperability") earn nothing for a term the answer affirms.
    denials = denials_of(
        found, tokens, profile.question_norms, profile.polarity, names, profile.contrast, own, profile.sentences
    )
    said = polarity(tokens, denials)
    blocks = tuple(blocked(t.alts, profile.polarity, said) for t in profile.key_terms) if denials else ()
    result = coverage(profile.key_terms, index, profile.needed, blocks)
    # A comparative the answer makes, said either way round ("DDP is faster than DP"), is one more key term.
    compared, against = (
        judged(profile.comparisons, comparisons(profile.things, text)) if profile.comparisons else ((), ())
    )
    corrective = agreeing(text, profile.question_norms, core_said(profile.question_norms, profile.sentences), names)
    # Both ends of what moves together ("lower T makes it sharper, higher T softer") say more than one of them.
    ratio = (
        result.ratio
        + (
            bonus
            + COVARY_WEIGHT * (agree >= 2 and not flipped)
            + COMPARE_WEIGHT * len(compared)
            + CORRECTIVE_WEIGHT * bool(corrective)
        )
        / profile.needed
    )
    curve = AUTHORED_CURVE if profile.authored else COVERAGE_CURVE
    items = item_precision(tokens, result.used) if profile.listing else 0.0  # "Name three ...": judged by item
    score = min(1.0, ratio) ** curve * penalty(result, index, profile.answer_size, items)
    about = aside_only(profile, result.matched, tokens)  # "faster than other frameworks": at most partly right
    if about and score > CORRECT_AT - 0.05:
        score, note = CORRECT_AT - 0.05, note or "That says what the answer is about; say what it says of it."
    # The word for what the point is about, and nothing else ("frameworks"): a topic named, nothing said of it.
    bare = about and names_only(profile, tokens, profile.question_norms)
    if focused(result, index) and not miscategorised(
        text, profile.genus
    ):  # short, and every word of it on target: partly right however short
        score = max(score, PARTIAL_AT)
    stems = {stem(t.norm) for t in tokens}
    parts = result.sentences | {number for number, echo in enumerate(profile.echoes) if echo & stems}
    if profile.two_part and len(parts) < 2 and result.ratio < 1.0:
        score = min(score, ONE_PART_CAP)  # a two-part question answered on one part only
    shortfall = ""  # what the question asks for that the response leaves out: at most partly right, not wrong
    if profile.items or profile.factors[1]:  # "tracking, projects, model registry, and deployment": 3 of the 4
        shortfall = short_list(profile.items, tokens) or too_few(profile.factors, result.matched, profile.key_terms)
    if profile.named[1]:  # "lower precision floats" where the question asks which formats (FP16 or BF16, FP32)
        shortfall = shortfall or unnamed(profile.named, result.matched)
    note = note or shortfall
    if other_means(tokens, result.used, index.content):  # "Increasing the learning rate to imitate a large batch"
        score = min(score, PARTIAL_AT - 0.05)
    if unsure_between(tokens, index.content, lambda s: s in result.used or names(s)):  # "FP16 or INT8, not sure"
        score, note = min(score, HEDGE_SCORE), note or "You offer two answers, unsure which: one is not in the answer."
    if strung(tokens, profile.answer_words):  # "targets classes softer produces gradient": nothing said of them
        score, note = min(score, HEDGE_SCORE), note or "Those are words of the answer; say how they fit together."
    clash = clashes(profile.key_terms, profile.known, tokens, result)
    if clash:
        score *= CLASH
        note = f"{join_words(clash[0], 'is not')}."
    elif note or (parts := not bonus and parts_only(profile.core_formulas, text)):  # a wrong formula amid good
        # prose, or the parts of the formula asked for without it ("scale and zero point"); one part alone, nothing
        single = not note and parts and len(result.matched) < 2
        score = min(score, (PARTIAL_AT if single else CORRECT_AT) - 0.05)
        note = note or "The question asks for the formula itself: write how these combine."
    swaps = swapped(profile.conversions, text) if profile.conversions else ()
    numbers_ = misnumbered(profile.numbers, text) if profile.numbers else ()
    swaps += misattributed(profile.roles, profile.question_stems, text) if profile.roles[1] else ()
    swaps += misbound(profile.bindings, text) if profile.bindings else ()
    swaps += learner_swapped(profile.learners, text) if profile.learners else ()
    swaps += misstated
    swaps += sameness_claims(tokens, names, own)  # "features always match" where the answer has discrepancies
    swaps += opposed(profile.answer_words, tokens)  # "the full budget" where the answer gives "a small budget"
    swaps += restrictions(text, profile.listed, names)  # "keeps just the weights" where it lists them with more
    contradictions = denied(tokens, denials, result) + plain
    # "QAT is faster than PTQ" where the answer has PTQ fast; once only, if a claim or denial above said it
    swaps += unsaid(against, [claim.phrase for claim, _ in reversed_] + contradictions + list(swaps))
    faults = weigh(reversed_, profile.core_sentence, contradictions, swaps, numbers_, result)
    if faults.count:  # a false statement: never fully right; two, or mostly denials, wrong
        score = min(score * faults.factor, (PARTIAL_AT if faults.serious else CORRECT_AT) - 0.05)
        note = f"{note} {faults.note}".strip()
    elif (
        # One factor of five ("torch.manual_seed(0)") is still one real point, if every word of it is on the point:
        # "Use a bigger GPU" shares a word with a factor and names none.
        (not note or (note == shortfall and result.precision == 1.0))
        and not miscategorised(text, profile.genus)
        and (
            compared
            # the answer's formula or expression, every other word on target: "effective batch size = N × b"
            or (bonus and not index.content - result.used - _maths_words(text))
            or (profile.roles[1] and contrasted(profile.roles, profile.question_stems, text))
            or one_point(
                result, index, profile.key_terms, tokens, profile.question_norms, profile.defining, profile.baseline
            )
            or category(result, index, profile.key_terms, profile.genus)
            or stores_only(profile.store, tokens, profile.known, text)  # "storing models" for a registry
        )
    ):
        score = max(score, PARTIAL_AT)  # one real point, nothing wrong said: partly right
    if profile.subject and compared_only(profile.things, text):  # "Structured pruning ...; unstructured ..."
        score, note = min(score, ONE_PART_CAP), f"{note} The question also asks what {profile.subject} is.".strip()
    if bare:
        score = min(score, PARTIAL_AT - 0.05)
    score = round(max(0.0, min(1.0, score)), 3)
    verdict = verdict_of(score)
    # An incorrect answer earns nothing: "Incorrect · 26 %" read as a contradiction, and its fraction of a point
    # raised the quiz's score and the student's accuracy for a wrong answer.
    score = score if verdict is not Verdict.INCORRECT else 0.0
    within = {word for label in compared for word in label.casefold().split()}  # "range" of "wider range"
    matched = (("the formula",) if bonus else ()) + compared + tuple(m for m in result.matched if m not in within)
    words, verbs_ = profile.answer_words, profile.verbs
    covered, lacking = (phrased(terms, profile.key_terms, words, verbs_) for terms in (matched, result.missing))
    feedback = coverage_feedback(verdict, covered, lacking, result, note)
    return Grade(verdict, score, feedback, matched[:8], result.missing[:8])


def _maths_words(text: str) -> set[str]:
    """The stems of the words inside the response's TeX ("micro" of "$B_{\\text{micro}}$")."""
    return {stem(t.norm) for body in tex_bodies(text) for t in tokenize(fold(body))}
