"""Realistic súmula documents, built by hand to the contract of docs/sumula-document.md.

Owned by the printing work: the PDF renderer is tested and benchmarked against these
documents, independently of how the scoring core stores a match. Everything is seeded, so
a given call always returns the same document.

- :func:`make_document` a played match: games of ~20 hands (``style``), penalties with their
  articles, corrections, the result and the digest computed as the contract says;
- :func:`make_blank_document` the same header with no game played (what a blank súmula prints);
- :func:`make_signatures` signatures beside a document, one of them voided (it signed an
  earlier content);
- :func:`compute_digest` the contract's chained SHA-256;
- :func:`store_round` the same matches stored as rows (pairs, matches, games, hands,
  penalties, issued versions, signatures), in bulk, for the printing service and benchmark.
"""
from __future__ import annotations

import hashlib
import json
import random
from datetime import datetime, timedelta, timezone

BRT = timezone(timedelta(hours=-3))

FIRST_NAMES = [
    "Ana", "Beto", "Caio", "Duda", "João", "Conceição", "Luís", "Márcia", "Zé", "Tião", "Íris",
    "Anésio", "Benedita", "Cícero", "Dalva", "Edmílson", "Fátima", "Gonçalo", "Helena", "Irene",
    "Jairo", "Lúcia", "Moacir", "Nair", "Otávio", "Patrícia", "Quitéria", "Raimundo", "Sônia",
]
LAST_NAMES = [
    "Souza", "Lima", "Reis", "Melo", "Gonçalves", "Ávila", "Araújo", "Conceição", "Brandão",
    "Pereira", "Magalhães", "Assunção", "Tavares", "Ribeiro", "Fonseca", "Guimarães",
]
PAIR_NAMES = [
    "Os Zaps", "Copas de Ouro", "Espadilhas do Sertão", "Pica-Fumo FC", "Manilha Seca",
    "Truco Véio", "Zap & Copeta", "Os Sem-Vira", "Seis na Mesa", "Mão de Ferro", "Baralho Sujo",
    "Os Trucadores da Vila São João", "Quatro de Paus", "Nove Que Não Vem",
]
CLUBS = ["Clube Atlético Paulistano", "Grêmio Recreativo Vila Maria", "AABB Campinas", ""]
PENALTIES = [
    ("art. 24", "Palavra de orientação ao parceiro"),
    ("art. 19", "Pediu truco na mão de onze"),
    ("art. 10", "Queimou carta antes de jogar"),
    ("art. 5", "Olhou o fundo do baralho"),
    ("art. 23", "Jogou carta fora da vez e não quis deixá-la na mesa"),
    ("art. 16", "Falso truco (\"Jorge\") recusado"),
]
CORRECTIONS = [
    "Mão 4 anotada para a dupla errada",
    "Tento do art. 24 lançado em dobro",
    "Valor da mão 11 era 3, não 1 (truco aceito)",
]
LADDER = [1, 3, 6, 9, 12]
STYLES = {
    # probability of each hand value outside mãos de onze, and how often a hand ends in a run
    "heavy": ([0.95, 0.05, 0.0, 0.0, 0.0], 0.40),   # ~20 hands per game
    "typical": ([0.70, 0.20, 0.07, 0.02, 0.01], 0.35),  # ~12 hands
    "quick": ([0.45, 0.35, 0.13, 0.05, 0.02], 0.35),   # ~8 hands
}


def canonical(value) -> bytes:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()


def compute_digest(document: dict) -> str:
    """The chained SHA-256 of docs/sumula-document.md ("Digest")."""
    header = {k: v for k, v in document.items() if k not in ("games", "result", "corrections", "digest")}
    h = hashlib.sha256(canonical(header)).hexdigest()
    for game in document["games"]:
        for entry in game["entries"]:
            h = hashlib.sha256(h.encode() + canonical(entry)).hexdigest()
    tail = {"result": document["result"], "corrections": document["corrections"]}
    return hashlib.sha256(h.encode() + canonical(tail)).hexdigest()


def _person(rng: random.Random) -> str:
    return f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}"


def _teams(rng: random.Random, pair_ids: tuple[int, int]) -> list[dict]:
    names = rng.sample(PAIR_NAMES, 2)
    players = set()
    while len(players) < 4:
        players.add(_person(rng))
    players = sorted(players, key=lambda _: rng.random())
    return [
        {"pair_id": pair_ids[i], "name": names[i], "players": players[2 * i:2 * i + 2], "club": rng.choice(CLUBS)}
        for i in range(2)
    ]


