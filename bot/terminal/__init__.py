"""The terminal front end: the text form of commands (textcmd) and the local session (local).
"""
