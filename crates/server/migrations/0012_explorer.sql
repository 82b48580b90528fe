-- The opening explorer: for each position of the first plies of the site's finished games between two
-- accounts, each move played from it, counted as the position it reaches, with the games' results and the
-- players' mean rating. Positions are keyed by a 64-bit FNV-1a hash of their explorer key (db/explorer.rs).
CREATE TABLE explorer (
    spec TEXT NOT NULL,
    position BIGINT NOT NULL,
    reached BIGINT NOT NULL,
    games BIGINT NOT NULL,
    first_wins BIGINT NOT NULL,
    second_wins BIGINT NOT NULL,
    draws BIGINT NOT NULL,
    rating_sum DOUBLE PRECISION NOT NULL,
    rated BIGINT NOT NULL,
    PRIMARY KEY (spec, position, reached)
);
