"""Each piece supervised on its own, and a restart that takes seconds.

- ``scripts/serve`` (the foreground case, several roles) restarts a print worker killed with ``kill -9``
  while the site goes on answering, and exits 0 on SIGTERM (before: it stopped gunicorn with the worker,
  and exited 130, which systemd calls a failure). Run on SQLite in a temporary ``var/`` and kombu's
  filesystem broker: no service needed. Its processes read neither DATABASE_URL nor the broker of CI's
  services pass, so only the embedded pass runs it (``embedded_only``).
- ``manage.py serve_prepare --static`` collects the static files only when they changed (a stamp), so a
  restart skips the 1-2 minutes of ``collectstatic``.
- The systemd units of ``deploy/systemd/`` render with the install path and user, restart each piece
  alone (``Restart=always``) and pass ``systemd-analyze verify`` when it is there.

The restart time itself is measured in ``benchmarks/restart.py``, not here.
"""
from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.ops.test_serve import alive, children, fetch, free_port

ROOT = Path(__file__).resolve().parents[2]


def wait_until(condition, seconds: float, what: str, log: Path | None = None):
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"{what} within {seconds} s" + (f":\n{log.read_text()[-3000:]}" if log else ""))
        time.sleep(0.05)


def settled(pid: int, polls: int = 3) -> bool:
    """Whether the process used no CPU over ``polls`` looks 0.1 s apart (waiting in its loop)."""
    def cpu():
        fields = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])  # utime + stime
    first = cpu()
    for _ in range(polls):
        time.sleep(0.1)
        if cpu() != first:
            return False
    return True


