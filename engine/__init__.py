"""Pure 18xx rules engine: no Discord, no Pillow, no I/O."""
