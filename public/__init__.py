"""The public pages of a tournament, kept live: what anyone reads without an account (docs/architecture.md)."""
