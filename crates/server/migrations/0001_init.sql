-- gridplay's schema. It is written once for both backends (SQLite and PostgreSQL): identifiers are text chosen by
-- the server, times are Unix milliseconds in BIGINT, and integers are BIGINT so that both drivers decode them alike.

CREATE TABLE users (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    -- The name in lower case: names are unique without regard to case.
    name_key TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id),
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);

-- A game's players are users or engine levels, one of the two per side. Its moves and the players' decisions
-- are the rows of `actions`; `version` is their count, and the game's state is their replay.
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    spec TEXT NOT NULL,
    game TEXT NOT NULL,
    first_user TEXT REFERENCES users (id),
    second_user TEXT REFERENCES users (id),
    first_level BIGINT,
    second_level BIGINT,
    status TEXT NOT NULL,
    -- Whose turn it is (`first` or `second`), NULL once the game is over.
    turn TEXT,
    winner TEXT,
    termination TEXT,
    version BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX games_first_user ON games (first_user, status);
CREATE INDEX games_second_user ON games (second_user, status);
CREATE INDEX games_status ON games (status, updated_at);

CREATE TABLE actions (
    game_id TEXT NOT NULL REFERENCES games (id),
    seq BIGINT NOT NULL,
    side TEXT NOT NULL,
    kind TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE challenges (
    id TEXT PRIMARY KEY,
    creator TEXT NOT NULL REFERENCES users (id),
    target TEXT REFERENCES users (id),
    spec TEXT NOT NULL,
    color TEXT NOT NULL,
    status TEXT NOT NULL,
    game_id TEXT,
    created_at BIGINT NOT NULL
);
CREATE INDEX challenges_status ON challenges (status, created_at);
