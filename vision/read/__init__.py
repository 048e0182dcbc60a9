"""Reading the halves: each edge band white-balanced and described (features), then read as signed motif numbers,
against a template set (classify, templates, learn) or, for a puzzle never seen, from the photo alone (selflabel);
what is read on a tile whose outline lies on no clear edge is doubted (doubt)."""
