"""The API docs are served from the project (no CDN), every page carries a Content-Security-Policy,
and the OpenAPI schema documents the one error shape with no dangling reference."""
import json
import re

import pytest

pytestmark = pytest.mark.django_db


def test_swagger_ui_comes_from_the_project(client):
    page = client.get("/api/docs/").content.decode()
    assert "cdn.jsdelivr" not in page and "unpkg" not in page and "/static/drf_spectacular_sidecar/" in page


def test_pages_send_a_content_security_policy(client):
    policy = client.get("/").headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
    script_src = re.search(r"script-src ([^;]+)", policy).group(1)
    assert "'self'" in script_src and "unsafe-inline" not in script_src  # inline scripts only with a nonce


def test_the_schema_has_no_dangling_reference_and_documents_errors(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    text = json.dumps(schema)
    components = schema["components"]["schemas"]
    for ref in set(re.findall(r'"#/components/schemas/([^"]+)"', text)):
        assert ref in components, ref
    assert {"field", "message", "error"} <= set(components["Error"]["required"])
    pair = components["Pair"]["properties"]["substitute"]
    assert pair.get("nullable") is True
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            for code in ("400", "403", "404"):
                if code in operation.get("responses", {}):
                    answer = operation["responses"][code]["content"]["application/json"]["schema"]
                    # the Error, or (the CSV import's 400, its report) the operation's own body or the Error
                    refs = [answer["$ref"]] if "$ref" in answer else [a["$ref"] for a in answer["anyOf"]]
                    assert any(ref.endswith("/Error") for ref in refs), (path, method, code)


def test_swagger_ui_runs_under_the_content_security_policy(client):
    """/api/docs/ was blank, its inline script refused by the CSP (script-src 'self' + nonce)."""
    response = client.get("/api/docs/")
    page = response.content.decode()
    policy = response.headers["Content-Security-Policy"]
    nonce = re.search(r"'nonce-([^']+)'", policy)
    for tag, body in re.findall(r"(<script\b[^>]*>)(.*?)</script>", page, re.S):
        assert "src=" in tag or (nonce and f'nonce="{nonce.group(1)}"' in tag), tag + body[:80]
    scripts = re.findall(r'<script\b[^>]*src="([^"]+)"', page)
    own = [src for src in scripts if "drf_spectacular_sidecar" not in src]
    assert own, scripts  # the page's own script, served by the site (same origin)
    script = client.get(own[0])
    assert script.status_code == 200 and "SwaggerUIBundle" in script.content.decode()
