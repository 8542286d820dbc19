"""Forms by area: sessions, rounds, rulesets (the rule options of a session or league),
leagues, accounts, standings and the league import; ``fields`` holds the fields
several of them share."""
