"""The handlers of the /game commands and their relatives, one module per subject: games opened,
started and ended (lifecycle), seats (seating), undo, repair, records, rules values, reminders,
access, ending a turn (/done) and /moves.
"""
