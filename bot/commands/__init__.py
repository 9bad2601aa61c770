"""The command set: the one command table (:mod:`.table`), each command's usage and help
(:mod:`.usage`), autocomplete (:mod:`.complete`), input limits (:mod:`.limits`) and the
Discord-free command layer that runs a command over the store (:mod:`.layer`)."""
