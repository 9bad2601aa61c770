"""The Discord front end: the client (client), the cog with its slash declarations (cog,
slash_game, slash_actions, io), buttons and menus (menus), posting replies (posting) and
registering the commands (command_sync).
"""
