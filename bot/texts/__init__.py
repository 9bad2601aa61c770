"""A game in words: the story of each move (story), who acts next (turns), the status text and
buttons (game), tile lays in words (lay) and the end-of-game summary (summary).
"""
