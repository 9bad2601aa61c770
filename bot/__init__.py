"""Discord and local front ends, persistence, scheduling."""