def _header(rng, *, match_id, tournament, round_number, table, best_of, rules, version, referee) -> dict:
    friendly = tournament is None
    return {
        "schema": 1,
        "match": {
            "id": match_id,
            "tournament": tournament,
            "tournament_slug": None if friendly else "torneio-de-demonstracao",
            "round": None if friendly else round_number,
            "round_name": None if friendly else f"Rodada {round_number}",
            "table": table,
            "best_of": best_of,
            "referee": referee,
            "rules": rules,
            "version": version,
        },
        "teams": _teams(rng, (2 * match_id, 2 * match_id + 1)),
    }


def _play_game(rng: random.Random, number: int, dealer: int, style: str, penalties: int, rules: dict):
    """Entries of one game to 12 and the dealer of the next game."""
    weights, run_rate = STYLES[style]
    options = rules.get("options", {})
    eleven_run = options.get("eleven_run_points", 1)
    iron_value = options.get("iron_hand_value", 3)
    bias = rng.uniform(0.42, 0.58)  # chance that team 0 takes a hand: close games are long
    score = [0, 0]
    entries: list[dict] = []
    penalty_hands = set(rng.sample(range(3, 16), penalties)) if penalties else set()
    hand = 0
    while max(score) < 12:
        hand += 1
        winner = 0 if rng.random() < bias else 1
        at_eleven = [s == 11 for s in score]
        if all(at_eleven):
            value = iron_value
            ended_by, points = ("iron_tie", 0) if rng.random() < 0.15 else ("tricks", value)
        elif any(at_eleven):
            team_at_eleven = at_eleven.index(True)
            if rng.random() < 0.2:
                value, ended_by, points, winner = eleven_run, "eleven_refused", eleven_run, 1 - team_at_eleven
            else:
                value, ended_by, points = 3, "tricks", 3
        else:
            value = rng.choices(LADDER, weights)[0]
            roll = rng.random()
            if value > 1 and roll < run_rate:
                ended_by, points = "run", LADDER[LADDER.index(value) - 1]
                value = points
            elif roll > 0.97:
                ended_by, points = rng.choice(["all_tied", "deal_lost"]), 0
            else:
                ended_by, points = "tricks", value
        if points == 0:
            winner = None
        else:
            score[winner] = min(12, score[winner] + points)
        entries.append({
            "kind": "hand", "number": hand, "dealer": dealer, "ended_by": ended_by, "value": value,
            "winner": winner, "points": points, "score": list(score), "report": None,
        })
        dealer = (dealer + 1) % 4
        if hand in penalty_hands and max(score) < 12:
            article, reason = rng.choice(PENALTIES)
            offender = rng.randrange(2)
            tento = 3 if article == "art. 19" else rng.choice([1, 1, 3])
            score[1 - offender] = min(12, score[1 - offender] + tento)
            entries.append({
                "kind": "penalty", "offender": offender, "beneficiary": 1 - offender, "points": tento,
                "article": article, "reason": reason,
                "ruling": rng.choice([None, rng.randint(1, 40)]),  # the referee's ruling id, when there is one
                "score": list(score),
            })
    game = {"number": number, "entries": entries, "score": list(score), "winner": 0 if score[0] == 12 else 1}
    return game, dealer


def make_document(
    seed: int = 1,
    *,
    match_id: int = 17,
    tournament: str | None = "Torneio de Demonstração",
    round_number: int = 2,
    table: int | None = 7,
    best_of: int = 3,
    games: int | None = None,
    style: str = "heavy",
    penalties_per_game: int = 1,
    corrections: int = 2,
    finished: bool = True,
    rules: dict | None = None,
    referee: str | None = "Carla Árbitra de Assunção",
    with_report: bool = True,
) -> dict:
    """A played match. ``games`` forces how many games (default: until one team wins the
    majority of ``best_of``); ``finished=False`` leaves the last game open (no winner)."""
    rng = random.Random(seed)
    rules = rules if rules is not None else {"preset": "regulamento-tecnico", "options": {}}
    document = _header(
        rng, match_id=match_id, tournament=tournament, round_number=round_number, table=table,
        best_of=best_of, rules=rules, version=corrections + 1, referee=referee,
    )
    needed = best_of // 2 + 1
    won = [0, 0]
    played = []
    dealer = rng.randrange(4)
    number = 0
    while (games is None and max(won) < needed) or (games is not None and number < games):
        number += 1
        game, dealer = _play_game(rng, number, dealer, style, penalties_per_game, rules)
        won[game["winner"]] += 1
        played.append(game)
    if with_report and played:
        # one hand refereed from a full report (kept short: the renderer only marks it)
        played[0]["entries"][0]["report"] = {"dealer": played[0]["entries"][0]["dealer"], "vira": "7-ouros", "events": []}
    winner = 0 if won[0] >= needed else 1 if won[1] >= needed else None
    if not finished and played:
        last = played[-1]
        cut = max(1, len(last["entries"]) - 4)
        last["entries"] = last["entries"][:cut]
        last["score"] = list(last["entries"][-1]["score"])
        last["winner"] = None
        won = [sum(1 for g in played if g["winner"] == t) for t in (0, 1)]
        winner = None
    document["games"] = played
    document["result"] = {"games": won, "winner": winner}
    start = datetime(2026, 11, 21, 14, 0, tzinfo=BRT) + timedelta(minutes=7 * match_id)
    document["corrections"] = [
        {"version": v + 2, "reason": CORRECTIONS[v % len(CORRECTIONS)], "by": referee or "Organização",
         "at": (start + timedelta(minutes=40 + 9 * v)).isoformat()}
        for v in range(corrections)
    ]
    document["digest"] = compute_digest(document)
    return document


