"""The scorekeeper's use cases: where the database meets the rules service, by area.

Views parse a request and call one function here; these functions load models, ask
`games.rules` for every figure and write inside `transaction.atomic()`. Nothing here
adds up points itself: running totals are replayed from the stored round scores.

- ``scoreboard``: a session's score table (read as one snapshot);
- ``results``: the figures derived from the rounds, written by one function;
- ``round_entries``, ``round_checks``: which round a form is for, and checking it as
  it is typed (``round_messages``: what the checks and saves say in the app's words);
- ``round_saves``: saving a new round or an edit, deleting one, the table after it;
- ``round_audit``, ``round_history``: what each change keeps, and the history page;
- ``round_rescores``: a round's hands changed in the admin, rescored and recorded;
- ``sessions``: starting a session and managing it (stakes, end, rejoins, joins and
  leaves, share link); ``seat_changes``: a join or leave taken back, a name corrected;
- ``table``: table mode (seats taken by phones, hands in progress, the scorer's save);
- ``standing_months``: the standings' monthly figures per league, game and month;
- ``rulesets``: which ruleset a session or league plays under;
- ``money``: settlement and a pool's pot;
- ``leagues``, ``ratings``: a club's leagues, members, house rules and ratings;
- ``errors``: what a write refuses when the table moved on.
"""
