"""Refereeing, Django side (layer 4 of 4, the top, docs/architecture.md: may import every layer below):
hand validation, claims, rulings, appeals. The rules live in referee.engine (pure Python: no Django,
no app)."""
