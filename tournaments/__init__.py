"""Tournaments: players, pairs, registration, formats and pairings, tables, rounds, standings."""
