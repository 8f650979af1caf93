"""Shared core: seeding, RNG kernels, runner, statistics, configuration and output."""
