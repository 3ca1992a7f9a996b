"""The game: Ruleset (load_ruleset: read, check, compile), Game and its parts (decisions, views,
autoplay, positions, records and saves)."""
