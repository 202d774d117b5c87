"""``python manage.py load_demo``: a demo organizer and a tournament with 8 pairs.

Idempotent: every object is looked up by a natural key and created only when missing,
so running it again changes nothing.
"""
from __future__ import annotations

import datetime

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management.base import BaseCommand
from django.db import transaction

from tournaments.models import Pair, Player, Tournament

ORGANIZER_USERNAME = "organizador"
ORGANIZER_PASSWORD = "truco-demo"
TOURNAMENT_SLUG = "torneio-de-demonstracao"
TOURNAMENT_NAME = "Torneio de Demonstração"

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


class Command(BaseCommand):
    help = "Create the demo organizer and a demo tournament with 8 pairs (idempotent)."

    @transaction.atomic
    def handle(self, *args, **options):
        created: list[str] = []
        organizer = self._organizer(created)

        tournament, made = Tournament.objects.get_or_create(
            slug=TOURNAMENT_SLUG,
            defaults={
                "name": TOURNAMENT_NAME,
                "venue": "Clube Recreativo Vila Maria — salão de jogos, São Paulo",
                "date": datetime.date.today() + datetime.timedelta(days=14),
                "status": Tournament.Status.REGISTRATION,
                "organizer": organizer,
                "best_of": Tournament.BestOf.THREE,
            },
        )
        if made:
            created.append(f"tournament {tournament.name!r}")

        for pair_name, first, second, substitute in PAIRS:
            if Pair.objects.filter(tournament=tournament, name=pair_name).exists():
                continue
            Pair.objects.create(
                tournament=tournament,
                name=pair_name,
                first_player=self._player(*first),
                second_player=self._player(*second),
                substitute=self._player(*substitute) if substitute else None,
            )
            created.append(f"pair {pair_name!r}")

        if created:
            self.stdout.write(f"load_demo: created {len(created)} object(s): " + ", ".join(created))
        else:
            self.stdout.write("load_demo: the demo data is already there; nothing changed.")
        self.stdout.write(
            f"Demo tournament: {tournament.name} — {tournament.get_absolute_url()}\n"
            f"Demo organizer login (admin at /admin/): {ORGANIZER_USERNAME} / {ORGANIZER_PASSWORD}"
        )

    def _organizer(self, created: list[str]):
        User = get_user_model()
        user, made = User.objects.get_or_create(
            username=ORGANIZER_USERNAME,
            defaults={"first_name": "Organizador", "last_name": "de Demonstração", "is_staff": True},
        )
        if made:
            user.set_password(ORGANIZER_PASSWORD)
            user.save(update_fields=["password"])
            created.append(f"user {ORGANIZER_USERNAME!r}")
        # The organizer manages everything in the tournaments app through the admin.
        missing = Permission.objects.filter(content_type__app_label="tournaments").exclude(user=user)
        if missing.exists():
            user.user_permissions.add(*missing)
        return user

    def _player(self, name: str, nickname: str, club: str) -> Player:
        existing = Player.objects.filter(name=name).order_by("pk").first()
        return existing or Player.objects.create(name=name, nickname=nickname, club=club)
