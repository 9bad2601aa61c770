"""The computer player: its decisions in the engine and its seat in the bot."""
