"""The page "Contas" (``referee.account_views``), mounted at the site's root by ``config.urls``:
``/contas/`` (organizer accounts, locked logins) and ``/conta/senha/<uid>/<token>/`` where a new
organizer chooses their password."""
from django.urls import path

from . import account_views as views

app_name = "accounts"
urlpatterns = [
    path("contas/", views.page, name="page"),
    path("contas/organizadores/", views.create_organizer, name="create-organizer"),
    path("contas/organizadores/novo-link/", views.new_link, name="new-link"),
    path("contas/desbloquear/", views.unlock, name="unlock"),
    path("conta/senha/<uidb64>/<token>/", views.PasswordSetView.as_view(), name="password-set"),
    path("conta/senha/pronto/", views.PasswordDoneView.as_view(), name="password-done"),
]
