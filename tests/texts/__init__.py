"""The game in words: the story of each move, skipped steps, status and summary texts."""
