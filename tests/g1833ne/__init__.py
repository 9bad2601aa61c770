"""1833NE: its rules from the summary, the takeover game, and its commands in the bot."""
