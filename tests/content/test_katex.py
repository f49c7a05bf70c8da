"""The long-lived node process that runs KaTeX: threads, crashes and a missing Node."""

from __future__ import annotations

import shutil
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.core.checks import ERROR, WARNING

from apps.content import katex
from apps.content.checks import katex_renderer_check, katex_renderer_deploy_check
from tests.manage import PRODUCTION, manage


def test_reports_the_pinned_katex_version():
    import json
    from pathlib import Path

    from django.conf import settings

    pinned = json.loads(Path(settings.BASE_DIR, "package.json").read_text())["dependencies"]["katex"]
    assert katex.katex_version() == pinned


def test_many_threads_share_the_worker_safely():
    formulas = [f"x_{{{i}}} + \\frac{{{i}}}{{2}}" for i in range(200)]
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(lambda tex: katex.render_tex(tex), formulas))
    for i, html in enumerate(results):
        assert f"<mn>{i}</mn>" in html


def test_a_killed_worker_is_replaced_on_the_next_render():
    katex.render_tex("x")
    katex._worker._proc.kill()
    katex._worker._proc.wait()
    assert "<mi>y</mi>" in katex.render_tex("y")


def test_parse_errors_carry_katex_message():
    with pytest.raises(katex.KatexParseError, match="KaTeX parse error"):
        katex.render_tex(r"\frac{1}{")


def test_missing_node_is_a_clear_setup_error_a_warning_and_a_deploy_error(katex_down):
    with pytest.raises(katex.KatexUnavailableError, match=r"'/nonexistent/node', NODE_BINARY\) is not on PATH"):
        katex.render_tex("x")
    (warning,) = katex_renderer_check(None)
    assert (warning.id, warning.level) == ("content.W001", WARNING) and "npm ci" in warning.hint
    (error,) = katex_renderer_deploy_check(None)
    assert (error.id, error.level) == ("content.E001", ERROR) and "NODE_BINARY" in error.hint


def test_katex_works_again_once_node_is_back(katex_down, settings):
    settings.NODE_BINARY = "node"
    katex._worker._stop()
    assert "<mi>x</mi>" in katex.render_tex("x")


@pytest.mark.parametrize(
    "tex",
    [
        r"\href{https://example.com}{docs}",
        r"\url{https://example.com}",
        r"\htmlClass{visually-hidden}{x}",
        r"\htmlStyle{color: red}{x}",
        r"\includegraphics[height=1em]{https://example.com/a.png}",
    ],
)
def test_links_images_classes_and_styles_in_maths_are_refused_not_drawn_in_red(tex):
    with pytest.raises(katex.KatexParseError, match=r"is not allowed here \(no links, images, classes"):
        katex.render_tex(tex)


def test_a_formula_over_the_length_limit_is_refused_before_katex_runs():
    with pytest.raises(katex.KatexParseError, match="the formula is 5,001 characters long; at most 5,000"):
        katex.render_tex("x" * 5_001)
    assert "<mi>x</mi>" in katex.render_tex("x" * katex.MAX_FORMULA)


def test_a_formula_nested_too_deeply_is_named_as_such_not_as_a_stack_overflow():
    nested = "{" * 2_400 + "x" + "}" * 2_400
    with pytest.raises(katex.KatexParseError, match="the formula is nested too deeply to typeset"):
        katex.render_tex(nested)
    assert "<mi>x</mi>" in katex.render_tex("{" * 20 + "x" + "}" * 20)


def test_a_formula_katex_cannot_finish_in_time_is_its_error_and_the_worker_recovers(monkeypatch):
    slow = " + ".join(rf"\frac{{a_{{{i}}}}}{{b_{{{i}}}}}" for i in range(200))
    monkeypatch.setattr(katex, "TIMEOUT_SECONDS", 0.000_1)
    with pytest.raises(katex.KatexParseError, match="typesetting it took longer than"):
        katex.render_tex(slow)
    monkeypatch.undo()
    assert "<mi>y</mi>" in katex.render_tex("y")


def test_a_worker_that_stalls_is_replaced_and_the_formula_typeset_anyway():
    """A stopped worker says nothing: a fresh one is asked before the formula is blamed (a stored page would
    otherwise get an error box where its maths was fine)."""
    import os
    import signal

    katex.render_tex("x")
    stalled = katex._worker._proc
    os.kill(stalled.pid, signal.SIGSTOP)
    try:
        assert "<mi>y</mi>" in katex.render_tex("y")
    finally:
        if stalled.poll() is None:
            os.kill(stalled.pid, signal.SIGKILL)
    assert katex._worker._proc is not stalled


def test_without_node_the_site_still_starts_and_only_check_deploy_fails():
    """runserver runs the plain checks: a laptop without Node got a SystemCheckError and no server at all."""
    plain = manage("check", DEBUG="1", NODE_BINARY="/nonexistent/node")
    assert plain.returncode == 0, plain.stderr
    assert "content.W001" in plain.stderr and "content.E001" not in plain.stderr
    deploy = manage("check", "--deploy", **PRODUCTION, NODE_BINARY="/nonexistent/node")
    assert deploy.returncode != 0 and "content.E001" in deploy.stderr


def test_node_binary_names_the_node_to_run(tmp_path):
    node = shutil.which("node")
    wrapper = tmp_path / "my-node"
    wrapper.write_text(f'#!/bin/sh\necho started >> "{tmp_path}/log"\nexec {node} "$@"\n')
    wrapper.chmod(0o755)
    result = manage("check", DEBUG="1", NODE_BINARY=str(wrapper))
    assert result.returncode == 0 and "content.W001" not in result.stderr
    assert (tmp_path / "log").read_text() == "started\n"
