"""Pluggable strategies, one subpackage per game."""
