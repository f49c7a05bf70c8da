"""backup_db and restore_db (`make backup`, `make restore`): a round trip keeps every row and every answer."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid

import psycopg
import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.db import connection

from apps.cohorts import services as cohorts
from apps.content.services import card_save
from apps.quiz import services as quiz
from tests.conftest import make_instructor, make_user
from tests.factories import make_card, make_deck

TABLES = [
    "auth_user", "content_deck", "content_card", "content_cardversion", "content_alias", "quiz_quizsession",
    "quiz_answer", "quiz_cardstate", "quiz_studentcardstat", "cohorts_cohort", "cohorts_membership",
]  # fmt: skip
ANSWERS_CHECKSUM = (
    "SELECT md5(string_agg(concat_ws('|', id, session_id, card_id, card_version_id, user_id, response, final_verdict,"
    " final_score, override_verdict, answered_at), ',' ORDER BY id)) FROM quiz_answer"
)


def _fingerprint(dsn: dict) -> dict:
    with psycopg.connect(**dsn) as db:
        counts = {table: db.execute(f"SELECT count(*) FROM {table}").fetchone()[0] for table in TABLES}  # noqa: S608
        return {**counts, "answers_md5": db.execute(ANSWERS_CHECKSUM).fetchone()[0]}


def _dsn(name: str) -> dict:
    s = connection.settings_dict
    return {k: v for k, v in {"dbname": name, "host": s["HOST"], "port": s["PORT"], "user": s["USER"],
                              "password": s["PASSWORD"]}.items() if v}  # fmt: skip


def _url(name: str) -> str:
    s = connection.settings_dict
    auth = s["USER"] + (f":{s['PASSWORD']}" if s["PASSWORD"] else "")
    host = s["HOST"] if not s["HOST"].startswith("/") else ""
    query = f"?host={s['HOST']}" if s["HOST"].startswith("/") else ""
    return f"postgresql://{auth}@{host}{':' + str(s['PORT']) if s['PORT'] else ''}/{name}{query}"


@pytest.mark.django_db(transaction=True)
def test_backup_and_restore_round_trip(tmp_path):
    deck = make_deck()
    for i in range(4):
        make_card(deck=deck, question=f"Which {i}?", answer=f"Tool {i}")
    card = deck.cards.first()
    card.answer = "Tool zero, edited"
    card_save(card=card, aliases=["Tool 0"])
    teacher, student = make_instructor("carol"), make_user("alice")
    cohort = cohorts.cohort_create(name="Ops", instructor=teacher)
    cohorts.cohort_join(student=student, code=cohort.join_code)
    session = quiz.session_start(user=student, deck=deck, size=4, mode="recall", order="new")
    for item in session.items.all():
        quiz.answer_submit(
            user=student, session_id=session.pk, position=item.position, submission=quiz.Submission(response="Tool 1")
        )
    quiz.answer_override(user=student, session_id=session.pk, position=1, verdict="correct")
    source = _fingerprint(_dsn(connection.settings_dict["NAME"]))
    assert source["quiz_answer"] == 4 and source["content_cardversion"] == 5

    dump = tmp_path / "round-trip.dump"
    call_command("backup_db", "--output", str(dump), verbosity=0)
    assert dump.stat().st_size > 0 and not dump.with_suffix(".dump.partial").exists()

    target = f"restore_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(**_dsn("postgres"), autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{target}"')
    try:
        env = {**os.environ, "DATABASE_URL": _url(target), "DEBUG": "1"}
        restore = subprocess.run(  # noqa: S603
            [sys.executable, "manage.py", "restore_db", str(dump)],
            cwd=settings.BASE_DIR, env=env, capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        assert restore.returncode == 0, restore.stderr
        assert _fingerprint(_dsn(target)) == source
        again = subprocess.run(  # noqa: S603
            [sys.executable, "manage.py", "restore_db", str(dump)],
            cwd=settings.BASE_DIR, env=env, capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        assert again.returncode != 0 and "already has" in again.stderr
    finally:
        with psycopg.connect(**_dsn("postgres"), autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{target}" WITH (FORCE)')


@pytest.mark.django_db
def test_a_backup_is_readable_by_its_owner_only(tmp_path, settings):
    # It holds password hashes, emails and the session keys of everyone signed in.
    settings.BASE_DIR = tmp_path  # the default output, var/backups/, is under it
    call_command("backup_db", verbosity=0)
    (dump,) = (tmp_path / "var" / "backups").iterdir()
    assert dump.name.startswith("mlcourse-") and dump.suffix == ".dump"
    assert dump.stat().st_mode & 0o777 == 0o600
    assert dump.parent.stat().st_mode & 0o777 == 0o700


@pytest.mark.django_db
def test_a_folder_given_as_the_output_is_refused_before_anything_runs(tmp_path):
    with pytest.raises(CommandError, match=rf"^{tmp_path} is a folder; give the backup file's name, such as "):
        call_command("backup_db", "--output", str(tmp_path), "--force", verbosity=0)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.django_db
def test_an_output_in_a_folder_that_does_not_exist_is_refused_not_created(tmp_path):
    # A typo in the path made a tree of folders where no one looks for backups.
    typo = tmp_path / "bakcups" / "nightly.dump"
    with pytest.raises(CommandError, match=r"bakcups does not exist; create the folder first, or choose another path"):
        call_command("backup_db", "--output", str(typo), verbosity=0)
    assert not typo.parent.exists()
    (tmp_path / "file").write_text("")
    with pytest.raises(CommandError, match=r"file is not a folder"):
        call_command("backup_db", "--output", str(tmp_path / "file" / "nightly.dump"), verbosity=0)


@pytest.mark.django_db
def test_a_failed_backup_leaves_neither_the_file_nor_a_partial_one(tmp_path, monkeypatch):
    # pg_dump fails for real: the server refuses its connection (a setting it does not know, through libpq's
    # PGOPTIONS), after the .partial file was made. The test's own connection is open already and unaffected.
    connection.ensure_connection()
    monkeypatch.setenv("PGOPTIONS", "-c no_such_setting=1")
    dump = tmp_path / "nightly.dump"
    with pytest.raises(CommandError, match=r"pg_dump failed, no backup was written: .*no_such_setting"):
        call_command("backup_db", "--output", str(dump), verbosity=0)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.django_db(transaction=True)
def test_a_backup_never_replaces_an_existing_file_unless_told_to(tmp_path):
    dump = tmp_path / "kept.dump"
    dump.write_bytes(b"last week's backup")
    with pytest.raises(CommandError, match=r"kept.dump exists; choose another file, or add --force to replace it"):
        call_command("backup_db", "--output", str(dump), verbosity=0)
    assert dump.read_bytes() == b"last week's backup"
    call_command("backup_db", "--output", str(dump), "--force", verbosity=0)
    assert dump.read_bytes().startswith(b"PGDMP")  # pg_dump's custom format


@pytest.mark.django_db
def test_restore_refuses_a_missing_file(tmp_path):
    with pytest.raises(CommandError, match="no such backup file"):
        call_command("restore_db", str(tmp_path / "nope.dump"))


def test_backup_tools_get_every_connection_option_of_database_url():
    """A server that checks certificates needs the CA and client files passed on, not just sslmode."""
    from apps.common.pgtools import connection_args

    tls = {"sslmode": "verify-full", "sslrootcert": "/etc/ca.pem", "sslcert": "/etc/c.pem", "sslkey": "/etc/c.key"}
    saved = connection.settings_dict["OPTIONS"]
    connection.settings_dict["OPTIONS"] = {**saved, **tls}
    try:
        args, env = connection_args()
    finally:
        connection.settings_dict["OPTIONS"] = saved
    # Named, not positional: pg_restore reads a positional argument as the file to restore.
    assert args[-2:] == ["--dbname", connection.settings_dict["NAME"]]
    assert (env["PGSSLMODE"], env["PGSSLROOTCERT"], env["PGSSLCERT"], env["PGSSLKEY"]) == tuple(tls.values())
    assert env["PATH"] == os.environ["PATH"]
