"""Monte Carlo balance-analysis toolkit for the Looper, Werewolf and 3d6 TRPG games."""

__version__ = "0.1.0"
