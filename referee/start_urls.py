"""Login and each role's start page, mounted at the site's root by ``config.urls``
(names without a namespace: ``login``, ``start``, ``organizer-home``)."""
from django.urls import path

from . import start

urlpatterns = [
    path("entrar/", start.RoleLoginView.as_view(), name="login"),
    path("inicio/", start.start, name="start"),
    path("meus-torneios/", start.organizer_home, name="organizer-home"),
]
