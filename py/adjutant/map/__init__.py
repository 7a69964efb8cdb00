"""A variant's map and data: provinces, coasts and adjacencies, rule options, the words of
phases and units, and the routes along the map (convoys, Coast-Running's runs). Imports nothing of
the engine but ``adjutant.errors``.
"""
