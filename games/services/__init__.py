"""The scorekeeper's use cases: where the database meets the rules service, by area.

Views parse a request and call one function here; these functions load models, ask
`games.rules` for every figure and write inside `transaction.atomic()`. Nothing here
adds up points itself: running totals are replayed from the stored round scores.

- ``scoreboard``: a session's score table (read as one snapshot);
- ``results``: the figures derived from the rounds, written by one function;
- ``rounds``: checking, saving, editing and deleting a round, and its history;
- ``sessions``: starting a session and managing it (stakes, end, rejoins, share link);
- ``table``: table mode (seats taken by phones, hands in progress, the scorer's save);
- ``standing_months``: the standings' monthly figures per league, game and month;
- ``rulesets``: which ruleset a session or league plays under;
- ``money``: settlement and a pool's pot;
- ``leagues``, ``ratings``: a club's leagues, members, house rules and ratings;
- ``errors``: what a write refuses when the table moved on.
"""
