"""The league file's format: its name and version, shared by the export and the import."""

from __future__ import annotations

# The JSON export's name and version: an import refuses any other, so a later change
# of the format can never be read as this one by mistake.
FORMAT = "scorekeeper-league"
# 2: a hand may carry "on_deal": true, and the rules are those of issue 14's presets.
VERSION = 2
# Versions an import still reads: a version-1 file's rules are read as the presets
# were before issue 14 (games.rules.rulesets.BEFORE_EXACT_TEXTS), so its rounds score
# as they were played.
READABLE = (1, 2)
