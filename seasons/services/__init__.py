"""The season's services by concern: ``circuits`` (stages, their placings, the ranking), ``ratings``
(the history kept in step with the official results, the method) and ``flights`` (categories)."""
