"""scorekeeper: keeps score for physical games of 21-card and 13-card rummy."""

# The one place the version is written: pyproject.toml reads it, the page footer and
# /healthz show it, and CHANGELOG.md's newest entry names it.
__version__ = "1.0.0"
