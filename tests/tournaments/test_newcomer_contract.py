"""The commands README.md promises exist, are executable and parse; translations are compiled."""
import gettext
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ["scripts/bootstrap", "scripts/test", "scripts/setup-and-run", ".ci/run"]


@pytest.mark.parametrize("script", SCRIPTS)
def test_script_exists_is_executable_and_parses(script):
    path = ROOT / script
    assert path.is_file(), f"{script} is missing"
    assert os.access(path, os.X_OK), f"{script} is not executable"
    assert path.read_text().startswith("#!/usr/bin/env bash\n")
    subprocess.run(["bash", "-n", str(path)], check=True)


def test_readme_gives_the_two_commands():
    readme = (ROOT / "README.md").read_text()
    assert "scripts/setup-and-run" in readme
    assert "scripts/test" in readme
    assert "docs/hand-report.md" in readme


def test_compiled_portuguese_catalog_matches_the_po_file(tmp_path):
    po = ROOT / "locale/pt_BR/LC_MESSAGES/django.po"
    mo = po.with_suffix(".mo")
    assert mo.is_file(), "run scripts/bootstrap (or msgfmt) to compile the translations"
    if not shutil.which("msgfmt"):
        pytest.skip("msgfmt (Debian package gettext) is not installed")
    fresh = tmp_path / "django.mo"
    subprocess.run(["msgfmt", "--check-format", "-o", str(fresh), str(po)], check=True)

    def catalog(path):
        with open(path, "rb") as f:
            return gettext.GNUTranslations(f)._catalog

    assert catalog(mo) == catalog(fresh), "django.mo is stale: run scripts/bootstrap"
