"""What a picture of a phase shows (the scene), the size of the pieces, and the one
drawing of a position as SVG. Imports ``adjutant.formats`` and the layers below it.
"""
