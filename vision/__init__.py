"""Photo → tiles with signed edges. The stages follow the data: `load` (any photo to upright RGB), `find/` (where
the tiles are), `rectify` (each tile cut out square), `read/` (each edge half read as a signed motif number),
`render` (pictures for people); `pipeline` runs them one after another."""
