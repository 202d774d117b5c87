"""Pages of the scoring app: match entry, signing, verification (mounted at /sumulas/)."""
from django.urls import path

from tables import views as table_views

from . import entry_views, views

app_name = "scoring"
urlpatterns = [
    path("", views.match_list, name="list"),
    path("lancamento.js", entry_views.script, name="entry-script"),
    path("partida/<int:pk>/", views.match_entry, name="match"),
    path("partida/<int:pk>/estado/", entry_views.state, name="state"),
    path("partida/<int:pk>/mao/", views.record_hand, name="hand"),
    path("partida/<int:pk>/relato/", views.record_report, name="report"),
    path("partida/<int:pk>/pe/", views.set_dealer, name="dealer"),
    path("partida/<int:pk>/penalidade/", views.record_penalty, name="penalty"),
    path("partida/<int:pk>/desfazer/", views.undo, name="undo"),
    path("partida/<int:pk>/corrigir/", views.correct, name="correct"),
    path("partida/<int:pk>/codigo/", views.issue_code, name="code"),
    path("partida/<int:pk>/assinar/", views.sign, name="sign"),
    path("partida/<int:pk>/desbloquear-pin/", views.pin_unlock, name="pin-unlock"),
    path("partida/<int:pk>/contra-assinar/", views.countersign, name="countersign"),
    path("partida/<int:pk>/recebida/", views.receive, name="receive"),
    path("partida/<int:pk>/link-da-mesa/", table_views.manage_link, name="table-link"),
    path("verificar/", views.verify_form, name="verify-form"),
    path("verificar/<str:digest>/", views.verify, name="verify"),
]
