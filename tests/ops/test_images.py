"""Images without secrets, read from the files (no container runtime, nor ``docker compose``, runs here):

- ``.dockerignore`` keeps keys, settings files, ``var/``, the tests and the docs out of the build
  context (so ``COPY . /app`` bakes none of them), and keeps everything the site runs from;
- the test stage gets the suite as named build contexts, the ones the README's build command names;
- the production image runs as an account that is not root;
- compose gives the keys as secrets or environment, never with a default value, and every variable
  the README sets before ``docker compose`` is one compose.yaml reads;
- one name for each database role (``truco_owner``, ``truco_app``) in the README, compose.yaml,
  ``deploy/`` and ``scripts/``, and the README's grants are the grants file's.
"""
from __future__ import annotations

import fnmatch
import re
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
COMPOSE_TEXT = (ROOT / "compose.yaml").read_text()
COMPOSE = yaml.safe_load(COMPOSE_TEXT)
DOCKERFILE = (ROOT / "Dockerfile").read_text()
STAGES = {stage.split()[2]: stage for stage in re.split(r"^FROM ", DOCKERFILE, flags=re.M)[1:]}
APP_SERVICES = ("web", "worker", "beat")


def ignore_patterns() -> list[str]:
    lines = (ROOT / ".dockerignore").read_text().splitlines()
    patterns = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    assert not [p for p in patterns if p.startswith("!")], "no exception: each one would need its own test"
    return [p.rstrip("/") for p in patterns]


def ignored(path: str, patterns: list[str]) -> bool:
    """Docker's rule, closely enough for these patterns: a path is left out when it or a folder above
    it matches a pattern (``**/`` also matching no folder)."""
    parts = path.split("/")
    for end in range(1, len(parts) + 1):
        prefix = "/".join(parts[:end])
        for pattern in patterns:
            if fnmatch.fnmatchcase(prefix, pattern) or (
                    pattern.startswith("**/") and fnmatch.fnmatchcase(prefix, pattern[3:])):
                return True
    return False


@pytest.mark.parametrize("path", [
    "secrets/sumula-signing.key", ".env", ".env.production", "deploy/.env", "var/secret_key",
    "var/sumula-signing.key", "var/db.sqlite3", "media/print-jobs/round-1.pdf", "private_key.pem",
    "backups/truco-2026-11-26.keys/keys.env", "tests/ops/test_images.py", "docs/architecture.md",
    "benchmarks/restart.py", ".git/config", ".venv/bin/python", "config/__pycache__/settings.cpython-312.pyc",
])
def test_keys_settings_state_and_the_suite_stay_out_of_the_build_context(path):
    assert ignored(path, ignore_patterns()), f"{path} would be copied into the image"


def test_everything_the_site_runs_from_is_in_the_build_context():
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    assert "manage.py" in tracked
    left_out = [path for path in tracked if ignored(path, ignore_patterns())
                and path.split("/")[0] not in ("tests", "docs", "benchmarks", ".dockerignore")]
    assert not left_out, f"the image would miss {left_out[:10]}"


def test_the_test_stage_gets_the_suite_as_the_build_contexts_the_readme_names():
    test_stage = STAGES["test"]
    contexts = set(re.findall(r"^COPY --from=(\w+) \. /app/(\w+)$", test_stage, re.M))
    assert {(name, name) for name in ("tests", "docs", "benchmarks")} <= contexts
    readme_command = re.search(r"`docker build --target test\s(.*?)`", README, re.S)
    assert readme_command, "the README says how to build the test image"
    for name, _ in contexts:
        assert f"--build-context {name}={name}" in readme_command.group(1)
        assert f"--build-context {name}={name}" in DOCKERFILE[:DOCKERFILE.index("\nFROM ")]  # its header


def test_the_production_image_runs_as_an_account_that_is_not_root():
    production = STAGES["production"]
    users = re.findall(r"^USER\s+(\S+)", production, re.M)
    assert users and users[-1] not in ("root", "0", "0:0"), "the production stage names a user"
    account = users[-1]
    assert re.search(rf"useradd\b[^\n]*\b{account}\b", production), "the account is made in the image"
    for name in APP_SERVICES:
        assert str(COMPOSE["services"][name].get("user", account)) not in ("root", "0", "0:0")


