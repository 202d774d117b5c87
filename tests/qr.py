"""Reading printed QR codes back, as a phone's camera would: each PDF page to PNG (pdftoppm), then
zbarimg. Skips the test when the Debian tools are missing (scripts/bootstrap installs them)."""
from __future__ import annotations

import shutil
import subprocess

import pytest


def qr_codes(data: bytes, tmp_path, dpi: int = 150) -> set[str]:
    """Every QR code's text in the PDF ``data``."""
    if not (shutil.which("zbarimg") and shutil.which("pdftoppm")):
        pytest.skip("zbarimg (zbar-tools) or pdftoppm (poppler-utils) is not installed")
    (tmp_path / "doc.pdf").write_bytes(data)
    subprocess.run(["pdftoppm", "-r", str(dpi), "-png", str(tmp_path / "doc.pdf"), str(tmp_path / "page")], check=True)
    found = set()
    for image in sorted(tmp_path.glob("page*.png")):
        out = subprocess.run(["zbarimg", "-q", "--raw", str(image)], capture_output=True, text=True).stdout
        found.update(line for line in out.splitlines() if line)
    return found
