"""Operations as a volunteer meets them:

- the README's commands as root use ``runuser`` (util-linux, always there), not ``sudo``, which a Debian
  installed without it lacks ("sudo: command not found" on the first database command);
- a production start without a seal key, or with one that is not a key, stops with the system check's
  message (``scoring.E001``, ``scoring.E005``), not a traceback (an unusable key was a 38-line one).
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_commands_as_another_account_use_runuser():
    for name in ("README.md", "scripts/postgres-grants.sql", "deploy/install-systemd"):
        text = (ROOT / name).read_text()
        assert not re.search(r"\bsudo -u\b", text), f"{name}: sudo -u (runuser -u ACCOUNT -- works as root)"
    assert "runuser -u postgres -- psql" in (ROOT / "README.md").read_text()


def production_check(tmp_path: Path, **environ: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("SUMULA_", "DATABASE_URL", "DJANGO_"))}
    env.update(TRUCO_VAR_DIR=str(tmp_path), DJANGO_SECRET_KEY="k" * 50, DJANGO_ALLOWED_HOSTS="truco.example.org",
               DJANGO_SETTINGS_MODULE="config.settings", **environ)
    return subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)


@pytest.mark.parametrize(("environ", "check"), [
    ({}, "scoring.E001"),
    ({"SUMULA_SIGNING_KEY": "not-a-key"}, "scoring.E005"),
    ({"SUMULA_SIGNING_KEY_FILE": "FILE"}, "scoring.E005"),
])
def test_a_missing_or_unusable_seal_key_says_the_checks_message(tmp_path, environ, check):
    if environ.get("SUMULA_SIGNING_KEY_FILE") == "FILE":
        (tmp_path / "broken.key").write_text("-----BEGIN PRIVATE KEY-----\n")
        environ = {"SUMULA_SIGNING_KEY_FILE": str(tmp_path / "broken.key")}
    done = production_check(tmp_path, **environ)
    assert done.returncode != 0
    assert check in done.stderr and "Traceback" not in done.stderr, done.stderr[-3000:]
    assert len(done.stderr.splitlines()) < 12
    assert not (tmp_path / "sumula-signing.key").exists()  # no key made meanwhile


WORKER_ENDING = """
import os, runpy, sys
conf = runpy.run_path(sys.argv[1])
real_exit = os._exit
def recorded_exit(code):
    print("os._exit", code, flush=True)
    real_exit(code)
os._exit = recorded_exit
try:
    sys.exit(int(sys.argv[2]))  # how gunicorn's worker ends: worker_exit runs in the finally of its spawn
finally:
    conf["worker_exit"](None, None)
"""


@pytest.mark.parametrize(("status", "skips_finalization"), [(0, True), (3, False)])
def test_a_web_worker_that_finished_skips_pythons_finalization(status, skips_finalization):
    """A stop took 1.5-4.4 s of gunicorn (five workers each finalizing the preloaded site: freeing every
    module, template and font), 0.5 s since each finished worker closes its connections, flushes its logs
    and ends at once. A worker that failed to boot (status 3: the master stops) still ends as usual."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    done = subprocess.run([sys.executable, "-c", WORKER_ENDING, str(ROOT / "config" / "gunicorn_conf.py"), str(status)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == status, done.stderr[-2000:]
    assert ("os._exit 0" in done.stdout) is skips_finalization
