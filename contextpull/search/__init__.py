"""Search's two rankings (store-format.txt "Search"): the lexical passes over ``sections_fts``
(``ranking``) and hybrid search's dense ranking with its reciprocal rank fusion (``dense``).
Reader core, standard library only (numpy when present): ``contextpull.ops`` runs them, and the
writer shares ``dense``'s vector encoding so stores and readers agree on it.
"""
