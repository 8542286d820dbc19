"""The league file's format: its name and version, shared by the export and the import."""

from __future__ import annotations

# The JSON export's name and version: an import refuses any other, so a later change
# of the format can never be read as this one by mistake.
FORMAT = "scorekeeper-league"
# 2: a hand may carry "on_deal": true, and the rules are those of issue 14's presets.
# 3: the league's "claims" ({"player", "user"}: who said "this is me" of which
# player) and each session's "rematch_of" (the number, from 1, of the session in
# this file's "sessions" it is the rematch of, or null). A player is its name alone:
# a player's "user" of earlier files is read as that member's claim.
VERSION = 3
# Versions an import still reads: a version-1 file's rules are read as the presets
# were before issue 14 (games.rules.rulesets.BEFORE_EXACT_TEXTS), so its rounds score
# as they were played; a file before version 3 has no claims and no rematches.
READABLE = (1, 2, 3)
# The first version whose rules are issue 14's presets: a file before it is read with
# the presets of its day.
EXACT_TEXTS = 2
