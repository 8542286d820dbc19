"""Read models: what pages show across sessions (standings, ratings, a player's
pages), computed by queries from what the write paths stored."""
