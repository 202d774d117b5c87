"""``python manage.py load_demo``: a demo that shows the product to a newcomer.

- users: the organizer ``organizador`` and the referee ``arbitro`` (password ``truco-demo``,
  site login at ``/entrar/``), a referee member of the organizer's club; every demo player signs with the
  PIN ``1234``;
- "Torneio de Demonstração": 8 pairs, single elimination with a third-place match, single
  games, drawn by lot with a fixed seed, the referee at every table. Quarterfinals: two
  played through their súmulas (hands entered by the referee, signed by both pairs with
  their PINs, countersigned, received by the organizer), one W.O., one in progress (a few
  hands entered); the first semifinal is ready, its pairs taken from the official results;
- "Torneio de Pontos Corridos": 6 pairs, round robin; round 1 played (signed with one-time codes)
  and received, round 2 paired: the standings and the grid have data.

Everything is written through the public services (``tournaments.services``,
``scoring.services``), as the organizer and the referee would do it on the site; only what no
service does is written directly: the two users and the players' PIN hashes (the admin's job).
Idempotent:
each step runs only when what it makes is missing and its match is still in the state the
previous step left it (a visitor's own entries are left alone), so a second run changes
nothing and says so.
"""
from __future__ import annotations

import datetime

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import Permission
from django.core.management.base import BaseCommand
from django.db import transaction
from django.urls import reverse

from events import organizations
from events.models import Organization
from scoring import services as scoring
from scoring.models import HandEntry, Match, PenaltyEntry, Signature
from tournaments import services
from tournaments.models import BracketNode, Pair, Player, Result, Round, Stage, TableAssignment, Tournament

PASSWORD = "truco-demo"
ORGANIZER_USERNAME = "organizador"
ORGANIZER_PASSWORD = PASSWORD
REFEREE_USERNAME = "arbitro"
REFEREE_PASSWORD = PASSWORD
DEMO_PIN = "1234"

TOURNAMENT_SLUG = "torneio-de-demonstracao"
TOURNAMENT_NAME = "Torneio de Demonstração"
DRAW_SEED = 2025  # the recorded lot seed of the bracket's draw
LEAGUE_SLUG = "torneio-de-pontos-corridos"
LEAGUE_NAME = "Torneio de Pontos Corridos"
LEAGUE_SEED = 7

# (pair name, (name, nickname, club), (name, nickname, club), optional substitute)
PAIRS = [
    ("Dupla do Zap", ("João Batista Ferreira", "Joãozinho", "Clube Recreativo Vila Maria"),
     ("Antônio Carlos Souza", "Toninho", "Clube Recreativo Vila Maria"),
     ("Sebastião Moreira", "Tião", "Clube Recreativo Vila Maria")),
    ("Os Manilheiros", ("Maria Aparecida Santos", "Cida", "Grêmio Esportivo Ipiranga"),
     ("Francisca Oliveira Lima", "Chica", "Grêmio Esportivo Ipiranga"), None),
    ("Copas de Ouro", ("José Raimundo Pereira", "Zé Raimundo", "Associação Atlética Mooca"),
     ("Luiz Fernando Rocha", "Nando", "Associação Atlética Mooca"), None),
    ("Espadilha Ligeira", ("Ana Paula Rodrigues", "Paulinha", "Sociedade Amigos do Bairro"),
     ("Juliana Costa Almeida", "Ju", "Sociedade Amigos do Bairro"),
     ("Rosângela Dias", "Rô", "Sociedade Amigos do Bairro")),
    ("Pica-Fumo", ("Benedito Gonçalves", "Dito", "Clube dos Aposentados de Santo André"),
     ("Raimundo Nonato Silva", "Mundico", "Clube dos Aposentados de Santo André"), None),
    ("Mão de Onze", ("Carlos Eduardo Martins", "Cadu", "Esporte Clube Lapa"),
     ("Marcos Vinícius Araújo", "Marquinhos", "Esporte Clube Lapa"), None),
    ("Truco Ladrão", ("Fernanda Ribeiro", "Nanda", "Clube Recreativo Vila Maria"),
     ("Patrícia Barbosa", "Pati", "Grêmio Esportivo Ipiranga"), None),
    ("Seis Pau", ("Severino Cavalcanti", "Biu", "Associação Atlética Mooca"),
     ("Geraldo Magela Nunes", "Gera", "Esporte Clube Lapa"),
     ("Expedito Alves", "Ditinho", "Esporte Clube Lapa")),
]

