"""Finding the tiles: masks of where tiles may be, rough outlines, each side put on its edge. Photo in, one quad
per tile out."""
