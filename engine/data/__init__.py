"""Static data shared by titles (tile catalogue)."""
