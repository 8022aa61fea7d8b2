"""Legatus rules engine: pure Python, no I/O, no hardware, no clock, no global random.

Every game keeps its state as plain JSON-serialisable data with its random generator inside
(``state["rng"]``), so a session is a replay of ``(setup, seed, actions)``.
"""
