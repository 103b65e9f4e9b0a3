"""The MkDocs build hooks (listed by path in mkdocs.yml); a package so tests can import them."""
