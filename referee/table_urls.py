"""The table page, opened from the table card's QR code without an account (mounted at /mesa/)."""
from django.urls import path, re_path

from . import presence_views
from . import table_views as views

app_name = "table"
TOKEN = r"(?P<token>[A-Za-z0-9_-]{20,64})"
urlpatterns = [
    path("sw.js", views.service_worker, name="sw"),
    path("mesa.js", views.script, name="script"),
    re_path(rf"^{TOKEN}/$", views.page, name="page"),
    re_path(rf"^{TOKEN}/estado/$", views.state, name="state"),
    re_path(rf"^{TOKEN}/pin/$", views.change_pin, name="pin"),
    re_path(rf"^{TOKEN}/presenca/$", presence_views.confirm, name="presence"),  # "we are at the table"
]
