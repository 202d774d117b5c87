"""The layering of docs/architecture.md, checked on the source: every import of every app module
(function-level imports included) goes down or sideways within its own layer, never up; the pure
packages import no Django and no app; no app imports itself in a circle; no app module reaches
MAX_LINES lines; config/ holds only its listed modules (configuration, no words). The schema: foreign
keys and migration dependencies point down the layers (the ones still pointing up are listed, and the
lists only shrink), and each prefix of the layers boots alone (``django.setup()`` and the models'
checks with only those apps installed).

The imports are read with ``ast`` (nothing is imported), so a violation names the file, the line
and the imported name.
"""
from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest
import rustworkx

ROOT = Path(__file__).resolve().parent.parent

# A module's layer is the longest of these prefixes of its dotted name.
LAYERS = ("config", "people", "events", "draw", "tables", "scoring", "tournaments", "public", "printing", "seasons",
          "teams",
          "finance", "room", "fairplay", "referee", "referee.engine", "draw.pairing", "finance.pix", "finance.split")
PURE = ("referee.engine", "draw.pairing", "finance.pix", "finance.split")
APPS = ("config", "people", "events", "draw", "tables", "scoring", "tournaments", "public", "printing", "seasons",
        "teams", "finance", "room", "fairplay", "referee")  # lowest first

# Who may import whom (docs/architecture.md): each layer, itself and what lies below it.
MAY_IMPORT = {
    "referee.engine": {"referee.engine"},
    "draw.pairing": {"draw.pairing"},
    "config": {"config"},
    "people": {"people", "config"},
    "events": {"events", "people", "config"},
    "draw": {"draw", "events", "people", "config", "draw.pairing"},
    "tables": {"tables", "draw", "events", "people", "config", "draw.pairing"},
    "scoring": {"scoring", "tables", "draw", "events", "people", "config", "referee.engine"},
    "tournaments": {"tournaments", "scoring", "tables", "draw", "events", "people", "config", "referee.engine",
                    "draw.pairing"},
    # the public pages, kept live: they read tournaments' pages and services; the apps above use their marker
    "public": {"public", "tournaments", "scoring", "tables", "draw", "events", "people", "config", "referee.engine",
               "draw.pairing"},
    "printing": {"printing", "public", "tournaments", "scoring", "tables", "draw", "events", "people", "config",
                 "referee.engine", "draw.pairing"},
    # room, seasons, teams and finance are siblings above printing: none imports another
    "seasons": {"seasons", "printing", "public", "tournaments", "scoring", "tables", "draw", "events", "people", "config",
                "referee.engine", "draw.pairing"},
    "teams": {"teams", "printing", "public", "tournaments", "scoring", "tables", "draw", "events", "people", "config", "referee.engine",
              "draw.pairing"},
    "finance.pix": {"finance.pix"},
    "finance.split": {"finance.split"},
    "finance": {"finance", "printing", "public", "tournaments", "scoring", "tables", "draw", "events", "people", "config", "referee.engine",
                "draw.pairing", "finance.pix", "finance.split"},
    # the room calls tournaments' services (the draw, W.O.s, check-ins); seasons, teams and finance never need it
    "room": {"room", "printing", "public", "tournaments", "scoring", "tables", "draw", "events", "people", "config",
             "referee.engine", "draw.pairing"},
    # the fair-play flags: a sibling of room, seasons, teams and finance (none imports another)
    "fairplay": {"fairplay", "printing", "public", "tournaments", "scoring", "tables", "draw", "events", "people",
                 "config", "referee.engine", "draw.pairing"},
    "referee": {"referee", "room", "fairplay", "seasons", "teams", "finance", "printing", "public", "tournaments", "scoring", "tables",
                "draw", "events", "people", "config", "referee.engine", "draw.pairing", "finance.pix",
                "finance.split"},
}

# The pure packages run without Django: none of these, and no app but their own package.
FRAMEWORKS = {"django", "rest_framework", "drf_spectacular", "celery", "kombu", "weasyprint", "psycopg",
              "dj_database_url"}

# The house's aim is modules under ~500 lines: every app module is under 500 today (the longest, about 480:
# referee/engine/hand.py, draw/pairing/swiss.py, referee/services.py); the limit leaves the "~".
MAX_LINES = 520

