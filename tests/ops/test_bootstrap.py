"""``scripts/bootstrap`` on a fresh machine whose first-boot updates hold apt's locks: it
waits for them (``-o DPkg::Lock::Timeout``; ``apt-get update``, whose lists lock that option does not
cover, tried again) instead of dying at once; ``--production`` installs no test tool.

Run against fakes: a copy of the script in a folder of its own, with ``dpkg`` saying every package is
missing and an ``apt-get`` that records its arguments and fails twice with apt's own lock message."""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def fake_machine(tmp_path: Path, lock_failures: int) -> tuple[Path, Path, dict]:
    project = tmp_path / "project"
    (project / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "scripts" / "bootstrap", project / "scripts" / "bootstrap")
    (project / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (project / "constraints.txt").write_text("")
    venv_bin = project / ".venv" / "bin"
    venv_bin.mkdir(parents=True)
    (venv_bin / "python").write_text("#!/bin/sh\necho 3.11.7\n")  # the venv is there and up to date
    (venv_bin / "python").chmod(0o755)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    calls = tmp_path / "apt-calls"
    counter = tmp_path / "apt-failures-left"
    counter.write_text(str(lock_failures))
    (bin_dir / "dpkg").write_text("#!/bin/sh\nexit 1\n")  # nothing installed
    (bin_dir / "apt-get").write_text(f"""#!/bin/sh
echo "$*" >> {calls}
left=$(cat {counter})
if [ "$left" -gt 0 ]; then
  echo $((left - 1)) > {counter}
  echo "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 1234 (apt-get)" >&2
  exit 100
fi
exit 0
""")
    for tool in ("dpkg", "apt-get"):
        (bin_dir / tool).chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "TRUCO_APT_RETRY_SECONDS": "0",
           "TRUCO_APT_LOCK_TIMEOUT": "120"}
    env.pop("TRUCO_SKIP_APT", None)
    return project, calls, env


def write_stamp(project: Path, production: bool) -> None:
    digest = hashlib.sha256((project / "pyproject.toml").read_bytes() + (project / "constraints.txt").read_bytes())
    (project / ".venv" / ".truco-bootstrap").write_text(
        f"{digest.hexdigest()} 3.11.7{' production' if production else ''}\n")


def run(project: Path, env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", str(project / "scripts" / "bootstrap"), *args], cwd=project, env=env,
                          capture_output=True, text=True, timeout=120)


def test_bootstrap_waits_for_another_apt_instead_of_dying(tmp_path):
    if os.geteuid() != 0:
        import pytest
        pytest.skip("the script uses sudo when not root")
    project, calls, env = fake_machine(tmp_path, lock_failures=2)
    write_stamp(project, production=False)
    result = run(project, env)
    assert result.returncode == 0, result.stderr
    assert "another apt holds the lock" in result.stderr
    lines = calls.read_text().splitlines()
    assert [line.split()[2] for line in lines] == ["update", "update", "update", "install"]
    assert all("-o DPkg::Lock::Timeout=120" in line for line in lines)
    assert "chromium-headless-shell" in lines[-1] and "zbar-tools" in lines[-1]


def test_bootstrap_gives_up_on_other_apt_errors_at_once(tmp_path):
    if os.geteuid() != 0:
        import pytest
        pytest.skip("the script uses sudo when not root")
    project, calls, env = fake_machine(tmp_path, lock_failures=0)
    (tmp_path / "bin" / "apt-get").write_text("#!/bin/sh\necho 'E: Unable to locate package chromium' >&2\nexit 100\n")
    write_stamp(project, production=False)
    result = run(project, env)
    assert result.returncode != 0 and "Unable to locate package" in result.stderr


def test_production_bootstrap_installs_no_test_tool(tmp_path):
    if os.geteuid() != 0:
        import pytest
        pytest.skip("the script uses sudo when not root")
    project, calls, env = fake_machine(tmp_path, lock_failures=0)
    write_stamp(project, production=True)
    result = run(project, env, "--production")
    assert result.returncode == 0, result.stderr
    install = calls.read_text().splitlines()[-1]
    assert "libpango-1.0-0" in install
    assert not {"chromium-headless-shell", "chromium", "poppler-utils", "zbar-tools"} & set(install.split())
