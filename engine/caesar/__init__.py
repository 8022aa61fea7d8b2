"""Caesar! Seize Rome in 20 Minutes (Paolo Mori): rules engine, Auto-Crassus and console.

Modules: ``board`` (topology), ``tokens`` (influence tokens), ``tiles`` (command tiles),
``model`` (the game as small integers, JSON round trip), ``rules`` (placement, closure, markers,
bonuses), ``autocrassus`` (S-9..S-18 decisions), ``flow`` (turns, setup, end), ``position``
(the console's position schema), ``view`` and ``console``. Rule IDs are those of the digest
(C-1..C-21, S-1..S-21).
"""
