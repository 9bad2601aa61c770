"""Rounds and their steps: the auction and stock rounds (stock), the operating round and its steps
(operating, special_steps), and the order of rounds and the game's end (flow, a Game mixin).
"""
