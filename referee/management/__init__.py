"""Management commands of the referee app (see ``commands/``)."""
