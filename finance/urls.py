"""The money pages (finance/views.py), mounted at the site root beside the tournaments' pages."""
from django.urls import path

from . import import_views, views

app_name = "finance"

urlpatterns = [
    path("torneios/<slug:slug>/painel/dinheiro/", views.money, name="money"),
    path("torneios/<slug:slug>/painel/dinheiro/extrato/", import_views.statement, name="statement"),
    path("torneios/<slug:slug>/duplas/<int:pair>/pagar/", views.pay, name="pay"),
    path("torneios/<slug:slug>/duplas/<int:pair>/recibo.pdf", views.receipt_pdf, name="receipt"),
]
