"""Referee pages (mounted at /arbitragem/): the referee's tables, the claim of a tento in three
taps, the hand checker, a pair's rulings and the organizer's review list. Views in ``views`` and ``review_views``;
the organizer's appeal window and escalation policies in ``settings_views``."""
from django.urls import path

from . import review_views, settings_views, views

app_name = "referee"
urlpatterns = [
    path("", views.tables, name="tables"),
    path("partida/<int:pk>/tento/", views.claim, name="claim"),
    path("partida/<int:pk>/verificar-mao/", views.check_hand, name="check-hand"),
    path("dupla/<int:pk>/", review_views.pair_history, name="pair-history"),
    path("revisao/", review_views.review, name="review"),
    path("chamado/<int:pk>/", views.answer_call, name="answer-call"),
    path("conflito/<int:pk>/", views.settle_conflict, name="settle-conflict"),
    path("pedido/<int:pk>/", views.answer_claim, name="answer-claim"),
    path("aguardando/", views.waiting, name="waiting"),
    path("revisao/decisao/<int:pk>/", review_views.decide_ruling, name="decide-ruling"),
    path("revisao/recurso/<int:pk>/", review_views.decide_appeal, name="decide-appeal"),
    path("torneio/<slug:slug>/regras/", settings_views.referee_settings, name="settings"),
]
