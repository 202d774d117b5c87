"""Public pages and their JSON answer conditional requests: ETag / Last-Modified, and 304
before the page is built when nothing changed; a new result changes the tag."""
from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournaments import pages_fixtures as pf

pytestmark = pytest.mark.django_db

PAGES = [("tournaments:bracket", {}), ("tournaments:standings", {}), ("tournaments:round", {"number": 1}),
         ("tournaments:detail", {}), ("tournaments-api:bracket", {}), ("tournaments-api:standings", {}),
         ("tournaments-api:round", {"number": 1})]


@pytest.fixture
def cup():
    org = pf.organizer()
    return pf.tournament(org, pairs=8), org


@pytest.mark.parametrize("name,kwargs", PAGES)
def test_a_refresh_of_an_unchanged_page_is_a_cheap_304(client, cup, name, kwargs, django_assert_max_num_queries):
    t, org = cup
    url = reverse(name, kwargs={"slug": t.slug, **kwargs})
    first = client.get(url)
    assert first.status_code == 200 and first["ETag"] and first["Last-Modified"]
    assert "no-cache" in first["Cache-Control"]
    assert "=False" not in first["Cache-Control"] and "=True" not in first["Cache-Control"]  # no Python booleans
    with django_assert_max_num_queries(1):  # the fingerprint alone: the page is not built
        again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again["ETag"] == first["ETag"]
    since = client.get(url, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
    assert since.status_code == 304


def test_a_result_entered_changes_the_tag(client, cup):
    t, org = cup
    url = reverse("tournaments:bracket", kwargs={"slug": t.slug})
    before = client.get(url)
    pf.decide(pf.open_matches(t)[0], org)
    after = client.get(url, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200 and after["ETag"] != before["ETag"]


def test_the_tag_depends_on_the_user_and_the_language(client, cup):
    t, org = cup
    url = reverse("tournaments:standings", kwargs={"slug": t.slug})
    anonymous = client.get(url)["ETag"]
    client.cookies["django_language"] = "en"
    english = client.get(url)
    assert english["ETag"] != anonymous
    client.force_login(org)
    mine = client.get(url, HTTP_IF_NONE_MATCH=anonymous)
    assert mine.status_code == 200 and "private" in mine["Cache-Control"]


def test_other_pages_are_left_alone(client, cup):
    t, org = cup
    client.force_login(org)
    dashboard = client.get(reverse("tournaments:dashboard", kwargs={"slug": t.slug}))
    assert dashboard.status_code == 200 and not dashboard.has_header("ETag")
    assert client.get("/torneios/nao-existe/chave/").status_code == 404


def test_a_page_built_once_is_served_to_the_next_reader_with_their_own_csrf_token(cup, django_assert_max_num_queries):
    from django.test import Client

    t, org = cup
    url = reverse("tournaments:bracket", kwargs={"slug": t.slug})
    first = Client(enforce_csrf_checks=True).get(url)
    reader = Client(enforce_csrf_checks=True)
    with django_assert_max_num_queries(1):  # built from the cache: the fingerprint alone
        second = reader.get(url)
    assert second.status_code == 200 and second["ETag"] == first["ETag"]
    html = second.content.decode()
    assert "\x00" not in html and html.replace(" ", "")[:200] == first.content.decode().replace(" ", "")[:200]
    import re

    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    switched = reader.post("/i18n/setlang/", {"language": "en", "next": url, "csrfmiddlewaretoken": token})
    assert switched.status_code == 302  # the reader's own token: the language switch works


def test_a_reader_with_api_credentials_never_gets_an_anonymous_copy_nor_leaves_one(cup, settings):
    """The organizer's JSON (with contacts) is not cached for the public, nor the public's for them."""
    import base64

    from django.test import Client

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    t, org = cup
    org.set_password("segredo-1")
    org.save()
    url = reverse("tournaments-api:pairs", kwargs={"slug": t.slug})
    anonymous = Client().get(url)
    basic = "Basic " + base64.b64encode(f"{org.username}:segredo-1".encode()).decode()
    mine = Client().get(url, HTTP_AUTHORIZATION=basic)
    assert mine.status_code == 200 and not mine.has_header("ETag")
    assert Client().get(url).content == anonymous.content


def _inline_script_nonces(html: str) -> list[str | None]:
    import re

    tags = [tag for tag in re.findall(r"<script\b[^>]*>", html) if "src=" not in tag]
    return [m.group(1) if (m := re.search(r'nonce="([^"]*)"', tag)) else None for tag in tags]


@pytest.mark.parametrize("name,kwargs", [("tournaments:bracket", {}), ("tournaments:standings", {}),
                                         ("tournaments:round", {"number": 1}), ("tournaments:projector", {})])
def test_a_cached_page_carries_the_csp_header_with_the_nonce_of_its_inline_scripts(cup, name, kwargs,
                                                                                   django_assert_max_num_queries):
    """A page served from the page cache gets the policy header, and its inline scripts
    the reader's own nonce (not the one of the request that built the page, which no header names)."""
    import re

    from django.test import Client

    t, org = cup
    url = reverse(name, kwargs={"slug": t.slug, **kwargs})
    seen = set()
    for reader in range(3):  # the builder, then two readers served from the cache
        if reader:
            with django_assert_max_num_queries(1):
                response = Client().get(url)
        else:
            response = Client().get(url)
        assert response.status_code == 200
        policy = response["Content-Security-Policy"]
        header_nonce = re.search(r"'nonce-([^']+)'", policy).group(1)
        nonces = _inline_script_nonces(response.content.decode())
        assert nonces and all(nonce == header_nonce for nonce in nonces), (policy, nonces)
        assert "\x00" not in response.content.decode()
        seen.add(header_nonce)
    assert len(seen) == 3  # one nonce per response, never a cached one
    assert Client().get(url, HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304


def test_a_fragment_another_process_is_building_is_awaited_not_built_again(client, cup):
    """A live page's fragment names the version in its URL, so it has no last state to serve while
    another process builds it: the reader waits for that build instead of building it too."""
    import threading

    from django.core.cache import cache

    from public.conditional import page_key

    t, org = cup
    url = reverse("tournaments:bracket", kwargs={"slug": t.slug}) + "?parte=1&v=abc"
    tag = client.get(url)["ETag"]
    page = page_key(url, 0, "pt-br", "")
    assert cache.get(f"{page}:{tag}") is not None  # the key the middleware used
    cache.delete_many([f"{page}:{tag}", f"{page}:latest"])
    cache.set(f"{page}:building", 1, 30)  # another process is building it

    def other_process_done():
        cache.set(f"{page}:{tag}", ("<p>built elsewhere</p>", "text/html; charset=utf-8"), 60)
        cache.delete(f"{page}:building")

    timer = threading.Timer(0.3, other_process_done)
    timer.start()
    try:
        response = client.get(url)
    finally:
        timer.join()
    assert response.status_code == 200 and response.content == b"<p>built elsewhere</p>"
    assert response["ETag"] == tag


@pytest.fixture
def cache_down(settings):
    """``DJANGO_CACHE_URL`` naming Redis on a loopback port where nothing listens: every cache call is
    refused by the OS, as while Redis is stopped ("Redis stopped 24 s")."""
    import socket

    with socket.socket() as probe:  # a port the OS chose, closed again: nothing listens there
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings.CACHES = {**settings.CACHES, "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                                      "LOCATION": f"redis://127.0.0.1:{port}/5"}}


@pytest.mark.parametrize("name,kwargs", [("tournaments:bracket", {}), ("tournaments-api:round", {"number": 1})])
def test_with_the_page_cache_down_public_pages_are_built_and_served(client, cup, cache_down, name, kwargs, caplog):
    """The cache of built pages is an optimisation only: with Redis down the pages are built for each
    reader (before: every public page, the projector's too, answered 500 while Redis was down)."""
    t, org = cup
    url = reverse(name, kwargs={"slug": t.slug, **kwargs})
    first = client.get(url)
    assert first.status_code == 200 and first["ETag"]
    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    [line] = [r.getMessage() for r in caplog.records if r.name == "truco.access" and r.getMessage().startswith("200")]
    assert "page cache unreachable: ConnectionError" in line  # its access line says why (one failed call)
