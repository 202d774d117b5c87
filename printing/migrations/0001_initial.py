"""The print job moves from ``scoring`` to ``printing``: state only. Its tables (``scoring_printjob`` and the
matches' ``scoring_printjob_matches``), rows and constraints stay where they are; ``scoring`` 0027 drops the
old model from its state and the content type follows."""
import django.db.models.deletion
import django.utils.timezone
import printing.models
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('draw', '0002_keys_and_constraints'),
        ('events', '0004_organizations_of_organizers'),
        ('scoring', '0026_table_channel_to_tables'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    state_operations = [
        migrations.CreateModel(
            name='PrintJob',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(choices=[('blank', 'Blank súmulas (to fill in by pen)'), ('filled', 'Filled súmulas')], max_length=10, verbose_name='kind')),
                ('status', models.CharField(choices=[('queued', 'Queued'), ('running', 'Running'), ('done', 'Done'), ('failed', 'Failed')], default='queued', max_length=10, verbose_name='status')),
                ('done', models.PositiveIntegerField(default=0, verbose_name='súmulas rendered')),
                ('total', models.PositiveIntegerField(default=0, verbose_name='súmulas to render')),
                ('file', models.FileField(blank=True, upload_to=printing.models.print_job_upload_to, verbose_name='PDF')),
                ('error', models.TextField(blank=True, verbose_name='error')),
                ('task_id', models.CharField(blank=True, max_length=64, verbose_name='task id')),
                ('site_url', models.CharField(blank=True, help_text='The address the print was asked from (e.g. http://192.168.0.10:8000): the QR codes point there. Empty: the SITE_URL setting.', max_length=200, verbose_name='site address')),
                ('attempts', models.PositiveSmallIntegerField(default=0, help_text="How many times a worker started it (a lost worker's job is taken again).", verbose_name='attempts')),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='created at')),
                ('started_at', models.DateTimeField(blank=True, null=True, verbose_name='started at')),
                ('finished_at', models.DateTimeField(blank=True, null=True, verbose_name='finished at')),
                ('updated_at', models.DateTimeField(auto_now=True, verbose_name='updated at')),
                ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='print_jobs', to=settings.AUTH_USER_MODEL, verbose_name='created by')),
                ('matches', models.ManyToManyField(related_name='print_jobs', to='draw.match', verbose_name='matches')),
                ('round', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='print_jobs', to='draw.round', verbose_name='round')),
                ('tournament', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='print_jobs', to='events.tournament', verbose_name='tournament')),
            ],
            options={
                'verbose_name': 'print job',
                'verbose_name_plural': 'print jobs',
                'db_table': 'scoring_printjob',
                'ordering': ['-created_at', '-id'],
                'constraints': [models.CheckConstraint(condition=models.Q(('done__lte', models.F('total'))), name='print_job_done_at_most_total'), models.CheckConstraint(condition=models.Q(('kind__in', ['blank', 'filled'])), name='print_job_kind'), models.CheckConstraint(condition=models.Q(('status__in', ['queued', 'running', 'done', 'failed'])), name='print_job_status'), models.CheckConstraint(condition=models.Q(('round__isnull', True), ('tournament__isnull', False), _connector='OR'), name='print_job_round_needs_tournament')],
            },
        ),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=state_operations),
    ]
