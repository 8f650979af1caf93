"""Race: two players take turns rolling one die or two towards a target total.

The worked example of a game plug-in for sim-balance (docs/adding-a-game.md): installed
with ``pip install ./examples/race``, it registers itself in the ``sim.games`` entry-point
group and gets ``sim race run | strategies | exact``, sweeps, balance and reports."""
__version__ = "0.1.0"