@pytest.mark.embedded_only  # its processes drop DATABASE_URL and use the filesystem broker
def test_serve_restarts_a_killed_worker_while_the_site_answers_and_exits_0_on_sigterm(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_RESULT_BACKEND")}
    port = free_port()
    env.update({
        "TRUCO_VAR_DIR": str(tmp_path), "TRUCO_SKIP_BOOTSTRAP": "1", "SKIP_MIGRATE": "1",
        "CELERY_BROKER_URL": "filesystem://", "SERVE_ROLES": "web,worker",
        "DJANGO_SECRET_KEY": "supervision-test-" + "x" * 40, "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_HTTPS": "false", "DJANGO_DEBUG": "false", "DJANGO_LOG_LEVEL": "WARNING",
        "BIND": f"127.0.0.1:{port}", "WEB_WORKERS": "1", "WEB_THREADS": "2", "CELERY_CONCURRENCY": "1",
    })
    # The static files count as collected (the stamp of what the finders list): this test is about
    # supervision; /healthz needs neither the static files nor the database. The stamp covers STATIC_ROOT
    # too, so it is made for serve's (TRUCO_VAR_DIR/static); one made for this process's own var/static
    # did not match, and every run collected and compressed the 25 MB of static files (~19 s of CPU).
    from django.test.utils import override_settings

    from scoring.management.commands.serve_prepare import STAMP_NAME, static_stamp

    (tmp_path / "static").mkdir()
    with override_settings(STATIC_ROOT=tmp_path / "static"):
        (tmp_path / "static" / STAMP_NAME).write_text(static_stamp())
    log = tmp_path / "serve.log"
    with open(log, "wb") as out:
        serve = subprocess.Popen([str(ROOT / "scripts" / "serve")], cwd=ROOT, env=env, stdout=out,
                                 stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    pieces: set[int] = set()

    def answers() -> bool:
        try:
            return fetch(base + "/healthz")[0] == 200
        except OSError:
            return False

    def worker_pids() -> list[int]:
        return [int(pid) for pid in re.findall(r"truco.serve \[-\] worker pid (\d+)", log.read_text())]

    try:
        wait_until(lambda: serve.poll() is not None or (answers() and worker_pids()), 240,
                   "the site and the worker were not up", log)
        assert serve.poll() is None, log.read_text()[-3000:]
        assert [path.name for path in (tmp_path / "static").iterdir()] == [STAMP_NAME], "the static files were collected"
        worker = worker_pids()[0]
        wait_until(lambda: re.search(r"truco@\S+ ready", log.read_text()), 120, "the worker was not ready", log)

        os.kill(worker, signal.SIGKILL)  # a whole worker, not a pool process
        answered = []
        while len(worker_pids()) < 2:
            assert serve.poll() is None, f"scripts/serve stopped with its worker:\n{log.read_text()[-3000:]}"
            answered.append(answers())  # the site goes on meanwhile
            assert len(answered) < 2000, f"the worker was not restarted:\n{log.read_text()[-3000:]}"
            time.sleep(0.05)
        assert answered and all(answered), "the site stopped answering while the worker was down"
        assert f"worker (pid {worker}) exited" in log.read_text()
        wait_until(lambda: len(re.findall(r"truco@\S+ ready", log.read_text())) >= 2, 120,
                   "the new worker was not ready", log)
        assert answers()
        pieces = children(serve.pid)
    finally:
        serve.send_signal(signal.SIGTERM)
        try:
            status = serve.wait(timeout=90)
        except subprocess.TimeoutExpired:
            os.killpg(serve.pid, signal.SIGKILL)
            serve.wait(timeout=10)
            pytest.fail(f"scripts/serve did not stop within 90 s of SIGTERM:\n{log.read_text()[-3000:]}")
    assert status == 0, f"exit status {status} after SIGTERM (systemd would call it failed)"
    wait_until(lambda: not any(alive(pid) for pid in pieces), 10, "pieces left running after the stop")


def test_static_files_are_collected_only_when_they_changed(tmp_path, settings, monkeypatch):
    from django.core.management import call_command

    from scoring.management.commands import serve_prepare

    source = tmp_path / "source"
    source.mkdir()
    (source / "site.css").write_text("body { color: black }")
    settings.STATIC_ROOT = tmp_path / "static"
    settings.STATICFILES_DIRS = [source]
    collected = []
    real_call = serve_prepare.call_command
    monkeypatch.setattr(serve_prepare, "call_command",
                        lambda name, *a, **kw: collected.append(name) if name == "collectstatic" else real_call(name, *a, **kw))

    call_command("serve_prepare", "--no-migrate", "--static", verbosity=0)
    assert collected == ["collectstatic"]  # first start: nothing collected yet
    call_command("serve_prepare", "--no-migrate", "--static", verbosity=0)
    assert collected == ["collectstatic"]  # a restart with nothing changed: skipped

    (source / "site.css").write_text("body { color: darkgreen }")  # a new release changes a file
    call_command("serve_prepare", "--no-migrate", "--static", verbosity=0)
    assert collected == ["collectstatic"] * 2
    (source / "new.js").write_text("// new")
    call_command("serve_prepare", "--no-migrate", "--static", verbosity=0)
    assert collected == ["collectstatic"] * 3
    call_command("serve_prepare", "--no-migrate", "--static", "--force", verbosity=0)
    assert collected == ["collectstatic"] * 4


def test_a_collection_cut_short_is_done_again(tmp_path, settings, monkeypatch):
    from django.core.management import call_command

    from scoring.management.commands import serve_prepare

    settings.STATIC_ROOT = tmp_path / "static"
    settings.STATIC_ROOT.mkdir()
    (settings.STATIC_ROOT / ".collected").write_text(serve_prepare.static_stamp())

    def crash(name, *args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(serve_prepare, "call_command", crash)
    with pytest.raises(KeyboardInterrupt):
        call_command("serve_prepare", "--no-migrate", "--static", "--force", verbosity=0)
    assert not serve_prepare.up_to_date()


def test_systemd_units_restart_each_piece_alone(tmp_path):
    env_file = tmp_path / "truco.env"
    user = os.environ.get("USER") or "root"
    user = "daemon" if user == "root" else user  # the script refuses root
    result = subprocess.run([str(ROOT / "deploy" / "install-systemd"), "--user", user, "--dest", str(tmp_path),
                             "--env-file", str(env_file)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "not started" in result.stderr
    env = env_file.read_text()
    assert "DJANGO_SECRET_KEY=" in env and "SUMULA_SIGNING_KEY=" in env
    assert oct(env_file.stat().st_mode & 0o777) == "0o600"
    for role in ("web", "worker", "beat"):
        unit = (tmp_path / f"truco-{role}.service").read_text()
        assert "@" not in unit.replace("@%h", ""), unit
        assert "Restart=always" in unit
        assert f"ExecStart={ROOT}/scripts/serve" in unit
        assert f"WorkingDirectory={ROOT}" in unit and f"User={user}" in unit
        assert f"EnvironmentFile={env_file}" in unit
        assert f"Environment=SERVE_ROLES={role}" in unit  # one role: serve execs it, systemd supervises it
        assert ("SKIP_MIGRATE=1" in unit) == (role != "web")
        assert "Requires=" not in unit and "BindsTo=" not in unit  # none takes another down with it
    assert "truco-web.service truco-worker.service truco-beat.service" in (tmp_path / "truco.target").read_text()
    if shutil.which("systemd-analyze"):
        verify = subprocess.run(["systemd-analyze", "verify", *sorted(str(p) for p in tmp_path.glob("truco-*.service"))],
                                capture_output=True, text=True, timeout=60)
        problems = [line for line in verify.stderr.splitlines()
                    if "truco" in line and "not safe" not in line and "Failed to" not in line]
        assert not problems, verify.stderr

    again = subprocess.run([str(ROOT / "deploy" / "install-systemd"), "--user", user, "--dest", str(tmp_path),
                            "--env-file", str(env_file), "--roles", "web,worker"], capture_output=True, text=True,
                           timeout=60)
    assert again.returncode == 0, again.stderr
    assert env_file.read_text() == env  # an existing env file is never overwritten
    assert not (tmp_path / "truco-beat.service").exists()  # beat on one machine only


def test_readme_documents_the_units_and_their_install():
    readme = (ROOT / "README.md").read_text()
    assert "deploy/install-systemd --user" in readme
    assert "benchmarks/restart.py" in readme


@pytest.mark.embedded_only  # its processes drop DATABASE_URL and use the filesystem broker
def test_one_role_is_execed_for_the_supervisor_above_and_stops_with_status_0(tmp_path):
    """systemd (deploy/systemd) and compose run one role each: scripts/serve becomes that process, so the
    supervisor watches (and restarts) the piece itself, and SIGTERM is a clean stop."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_RESULT_BACKEND")}
    env.update(TRUCO_VAR_DIR=str(tmp_path), TRUCO_SKIP_BOOTSTRAP="1", SKIP_MIGRATE="1", SERVE_ROLES="beat",
               CELERY_BROKER_URL="filesystem://", DJANGO_LOG_LEVEL="WARNING")
    log = tmp_path / "serve.log"
    with open(log, "wb") as out:
        serve = subprocess.Popen([str(ROOT / "scripts" / "serve")], cwd=ROOT, env=env, stdout=out,
                                 stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_until(lambda: serve.poll() is not None or "beat: Starting" in log.read_text(), 120,
                   "beat did not start", log)
        assert serve.poll() is None, log.read_text()[-3000:]
        command = (Path("/proc") / str(serve.pid) / "cmdline").read_bytes().split(b"\0")
        assert b"beat" in command and any(part.endswith(b"celery") for part in command)  # serve became beat
        # beat logs "Starting" before it builds its scheduler (celery/beat.py: the schedule opened lazily),
        # and its SIGTERM handler closes that scheduler: a SIGTERM in between exited 1 with three test
        # processes on two cores. Stop it once it has settled, its CPU time still for 0.3 s.
        wait_until(lambda: any(tmp_path.glob("celerybeat-schedule*")) and settled(serve.pid), 60,
                   "beat did not settle", log)
    finally:
        serve.send_signal(signal.SIGTERM)
        status = serve.wait(timeout=60)
    assert status == 0, log.read_text()[-3000:]
