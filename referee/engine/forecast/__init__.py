"""Forecasts of a game and a match in play, computed exactly over the game's score states (pure: no Django).

* :mod:`.chain`: one game to 12 as a Markov chain over its score states (0-0 to 11-11, the mão de
  onze and the mão de ferro as the engine's :func:`~referee.engine.game.hand_start` makes them, art. 18):
  the chance that team 0 wins the game, the hands to its end (mean, variance, distribution);
* :mod:`.match`: best of N games from the games won, the minutes to the end with an 80 % interval from a
  pace (minutes per hand), and the risk of the time limit.

docs/predictions.md states the model, its assumptions and its measured accuracy.
"""
from .chain import HandModel, game_solution, hand_probability, hands_distribution
from .match import Forecast, Pace, forecast, match_win_probability

__all__ = ["Forecast", "HandModel", "Pace", "forecast", "game_solution", "hand_probability", "hands_distribution",
           "match_win_probability"]
