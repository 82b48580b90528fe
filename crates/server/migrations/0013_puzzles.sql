-- Puzzles: positions of real games where one move is clearly best (`gridplay puzzles mine`), the set the
-- server ships and those mined from the site's finished games, each rated by Glicko-2 as players solve or
-- fail it; each player's puzzle rating, streak and history per game; the finished games already mined.
CREATE TABLE puzzles (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    spec TEXT NOT NULL,
    position TEXT NOT NULL,
    solution TEXT NOT NULL,
    proof TEXT NOT NULL,
    source TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    plays BIGINT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX puzzles_position ON puzzles (spec, position);
CREATE INDEX puzzles_by_rating ON puzzles (game, rating);
CREATE TABLE puzzle_players (
    user_id TEXT NOT NULL REFERENCES users (id),
    game TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    attempts BIGINT NOT NULL,
    solved BIGINT NOT NULL,
    streak BIGINT NOT NULL,
    best_streak BIGINT NOT NULL,
    PRIMARY KEY (user_id, game)
);
CREATE TABLE puzzle_attempts (
    user_id TEXT NOT NULL REFERENCES users (id),
    puzzle_id TEXT NOT NULL REFERENCES puzzles (id),
    game TEXT NOT NULL,
    at BIGINT NOT NULL,
    solved BIGINT NOT NULL,
    rating_after DOUBLE PRECISION NOT NULL,
    puzzle_rating DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (user_id, puzzle_id)
);
CREATE INDEX puzzle_attempts_by_user ON puzzle_attempts (user_id, game, at);
CREATE TABLE puzzle_mined (
    game_id TEXT PRIMARY KEY,
    at BIGINT NOT NULL
);
