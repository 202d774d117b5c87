"""Models that moved between apps keep their tables and rows; what follows them is their content type.

A move is a state-only migration (``SeparateDatabaseAndState``: the table keeps its name through the
model's ``Meta.db_table``, docs/architecture.md "How the models moved"). The content type (admin log
entries and permissions point to it) changes its ``app_label`` in the same migration, so permissions
such as ``add_tournament`` stay granted after the move.
"""
from __future__ import annotations


def content_types_moved(old: str, new: str, models: list[str]):
    """The ``RunPython`` pair that relabels ``models`` (lower-case model names) from ``old`` to ``new`` and
    back. A fresh database has no rows yet (they are created after the migrations) and is left alone."""

    def relabel(apps, schema_editor, source=old, target=new):
        content_type = apps.get_model("contenttypes", "ContentType")
        rows = content_type.objects.using(schema_editor.connection.alias)
        for model in models:
            if not rows.filter(app_label=target, model=model).exists():
                rows.filter(app_label=source, model=model).update(app_label=target)

    def relabel_back(apps, schema_editor):
        relabel(apps, schema_editor, source=new, target=old)

    return relabel, relabel_back
