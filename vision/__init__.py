"""Photo → tiles with signed edges: load, segment, rectify, read each edge half, render."""
