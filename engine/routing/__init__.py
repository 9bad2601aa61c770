"""Routes: whether a route is legal (check) and the exact best routes of a corporation (router,
over the stop graph of graph; long routes and 1833NE route extensions in long and extension).
"""
