"""Join codes that match no cohort are limited per client address (JOIN_RATE) and per account (JOIN_ACCOUNT_RATE)."""

from __future__ import annotations

import re
import threading

import pytest
from django.core.cache import cache
from django.db import connections
from django.test import Client
from django.urls import reverse

from apps.cohorts import services
from apps.cohorts.models import Membership
from tests.conftest import make_user

pytestmark = pytest.mark.django_db

SCHOOL = "192.0.2.10"


def _type_code(client, user, code: str, address: str = SCHOOL):
    client.force_login(user)
    return client.post(reverse("cohorts:join"), {"code": code}, REMOTE_ADDR=address)


def _minutes_said(page: str) -> int:
    return int(re.search(r"try again in (\d+) minutes?", page).group(1))


@pytest.fixture
def spring(instructor):
    return services.cohort_create(name="Spring", instructor=instructor)


def test_wrong_codes_from_one_address_are_limited_and_then_even_the_right_code_waits(client, spring, settings):
    """Once an address is over its limit no code is looked up, so a right guess cannot be told from a wrong one."""
    settings.JOIN_RATE = "3/15m"
    for n in range(3):
        wrong = _type_code(client, make_user(f"s{n}"), "WRONG234")
        assert wrong.status_code == 422 and "does not match any cohort" in wrong.content.decode()
    late = make_user("late")
    refused = _type_code(client, late, spring.join_code)
    page = refused.content.decode()
    assert refused.status_code == 429
    assert "Too many join codes" in page and "your network" in page and 1 <= _minutes_said(page) <= 15
    assert "Spring" not in page and "does not match" not in page
    assert not Membership.objects.filter(student=late).exists()
    # The invite link is refused the same way, signed in or not, and names no cohort.
    client.logout()
    invite = client.get(reverse("cohorts:invite", args=[spring.join_code]), REMOTE_ADDR=SCHOOL)
    assert invite.status_code == 429 and "Spring" not in invite.content.decode()
    # Another network joins as usual.
    joined = _type_code(client, late, spring.join_code, address="203.0.113.5")
    assert joined.status_code == 303 and Membership.objects.filter(student=late, cohort=spring).exists()


def test_wrong_codes_in_invite_links_count_against_the_address_without_an_account(client, spring, settings):
    settings.JOIN_RATE = "2/h"
    for code in ("GONE2345", "GONE6789"):
        assert client.get(reverse("cohorts:invite", args=[code]), REMOTE_ADDR=SCHOOL).status_code == 404
    refused = client.get(reverse("cohorts:invite", args=[spring.join_code]), REMOTE_ADDR=SCHOOL)
    assert refused.status_code == 429 and "Spring" not in refused.content.decode()
    # Looking at the empty form looks up nothing and is still shown.
    assert client.get(reverse("cohorts:join"), REMOTE_ADDR=SCHOOL).status_code == 200


def test_one_account_is_limited_on_any_address_without_using_up_its_classmates_allowance(client, spring, settings):
    settings.JOIN_ACCOUNT_RATE = "2/h"
    settings.JOIN_RATE = "4/h"
    guesser = make_user("guesser")
    for n in range(2):
        assert _type_code(client, guesser, "WRONG234", address=f"198.51.100.{n}").status_code == 422
    refused = _type_code(client, guesser, spring.join_code, address="198.51.100.9")
    page = refused.content.decode()
    assert refused.status_code == 429 and "You have tried" in page and "your network" not in page
    for _ in range(5):
        assert _type_code(client, guesser, "WRONG234").status_code == 429
    # The guesser's refused tries were not looked up, so the school address still has all four.
    for n in range(4):
        assert _type_code(client, make_user(f"c{n}"), "WRONG234").status_code == 422
    assert _type_code(client, make_user("c9"), "WRONG234").status_code == 429


def test_right_codes_do_not_count(client, spring, instructor, settings):
    """Thirty students opening the invite link and joining, and their instructor checking it, use none of it."""
    settings.JOIN_RATE = "2/h"
    settings.JOIN_ACCOUNT_RATE = "2/h"
    invite = reverse("cohorts:invite", args=[spring.join_code])
    for n in range(30):
        client.force_login(make_user(f"student{n}"))
        assert client.get(invite, REMOTE_ADDR=SCHOOL).status_code == 200
        assert client.post(invite, {"code": spring.join_code}, REMOTE_ADDR=SCHOOL).status_code == 303
        assert client.get(invite, REMOTE_ADDR=SCHOOL).status_code == 200  # already in: said so
    client.force_login(instructor)
    assert client.get(invite, REMOTE_ADDR=SCHOOL).status_code == 200
    assert Membership.objects.filter(cohort=spring).count() == 30
    for n in range(2):
        assert _type_code(client, make_user(f"late{n}"), "WRONG234").status_code == 422


def test_the_defaults_let_a_class_behind_one_address_mistype_and_still_join(client, spring, settings):
    """Thirty students on one school address, each typing the code wrong three times before getting it right."""
    assert (settings.JOIN_RATE, settings.JOIN_ACCOUNT_RATE) == ("100/h", "20/h")
    for n in range(30):
        student = make_user(f"student{n}")
        for typo in ("W6FWNU8", "W6FWNU88", "V6FWNU8W"):
            assert _type_code(client, student, typo).status_code == 422
        assert _type_code(client, student, spring.join_code).status_code == 303
    assert Membership.objects.filter(cohort=spring).count() == 30


@pytest.mark.django_db(transaction=True)
def test_a_burst_of_wrong_codes_gets_exactly_the_limit_looked_up(spring, settings):
    """Each try is counted before its code is looked up: counted after, a burst all passed the check at once."""
    settings.JOIN_RATE = "3/h"
    cache.clear()  # a transactional test's flush leaves the cache table's counts
    burst = 16
    barrier = threading.Barrier(burst)
    statuses: list[int] = []

    def guess(n: int) -> None:
        try:
            barrier.wait(timeout=30)
            response = Client().get(reverse("cohorts:invite", args=[f"GUESS{n:03d}"]), REMOTE_ADDR=SCHOOL)
            statuses.append(response.status_code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=guess, args=(n,)) for n in range(burst)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    cache.clear()
    assert sorted(statuses) == [404] * 3 + [429] * (burst - 3)
