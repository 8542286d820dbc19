"""Forms by area: sessions, rounds, rulesets (the rule options of a session or league),
leagues, accounts, standings, the league import, table mode, and the admin's checks
(a ruleset, a round's hands) and widgets; ``fields`` holds the fields several of them
share."""
