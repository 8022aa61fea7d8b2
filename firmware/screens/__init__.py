"""Screens: each renders a 128×64 1-bit PIL image from plain data and handles logical keys."""
