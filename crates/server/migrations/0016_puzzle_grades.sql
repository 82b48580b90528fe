-- Puzzles accept every right answer: each puzzle keeps every legal move of each of the solver's turns,
-- graded by its proof (`gridplay_engine::puzzles::Step`, written `MOVE=VALUE`, an accepted move marked `*`,
-- the steps separated by ` / `). A puzzle no longer offered (a shipped one dropped when the set was proved
-- again, or one stored before moves were graded) is retired: its tries stay in the players' histories. The
-- server retires them when it stores its shipped set (`Db::store_shipped_set`), so that this migration only
-- adds, as a build before needs.
ALTER TABLE puzzles ADD COLUMN grades TEXT NOT NULL DEFAULT '';
ALTER TABLE puzzles ADD COLUMN retired BIGINT NOT NULL DEFAULT 0;
-- The shipped sets stored, by the hash of their text: a server's start stores a set once.
CREATE TABLE shipped_puzzle_sets (
    hash TEXT PRIMARY KEY,
    stored_at BIGINT NOT NULL
);
