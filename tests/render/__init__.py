"""Pictures: the map and market against reference snapshots."""
