"""The map picture (:func:`render.map.image.render_map`), drawn in passes: ``layout`` places the
hexes and their contents, ``canvas`` holds the picture being drawn, ``track``, ``stations``,
``labels`` and ``routes`` paint onto it, ``state`` reads what the map shows from the game.
"""
