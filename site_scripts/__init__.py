"""Build-time and browser-side scripts of the lesson site (a package so tests can import the figure models)."""
