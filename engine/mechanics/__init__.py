"""The general 18xx rules, one mixin of :class:`engine.game.Game` per mechanic: the pieces and
money (state), shares, phases, track, stations, revenue, train buying, private companies, and
processing an action with rollback.
"""
