"""The lesson's Python side, installed in the browser as the `tutor` package (this folder, file for file)."""
