"""The Discord front end against the loopback stand-in (tests/discord_standin)."""
