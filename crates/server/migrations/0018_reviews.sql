-- The engine-use review (docs/web.md, "Engine-use review"): each side's figures in each finished game between
-- two people, from the engine's analysis of the game; and which games the reviewer has taken.
CREATE TABLE reviews (
    game_id TEXT NOT NULL REFERENCES games (id),
    -- `first` or `second`.
    side TEXT NOT NULL,
    user_id TEXT NOT NULL REFERENCES users (id),
    -- The game's registry name.
    game TEXT NOT NULL,
    rated BIGINT NOT NULL,
    finished_at BIGINT NOT NULL,
    -- In percent.
    accuracy DOUBLE PRECISION NOT NULL,
    -- Moves neither from the opening book nor forced, and of those the engine's best.
    counted BIGINT NOT NULL,
    agreed BIGINT NOT NULL,
    inaccuracies BIGINT NOT NULL,
    mistakes BIGINT NOT NULL,
    blunders BIGINT NOT NULL,
    -- The side's moves, and the median and interquartile range of their times in ms (NULL: fewer than two).
    moves BIGINT NOT NULL,
    move_ms_median BIGINT,
    move_ms_iqr BIGINT,
    PRIMARY KEY (game_id, side)
);
CREATE INDEX reviews_user ON reviews (user_id, finished_at);

-- A finished game the reviewer took at `claimed_at` (a claim older than some minutes is taken again: its
-- server stopped); `done` once its figures are stored or it has none.
CREATE TABLE review_jobs (
    game_id TEXT PRIMARY KEY REFERENCES games (id),
    claimed_at BIGINT NOT NULL,
    done BIGINT NOT NULL DEFAULT 0
);
