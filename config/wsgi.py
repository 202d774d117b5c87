"""WSGI entry point; the application is warmed up at import (see :func:`warm_up`)."""
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()


def warm_up() -> None:
    """Do now what the first request of each process would otherwise pay for (0.3-0.6 s): import the
    URLconf with every view, serializer and API module, build the URL resolver, start the templates'
    engine and load the translation catalogs. Under gunicorn's ``preload_app``
    (config/gunicorn_conf.py) this runs once in the master and the workers fork warm. It opens no
    database connection (any that was opened is closed: a forked worker must not share one)."""
    from django.conf import settings
    from django.db import connections
    from django.template import engines
    from django.urls import get_resolver
    from django.utils import translation

    resolver = get_resolver()
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            translation.gettext("Not found.")
            resolver.reverse_dict  # noqa: B018 - built per language, on first use
    engines.all()
    connections.close_all()


warm_up()
