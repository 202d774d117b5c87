"""Table tokens no longer stored in clear: each table link's and table card's token becomes its keyed digest
(what a request is looked up by, unique) and its sealed text (what a reprint reads), ``tables.token_keys``,
under this site's ``SECRET_KEY``. Every existing row is converted, so every card and súmula already printed
keeps opening its table. Reversible: going back unseals the tokens into the old column."""
from django.db import migrations, models

from tables import token_keys

BATCH = 500


def seal_tokens(apps, schema_editor):
    for name in ("TableLink", "TableCard"):
        model = apps.get_model("tables", name)
        rows = []
        for row in model.objects.using(schema_editor.connection.alias).only("pk", "token").iterator(chunk_size=BATCH):
            row.digest, row.sealed = token_keys.digest(row.token), token_keys.seal(row.token)
            rows.append(row)
            if len(rows) >= BATCH:
                model.objects.bulk_update(rows, ["digest", "sealed"])
                rows = []
        model.objects.bulk_update(rows, ["digest", "sealed"])


def unseal_tokens(apps, schema_editor):
    for name in ("TableLink", "TableCard"):
        model = apps.get_model("tables", name)
        rows = []
        for row in model.objects.using(schema_editor.connection.alias).only("pk", "sealed").iterator(chunk_size=BATCH):
            row.token = token_keys.unseal(row.sealed)
            rows.append(row)
        model.objects.bulk_update(rows, ["token"], batch_size=BATCH)


class Migration(migrations.Migration):

    dependencies = [
        ("tables", "0001_initial"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="tablelink", name="table_link_token_shape"),
        migrations.RemoveConstraint(model_name="tablecard", name="table_card_token_shape"),
        migrations.AlterField(model_name="tablelink", name="token",
                              field=models.CharField(max_length=64, null=True, unique=True, verbose_name="token")),
        migrations.AlterField(model_name="tablecard", name="token",
                              field=models.CharField(max_length=64, null=True, unique=True, verbose_name="token")),
        migrations.AddField(model_name="tablelink", name="digest",
                            field=models.CharField(editable=False, max_length=64, null=True, verbose_name="digest")),
        migrations.AddField(model_name="tablelink", name="sealed",
                            field=models.CharField(default="", editable=False, max_length=255,
                                                   verbose_name="sealed token")),
        migrations.AddField(model_name="tablecard", name="digest",
                            field=models.CharField(editable=False, max_length=64, null=True, verbose_name="digest")),
        migrations.AddField(model_name="tablecard", name="sealed",
                            field=models.CharField(default="", editable=False, max_length=255,
                                                   verbose_name="sealed token")),
        migrations.RunPython(seal_tokens, unseal_tokens),
        migrations.RemoveField(model_name="tablelink", name="token"),
        migrations.RemoveField(model_name="tablecard", name="token"),
        migrations.AlterField(model_name="tablelink", name="digest",
                              field=models.CharField(editable=False, max_length=64, unique=True, verbose_name="digest")),
        migrations.AlterField(model_name="tablelink", name="sealed",
                              field=models.CharField(editable=False, max_length=255, verbose_name="sealed token")),
        migrations.AlterField(model_name="tablecard", name="digest",
                              field=models.CharField(editable=False, max_length=64, unique=True, verbose_name="digest")),
        migrations.AlterField(model_name="tablecard", name="sealed",
                              field=models.CharField(editable=False, max_length=255, verbose_name="sealed token")),
        migrations.AddConstraint(model_name="tablelink", constraint=models.CheckConstraint(
            condition=models.Q(("digest__regex", "^[0-9a-f]{64}$")), name="table_link_digest_shape")),
        migrations.AddConstraint(model_name="tablecard", constraint=models.CheckConstraint(
            condition=models.Q(("digest__regex", "^[0-9a-f]{64}$")), name="table_card_digest_shape")),
    ]
