"""The writes of ``people``, by concern: ``players`` (creating one, with their club), ``clubs`` (clubs
and memberships), ``merges`` (duplicates joined and split again), ``personal_data`` (LGPD: the
player's link, export and erasure)."""
