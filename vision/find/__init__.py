"""Finding the tiles: masks of where tiles may be, rough outlines, each side put on its edge, and how much to trust
each outline (doubt). Photo in, one quad per tile out."""
