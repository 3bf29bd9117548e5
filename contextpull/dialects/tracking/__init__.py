"""What a build records of each page's reading (issue 26): the files and site-wide entries it
depended on, in its fingerprint (``fingerprint``) and the store's ``meta.dialect_reads``
(``reads``), and what became of each construct (``report``)."""
