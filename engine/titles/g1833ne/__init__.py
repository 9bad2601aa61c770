"""1833NE: data, game class (1846-style finance), steps, routes, takeover and provisional values."""
