"""The migrations match the models: ``makemigrations --check`` finds nothing to write. This is what
lets SQLite's test database be made from the models (tests/conftest.py) while PostgreSQL's is made
by the migrations: both give the same schema only while nothing has drifted."""
import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_no_model_change_lacks_its_migration(capsys):
    try:
        call_command("makemigrations", "--check", "--dry-run", verbosity=1)
    except SystemExit:
        pytest.fail(f"a model change has no migration (run makemigrations):\n{capsys.readouterr().out}")
