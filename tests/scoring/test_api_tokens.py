"""API tokens for scripts: shown once (only a hash kept), exactly the owner's rights, refused
once revoked or expired, never another user's, documented in the schema."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from scoring import api_tokens
from scoring.api_tokens import ApiToken
from tests.tournaments import factories as f
from tournaments.models import Pair

pytestmark = pytest.mark.django_db


def pairs_url(t) -> str:
    return reverse("tournaments-api:pairs", kwargs={"slug": t.slug})


NEW_PAIR = {"name": "Por script", "first_player": {"name": "Ana Script"}, "second_player": {"name": "Bia Script"}}


def test_a_token_does_exactly_its_owners_rights(client):
    org = f.user("org")
    t = f.tournament(org)
    other = f.tournament(f.user("outro"), slug="outra")
    _token, key = api_tokens.create(org, "planilha")
    auth = {"HTTP_AUTHORIZATION": f"Token {key}"}
    assert client.post(pairs_url(t), NEW_PAIR, content_type="application/json", **auth).status_code == 201
    refused = client.post(pairs_url(other), NEW_PAIR, content_type="application/json", **auth)
    assert refused.status_code == 403  # another organizer's tournament: as with the owner's session
    assert Pair.objects.filter(tournament=t).count() == 1 and not Pair.objects.filter(tournament=other).exists()
    assert "csrftoken" not in client.cookies  # no session, no CSRF


def test_a_revoked_expired_or_unknown_token_is_refused(client):
    org = f.user("org")
    t = f.tournament(org)
    token, key = api_tokens.create(org, "planilha")
    api_tokens.revoke(token.pk, org)
    for header in (f"Token {key}", "Token truco_nope", f"Token {key} extra"):
        response = client.post(pairs_url(t), NEW_PAIR, content_type="application/json", HTTP_AUTHORIZATION=header)
        assert response.status_code in (401, 403), header
    old, old_key = api_tokens.create(org, "antigo", days=1)
    ApiToken.objects.filter(pk=old.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert api_tokens.resolve(old_key) is None
    _t, live_key = api_tokens.create(org, "ativo")
    get_user_model().objects.filter(pk=org.pk).update(is_active=False)
    assert api_tokens.resolve(live_key) is None  # an inactive account's tokens stop too
    assert not Pair.objects.exists()


def test_the_key_is_shown_once_and_only_its_hash_is_kept(client):
    user = f.user("org")
    client.force_login(user)
    page = reverse("api-tokens:list")
    response = client.post(page, {"name": "placar", "days": ""}, follow=True)
    key = response.context["shown"]["key"]
    token = ApiToken.objects.get(user=user)
    assert key.startswith("truco_") and token.key_hash == api_tokens.key_hash(key)
    assert key not in str(ApiToken.objects.filter(pk=token.pk).values().get())
    assert key in response.content.decode()
    client.cookies.pop("truco_new_token", None)
    assert key not in client.get(page).content.decode()  # gone with the page
    # another user cannot revoke it, nor see it
    client.force_login(f.user("intruso"))
    assert key not in client.get(page).content.decode() and "placar" not in client.get(page).content.decode()
    client.post(reverse("api-tokens:revoke", kwargs={"pk": token.pk}))
    assert ApiToken.objects.get(pk=token.pk).revoked_at is None
    client.force_login(user)
    client.post(reverse("api-tokens:revoke", kwargs={"pk": token.pk}))
    assert ApiToken.objects.get(pk=token.pk).revoked_at is not None


def test_the_schema_documents_the_token_scheme(client):
    schema = client.get(reverse("schema"), HTTP_ACCEPT="application/json").json()
    scheme = schema["components"]["securitySchemes"]["apiToken"]
    assert scheme["type"] == "apiKey" and "Token <key>" in scheme["description"]
    assert any({"apiToken": []} in (op.get("security") or []) for ops in schema["paths"].values()
               for op in ops.values() if isinstance(op, dict))
