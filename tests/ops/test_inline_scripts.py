"""The Content-Security-Policy allows inline scripts by nonce only (config/settings.py): every
inline <script> of the templates carries ``nonce="{{ request.csp_nonce }}"``, or the browser
refuses to run it (the menu, the live pages, the projector, the claim filter...)."""
import re
from pathlib import Path

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
SCRIPT = re.compile(r"<script\b[^>]*>")


def test_every_inline_script_has_the_csp_nonce():
    missing = [
        f"{path.relative_to(TEMPLATES)}: {tag}"
        for path in TEMPLATES.rglob("*.html")
        if "/pdf/" not in str(path)  # PDFs are rendered by WeasyPrint, never by a browser
        for tag in SCRIPT.findall(path.read_text())
        if "src=" not in tag and 'nonce="{{ request.csp_nonce }}"' not in tag
    ]
    assert not missing
