"""Routes: whether a route is legal (check) and the exact best routes of a corporation (router,
over the stop graph of graph: every route listed in listing, combined in assign; long routes,
two unlimited trains and 1833NE route extensions in long, pair and extension; the answers kept
per position and network in cache; the search's budget in clock).
"""
