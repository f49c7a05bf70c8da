"""The embedded PostgreSQL's helpers (`make db-stop`, `make backup`, `make restore`) print no spurious warning."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from django.conf import settings

pytest.importorskip("pgserver")


def test_reaching_pgserver_prints_no_runtime_dir_warning():
    # pgserver asks platformdirs for a runtime directory when imported: without XDG_RUNTIME_DIR (containers, CI,
    # sudo) that printed "RuntimeDirWarning: XDG_RUNTIME_DIR is not set" above every backup and restore.
    environment = {k: v for k, v in os.environ.items() if k != "XDG_RUNTIME_DIR"}
    result = subprocess.run(
        [sys.executable, "-W", "always", "-c", "from apps.common.devdb import bin_dir; print(bin_dir())"],
        cwd=settings.BASE_DIR, env=environment, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
