"""Rewrite the expected verdicts of the documentation examples from the rules engine.

Run it from the repository root after an intentional change of the engine:

    .venv/bin/python docs/examples/regenerate.py            # rewrite every stored verdict
    .venv/bin/python docs/examples/regenerate.py --check    # only list what would change
    .venv/bin/python docs/examples/regenerate.py 30-new.json  # also create this one's verdict

What it rewrites:

* ``NN-name.verdict.json`` for every ``NN-name.json`` that already has one (an example
  without a verdict file is deliberately left out of the tested set; name it on the
  command line to add it);
* ``batch.verdicts.jsonl``: one verdict per line of ``batch.jsonl``;
* the inline copies in ``docs/hand-report.md``: each fenced ``json`` block right after a
  ``<!-- example: docs/examples/FILE -->`` marker is replaced by the content of FILE.

Then READ the diff (``git diff docs/``) and check every changed verdict against the
regulation before committing: the tests (tests/referee/test_docs_examples.py) take the
stored verdicts as the truth, and never call this script.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parent
ROOT = EXAMPLES.parents[1]
MARKDOWN = ROOT / "docs" / "hand-report.md"
BATCH = EXAMPLES / "batch.jsonl"
BATCH_VERDICTS = EXAMPLES / "batch.verdicts.jsonl"

WIDTH = 100
# A marker, the opening fence, the body (never crossing a fence) and the closing fence.
_MARKER = re.compile(
    r"(<!-- example: docs/examples/(?P<name>[\w.+-]+) -->\n```json\n)(?P<body>(?:(?!^```).)*?)(^```)",
    re.S | re.M,
)


def format_json(value: object, indent: int = 0, prefix: int = 0) -> str:
    """JSON that stays on one line while it fits in WIDTH columns, and opens up when not."""
    compact = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    if not isinstance(value, (dict, list)) or not value or indent + prefix + len(compact) <= WIDTH:
        return compact
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        lines = []
        for key, item in value.items():
            head = json.dumps(key, ensure_ascii=False) + ": "
            lines.append(pad + head + format_json(item, indent + 2, len(head)))
    else:
        lines = [pad + format_json(item, indent + 2) for item in value]
    return ("{" if isinstance(value, dict) else "[") + "\n" + ",\n".join(lines) + "\n" + " " * indent + (
        "}" if isinstance(value, dict) else "]")


def report_files() -> list[Path]:
    return sorted(p for p in EXAMPLES.glob("*.json") if not p.name.endswith(".verdict.json"))


def verdict_path(report: Path) -> Path:
    return report.with_name(report.stem + ".verdict.json")


def write(path: Path, text: str, check: bool, changed: list[str]) -> None:
    old = path.read_text(encoding="utf-8") if path.exists() else None
    if old != text:
        changed.append(str(path.relative_to(ROOT)))
        if not check:
            path.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="write nothing; list the files that would change")
    parser.add_argument("new", nargs="*", help="example reports (file names in docs/examples) to add to the tested set")
    args = parser.parse_args(argv)

    sys.path.insert(0, str(ROOT))
    from referee.engine import check_report

    changed: list[str] = []
    wanted = {Path(name).name for name in args.new}
    for report in report_files():
        target = verdict_path(report)
        if not target.exists() and report.name not in wanted:
            continue
        verdict = check_report(json.loads(report.read_text(encoding="utf-8")))
        write(target, format_json(verdict) + "\n", args.check, changed)
        wanted.discard(report.name)
    if wanted:
        parser.error(f"no such example report: {', '.join(sorted(wanted))}")

    if BATCH.exists():
        lines = [line for line in BATCH.read_text(encoding="utf-8").split("\n") if line.strip()]
        verdicts = [check_report(json.loads(line)) for line in lines]
        text = "".join(json.dumps(v, ensure_ascii=False, separators=(",", ":")) + "\n" for v in verdicts)
        write(BATCH_VERDICTS, text, args.check, changed)

    if MARKDOWN.exists():
        def inline(match: re.Match) -> str:
            source = EXAMPLES / match["name"]
            return match.group(1) + source.read_text(encoding="utf-8").rstrip("\n") + "\n" + match.group(4)

        text = MARKDOWN.read_text(encoding="utf-8")
        write(MARKDOWN, _MARKER.sub(inline, text), args.check, changed)

    for name in changed:
        print(("would change " if args.check else "rewrote ") + name)
    if not changed:
        print("every verdict is up to date")
    return 1 if args.check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
