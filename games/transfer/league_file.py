"""The league file's format: its name and version, shared by the export and the import."""

from __future__ import annotations

# The JSON export's name and version: an import refuses any other, so a later change
# of the format can never be read as this one by mistake.
FORMAT = "scorekeeper-league"
VERSION = 1
