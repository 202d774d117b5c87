"""Pages of the tournaments app, mounted at the site root (Portuguese paths: the site's language).

Public: ``/`` (list), ``/torneios/<slug>/`` and its ``chave/`` (bracket; ``chave.svg`` the
drawing alone), ``grupos/`` (round-robin grids), ``classificacao/`` (standings) and
``rodadas/`` (pairings and tables; ``rodadas/<n>/mural.pdf`` the wall sheet), ``fases/`` (the stages), ``duplas/<pair>/``
(a pair's page), ``telao/`` (the projector view) and ``versao/`` (the live pages' change marker;
docs/live.md). Organizer only: ``/torneios/novo/`` and
``/torneios/<slug>/painel/`` with the actions it posts to.
"""
from django.urls import path

from . import (organizer_views, personal_data_views, player_page, public_views, room_views, stage_pages, table_card_views,
               views)

app_name = "tournaments"
T = "torneios/<slug:slug>/"
P = T + "painel/"
urlpatterns = [
    path("", views.TournamentListView.as_view(), name="home"),
    path("torneios/novo/", views.new_tournament, name="new"),
    path(T, views.TournamentDetailView.as_view(), name="detail"),
    path(T + "chave/", views.bracket, name="bracket"),
    path(T + "chave.svg", views.bracket_image, name="bracket-svg"),
    path(T + "grupos/", views.grid, name="grid"),
    path(T + "classificacao/", views.standings, name="standings"),
    path(T + "rodadas/", views.rounds, name="rounds"),
    path(T + "fases/", stage_pages.stages, name="stages"),
    path(T + "rodadas/<int:number>/", views.round_detail, name="round"),
    path(T + "rodadas/<int:number>/mural.pdf", public_views.wall_sheet, name="wall-sheet"),
    path(T + "duplas/<int:pair>/", public_views.pair_detail, name="pair"),
    path(T + "duplas/<int:pair>/chegamos/", public_views.arrived, name="pair-arrived"),
    path(T + "telao/", public_views.projector, name="projector"),
    path(T + "versao/", public_views.version, name="version"),
    path(P, views.dashboard, name="dashboard"),
    path(P + "formato/", views.configure, name="configure"),
    path(P + "duplas/", views.register, name="register"),
    path(P + "duplas/<int:pk>/editar/", organizer_views.edit_pair, name="edit-pair"),
    path(P + "duplas/csv/", views.import_csv, name="import"),
    path(P + "duplas/<int:pk>/confirmar/", views.confirm, name="confirm"),
    path(P + "duplas/<int:pk>/desistencia/", views.withdraw, name="withdraw"),
    path(P + "checkin/", views.check_in, name="check-in"),
    path(P + "cartoes-das-duplas.pdf", views.pair_cards, name="pair-cards"),
    path(P + "jogadores/<int:pk>/novo-pin/", views.reset_pin, name="reset-pin"),
    path(P + "sorteio/", views.draw, name="draw"),
    path(P + "proxima-rodada/", views.next_round, name="next-round"),
    path(P + "rodadas/<int:number>/refazer/", views.regenerate, name="regenerate"),
    path(P + "mesas/", views.assign_referee, name="referee"),
    path(P + "mesas/<int:table>/cartao/", table_card_views.manage_card, name="table-card"),
    path(P + "sala/chamar/", room_views.call, name="room-call"),
    path(P + "sala/opcoes/", room_views.options, name="room-options"),
    path(P + "fases/", stage_pages.add_stage, name="stage-add"),
    path(P + "fases/proxima/", stage_pages.start_stage, name="stage-start"),
    path(P + "fases/<int:position>/remover/", stage_pages.remove_stage, name="stage-remove"),
    path(P + "arbitros/novo/", organizer_views.create_referee, name="new-referee"),
    path(P + "partidas/<int:pk>/receber/", views.receive, name="receive"),
    path(P + "partidas/<int:pk>/wo/", views.walkover, name="walkover"),
    path(P + "partidas/<int:pk>/resultado/", views.set_result, name="result"),
    path(P + "partidas/<int:pk>/mesa/", views.swap_tables, name="swap-tables"),
    # issue 27 §1, §4: the player's page and their personal data (docs/people.md)
    path("jogadores/<int:pk>/", player_page.player_page, name="player"),
    path("jogadores/<int:pk>/link-dos-dados/", personal_data_views.issue_link, name="personal-data-link"),
    path("dados/<str:token>/", personal_data_views.data_page, name="personal-data"),
    path("dados/<str:token>/exportar.json", personal_data_views.export_json, name="personal-data-export"),
    path("dados/<str:token>/apagar/", personal_data_views.erase, name="personal-data-erase"),
]
