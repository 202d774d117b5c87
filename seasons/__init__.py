"""Seasons: circuits (a season's tournaments and their ranking), players' ratings and a tournament's
categories, what carries over from one tournament to the next. Above ``tournaments``, which tells it
what happened (``after_results.register_follower``, ``services.season_hooks``); docs/circuits.md,
docs/ratings.md, docs/architecture.md."""
