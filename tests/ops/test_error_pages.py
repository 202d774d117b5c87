"""400, 403, 404 and 500 in Portuguese, in the site's layout, with a way back; never a
developer's screen."""
from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.test import Client
from django.urls import path


def boom(request):
    raise RuntimeError("database exploded")


def refuse(request):
    raise PermissionDenied


def suspicious(request):
    raise SuspiciousOperation("bad")


urlpatterns = [path("boom/", boom), path("refuse/", refuse), path("suspicious/", suspicious)]


@pytest.fixture
def broken_site(settings):
    from config import urls

    settings.ROOT_URLCONF = __name__
    # the handlers are looked up on the URLconf module
    global handler400, handler403, handler404, handler500, urlpatterns
    handler400, handler403, handler404, handler500 = urls.handler400, urls.handler403, urls.handler404, urls.handler500
    urlpatterns = urlpatterns + urls.urlpatterns
    return Client(raise_request_exception=False)


def assert_site_page(response, status: int, title: str):
    html = response.content.decode()
    assert response.status_code == status
    assert '<header class="site">' in html, "not in the site's layout"
    assert title in html
    assert 'href="/"' in html and "Voltar aos torneios" in html
    assert "Traceback" not in html and "DATABASE" not in html and "urlpatterns" not in html


@pytest.mark.django_db
def test_404_is_portuguese_in_the_layout(client):
    assert_site_page(client.get("/nao-existe/"), 404, "Página não encontrada")


@pytest.mark.django_db
def test_403_400_and_500(broken_site):
    assert_site_page(broken_site.get("/refuse/"), 403, "Você não pode abrir esta página")
    assert_site_page(broken_site.get("/suspicious/"), 400, "Não foi possível entender este pedido")
    assert_site_page(broken_site.get("/boom/"), 500, "Algo deu errado do nosso lado")


@pytest.mark.django_db
def test_a_csrf_failure_explains_itself_in_portuguese(django_user_model):
    browser = Client(enforce_csrf_checks=True)
    response = browser.post("/entrar/", {"username": "a", "password": "b"})
    assert_site_page(response, 403, "O formulário expirou")


@pytest.mark.django_db
def test_a_500_is_logged_with_its_traceback_on_one_line_with_the_request_and_user(broken_site, django_user_model):
    import io
    import logging

    from config.logs import OneLineFormatter, RequestContextFilter

    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(RequestContextFilter())
    handler.setFormatter(OneLineFormatter("%(levelname)s %(name)s [%(request)s] %(message)s"))
    for name in ("django.request", "truco.access"):
        logging.getLogger(name).addHandler(handler)
    try:
        user = django_user_model.objects.create_user("operadora", password="x")
        broken_site.force_login(user)
        broken_site.get("/boom/?x=1")
    finally:
        for name in ("django.request", "truco.access"):
            logging.getLogger(name).removeHandler(handler)
    lines = stream.getvalue().splitlines()
    error = next(line for line in lines if line.startswith("ERROR django.request"))
    assert "user=operadora" in error and "GET /boom/?x=1" in error
    assert "Traceback" in error and "RuntimeError: database exploded" in error
    access = next(line for line in lines if "truco.access" in line)
    assert "user=operadora" in access and " 500 " in access + " "
    assert len(lines) == 2


def test_the_keys_in_table_and_invitation_paths_are_not_logged():
    from config.logs import redact

    token = "AbCdEfGhIjKlMnOpQrStUvWxYz012345"
    assert redact(f"/mesa/{token}/") == "/mesa/AbCd…/"
    assert redact(f"/mesa/{token}/estado/?x=1") == "/mesa/AbCd…/estado/?x=1"
    assert redact(f"/convite/{token}/") == "/convite/AbCd…/"
    assert redact(f"/en/mesa/{token}") == "/en/mesa/AbCd…"
    for untouched in ("/mesa/sw.js", "/mesa/mesa.js", "/api/scoring/matches/7/hands/", "/torneios/copa-2026/"):
        assert redact(untouched) == untouched
