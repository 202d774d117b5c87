"""Scoring: matches, games, hands as recorded, the running score, súmulas and their PDFs."""
