"""A module with no app under a default name."""

handler = None
