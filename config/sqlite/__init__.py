"""The embedded default's database backend (``ENGINE = "config.sqlite"``): see ``config/sqlite/base.py``."""