LEAGUE_PAIRS = [
    ("Casal 20", ("Wellington Soares", "Tom", "Clube Recreativo Vila Maria"),
     ("Cláudia Soares", "Claudinha", "Clube Recreativo Vila Maria"), None),
    ("Zap e Copas", ("Osvaldo Prado", "Vadinho", "Clube Recreativo Vila Maria"),
     ("Nilton Prado", "Niltinho", "Clube Recreativo Vila Maria"), None),
    ("Os Sete Belo", ("Reginaldo Costa", "Régis", "Clube Recreativo Vila Maria"),
     ("Adilson Moura", "Dil", "Clube Recreativo Vila Maria"), None),
    ("Quatro Paus", ("Terezinha Lopes", "Tê", "Clube Recreativo Vila Maria"),
     ("Lourdes Menezes", "Lurdinha", "Clube Recreativo Vila Maria"), None),
    ("Vira Virou", ("Edson Queiroz", "Edinho", "Clube Recreativo Vila Maria"),
     ("Valdir Pacheco", "Val", "Clube Recreativo Vila Maria"), None),
    ("Pé de Cana", ("Jair Fonseca", "Jajá", "Clube Recreativo Vila Maria"),
     ("Aparecido Lemos", "Cido", "Clube Recreativo Vila Maria"), None),
]

# Hands as the referee taps them: (scoring team, how the hand ended, value). Team 0 is pair A.
# "run": the other team ran from a raise and the raisers score the value before it (art. 13).
HAND = tuple[int | None, str, int]
PAIR_A_WINS: list[HAND] = [  # 12-7, closed by a mão de onze
    (0, "tricks", 1), (1, "tricks", 3), (0, "run", 1), (1, "tricks", 1),
    (0, "tricks", 3), (1, "run", 3), (0, "tricks", 6), (0, "tricks", 3),
]
PAIR_B_WINS: list[HAND] = [  # 9-12
    (1, "tricks", 1), (0, "tricks", 3), (1, "tricks", 3), (0, "run", 1), (0, "tricks", 1),
    (1, "tricks", 6), (0, "tricks", 3), (0, "run", 1), (1, "tricks", 3),
]
IN_PROGRESS: list[HAND] = [  # 7-4 so far
    (0, "tricks", 1), (1, "tricks", 3), (0, "tricks", 3), (1, "run", 1), (0, "run", 3),
]
LEAGUE_ROUND_1: list[list[HAND]] = [
    [(0, "tricks", 3), (1, "tricks", 1), (0, "tricks", 1), (1, "run", 1), (0, "tricks", 6),  # 12-5
     (1, "tricks", 3), (0, "tricks", 3)],
    [(0, "tricks", 3), (1, "tricks", 3), (0, "tricks", 6), (1, "tricks", 1), (0, "run", 1),  # 11-12: a comeback
     (1, "tricks", 6), (0, "tricks", 1), (1, "tricks", 3)],                                  # in the mão de onze
    [(1, "tricks", 1), (0, "tricks", 1), (1, "tricks", 3), (0, "tricks", 1), (1, "run", 3),  # 6-12: a mão de
     (0, "tricks", 3), (1, "tricks", 3), (1, "tricks", 1), (0, "eleven_refused", 1),          # onze refused
     (1, "tricks", 3)],
]


