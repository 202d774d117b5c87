"""The server's seal key made on first use (scoring/integrity.py, ``var/sumula-signing.key``) by
processes starting together — test processes under pytest-xdist, gunicorn's and Celery's workers:
none of them reads a half-written file, and they all end up with the one key on disk."""
from __future__ import annotations

import base64
import multiprocessing

from scoring import integrity

PROCESSES = 12


def _make_key(path: str, start, answers) -> None:
    start.wait()  # all at once
    try:
        key = integrity._private_key.__wrapped__("", path)
        answers.put(key.public_key().public_bytes_raw())
    except Exception as error:  # noqa: BLE001 (reported to the test)
        answers.put(repr(error))


def test_processes_making_the_key_together_all_use_the_one_on_disk(tmp_path):
    path = tmp_path / "var" / "sumula-signing.key"
    context = multiprocessing.get_context("fork")
    start, answers = context.Barrier(PROCESSES), context.Queue()
    processes = [context.Process(target=_make_key, args=(str(path), start, answers)) for _ in range(PROCESSES)]
    for process in processes:
        process.start()
    keys = [answers.get(timeout=60) for _ in processes]
    for process in processes:
        process.join(timeout=60)
    on_disk = integrity._private_key.__wrapped__("", str(path))
    assert set(keys) == {on_disk.public_key().public_bytes_raw()}, keys
    assert len(base64.b64decode(path.read_bytes().strip())) == 32
    assert [p.name for p in path.parent.iterdir()] == ["sumula-signing.key"]  # no draft left behind
    assert path.stat().st_mode & 0o777 == 0o600