def make_blank_document(seed: int = 1, **kwargs) -> dict:
    """The header of a match that has not been played: no games, no result, version 1."""
    kwargs.setdefault("corrections", 0)
    document = make_document(seed, games=0, **kwargs)
    document["result"] = {"games": [0, 0], "winner": None}
    document["digest"] = compute_digest(document)
    return document


def make_signatures(document: dict, *, voided: bool = True, referee: bool = True) -> list[dict]:
    """Both pairs and the referee signed the current content; with ``voided`` the first pair
    had also signed an earlier version (a different digest), which no longer counts."""
    start = datetime(2026, 11, 21, 15, 30, tzinfo=BRT) + timedelta(minutes=7 * document["match"]["id"])
    teams = document["teams"]
    signatures = []
    if voided:
        earlier = hashlib.sha256(b"earlier " + document["digest"].encode()).hexdigest()
        signatures.append({"role": "team0", "name": teams[0]["players"][0], "at": (start - timedelta(minutes=25)).isoformat(),
                           "digest": earlier})
    signatures.append({"role": "team0", "name": teams[0]["players"][0], "at": start.isoformat(), "digest": document["digest"]})
    signatures.append({"role": "team1", "name": teams[1]["players"][1], "at": (start + timedelta(minutes=1)).isoformat(),
                       "digest": document["digest"]})
    if referee and document["match"]["referee"]:
        signatures.append({"role": "referee", "name": document["match"]["referee"],
                           "at": (start + timedelta(minutes=3)).isoformat(), "digest": document["digest"]})
    return signatures


def round_documents(count: int = 128, *, seed: int = 1000, blank: bool = False) -> list[dict]:
    """A realistic round of ``count`` tables: mostly best-of-3, some single games, a mix of
    heavy, typical and quick games, a few penalties and corrections."""
    documents = []
    for table in range(1, count + 1):
        rng = random.Random(seed + table)
        kwargs = dict(
            match_id=1000 + table, table=table, round_number=3,
            best_of=rng.choice([3, 3, 3, 1]),
            style=rng.choice(["heavy", "typical", "typical", "quick"]),
            penalties_per_game=rng.choice([0, 0, 1, 2]),
            corrections=rng.choice([0, 0, 0, 1, 2]),
        )
        documents.append(make_blank_document(seed + table, **kwargs) if blank else make_document(seed + table, **kwargs))
    return documents