class Command(BaseCommand):
    help = ("Create the demo: an organizer, a referee, a bracket tournament half played and a round robin "
            "after one round (idempotent).")

    def add_arguments(self, parser):
        parser.add_argument("--url", default="http://127.0.0.1:8000",
                            help="The site's address, for the links printed (default: %(default)s).")

    def handle(self, *args, **options):
        self.done: list[str] = []
        today = datetime.date.today()
        with transaction.atomic():
            organizer = self._organizer()
            referee = self._user(REFEREE_USERNAME, REFEREE_PASSWORD, first_name="Árbitro",
                                 last_name="de Demonstração")
            # a referee of the demo's club, as create_referee makes one: the club's tables may be given to it
            organizations.enlist_referee(organizations.home_of(organizer), referee)
            shared_pin = _PinHash()
            demo = self._tournament(organizer, TOURNAMENT_SLUG, TOURNAMENT_NAME,
                                    "Clube Recreativo Vila Maria — salão de jogos, São Paulo", today)
            self._pairs(demo, organizer, PAIRS, shared_pin)
            self._bracket(demo, organizer, referee, today)
            league = self._tournament(organizer, LEAGUE_SLUG, LEAGUE_NAME,
                                      "Clube Recreativo Vila Maria — sede social, São Paulo", today)
            self._pairs(league, organizer, LEAGUE_PAIRS, shared_pin)
            self._league(league, organizer, referee, today)

        if self.done and (len(self.done) <= 5 or options["verbosity"] >= 2):
            self.stdout.write(f"load_demo: {len(self.done)} step(s) done: " + "; ".join(self.done) + ".")
        elif self.done:
            self.stdout.write(f"load_demo: {len(self.done)} step(s) done (-v 2 lists them).")
        else:
            self.stdout.write("load_demo: the demo data is already there; nothing changed.")
        self._summary(demo, league, options["url"].rstrip("/"))

    # ------------------------------------------------------------------------------- users

    def _user(self, username: str, password: str, **fields):
        user, made = get_user_model().objects.get_or_create(username=username, defaults=fields)
        if made:
            user.set_password(password)
            user.save(update_fields=["password"])
            self.done.append(f"user {username!r}")
        return user

    def _organizer(self):
        user = self._user(ORGANIZER_USERNAME, ORGANIZER_PASSWORD, first_name="Organizador",
                          last_name="de Demonstração")
        # an organizer as create_organizer makes one: it creates tournaments for its club, and is not staff
        creates = Permission.objects.filter(content_type__app_label="events", codename="add_tournament")
        user.user_permissions.add(*creates)
        if not Organization.objects.filter(members__user=user, members__role="admin").exists():
            organizations.create_organization(user, name="Clube de Demonstração")
        return user

    # -------------------------------------------------------------------- registration

    def _tournament(self, organizer, slug: str, name: str, venue: str, date: datetime.date) -> Tournament:
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            tournament = services.create_tournament(
                organizer, name=name, slug=slug, venue=venue, date=date,
                status=Tournament.Status.REGISTRATION, best_of=Tournament.BestOf.ONE,
            )
            self.done.append(f"tournament {name!r}")
        return tournament

    def _pairs(self, tournament: Tournament, organizer, pairs, shared_pin: _PinHash) -> None:
        drawn = Round.objects.filter(tournament=tournament, generated_at__isnull=False).exists()
        for pair_name, first, second, substitute in pairs:
            if drawn or Pair.objects.filter(tournament=tournament, name=pair_name).exists():
                continue
            services.register_pair(
                tournament, organizer, name=pair_name, first_player=_player(first),
                second_player=_player(second), substitute=_player(substitute) if substitute else None,
            )
            self.done.append(f"pair {pair_name!r}")
        # Signing PINs are set by the organizer in the admin (Player.set_pin, a hash only). Every demo
        # player has the same PIN, so the hash is made once: a hash costs ~0.3 s, 31 of them would not.
        without = [p for pair in Pair.objects.filter(tournament=tournament)
                   .select_related("first_player", "second_player", "substitute")
                   for p in pair.players + ([pair.substitute] if pair.substitute else []) if not p.has_pin]
        for player in without:
            player.pin_hash = shared_pin.value
            player.save(update_fields=["pin_hash"])
        if without:
            self.done.append(f"signing PIN of {len(without)} player(s) of {tournament.name!r}")

    def _before_draw(self, tournament: Tournament, organizer, referee, date: datetime.date, tables: int,
                     **stage) -> bool:
        """Format, single games, the date, the referee at every table, check-in if required.
        Returns whether the tournament is still to be drawn."""
        if Round.objects.filter(tournament=tournament, generated_at__isnull=False).exists():
            return False
        if tournament.best_of != Tournament.BestOf.ONE or tournament.date != date:
            # single games keep the demo's súmulas short to read; a demo made earlier is played now
            services.update_tournament(tournament, organizer, best_of=Tournament.BestOf.ONE, date=date)
            self.done.append(f"{tournament.name!r}: single games, {date.isoformat()}")
        if not Stage.objects.filter(tournament=tournament).exists():
            services.configure_stage(tournament, organizer, **stage)
            self.done.append(f"{tournament.name!r}: format {stage['format']}")
        for table in range(1, tables + 1):
            if not TableAssignment.objects.filter(tournament=tournament, table=table, round__isnull=True).exists():
                services.assign_referee(tournament, organizer, table=table, referee=referee)
                self.done.append(f"{tournament.name!r}: referee at table {table}")
        tournament.refresh_from_db()
        if tournament.check_in_required:
            upcoming = services.upcoming_round(tournament, organizer)
            for pair in Pair.objects.filter(tournament=tournament, status=Pair.Status.CONFIRMED).exclude(
                    check_ins__round=upcoming):
                services.check_in(upcoming, pair, organizer)
                self.done.append(f"{tournament.name!r}: check-in of {pair.name!r}")
        return True

    # ------------------------------------------------------------------------- the bracket

    def _bracket(self, tournament: Tournament, organizer, referee, date: datetime.date) -> None:
        if self._before_draw(tournament, organizer, referee, date, tables=4, format=Stage.Format.SINGLE_ELIMINATION,
                             seeding=Stage.Seeding.LOT, third_place=True):
            services.generate_first_round(tournament, organizer, seed=DRAW_SEED)
            self.done.append(f"{tournament.name!r}: bracket drawn by lot (seed {DRAW_SEED})")
        quarterfinals = _quarterfinals(tournament)
        if len(quarterfinals) != 4:
            return  # not the demo's bracket (drawn again by hand?): leave it alone
        played, also_played, walkover, in_progress = quarterfinals
        self._play(played, PAIR_A_WINS, referee, organizer, signing="pin")
        self._play(also_played, PAIR_B_WINS, referee, organizer, signing="pin")
        if walkover is not None and _untouched(walkover):
            services.record_walkover(walkover, walkover.pair_b, organizer,
                                     reason="A dupla não se apresentou à mesa no horário.")
            self.done.append(f"{tournament.name!r}: W.O. at table {walkover.table}")
        if in_progress is not None and _untouched(in_progress):
            self._hands(in_progress, IN_PROGRESS, referee)

    # ---------------------------------------------------------------------- round robin

    def _league(self, tournament: Tournament, organizer, referee, date: datetime.date) -> None:
        if self._before_draw(tournament, organizer, referee, date, tables=3, format=Stage.Format.ROUND_ROBIN,
                             seeding=Stage.Seeding.LOT):
            services.generate_first_round(tournament, organizer, seed=LEAGUE_SEED)
            self.done.append(f"{tournament.name!r}: round robin drawn by lot (seed {LEAGUE_SEED})")
        first = Round.objects.filter(tournament=tournament, number=1, generated_at__isnull=False).first()
        if first is None:
            return
        matches = services.round_matches(first)
        for match, hands in zip(matches, LEAGUE_ROUND_1):
            self._play(match, hands, referee, organizer, signing="code")
        generated = Round.objects.filter(tournament=tournament, generated_at__isnull=False).count()
        official = Result.objects.filter(match__round=first).count()
        if generated == 1 and official == len(matches) == len(LEAGUE_ROUND_1):
            rnd = services.generate_next_round(tournament, organizer)
            self.done.append(f"{tournament.name!r}: round {rnd.number} paired")

    # --------------------------------------------------------------------------- súmulas

    def _hands(self, match: Match, hands: list[HAND], referee) -> None:
        for winner, ended_by, value in hands:
            scoring.record_hand(match, {"winner": winner, "ended_by": ended_by, "value": value}, referee)
        self.done.append(f"{_label(match)}: {len(hands)} hands")

    def _play(self, match: Match | None, hands: list[HAND], referee, organizer, *, signing: str) -> None:
        """A whole match through its súmula, each step only if the one before is where the demo left it:
        the referee enters the hands, both pairs sign version 1 (PIN, or a one-time code the referee
        shows), the referee countersigns, the organizer receives it (the result is then official)."""
        if match is None:
            return
        if _untouched(match):
            self._hands(match, hands, referee)
        match.refresh_from_db()
        version = scoring.current_version(match)
        if match.winner is None or version is None or version.number != 1:
            return
        if match.status == Match.Status.OPEN:
            signed = set(version.signatures.values_list("role", flat=True))
            for team, role in ((0, "team0"), (1, "team1")):
                if role in signed:
                    continue
                pair = match.pair(team)
                player = pair.first_player if team == 0 else pair.second_player
                if signing == "pin":
                    scoring.sign(match, role, player, pin=DEMO_PIN, digest=version.digest)
                else:
                    _record, code = scoring.issue_code(match, team, referee)
                    scoring.sign(match, role, player, code=code, digest=version.digest)
                self.done.append(f"{_label(match)}: signed by {player.nickname or player.name} ({signing})")
            match.refresh_from_db()
        if match.status != Match.Status.SIGNED:
            return
        if match.referee_id and not version.signatures.filter(role=Signature.Role.REFEREE).exists():
            if match.referee_id != referee.pk:
                return  # another referee's table now: theirs to countersign
            scoring.countersign(match, referee, digest=version.digest)
            self.done.append(f"{_label(match)}: countersigned")
        scoring.mark_received(match, organizer)
        self.done.append(f"{_label(match)}: received, result official")

    # ---------------------------------------------------------------------------- output

    def _summary(self, demo: Tournament, league: Tournament, base: str) -> None:
        links = [
            ("home", reverse("tournaments:home")),
            ("tournament", demo.get_absolute_url()),
            ("its bracket", reverse("tournaments:bracket", args=[demo.slug])),
            ("projector (1920×1080)", reverse("tournaments:projector", args=[demo.slug])),
        ]
        quarterfinals = _quarterfinals(demo)
        if len(quarterfinals) == 4:
            played, _also, _walkover, in_progress = quarterfinals
            if in_progress is not None:
                links.append(("match in progress", reverse("scoring:match", args=[in_progress.pk])
                              + "   (log in as the referee)"))
            version = scoring.current_version(played) if played is not None else None
            if version is not None and played.status == Match.Status.RECEIVED:
                links.append(("a received súmula", reverse("scoring:verify", args=[version.digest])))
        links += [
            ("organizer's panel", reverse("tournaments:dashboard", args=[demo.slug])),
            ("round robin standings", reverse("tournaments:standings", args=[league.slug])),
            ("round robin grid", reverse("tournaments:grid", args=[league.slug])),
        ]
        lines = ["", "Demo — visit:"]
        lines += [f"  {label:<22} {base}{path}" for label, path in links]
        lines += [
            f"Logins (site login at {base}{reverse('login')}):",
            f"  organizer  {ORGANIZER_USERNAME} / {ORGANIZER_PASSWORD}   (also the admin at {base}/admin/)",
            f"  referee    {REFEREE_USERNAME} / {REFEREE_PASSWORD}",
            f"Players' signing PIN: {DEMO_PIN} (every demo player)",
        ]
        self.stdout.write("\n".join(lines))


