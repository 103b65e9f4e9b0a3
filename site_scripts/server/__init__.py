"""The classroom server (serve.py), also shipped at the root of the classroom zip."""
