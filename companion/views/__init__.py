"""Renderers of the game in progress: the web face (``companion.views.web``) and friends."""
