"""The filesystem broker (``CELERY_BROKER_URL=filesystem://``, ``scripts/setup-and-run``) keeps every
file it writes under ``var/broker/``: kombu's folders default to paths relative to the working
directory, and its exchange tables once landed in ``./control/`` at the repository's root."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from kombu.transport import filesystem

ROOT = Path(__file__).resolve().parents[2]

#: every folder option kombu's filesystem channel reads (data_folder_in/out, processed_folder,
#: control_folder in kombu 5.7), found on the channel itself so that a new one is not missed
FOLDER_OPTIONS = sorted(name for name in dir(filesystem.Channel) if name.endswith(("_folder", "_folder_in",
                                                                                  "_folder_out")))


def run(code: str, *, cwd: Path, var_dir: Path) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_", "CELERY_"))}
    env = {**clean, "DJANGO_SETTINGS_MODULE": "config.settings", "CELERY_BROKER_URL": "filesystem://",
           "TRUCO_VAR_DIR": str(var_dir), "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=120)


@pytest.mark.embedded_only  # its process drops the caller's DATABASE_ and CELERY_ variables
def test_every_folder_of_the_filesystem_broker_is_under_var(tmp_path):
    assert "control_folder" in FOLDER_OPTIONS and "data_folder_in" in FOLDER_OPTIONS
    var_dir = tmp_path / "var"
    code = ("import json, django; django.setup(); from django.conf import settings; "
            "print(json.dumps(settings.CELERY_BROKER_TRANSPORT_OPTIONS))")
    result = run(code, cwd=ROOT, var_dir=var_dir)
    assert result.returncode == 0, result.stderr
    options = json.loads(result.stdout.strip().splitlines()[-1])
    outside = {name: options.get(name) for name in FOLDER_OPTIONS
               if not options.get(name) or not Path(options[name]).is_relative_to(var_dir / "broker")}
    assert not outside, f"filesystem broker folders not under VAR_DIR/broker (config/settings.py): {outside}"


@pytest.mark.embedded_only  # its process drops the caller's DATABASE_ and CELERY_ variables
def test_sending_a_task_and_a_ping_writes_nothing_outside_var(tmp_path):
    """A task sent binds the ``celery`` queue and a ping the pidbox: both write their exchange
    tables, in var/broker/control/, and nothing lands in the working directory."""
    cwd, var_dir = tmp_path / "cwd", tmp_path / "var"
    cwd.mkdir()
    code = ("import django; django.setup(); from config.celery import app; "
            "app.send_task('scoring.tasks.no_such_task'); app.control.ping(timeout=0.2)")
    result = run(code, cwd=cwd, var_dir=var_dir)
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in cwd.iterdir()) == []
    assert (var_dir / "broker" / "control" / "celery.exchange").is_file()
    assert list((var_dir / "broker" / "queue").iterdir()), "the task was not written to the queue"


@pytest.mark.skipif(not shutil.which("git") or not (ROOT / ".git").exists(), reason="not a git checkout")
def test_no_broker_file_is_committed():
    result = subprocess.run(["git", "ls-files", "--", "control", "var"], cwd=ROOT, capture_output=True,
                            text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "", f"runtime files are committed (they belong in var/, ignored):\n{result.stdout}"