# What config/ holds (docs/architecture.md): configuration and the base every app stands on. Words
# (the Portuguese that names pairs, fields, months) live in the lowest app that shows them
# (scoring/words/), never here; a new module in config/ is added to this list on purpose, or not at all.
CONFIG_MODULES = {
    "__init__", "api", "api_errors", "append_only", "auth", "celery", "error_views",
    "checks", "errors", "gunicorn_conf", "history", "logs", "log_keys", "log_mail", "middleware", "outage", "pagination", "schema", "settings",
    "storage", "urls", "view_only_admin", "views", "wsgi",
    "model_moves",  # the content types of models that moved between apps, for their state-only migrations
    "sqlite/__init__", "sqlite/base",  # the embedded default's database backend (ENGINE = "config.sqlite")
    "database",  # PostgreSQL's pool and statement timeout by kind of process
    "task_queue",  # the task queue's settings (Celery, its broker, the beat), read by settings
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
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if not migrations and "migrations" in path.relative_to(ROOT).parts:
                continue
            paths.append(path)
    return paths


def test_no_app_module_imports_against_the_layering():
    found = [v for path in app_modules() for v in violations(path, path.read_text(encoding="utf-8"))]
    assert not found, "imports against the layering:\n" + "\n".join(found)


def test_no_app_module_reaches_the_line_limit():
    long = []
    for path in app_modules(migrations=False):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines >= MAX_LINES:
            long.append(f"{path.relative_to(ROOT)}: {lines} lines")
    assert not long, f"modules of {MAX_LINES} lines or more (split them by concern):\n" + "\n".join(long)


def test_config_holds_only_configuration():
    """config/ had become the home of whatever every layer uses (pair names, the engine's
    sentences, field and month words). Only the listed modules may be there; no subpackages."""
    found = {path.relative_to(ROOT / "config").with_suffix("").as_posix()
             for path in (ROOT / "config").rglob("*.py")}
    unknown = sorted(found - CONFIG_MODULES)
    assert not unknown, (
        "config/ holds configuration only (docs/architecture.md, \"Where the words live\"); "
        "new module(s): " + ", ".join(f"config/{name}.py" for name in unknown)
        + ". Words go to the lowest app that shows them (scoring/words/); anything else, add it to "
        "CONFIG_MODULES in tests/test_architecture.py and to config's row in docs/architecture.md.")


@pytest.mark.parametrize("package", ["referee", "tournaments", "finance"])
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
    ("draw/pairing/x.py", "from .. import models\n",
     "draw/pairing/x.py:1: imports draw.models: draw.pairing may not import draw"),
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


# Django's private API: its ``sql`` package and any underscore name of a Django module.
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
    assert not found, "Django's private API:\n" + "\n".join(found)


@pytest.mark.parametrize("source", ["from django.db.models.sql import InsertQuery\n",
                                    "from django.db.models.query import get_related_populators\n",
                                    "from django.db.models.base import _something\n"])
def test_the_private_check_names_the_import(source):
    assert len(private_django(ROOT / "scoring/x.py", source)) == 1


def test_the_orm_writes_and_hands_have_one_write_path():
    """The ORM only: SQL is run only where the ORM cannot say it (the append-only triggers, the
    embedded database's PRAGMAs, the readiness probe's ``SELECT 1``), no module runs the SQL of a
    ``QuerySet.query``; hands are created by the one write of a hand and by a correction, which
    rewrites a whole súmula (art. 25)."""
    allowed = {"config/append_only.py", "config/sqlite/base.py", "config/outage.py"}
    writers = {"scoring/services/hand_entry.py", "scoring/services/corrections.py"}
    spelled, compiled, creating = [], [], []
    for path in app_modules(migrations=False):
        source = path.read_text(encoding="utf-8")
        where = str(path.relative_to(ROOT))
        if any(word in source for word in ("INSERT INTO", ".execute(", ".executemany(")) and where not in allowed:
            spelled.append(where)
        if any(".query." + name in source for name in ("sql_with_params", "get_compiler")):  # spelled apart: the guard greps clean
            compiled.append(where)
        if ("HandEntry.objects.create" in source or "HandEntry.objects.bulk_create" in source) and where not in writers:
            creating.append(where)
    assert not spelled, f"SQL run by hand: {spelled}"
    assert not compiled, f"SQL compiled from a QuerySet.query: {compiled}"
    assert not creating, f"hands created outside the entry's and the correction's write: {creating}"


# ------------------------------------------------------------------------------ import circles


# Circles still there, each removed by the work that owns its modules: this set only shrinks.
ALLOWED_CIRCLES: set[frozenset[str]] = set()  # none: a module of an app never reaches itself back


def import_graph(sources: dict[str, tuple[str, bool]]) -> dict[str, set[str]]:
    """Each module (dotted name → its source and whether it is a package's ``__init__``) to the modules of
    its own app it imports, function-level imports included. ``from a import b`` is the module ``a.b``
    when there is one, else ``a``; importing ``a.b`` does not count as importing the package ``a``."""
    graph = {}
    for module, (source, is_package) in sources.items():
        targets = set()
        for _line, name in imported_names(module, is_package, ast.parse(source)):
            parts = name.split(".")
            while parts and ".".join(parts) not in sources:
                parts.pop()
            target = ".".join(parts)
            if parts and target != module and parts[0] == module.split(".")[0]:
                targets.add(target)
        graph[module] = targets
    return graph


def circles(graph: dict[str, set[str]]) -> list[tuple[frozenset[str], list[str]]]:
    """The import circles of ``graph``: each strongly connected set of two modules or more
    (rustworkx's), with one path around it (``a, b, c, a``) to name it, in the order of their paths."""
    digraph = rustworkx.PyDiGraph()
    names = sorted(graph)
    node = {name: digraph.add_node(name) for name in names}
    digraph.add_edges_from_no_data([(node[a], node[b]) for a in names for b in graph[a] if b in node])
    found = []
    for component in rustworkx.strongly_connected_components(digraph):
        members = {names[i] for i in component}
        if len(members) > 1:
            found.append((frozenset(members), _path_around(graph, members)))
    return sorted(found, key=lambda circle: circle[1])


def _path_around(graph: dict[str, set[str]], members: set[str]) -> list[str]:
    """A shortest path from the first member back to itself through the others (breadth first)."""
    start = min(members)
    came_from = {start: None}
    queue = [start]
    while queue:
        module = queue.pop(0)
        for target in sorted(graph[module] & members):
            if target == start:
                path = [module]
                while came_from[path[-1]] is not None:
                    path.append(came_from[path[-1]])
                return [start, *reversed(path[:-1]), start] if len(path) > 1 else [start, module, start]
            if target not in came_from:
                came_from[target] = module
                queue.append(target)
    return sorted(members)


def app_sources(app: str) -> dict[str, tuple[str, bool]]:
    return {module_name(path): (path.read_text(encoding="utf-8"), path.name == "__init__.py")
            for path in app_modules(migrations=False) if path.relative_to(ROOT).parts[0] == app}


@pytest.mark.parametrize("app", APPS)
def test_no_app_imports_itself_in_a_circle(app):
    """Modules of one app import one another one way (function-level imports included): a circle means
    two modules that are one concern, or a third that both need."""
    found = [(members, path) for members, path in circles(import_graph(app_sources(app)))
             if members not in ALLOWED_CIRCLES]
    assert not found, f"import circles in {app}/ (split out what both sides need):\n" + "\n".join(
        " -> ".join(path) + (f" (and {', '.join(sorted(members - set(path)))})" if members - set(path) else "")
        for members, path in found)


def test_the_allowed_circles_are_still_there():
    """A circle removed leaves the allowed list with it."""
    present = {members for app in APPS for members, _path in circles(import_graph(app_sources(app)))}
    gone = ALLOWED_CIRCLES - present
    assert not gone, f"no longer circles, remove them from ALLOWED_CIRCLES: {[sorted(c) for c in gone]}"


def test_the_circle_check_names_the_path_around():
    sources = {
        "scoring.a": ("def f():\n    from . import b\n", False),
        "scoring.b": ("from scoring.c import x\n", False),
        "scoring.c": ("from .a import f\nfrom config.errors import Conflict\n", False),
        "scoring.d": ("from . import a\n", False),
        "scoring.pkg": ("from .inner import y\n", True),
        "scoring.pkg.inner": ("from scoring.pkg import other\n", False),
    }
    assert [path for _members, path in circles(import_graph(sources))] == [
        ["scoring.a", "scoring.b", "scoring.c", "scoring.a"], ["scoring.pkg", "scoring.pkg.inner", "scoring.pkg"]]


# The schema's direction ------------------------------------------------------------------------
# Foreign keys and migration dependencies point down the layers too (docs/architecture.md): no
# foreign key points up. The migrations are history: the ones below depend on a higher layer's because
# a model moved down keeps its table, so the lower app's state must follow the migration that made the
# table, and the old state is dropped only once every app has repointed its keys ("How the models
# moved" in docs/architecture.md). The list is closed: a new migration never depends upward, and an
# entry that no longer exists fails the test too.
MODEL_LAYERS = ("people", "events", "draw", "tables", "scoring", "tournaments", "public", "printing", "seasons",
                "teams", "finance", "room", "fairplay", "referee")  # lowest first

UPWARD_MIGRATION_DEPENDENCIES = {
    # the match's first keys, to tournaments' pairs and rounds (before the draw moved below scoring)
    "scoring.0001_initial -> tournaments.0002_player_pin_hash_round",
    "scoring.0002_printjob -> tournaments.0002_player_pin_hash_round",
    # the player's move to people
    "people.0001_initial -> tournaments.0021_audit_actions_merged",
    "tournaments.0022_player_to_people -> referee.0008_player_to_people",
    # the event's move to events and the draw's (with the match) to draw
    "events.0001_initial -> tournaments.0028_help_texts_by_subject",
    "draw.0001_initial -> scoring.0020_matchevent_match_at_index",
    "draw.0001_initial -> tournaments.0028_help_texts_by_subject",
    "tournaments.0029_models_to_events_and_draw -> referee.0009_keys_to_events_and_draw",
    "scoring.0022_match_leaves_scoring_state -> tournaments.0029_models_to_events_and_draw",
    "scoring.0022_match_leaves_scoring_state -> referee.0009_keys_to_events_and_draw",
    # the table channel's move (links, idempotency keys, conflicts, cards) to tables
    "tables.0001_initial -> scoring.0025_seal_key_in_use_owner_only",
    "tables.0001_initial -> tournaments.0030_link_address",
    "scoring.0026_table_channel_to_tables -> referee.0011_keys_to_tables",
    # the print job's move to printing
    "scoring.0027_print_jobs_to_printing -> printing.0001_initial",
}


def model_rank(app_label: str) -> int:
    return MODEL_LAYERS.index(app_label) + 1 if app_label in MODEL_LAYERS else 0


def upward_foreign_keys() -> set[str]:
    from django.apps import apps

    found = set()
    for model in apps.get_models(include_auto_created=True):
        for field in model._meta.get_fields():
            if not (field.is_relation and field.concrete and field.related_model is not None):
                continue
            source, target = model._meta.app_label, field.related_model._meta.app_label
            if model_rank(target) > model_rank(source):
                found.add(f"{model._meta.label}.{field.name} -> {field.related_model._meta.label}")
    return found


def upward_migration_dependencies() -> set[str]:
    from django.db.migrations.loader import MigrationLoader

    found = set()
    for (app, name), migration in MigrationLoader(None, ignore_no_migrations=True).disk_migrations.items():
        for dep_app, dep_name in migration.dependencies:
            if model_rank(dep_app) > model_rank(app):
                found.add(f"{app}.{name} -> {dep_app}.{dep_name}")
    return found


def test_foreign_keys_point_down_the_layers():
    assert upward_foreign_keys() == set(), "a foreign key points up the layers"


def test_migrations_depend_down_the_layers():
    found = upward_migration_dependencies()
    assert found - UPWARD_MIGRATION_DEPENDENCIES == set(), "a migration depends on a higher layer's"
    assert UPWARD_MIGRATION_DEPENDENCIES - found == set(), "gone: take it off the list"


BOOT_SETTINGS = """
import os
from config.settings import *  # noqa: F403
_keep = set(filter(None, os.environ["TRUCO_BOOT_APPS"].split(",")))
INSTALLED_APPS = [a for a in INSTALLED_APPS if a not in {layers} or a in _keep]  # noqa: F405
"""


def boot(apps: tuple[str, ...], tmp_path) -> subprocess.CompletedProcess:
    """``django.setup()`` and the models' system checks in a process with only ``apps`` of ours."""
    (tmp_path / "boot_settings.py").write_text(BOOT_SETTINGS.format(layers=set(MODEL_LAYERS)))
    env = {**os.environ, "TRUCO_BOOT_APPS": ",".join(apps), "DJANGO_SETTINGS_MODULE": "boot_settings",
           "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    env.pop("DATABASE_URL", None)
    code = ("import django; django.setup(); from django.core import checks; "
            "errors = [e for e in checks.run_checks(tags=[checks.Tags.models]) if e.is_serious()]; "
            "print(errors); raise SystemExit(1 if errors else 0)")
    return subprocess.run([sys.executable, "-c", code], env=env, cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)


@pytest.mark.embedded_only
@pytest.mark.parametrize("size", range(len(MODEL_LAYERS) + 1))
def test_each_prefix_of_the_layers_boots_alone(size, tmp_path):
    apps = MODEL_LAYERS[:size]
    result = boot(apps, tmp_path)
    assert result.returncode == 0, result.stdout[-1000:] + result.stderr[-2000:]
