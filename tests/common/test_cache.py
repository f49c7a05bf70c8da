"""The database cache counts every increment of a burst, so the rate limits kept in it hold."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.core.cache import cache, caches
from django.db import connection, connections
from django.test import RequestFactory
from django.utils import timezone

from apps.accounts.services import password_reset_refused
from apps.common.cache import AtomicDatabaseCache

BURST = 16


def _at_once(work) -> list:
    """Runs work() in BURST threads released together, each on its own database connection."""
    barrier = threading.Barrier(BURST)
    results: list = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            barrier.wait(timeout=30)
            results.append(work())
        except BaseException as exc:  # re-raised in the test's thread
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run) for _ in range(BURST)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return results


def _expires(key: str):
    with connection.cursor() as cursor:
        cursor.execute(
            'SELECT "expires" FROM mlcourse_cache WHERE "cache_key" = %s', [cache.make_and_validate_key(key)]
        )
        return cursor.fetchone()[0]


@pytest.fixture
def clean_cache():
    # A transactional test's flush empties the models' tables only, and the cache table is not one of them.
    cache.clear()
    yield
    cache.clear()


def test_the_default_cache_without_redis_is_the_atomic_database_cache(settings):
    assert settings.REDIS_URL == ""
    assert isinstance(caches["default"], AtomicDatabaseCache)


@pytest.mark.django_db(transaction=True)
def test_simultaneous_increments_are_each_counted_once(clean_cache):
    cache.add("burst", 0, 3600)
    counts = _at_once(lambda: caches["default"].incr("burst"))
    assert sorted(counts) == list(range(1, BURST + 1))
    assert cache.get("burst") == BURST


@pytest.mark.django_db(transaction=True)
def test_a_burst_of_reset_requests_gets_exactly_the_limit_through(clean_cache, settings):
    """Regression: thirty simultaneous requests got 17 through a limit of 5 an hour."""
    settings.PASSWORD_RESET_RATE = "5/h"
    factory = RequestFactory()

    def ask() -> bool:
        request = factory.post("/accounts/password_reset/", {"email": "alice@example.com"}, REMOTE_ADDR="198.51.100.5")
        return password_reset_refused(request=request)

    refused = _at_once(ask)
    assert refused.count(False) == 5 and refused.count(True) == BURST - 5


@pytest.mark.django_db
def test_an_increment_keeps_the_lifetime_the_count_was_added_with(clean_cache):
    """Django's incr rewrote the expiry to the default five minutes, so a pause of five minutes began a new hour."""
    cache.add("count", 1, 3600)
    added = _expires("count")
    assert added > timezone.now() + timedelta(minutes=59)
    assert cache.incr("count") == 2 and cache.incr("count", 3) == 5
    assert _expires("count") == added and cache.get("count") == 5


@pytest.mark.django_db
def test_an_increment_of_a_missing_or_expired_key_fails_as_djangos_does(clean_cache):
    with pytest.raises(ValueError, match="not found"):
        cache.incr("never-added")
    cache.add("stale", 1, 3600)
    with connection.cursor() as cursor:
        cursor.execute("UPDATE mlcourse_cache SET expires = %s", [timezone.now() - timedelta(seconds=1)])
    with pytest.raises(ValueError, match="not found"):
        cache.incr("stale")
    # django-ratelimit's add() takes an expired key over and starts the count again.
    assert cache.add("stale", 1, 3600) and cache.incr("stale") == 2
