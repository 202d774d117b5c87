"""The layering of docs/architecture.md, checked on the source: every import of every app module
(function-level imports included) goes down or sideways within its own layer, never up; the pure
packages import no Django and no app; no app module reaches 800 lines; config/ holds only its listed
modules (configuration, no words).

The imports are read with ``ast`` (nothing is imported), so a violation names the file, the line
and the imported name.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# A module's layer is the longest of these prefixes of its dotted name.
LAYERS = ("config", "people", "scoring", "tournaments", "referee", "referee.engine", "tournaments.pairing")
PURE = ("referee.engine", "tournaments.pairing")

# Who may import whom (docs/architecture.md): each layer, itself and what lies below it.
MAY_IMPORT = {
    "referee.engine": {"referee.engine"},
    "tournaments.pairing": {"tournaments.pairing"},
    "config": {"config"},
    "people": {"people", "config"},
    "scoring": {"scoring", "people", "config", "referee.engine"},
    "tournaments": {"tournaments", "scoring", "people", "config", "referee.engine", "tournaments.pairing"},
    "referee": {"referee", "tournaments", "scoring", "people", "config", "referee.engine", "tournaments.pairing"},
}

# The pure packages run without Django: none of these, and no app but their own package.
FRAMEWORKS = {"django", "rest_framework", "drf_spectacular", "celery", "kombu", "weasyprint", "psycopg",
              "dj_database_url"}

MAX_LINES = 800

# What config/ holds (docs/architecture.md): configuration and the base every app stands on. Words
# (the Portuguese that names pairs, fields, months) live in the lowest app that shows them
# (scoring/words/), never here; a new module in config/ is added to this list on purpose, or not at all.
CONFIG_MODULES = {
    "__init__", "api", "api_errors", "append_only", "auth", "celery", "error_views",
    "errors", "gunicorn_conf", "history", "logs", "middleware", "outage", "pagination", "schema", "settings",
    "storage", "urls", "view_only_admin", "views", "wsgi",
    "sqlite/__init__", "sqlite/base",  # the embedded default's database backend (ENGINE = "config.sqlite")
}


def layer_of(dotted: str) -> str | None:
    matches = [layer for layer in LAYERS if dotted == layer or dotted.startswith(layer + ".")]
    return max(matches, key=len) if matches else None


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_names(module: str, is_package: bool, tree: ast.AST):
    """``(line, dotted name)`` of every import in the tree, relative imports resolved; for
    ``from a import b`` the name is ``a.b`` (a submodule or an attribute: the layer is the same)."""
    package = module.split(".") if is_package else module.split(".")[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)] if node.level > 1 else package
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module
            for alias in node.names:
                yield node.lineno, f"{prefix}.{alias.name}" if alias.name != "*" else prefix


def violations(path: Path, source: str) -> list[str]:
    """What runs against the layering in one module's source."""
    module = module_name(path)
    layer = layer_of(module)
    if layer is None:
        return []
    found = []
    where = path.relative_to(ROOT)
    for line, name in imported_names(module, path.name == "__init__.py", ast.parse(source, str(path))):
        target = layer_of(name)
        if layer in PURE and name.split(".")[0] in FRAMEWORKS:
            found.append(f"{where}:{line}: imports {name}: {layer} is pure Python (no Django)")
        elif target is not None and target not in MAY_IMPORT[layer]:
            found.append(f"{where}:{line}: imports {name}: {layer} may not import {target} "
                         f"(docs/architecture.md)")
    return found


def app_modules(*, migrations: bool = True) -> list[Path]:
    paths = []
    for app in ("config", "people", "scoring", "tournaments", "referee"):
        for path in sorted((ROOT / app).rglob("*.py")):
            if not migrations and "migrations" in path.relative_to(ROOT).parts:
                continue
            paths.append(path)
    return paths


def test_no_app_module_imports_against_the_layering():
    found = [v for path in app_modules() for v in violations(path, path.read_text(encoding="utf-8"))]
    assert not found, "imports against the layering:\n" + "\n".join(found)


def test_no_app_module_has_800_lines_or_more():
    long = []
    for path in app_modules(migrations=False):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines >= MAX_LINES:
            long.append(f"{path.relative_to(ROOT)}: {lines} lines")
    assert not long, f"modules of {MAX_LINES} lines or more (split them by concern):\n" + "\n".join(long)


def test_config_holds_only_configuration():
    """Issue 19 §3: config/ had become the home of whatever every layer uses (pair names, the engine's
    sentences, field and month words). Only the listed modules may be there; no subpackages."""
    found = {path.relative_to(ROOT / "config").with_suffix("").as_posix()
             for path in (ROOT / "config").rglob("*.py")}
    unknown = sorted(found - CONFIG_MODULES)
    assert not unknown, (
        "config/ holds configuration only (docs/architecture.md, \"Where the words live\"); "
        "new module(s): " + ", ".join(f"config/{name}.py" for name in unknown)
        + ". Words go to the lowest app that shows them (scoring/words/); anything else, add it to "
        "CONFIG_MODULES in tests/test_architecture.py and to config's row in docs/architecture.md.")


