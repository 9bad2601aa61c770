"""Pure drawing: engine state in, PNG bytes out."""
