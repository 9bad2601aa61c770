"""The command layer (Discord-free): playing, autocomplete, errors, permissions, the command table, turns."""
