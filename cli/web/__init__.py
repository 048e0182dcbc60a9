"""The review page: what was read, shown on the photo in the browser, corrected by clicking an edge.

session.py holds the logic (the reading under review, corrections, undo, solving, pictures, saving) as plain
functions; server.py is the thin HTTP layer on 127.0.0.1; page/ is the HTML, CSS and JavaScript it serves.
"""