def test_keys_come_as_secrets_or_environment_never_with_a_default():
    for name in APP_SERVICES:
        service = COMPOSE["services"][name]
        assert "args" not in service["build"], "no build argument: a value given at build time stays in the image"
        environment = service["environment"]
        assert "SUMULA_SIGNING_KEY" not in environment  # the secret file, not a variable every process prints
        assert environment["SUMULA_SIGNING_KEY_FILE"] == "/run/secrets/sumula_signing_key"
    secret_file = COMPOSE["secrets"]["sumula_signing_key"]["file"]
    assert ignored(secret_file.rsplit(":-", 1)[-1].rstrip("}").removeprefix("./"), ignore_patterns())
    # a password or key written in compose.yaml (a default) would be every site's password
    defaults = re.findall(r"\$\{(\w*(?:PASSWORD|SECRET|_KEY)\w*):?-([^}]*)\}", COMPOSE_TEXT)
    written = [(var, value) for var, value in defaults
               if value and not value.startswith("./")]  # a file's or a folder's name (the secret's), not a key
    assert not written, written


def compose_reads() -> set[str]:
    interpolated = set(re.findall(r"\$\{(\w+)", COMPOSE_TEXT))
    passed = {var for name in APP_SERVICES for var, value in COMPOSE["services"][name]["environment"].items()
              if value is None}
    return interpolated | passed


def test_every_variable_the_readme_sets_for_compose_is_one_compose_reads():
    commands = re.findall(r"((?:\b[A-Z][A-Z0-9_]+=\S*\s+)+)docker compose\b", README)
    assert commands, "the README starts compose somewhere"
    given = {var for command in commands for var in re.findall(r"\b([A-Z][A-Z0-9_]+)=", command)}
    assert {"DJANGO_SECRET_KEY", "POSTGRES_PASSWORD", "TRUCO_APP_PASSWORD"} <= given
    ignored_by_compose = given - compose_reads()
    assert not ignored_by_compose, f"the README sets {sorted(ignored_by_compose)}, which compose.yaml ignores"


def role_files() -> dict[str, str]:
    files = {"README.md": README, "compose.yaml": COMPOSE_TEXT}
    for folder in ("deploy", "scripts"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and path.name != "test":
                files[str(path.relative_to(ROOT))] = path.read_text(errors="replace")
    return files


def test_one_name_for_each_database_role_everywhere():
    allowed = {"truco_app", "truco_owner", "${POSTGRES_USER:-truco_owner}"}
    for name, text in role_files().items():
        users = set(re.findall(r"postgres(?:ql)?://(\$\{[^}]*\}|[^:@/\s]+)(?::[^@\s]*)?@", text))
        assert users <= allowed, f"{name} connects as {sorted(users - allowed)}"
    assert COMPOSE["services"]["db"]["environment"]["POSTGRES_USER"] == "${POSTGRES_USER:-truco_owner}"
    install = (ROOT / "deploy" / "install-systemd").read_text()
    assert "DATABASE_URL=postgres://truco_app:" in install


def test_the_readme_grants_what_the_grants_file_grants():
    grants = (ROOT / "scripts" / "postgres-grants.sql").read_text()
    setup = re.search(r"<!-- postgres-setup -->\s*```sh\n(.*?)```", README, re.S).group(1)

    def default_privileges(text: str) -> set[str]:
        return {" ".join(line.split()) for line in text.splitlines() if line.startswith("ALTER DEFAULT PRIVILEGES")}

    assert default_privileges(setup) == default_privileges(grants)


def test_compose_backs_up_with_the_servers_own_pg_dump_as_the_owner_and_keys_elsewhere():
    """The app image's pg_dump (Debian 12's, 15) refuses the postgres:16 server: the ``dump`` service runs
    the server's own, from the database's image, and ``backup`` takes its file; the keys go to a folder of
    the machine, not the volume of the backups (tests/scoring/test_backups.py drills the same commands)."""
    services = COMPOSE["services"]
    dump, backup = services["dump"], services["backup"]
    assert dump["image"] == services["db"]["image"]
    assert dump["profiles"] == backup["profiles"] == ["backup"]
    assert dump["environment"]["PGUSER"] == "${POSTGRES_USER:-truco_owner}"  # the owner
    assert backup["environment"]["DATABASE_URL"].startswith("postgres://${POSTGRES_USER:-truco_owner}:")
    dumped = re.search(r"pg_dump [^&]*--file (\S+)", " ".join(dump["command"])).group(1)
    command = " ".join(backup["command"])
    assert f"--database-dump {dumped}" in command
    mounts = dict(volume.rsplit(":", 1)[::-1] for volume in backup["volumes"])
    data = re.search(r"manage.py backup (/\w+)/", command).group(1)
    keys = re.search(r"--keys-to (/\w+)/", command).group(1)
    assert mounts[data] == "backups" and "backups:/backups" in dump["volumes"]
    assert mounts[keys] not in COMPOSE["volumes"]  # a folder of this machine, not a volume beside the data
    assert ignored(mounts[keys].rsplit(":-", 1)[-1].rstrip("}").removeprefix("./"), ignore_patterns())
    assert backup["depends_on"] == {"dump": {"condition": "service_completed_successfully"}}
    assert "docker compose --profile backup run --rm backup" in README
