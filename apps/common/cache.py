"""Django's database cache with an increment that counts every caller, for the rate limits kept in it, and the
errors that mean the cache server cannot be reached."""

from __future__ import annotations

import base64
import pickle

import redis.exceptions
from django.core.cache.backends.db import DatabaseCache
from django.db import connections, router, transaction
from django.utils.timezone import now

# What Django's Redis backend raises when the server is down or does not answer: redis-py's own classes, which are
# not the builtin ConnectionError. Not the builtin ones either: a client gone mid-answer (BrokenPipeError) or an
# SMTP timeout would be called the cache. The database cache fails as the database does (OperationalError), and
# is answered as the database.
CACHE_UNREACHABLE: tuple[type[Exception], ...] = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)


class AtomicDatabaseCache(DatabaseCache):
    """incr() adds to the stored count under a row lock, and keeps the entry's expiry.

    Django's incr is get-then-set: thirty simultaneous password-reset requests all read the same count, and
    17 went through a limit of 5 an hour. django-ratelimit calls add(key, 1) and, when the key exists, incr(key),
    so an exact incr makes the count exact. The inherited incr also rewrote the expiry to the cache's default
    timeout (five minutes), so a client that paused that long started a fresh hour: the count keeps the
    lifetime add() gave it.
    """

    def incr(self, key, delta=1, version=None):
        key = self.make_and_validate_key(key, version=version)
        db = router.db_for_write(self.cache_model_class)
        connection = connections[db]
        table = connection.ops.quote_name(self._table)
        # FOR UPDATE makes a second caller wait for the first one's commit and then read the count it wrote.
        # Only the quoted table name (from the settings) is formatted in; the key and the time are parameters.
        # %-formatting, as Django's own database cache writes its statements: bandit misreports an f-string's nosec.
        select = 'SELECT "value" FROM %s WHERE "cache_key" = %%s AND "expires" >= %%s FOR UPDATE' % table  # noqa: S608, UP031 # nosec B608
        update = 'UPDATE %s SET "value" = %%s WHERE "cache_key" = %%s' % table  # noqa: S608, UP031 # nosec B608
        with transaction.atomic(using=db), connection.cursor() as cursor:
            cursor.execute(select, [key, connection.ops.adapt_datetimefield_value(now())])
            row = cursor.fetchone()
            if row is None:
                raise ValueError(f"Key '{key}' not found")
            # Pickled by this class's own set() or add(), from this table, as the parent's get() reads it.
            count = pickle.loads(base64.b64decode(connection.ops.process_clob(row[0]).encode()))  # noqa: S301 # nosec B301
            count += delta
            encoded = base64.b64encode(pickle.dumps(count, self.pickle_protocol)).decode("latin1")
            cursor.execute(update, [encoded, key])
        return count