def store_round(round_, documents: list[dict], *, referee=None, signed: bool = True) -> list:
    """Store ``documents`` as the matches of ``round_`` (a tournaments.Round), in bulk: pairs and
    players, matches with their games, hands and penalties, and for finished matches the issued
    versions (one per correction) and the signatures of both pairs and the referee on the last
    one, plus a voided one on the version before. Returns the matches, by table."""
    from django.utils import timezone as dj_timezone

    from referee.engine.rules import rule_set_from
    from scoring.content import build_document, corrections_of
    from scoring.models import Game, HandEntry, Match, PenaltyEntry, Signature, SumulaVersion
    from tournaments.models import Pair, Player

    tournament = round_.tournament
    used = set(Pair.objects.filter(tournament=tournament).values_list("name", flat=True))
    players = Player.objects.bulk_create([
        Player(name=name) for document in documents for team in document["teams"] for name in team["players"]
    ])
    pairs = []
    for i, document in enumerate(documents):
        for t, team in enumerate(document["teams"]):
            name = team["name"]
            if name in used:
                name = f"{name} ({document['match']['id']}{'AB'[t]})"
            used.add(name)
            first, second = players[4 * i + 2 * t], players[4 * i + 2 * t + 1]
            pairs.append(Pair(tournament=tournament, name=name, first_player=first, second_player=second))
    pairs = Pair.objects.bulk_create(pairs)
    matches = Match.objects.bulk_create([
        Match(
            tournament=tournament, round=round_, table=document["match"]["table"], referee=referee,
            pair_a=pairs[2 * i], pair_b=pairs[2 * i + 1],
            rule_set=rule_set_from(document["match"]["rules"]).as_dict(), best_of=document["match"]["best_of"],
            winner=document["result"]["winner"], games_a=document["result"]["games"][0],
            games_b=document["result"]["games"][1],
        )
        for i, document in enumerate(documents)
    ])
    games = Game.objects.bulk_create([
        Game(match=match, number=game["number"],
             first_dealer=next((e["dealer"] for e in game["entries"] if e["kind"] == "hand"), 0),
             score_a=game["score"][0], score_b=game["score"][1], winner=game["winner"])
        for match, document in zip(matches, documents) for game in document["games"]
    ])
    hands, penalties = [], []
    entries_of = []
    for game, source in zip(games, (g for d in documents for g in d["games"])):
        game.entries = []
        for position, e in enumerate(source["entries"], start=1):
            if e["kind"] == "hand":
                row = HandEntry(game=game, position=position, number=e["number"], dealer=e["dealer"],
                                ended_by=e["ended_by"], value=e["value"], winner=e["winner"], points=e["points"],
                                score_a=e["score"][0], score_b=e["score"][1], report=e["report"])
                hands.append(row)
            else:
                row = PenaltyEntry(game=game, position=position, offender=e["offender"], beneficiary=e["beneficiary"],
                                   points=e["points"], article=e["article"], reason=e["reason"],
                                   ruling_id=e["ruling"] if isinstance(e["ruling"], int) else None,
                                   score_a=e["score"][0], score_b=e["score"][1])
                penalties.append(row)
            game.entries.append(row)
        entries_of.append(game)
    HandEntry.objects.bulk_create(hands)
    PenaltyEntry.objects.bulk_create(penalties)
    games_of = {}
    for game in games:
        games_of.setdefault(game.match_id, []).append(game)

    versions, signatures, signed_matches = [], [], []
    for match, document in zip(matches, documents):
        if document["result"]["winner"] is None:
            continue
        issued = []
        corrections = document["corrections"]
        for number in range(1, len(corrections) + 2):
            at = datetime.fromisoformat(corrections[number - 2]["at"]) if number > 1 else (
                datetime.fromisoformat(document["corrections"][0]["at"]) - timedelta(minutes=20)
                if corrections else datetime(2026, 11, 21, 15, 0, tzinfo=BRT))
            version = SumulaVersion(match=match, number=number, reason=corrections[number - 2]["reason"] if number > 1 else "",
                                    created_by=referee, created_at=at)
            issued.append(version)
            content = build_document(match, number, corrections_of(issued), games_of.get(match.pk, []))
            version.content, version.digest = content, content["digest"]
        versions.extend(issued)
        if signed:
            last = issued[-1]
            when = last.created_at + timedelta(minutes=10)
            signatures.append(Signature(version=last, role="team0", player=match.pair_a.first_player, method="pin",
                                        digest=last.digest, signed_at=when))
            signatures.append(Signature(version=last, role="team1", player=match.pair_b.second_player, method="code",
                                        digest=last.digest, signed_at=when + timedelta(minutes=1)))
            if referee is not None:
                signatures.append(Signature(version=last, role="referee", user=referee, method="session",
                                            digest=last.digest, signed_at=when + timedelta(minutes=2)))
            if len(issued) > 1:
                before = issued[-2]
                signatures.append(Signature(version=before, role="team0", player=match.pair_a.first_player,
                                            method="pin", digest=before.digest,
                                            signed_at=before.created_at + timedelta(minutes=5)))
            signed_matches.append(match.pk)
    SumulaVersion.objects.bulk_create(versions)
    Signature.objects.bulk_create(signatures)
    Match.objects.filter(pk__in=signed_matches).update(status="signed", signed_at=dj_timezone.now())
    return sorted(matches, key=lambda m: (m.table or 0, m.pk))
