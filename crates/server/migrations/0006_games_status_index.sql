-- The games by status, without the time of their last move: a move's update of its game then changes no
-- indexed column, so PostgreSQL rewrites the row in place (a heap-only update) and touches none of the
-- table's indexes, and SQLite leaves this index alone. The list of games in play still orders them by their
-- last move, by sorting the active games.
DROP INDEX games_status;
CREATE INDEX games_status ON games (status);
