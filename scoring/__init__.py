"""Scoring (layer 2 of 4, docs/architecture.md: may import config and referee.engine, never tournaments
or referee): matches, games, hands as recorded, the running score, súmulas and their PDFs."""
