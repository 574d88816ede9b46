"""Pillow renderers: pure functions from engine views to image bytes. No Discord, no SQL."""