@pytest.mark.parametrize("package", ["referee", "tournaments"])
def test_the_packages_holding_the_pure_ones_import_nothing(package):
    """``import referee.engine`` runs ``referee/__init__.py`` first: it must not pull in Django."""
    tree = ast.parse((ROOT / package / "__init__.py").read_text(encoding="utf-8"))
    assert not [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]


@pytest.mark.parametrize(("path", "source", "expected"), [
    ("scoring/x.py", "def f():\n    from tournaments.models import Pair\n",
     "scoring/x.py:2: imports tournaments.models.Pair: scoring may not import tournaments"),
    ("scoring/services/x.py", "from ...tournaments import services\n",
     "scoring/services/x.py:1: imports tournaments.services: scoring may not import tournaments"),
    ("tournaments/x.py", "import referee.views\n",
     "tournaments/x.py:1: imports referee.views: tournaments may not import referee"),
    ("config/x.py", "from scoring import models\n",
     "config/x.py:1: imports scoring.models: config may not import scoring"),
    ("people/x.py", "def f():\n    from scoring.models import Match\n",
     "people/x.py:2: imports scoring.models.Match: people may not import scoring"),
    ("people/x.py", "from tournaments.models import Pair\n",
     "people/x.py:1: imports tournaments.models.Pair: people may not import tournaments"),
    ("referee/engine/x.py", "from django.db import models\n",
     "referee/engine/x.py:1: imports django.db.models: referee.engine is pure Python (no Django)"),
    ("tournaments/pairing/x.py", "from .. import models\n",
     "tournaments/pairing/x.py:1: imports tournaments.models: tournaments.pairing may not import tournaments"),
    ("referee/engine/x.py", "from referee import models\n",
     "referee/engine/x.py:1: imports referee.models: referee.engine may not import referee"),
])
def test_the_check_names_the_file_the_line_and_the_import(path, source, expected):
    found = violations(ROOT / path, source)
    assert len(found) == 1 and found[0].startswith(expected)


@pytest.mark.parametrize(("path", "source"), [
    ("tournaments/x.py", "from scoring.signals import result_official\nfrom .pairing import swiss\n"),
    ("referee/x.py", "from tournaments.models import Pair\nfrom scoring import services\n"),
    ("scoring/x.py", "from referee.engine.rules import DEFAULT\nfrom config.errors import Conflict\n"),
    ("scoring/x.py", "from people.models import Player\n"),
    ("people/x.py", "from config.errors import ServiceError\n"),
    ("referee/engine/x.py", "from .rules import DEFAULT\nimport dataclasses\n"),
])
def test_imports_down_the_layers_pass(path, source):
    assert violations(ROOT / path, source) == []


# Django's private API (issue 19 §1): its ``sql`` package and any underscore name of a Django module.
PRIVATE_DJANGO = ("django.db.models.sql", "django.db.models.query.get_related_populators")


def private_django(path: Path, source: str) -> list[str]:
    """Imports of Django's private modules or names in one module's source."""
    found = []
    where = path.relative_to(ROOT)
    for line, name in imported_names(module_name(path), path.name == "__init__.py", ast.parse(source, str(path))):
        if not name.startswith("django."):
            continue
        private = any(name == p or name.startswith(p + ".") for p in PRIVATE_DJANGO)
        if private or any(part.startswith("_") for part in name.split(".")):
            found.append(f"{where}:{line}: imports {name}: a private name of Django")
    return found


def test_no_app_module_imports_a_private_name_of_django():
    found = [v for path in app_modules() for v in private_django(path, path.read_text(encoding="utf-8"))]
    assert not found, "Django's private API (issue 19 §1):\n" + "\n".join(found)


@pytest.mark.parametrize("source", ["from django.db.models.sql import InsertQuery\n",
                                    "from django.db.models.query import get_related_populators\n",
                                    "from django.db.models.base import _something\n"])
def test_the_private_check_names_the_import(source):
    assert len(private_django(ROOT / "scoring/x.py", source)) == 1


def test_the_orm_writes_and_hands_have_one_write_path():
    """The ORM only: no module spells an INSERT (bar the idempotency claim's ``ON CONFLICT``) nor
    runs the SQL of a ``QuerySet.query``; hands are created by the one write of a hand and by a
    correction, which rewrites a whole súmula (art. 25)."""
    allowed = {"scoring/idempotency.py"}
    writers = {"scoring/services/hand_entry.py", "scoring/services/corrections.py"}
    spelled, compiled, creating = [], [], []
    for path in app_modules(migrations=False):
        source = path.read_text(encoding="utf-8")
        where = str(path.relative_to(ROOT))
        if "INSERT INTO" in source and where not in allowed:
            spelled.append(where)
        if ".query.sql_with_params" in source or ".query.get_compiler" in source:
            compiled.append(where)
        if ("HandEntry.objects.create" in source or "HandEntry.objects.bulk_create" in source) and where not in writers:
            creating.append(where)
    assert not spelled, f"INSERT statements outside scoring/idempotency.py: {spelled}"
    assert not compiled, f"SQL compiled from a QuerySet.query: {compiled}"
    assert not creating, f"hands created outside the entry's and the correction's write: {creating}"
