"""A compact way to write hand reports in tests.

``report("4-ouros", "0 3-espadas", "1 K-ouros*", "2 !truco", "3 =accept", dealer=3)``:
``S CARD`` plays (``*`` covered), ``S !CALL`` calls (``!truco:Turco`` says "Turco"),
``S =accept`` / ``S =run`` answers, ``T eleven:play``, ``S #code`` an infraction,
``S fold``, ``S ask``, ``T prove``; ``S A+B`` plays two cards at once (art. 22).
"""
from __future__ import annotations

from referee.engine import check_report


def event(text: str) -> dict:
    who, what = text.split(" ", 1)
    n = int(who)
    if what.startswith("!"):
        call, _, said = what[1:].partition(":")
        return {"seat": n, "call": call, **({"said": said} if said else {})}
    if what.startswith("="):
        return {"seat": n, "answer": what[1:]}
    if what.startswith("eleven:"):
        return {"team": n, "eleven": what.split(":")[1]}
    if what.startswith("#"):
        return {"seat": n, "infraction": what[1:]}
    if what == "fold":
        return {"seat": n, "fold": True}
    if what == "ask":
        return {"seat": n, "ask": "cards"}
    if what == "prove":
        return {"team": n, "prove": True}
    if "+" in what:
        return {"seat": n, "play": what.split("+")}
    if what.endswith("*"):
        return {"seat": n, "play": what[:-1], "covered": True}
    return {"seat": n, "play": what}


def report(vira: str, *events: str, dealer: int = 3, score=(0, 0), deal=None, options=None,
           preset=None, claimed=None) -> dict:
    data: dict = {"dealer": dealer, "vira": vira, "score": list(score), "events": [event(e) for e in events]}
    if options or preset:
        data["rules"] = {"preset": preset or "regulamento-tecnico", "options": options or {}}
    if deal is not None:
        data["deal"] = {str(s): list(cards) for s, cards in deal.items()}
    if claimed is not None:
        data["claimed"] = claimed
    return data


def verdict(vira: str, *events: str, **kwargs) -> dict:
    return check_report(report(vira, *events, **kwargs))


def codes(v: dict) -> list[str]:
    return [x["code"] for x in v.get("violations", [])]
