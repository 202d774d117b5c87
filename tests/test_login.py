"""Organizers and referees sign in on the site's own page, not the admin's (which takes staff only)."""
import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse


@pytest.fixture
def referee(db, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return get_user_model().objects.create_user("arbitro", password="apito-123")


def test_a_referee_who_is_not_staff_signs_in_and_goes_back_where_they_were(client, referee):
    page = client.get(reverse("login"), {"next": "/sumulas/verificar/"})
    assert page.status_code == 200 and 'name="next" value="/sumulas/verificar/"' in page.content.decode()
    response = client.post(reverse("login"), {"username": "arbitro", "password": "apito-123",
                                              "next": "/sumulas/verificar/"})
    assert response.status_code == 302 and response["Location"] == "/sumulas/verificar/"
    home = client.get(reverse("tournaments:home")).content.decode()
    assert "arbitro" in home and reverse("logout") in home


def test_wrong_password_is_refused_with_a_message(client, referee):
    response = client.post(reverse("login"), {"username": "arbitro", "password": "errada"})
    assert response.status_code == 200 and 'role="alert"' in response.content.decode()


def test_pages_that_need_a_user_send_anonymous_visitors_to_the_site_login(client, settings):
    assert settings.LOGIN_URL == "login"
    assert reverse("login") == "/entrar/"
