"""The API's pages: ``limit`` and ``offset`` outside what the schema documents (``limit`` 1 to 500,
``offset`` from 0) are refused with a 400 naming the parameter, never read as "no limit" or offset 0."""
import pytest

from tests.tournaments import factories as f

pytestmark = pytest.mark.django_db
API = "/api/tournaments/"


@pytest.mark.parametrize("query, field", [("limit=-1", "limit"), ("limit=0", "limit"), ("limit=501", "limit"),
                                          ("limit=abc", "limit"), ("limit=2&offset=-3", "offset"),
                                          ("offset=-1", "offset"), ("limit=1&offset=x", "offset")])
def test_a_page_outside_the_documented_bounds_is_refused(query, field):
    answer = f.api_client().get(f"{API}?{query}")
    assert answer.status_code == 400, answer.content
    assert answer.json()["field"] == field


def test_pages_within_the_bounds_still_answer(t):
    assert f.api_client().get(f"{API}?limit=500&offset=0").json()["count"] == 1
    assert f.api_client().get(f"{API}?offset=0").json()[0]["slug"] == t.slug  # no limit: every row, as an array
