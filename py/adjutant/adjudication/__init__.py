"""Orders and their adjudication, phase by phase: the parser, legality, the movement
resolver (DATC section 5), retreats and adjustments, and a phase's record. Imports only
``adjutant.map`` below it.
"""
