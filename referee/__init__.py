"""Refereeing, Django side: hand validation, claims, rulings, appeals. The rules live in referee.engine."""
