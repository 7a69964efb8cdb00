"""A game written out and read back: the game file, the link, the sizes read from outside,
judge-style reports, DATC-style case text, the ``diplomacy`` package's saved games, base64url.
Imports the game (``adjutant.game``, ``adjutant.setup``, ``adjutant.legal``, ``adjutant.seats``) and
the layers below it.
"""
