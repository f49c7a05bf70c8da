"""Answer throughput: students take quizzes over real HTTP and every answer POST is timed.

Each client logs in once, then starts quizzes and answers them as the HTMX page does (the POST gets
the feedback partial) until the answer phase ends; then all of them GET a signed-in page that does
nothing (the floor under every quiz request), then /healthz back to back, the baseline the answer
rate is compared with. One submit in ten goes out twice at once over two
connections, as a double click would: both must get the same feedback, and the pair counts once in
the rate. Afterwards the database must hold exactly one answer for each question a client was
shown feedback for.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass

from .cpu import CpuMeter
from .loadgen import HttpClient, HttpError, Response, hammer, run_users
from .record import Recorder, percentile
from .server import SIGNED_IN_FLOOR_PATH, Target

PAIR_FRACTION = 0.10
QUIZ_SIZE = 10
TARGET_RATIO = 0.25
TARGET_P99_MS = 100.0
# The first moments of the healthz phase overlap the answer cycles still in flight.
HEALTHZ_SETTLE_S = 0.5
PHRASES = (
    "gradient descent",
    "I think it is the learning rate",
    "backpropagation",
    "it shards the optimizer state across data-parallel workers",
    "a Kubernetes Deployment",
    "mixed precision with FP16",
    "no idea, maybe caching",
    "all-reduce of the gradients",
    "the softmax of the logits",
    "it reduces memory use",
)

CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
QUESTION_FORM = re.compile(r'<form[^>]*action="(/quiz/(\d+)/q/(\d+)/)"[^>]*class="question-form"')
TOKEN_INPUT = re.compile(r'name="token" value="([^"]+)"')
OPTION_INPUT = re.compile(r'name="option" value="(\d+)"')
QUIZ_URL = re.compile(r"/quiz/\d+/")
FEEDBACK = b'class="feedback verdict-'


@dataclass(frozen=True)
class Plan:
    warmup: float = 5.0
    answers: float = 20.0
    healthz: float = 10.0

    def answers_window(self, start: float) -> tuple[float, float]:
        return start + self.warmup, start + self.warmup + self.answers

    def floor_window(self, start: float) -> tuple[float, float]:
        begin = self.answers_window(start)[1]
        return begin + HEALTHZ_SETTLE_S, begin + self.healthz

    def healthz_window(self, start: float) -> tuple[float, float]:
        begin = self.floor_window(start)[1]
        return begin + HEALTHZ_SETTLE_S, begin + self.healthz


@dataclass(frozen=True)
class Question:
    action: str
    key: tuple[int, int]  # (session id, position)
    token: str
    options: tuple[str, ...]  # empty for free recall


def parse_question(html: str) -> Question | None:
    form = QUESTION_FORM.search(html)
    token = TOKEN_INPUT.search(html)
    if form is None or token is None:
        return None
    return Question(form[1], (int(form[2]), int(form[3])), token[1], tuple(OPTION_INPUT.findall(html)))


async def student(user: dict, params: dict, recorder: Recorder, ready: Callable[[], Awaitable[float]]) -> None:
    """One simulated student: log in, wait for the others, take quizzes, then hammer /healthz."""
    plan = Plan(**params["plan"])
    rng = random.Random(user["seed"])
    client = HttpClient(params["port"])
    twin = client.twin()
    try:
        await _log_in(client, user["username"], params["password"])
        start = await ready()
        answers_end = plan.answers_window(start)[1]
        await _take_quizzes(client, twin, rng, params["decks"], until=answers_end, recorder=recorder)
        floor_end = plan.floor_window(start)[1]
        await hammer(client, SIGNED_IN_FLOOR_PATH, until=floor_end, recorder=recorder, name="signed_in")
        await hammer(client, "/healthz", until=plan.healthz_window(start)[1], recorder=recorder, name="healthz")
    finally:
        recorder.counts["resends"] += client.resends + twin.resends
        await client.close()
        await twin.close()


async def _log_in(client: HttpClient, username: str, password: str) -> None:
    page = await client.get("/accounts/login/?next=/")
    token = CSRF_INPUT.search(page.text)
    if page.status != 200 or token is None:
        raise RuntimeError(f"login page: status {page.status}, CSRF input {'found' if token else 'missing'}")
    form = {"username": username, "password": password, "csrfmiddlewaretoken": token[1], "next": "/"}
    response = await client.post("/accounts/login/", form)
    if response.status != 302 or "sessionid" not in client.cookies:
        raise RuntimeError(f"{username} could not log in: status {response.status}")


def _headers(client: HttpClient, **extra: str) -> dict[str, str]:
    return {"X-CSRFToken": client.cookies.get("csrftoken", ""), **extra}


async def _take_quizzes(
    client: HttpClient, twin: HttpClient, rng: random.Random, decks: list[str], *, until: float, recorder: Recorder
) -> None:
    quiz_url, first_page = None, True
    for _step in range(1_000_000):
        if time.monotonic() >= until:
            return
        try:
            if quiz_url is None:
                quiz_url, first_page = await _start_quiz(client, rng.choice(decks), recorder), True
                continue
            # As in a browser: the quiz page loads once, then "Next" swaps in each question with HTMX.
            page = await client.get(quiz_url, None if first_page else {"HX-Request": "true"})
            first_page = False
            recorder.response("question", page, sample=False)
            html = page.text if page.status == 200 else ""
            question = parse_question(html)
            if question is None:
                if page.status == 200 and 'class="summary"' not in html:
                    recorder.failures["question", "neither a question nor the summary"] += 1
                quiz_url = None  # finished (or broken): start another
                continue
            if not await _answer(client, twin, question, rng, recorder):
                quiz_url = None
        except HttpError as exc:
            recorder.failures["http", str(exc)] += 1
            quiz_url = None


async def _start_quiz(client: HttpClient, deck: str, recorder: Recorder) -> str | None:
    form = {"size": QUIZ_SIZE, "mode": "mixed", "order": "random"}
    response = await client.post(f"/decks/{deck}/quiz/", form, headers=_headers(client))
    recorder.response("start", response, sample=False)
    location = response.headers.get("location", "")
    if response.status != 302 or not QUIZ_URL.fullmatch(location):
        recorder.failures["start", f"status {response.status} to {location or 'nowhere'}"] += 1
        return None
    return location


def _feedback_of(response: Response) -> str:
    # Each render masks the CSRF token afresh; everything else of the feedback must match.
    return CSRF_INPUT.sub("", response.text)


async def _answer(
    client: HttpClient, twin: HttpClient, question: Question, rng: random.Random, recorder: Recorder
) -> bool:
    form = {"token": question.token}
    if question.options:
        form["option"] = rng.choice(question.options)
    else:
        form["response"] = rng.choice(PHRASES)
    headers = _headers(client, **{"HX-Request": "true"})
    pair = rng.random() < PAIR_FRACTION
    if pair:
        sent = [client.post(question.action, form, headers), twin.post(question.action, form, headers)]
        outcomes = await asyncio.gather(*sent, return_exceptions=True)
        recorder.counts["pairs"] += 1
    else:
        outcomes = [await client.post(question.action, form, headers)]
    for outcome in outcomes:
        if isinstance(outcome, HttpError):
            recorder.failures["answer", str(outcome)] += 1
        elif isinstance(outcome, BaseException):
            raise outcome
    responses = [outcome for outcome in outcomes if isinstance(outcome, Response)]
    if len(responses) != len(outcomes):
        return False
    for response in responses:
        recorder.response("answer", response)
    began = min(response.started for response in responses)
    recorder.samples["answer_op"].append((began, max(r.started + r.elapsed for r in responses) - began))
    if not all(response.status == 200 and FEEDBACK in response.body for response in responses):
        statuses = "/".join(str(response.status) for response in responses)
        recorder.failures["answer", f"status {statuses} or no feedback in the response"] += 1
        return False
    if pair:
        first, second = responses
        if _feedback_of(first) != _feedback_of(second):
            recorder.failures["answer", "the two submits of a pair got different feedback"] += 1
            return False
        # Both in flight at once: the server really had to settle a race, not just find the stored answer.
        if max(first.started, second.started) < min(first.started + first.elapsed, second.started + second.elapsed):
            recorder.counts["pairs overlapping"] += 1
    recorder.keys["accepted"].add(question.key)
    return True


def run(target: Target, options: argparse.Namespace) -> bool:
    plan = Plan(warmup=options.warmup, answers=options.seconds, healthz=options.healthz_seconds)
    if len(target.usernames) < options.clients:
        raise ValueError(f"{options.clients} clients need as many students; {len(target.usernames)} were seeded")
    users = [{"username": name, "seed": index} for index, name in enumerate(target.usernames[: options.clients])]
    params = {
        "port": target.port,
        "password": target.password,
        "decks": list(target.deck_slugs),
        "plan": asdict(plan),
        "ready_timeout": 120.0,  # every client's login, PBKDF2 included
        "run_timeout": plan.warmup + plan.answers + 2 * plan.healthz + 60.0,
    }
    print(
        f"{options.clients} clients in {options.processes} processes: {plan.warmup:g} s warm-up, "
        f"{plan.answers:g} s answers, {plan.healthz:g} s /healthz",
        flush=True,
    )
    meter = CpuMeter({"gunicorn": [target.server_pid]})

    def on_start(start: float, load_pids: list[int]) -> None:
        meter.groups["load"] = load_pids
        meter.start([*plan.answers_window(start), *plan.floor_window(start), *plan.healthz_window(start)])

    try:
        start, recorder = run_users(
            f"{__name__}:student", users, params, processes=options.processes, on_start=on_start
        )
    finally:
        meter.stop()
    for line in meter.report(["answers", None, "signed-in", None, "healthz"]):
        print(line)
    healthy = report(recorder, start, plan)
    return check_database(recorder.keys["accepted"]) and healthy


def report(recorder: Recorder, start: float, plan: Plan) -> bool:
    """Prints the figures; False when a response was an error or a client failed."""
    answer_start, answer_end = plan.answers_window(start)
    healthz_start, healthz_end = plan.healthz_window(start)
    answers = recorder.window("answer", answer_start, answer_end)
    operations = recorder.window("answer_op", answer_start, answer_end)
    healthz = recorder.window("healthz", healthz_start, healthz_end)
    floor_start, floor_end = plan.floor_window(start)
    signed_in = recorder.window("signed_in", floor_start, floor_end)
    answer_rps = len(operations) / (answer_end - answer_start)
    healthz_rps = len(healthz) / (healthz_end - healthz_start)
    signed_in_rps = len(signed_in) / (floor_end - floor_start)
    # Requests per answer: the question, the POST, and the quiz starts and double submits among them.
    per_answer = sum(n for (name, _), n in recorder.statuses.items() if name != "healthz" and name != "signed_in")
    per_answer /= max(1, len(recorder.samples["answer_op"]))
    ratio = answer_rps / healthz_rps if healthz_rps else float("nan")
    p50, p99 = percentile(answers, 0.50) * 1000, percentile(answers, 0.99) * 1000
    bad = Counter({key: n for key, n in recorder.statuses.items() if not 200 <= key[1] < 400})
    server_errors = sum(n for (_name, status), n in bad.items() if status >= 500)
    print(f"requests: {dict(sorted(Counter(name for name, _ in recorder.statuses.elements()).items()))}")
    pairs, overlapping = recorder.counts["pairs"], recorder.counts["pairs overlapping"]
    print(f"answer POSTs measured: {len(answers)} for {len(operations)} answers")
    print(f"double submits: {pairs} pairs, {overlapping} of them in flight together (a mismatch is a failure)")
    print(f"answer latency ms: p90={percentile(answers, 0.9) * 1000:.1f} max={max(answers, default=0) * 1000:.1f}")
    print(f"healthz latency ms: p50={percentile(healthz, 0.5) * 1000:.1f} p99={percentile(healthz, 0.99) * 1000:.1f}")
    if recorder.counts["resends"]:
        print(f"requests resent after gunicorn closed a kept-alive connection: {recorder.counts['resends']}")
    for (name, status), count in sorted(bad.items()):
        print(f"error response: {name} {status} x{count}")
    for (name, reason), count in sorted(recorder.failures.items()):
        print(f"failure: {name}: {reason} x{count}")
    ratio_ok, p99_ok = ratio >= TARGET_RATIO, p99 < TARGET_P99_MS
    print(
        f"targets: ratio >= {TARGET_RATIO} {'met' if ratio_ok else 'MISSED'}, "
        f"p99 < {TARGET_P99_MS:g} ms {'met' if p99_ok else 'MISSED'}"
    )
    print(f"non_2xx_3xx={bad.total()} server_errors={server_errors} client_failures={recorder.failures.total()}")
    print(f"answer_rps={answer_rps:.1f}")
    print(f"answer_p50_ms={p50:.1f}")
    print(f"answer_p99_ms={p99:.1f}")
    print(f"healthz_rps={healthz_rps:.1f}")
    print(f"answer_to_healthz_ratio={ratio:.3f}")
    # The ceiling the session and auth floor leaves: every request of an answer doing no work of its own.
    print(f"signed_in_noop_rps={signed_in_rps:.1f}")
    print(f"requests_per_answer={per_answer:.2f}")
    ceiling = signed_in_rps / per_answer / healthz_rps if healthz_rps and per_answer else float("nan")
    print(f"ratio_ceiling_with_empty_views={ceiling:.3f}", flush=True)
    return not bad and not recorder.failures and bool(answers) and bool(healthz) and bool(signed_in)


def check_database(accepted: set[tuple[int, int]]) -> bool:
    """Exactly one answer row per (session, position) a client got feedback for, and nothing else."""
    from django.db.models import Count, F

    from apps.quiz.models import Answer

    rows = Counter(Answer.objects.values_list("item__session_id", "item__position"))
    duplicates = sum(count - 1 for count in rows.values() if count > 1)
    per_card = Answer.objects.order_by().values("session_id", "card_id").annotate(n=Count("pk")).filter(n__gt=1)
    duplicates += sum(row["n"] - 1 for row in per_card)
    misfiled = Answer.objects.exclude(session_id=F("item__session_id")).count()
    missing, extra = len(accepted - rows.keys()), len(rows.keys() - accepted)
    print(f"answers_checked={len(accepted)} duplicates={duplicates}")
    if missing or extra or misfiled:
        print(f"answer rows: missing={missing} extra={extra} in the wrong session={misfiled}")
    return bool(accepted) and not (duplicates or missing or extra or misfiled)
