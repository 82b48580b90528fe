-- A challenge may require a good record of games left from the player who accepts it, and a tournament from
-- each player who joins it: no more than one in ten of the finished games between people left (docs/web.md,
-- "A player who leaves").
ALTER TABLE challenges ADD COLUMN good_record BIGINT NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN good_record BIGINT NOT NULL DEFAULT 0;
