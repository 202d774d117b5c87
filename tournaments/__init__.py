"""Tournaments (layer 3 of 4, docs/architecture.md: may import scoring, config and the pure packages):
players, pairs, registration, formats and pairings, tables, rounds, results, standings."""
