"""The map: hexes and what lies on them (board), tile shapes parsed from the 18xx.games DSL
(tiles), which tile may replace which (upgrades), hex coordinates (hexgrid).
"""