class _PinHash:
    """The demo PIN's hash, made on first use only (a second run needs none)."""

    _value: str | None = None

    @property
    def value(self) -> str:
        if self._value is None:
            self._value = make_password(DEMO_PIN)
        return self._value


def _player(spec: tuple[str, str, str]) -> Player | dict:
    """An existing player of that name (kept, with their PIN), else a new one for ``register_pair``."""
    name, nickname, club = spec
    existing = Player.objects.filter(name=name).order_by("pk").first()
    return existing or {"name": name, "nickname": nickname, "club": club}


def _quarterfinals(tournament: Tournament) -> list[Match | None]:
    """The first bracket round's matches in bracket order (None for a bracket match without one)."""
    stage = Stage.objects.filter(tournament=tournament, bracket_first_round__isnull=False).order_by("-position").first()
    if stage is None or stage.bracket_first_round is None:
        return []
    nodes = (BracketNode.objects.filter(stage=stage, section=BracketNode.Section.WINNERS, bracket_round=1)
             .select_related("match__pair_a__first_player", "match__pair_b__second_player").order_by("position"))
    return [node.match for node in nodes]


def _untouched(match: Match) -> bool:
    """Open, nothing entered, no result: what the draw left."""
    return (match.status == Match.Status.OPEN and match.winner is None
            and not Result.objects.filter(match=match).exists()
            and not HandEntry.objects.filter(game__match=match).exists()
            and not PenaltyEntry.objects.filter(game__match=match).exists())


def _label(match: Match) -> str:
    return f"{match.tournament.name!r} table {match.table} ({match.pair_a.name} v {match.pair_b.name})"
