"""Pages of the tournaments app, mounted at the site root (Portuguese paths: the site's language), in the
``tournaments`` URL namespace that ``public.urls`` completes with the public pages (``/``, a tournament's
page, its bracket, grids, standings, rounds, a pair's page, the projector, the wall sheet, ``versao/``).

Here: ``fases/`` (the stages; public; a Swiss stage's ``fases/<position>/tabela-cruzada/``, the
crosstable). Organizer only: ``/torneios/novo/`` and
``/torneios/<slug>/painel/`` with the actions it posts to (among them ``inscricoes/``, the public sign-up's
list, and ``organizadores/``, the co-organizers). The public sign-up ``/torneios/<slug>/inscricao/`` and
the links ``/inscricao/<token>/`` (a player confirms) and ``/organizar/<token>/`` (a co-organizer accepts). Organizers:
``/jogadores/<id>/duplicados/`` and ``/jogadores/mesclas/<id>/desfazer/`` (merging duplicate records;
tournaments/people_admin.py). A pair's ``chegamos/``, ``avisos/`` and ``email/`` are the room's (room/urls.py);
circuits, ratings and categories (``/circuitos/…``, ``/jogadores/<id>/rating/``,
``categorias/``, ``/ratings/metodo/``) are the seasons app's pages (seasons/urls.py).
"""
from django.urls import path

from tables import views as table_views

from . import (control_views, crosstable, dashboard_panels, match_views, organization_views, pair_views, people_admin,
               personal_data_views, player_page, round_views, signup_views, stage_pages,
               table_referee_views, team_views, views)

app_name = "tournaments"
T = "torneios/<slug:slug>/"
P = T + "painel/"
urlpatterns = [
    path("torneios/novo/", control_views.new_tournament, name="new"),
    path(T + "fases/", stage_pages.stages, name="stages"),
    path(T + "fases/<int:position>/tabela-cruzada/", crosstable.crosstable, name="crosstable"),
    path(T + "inscricao/", signup_views.signup_page, name="signup"),
    path("inscricao/<str:token>/", signup_views.confirm_page, name="signup-confirm"),
    path("organizar/<str:token>/", team_views.accept, name="organizer-invitation"),
    path("organizacoes/", organization_views.organizations_page, name="organizations"),
    path("organizacoes/<int:pk>/membros/", organization_views.add_member, name="organization-member-add"),
    path("organizacoes/<int:pk>/membros/<int:member>/remover/", organization_views.remove_member,
         name="organization-member-remove"),
    path(P, views.dashboard, name="dashboard"),
    path(P + "duplas/lista/", dashboard_panels.roster, name="roster"),
    path(P + "duplas/<int:pk>/acoes/", dashboard_panels.pair_actions, name="pair-actions"),
    path(P + "partidas/<int:pk>/acoes/", dashboard_panels.match_actions, name="match-actions"),
    path(P + "formato/", round_views.configure, name="configure"),
    path(P + "duplas/", pair_views.register, name="register"),
    path(P + "duplas/<int:pk>/editar/", pair_views.edit_pair, name="edit-pair"),
    path(P + "duplas/<int:pk>/excluir/", pair_views.delete_pair, name="delete-pair"),
    path(P + "duplas/<int:pk>/reintegrar/", pair_views.reinstate_pair, name="reinstate"),
    path(P + "duplas/<int:pk>/evitar/", pair_views.avoid_tags, name="avoid-tags"),
    path(P + "detalhes/", control_views.edit_details, name="details"),
    path(P + "duplas/<int:pk>/desclassificar/", pair_views.disqualify_pair, name="disqualify"),
    path(P + "colocacao/", control_views.override_placing, name="override-placing"),
    path(P + "resultado.pdf", control_views.results_sheet_pdf, name="results-sheet"),
    path(P + "duplas/csv/", pair_views.import_csv, name="import"),
    path(P + "duplas/<int:pk>/confirmar/", pair_views.confirm, name="confirm"),
    path(P + "duplas/<int:pk>/desistencia/", pair_views.withdraw, name="withdraw"),
    path(P + "duplas/<int:pk>/desfazer-desistencia/", pair_views.undo_withdrawal, name="undo-withdrawal"),
    path(P + "checkin/", pair_views.check_in, name="check-in"),
    path(P + "cartoes-das-duplas.pdf", pair_views.pair_cards, name="pair-cards"),
    path(P + "jogadores/<int:pk>/novo-pin/", pair_views.reset_pin, name="reset-pin"),
    path(P + "sorteio/", round_views.draw, name="draw"),
    path(P + "proxima-rodada/", round_views.next_round, name="next-round"),
    path(P + "rodadas/<int:number>/refazer/", round_views.regenerate, name="regenerate"),
    path(P + "mesas/", table_referee_views.assign_referee, name="referee"),
    path(P + "mesas/<int:table>/cartao/", table_views.manage_card, name="table-card"),
    path(P + "fases/", stage_pages.add_stage, name="stage-add"),
    path(P + "fases/proxima/", stage_pages.start_stage, name="stage-start"),
    path(P + "fases/<int:position>/remover/", stage_pages.remove_stage, name="stage-remove"),
    path(P + "fases/<int:position>/editar/", stage_pages.edit_stage, name="stage-edit"),
    path(P + "arbitros/novo/", table_referee_views.create_referee, name="new-referee"),
    path(P + "inscricoes/", signup_views.signups_page, name="signups"),
    path(P + "inscricoes/<int:pk>/aprovar/", signup_views.approve, name="signup-approve"),
    path(P + "inscricoes/<int:pk>/recusar/", signup_views.refuse, name="signup-refuse"),
    path(P + "inscricoes/<int:pk>/vincular/", signup_views.link_player, name="signup-link"),
    path(P + "organizadores/", team_views.organizers_page, name="organizers"),
    path(P + "organizadores/<int:user>/remover/", team_views.remove, name="organizer-remove"),
    path(P + "organizadores/convites/<int:pk>/revogar/", team_views.revoke, name="organizer-revoke"),
    path(P + "partidas/<int:pk>/receber/", match_views.receive, name="receive"),
    path(P + "partidas/<int:pk>/wo/", match_views.walkover, name="walkover"),
    path(P + "partidas/<int:pk>/wo-duplo/", match_views.double_walkover, name="double-walkover"),
    path(P + "partidas/<int:pk>/resultado/", match_views.set_result, name="result"),
    path(P + "partidas/<int:pk>/desfazer-resultado/", match_views.undo_result, name="undo-result"),
    path(P + "partidas/<int:pk>/mesa/", match_views.swap_tables, name="swap-tables"),
    # the player's page and their personal data (docs/people.md)
    path("jogadores/<int:pk>/", player_page.player_page, name="player"),
    path("jogadores/<int:pk>/duplicados/", people_admin.merge_page, name="player-merges"),
    path("jogadores/mesclas/<int:merge_id>/desfazer/", people_admin.undo_merge, name="merge-undo"),
    path("jogadores/<int:pk>/link-dos-dados/", personal_data_views.issue_link, name="personal-data-link"),
    path("dados/<str:token>/", personal_data_views.data_page, name="personal-data"),
    path("dados/<str:token>/exportar.json", personal_data_views.export_json, name="personal-data-export"),
    path("dados/<str:token>/apagar/", personal_data_views.erase, name="personal-data-erase"),
]
