-- Time controls, rated games, ratings and tournaments.

-- A game's time control: a live clock (initial time and increment, in ms), days per move (correspondence), or
-- neither (untimed, only against the engine). `rated` is 0 or 1. Tournament games name their tournament and round.
ALTER TABLE games ADD COLUMN rated BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN clock_initial BIGINT;
ALTER TABLE games ADD COLUMN clock_increment BIGINT;
ALTER TABLE games ADD COLUMN days_per_move BIGINT;
ALTER TABLE games ADD COLUMN tournament_id TEXT;
ALTER TABLE games ADD COLUMN round BIGINT;
CREATE INDEX games_tournament ON games (tournament_id, round);

-- The mover's time left after a move, in ms (live clocks only): a game's clocks are rebuilt from its actions.
ALTER TABLE actions ADD COLUMN clock BIGINT;

ALTER TABLE challenges ADD COLUMN rated BIGINT NOT NULL DEFAULT 0;
ALTER TABLE challenges ADD COLUMN clock_initial BIGINT;
ALTER TABLE challenges ADD COLUMN clock_increment BIGINT;
ALTER TABLE challenges ADD COLUMN days_per_move BIGINT;

-- A Glicko-2 rating per player and game (the game's name, not its spec).
CREATE TABLE ratings (
    user_id TEXT NOT NULL REFERENCES users (id),
    game TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, game)
);
CREATE INDEX ratings_board ON ratings (game, rating);

-- Every rating after a rated game, for the profile's chart.
CREATE TABLE rating_history (
    user_id TEXT NOT NULL REFERENCES users (id),
    game TEXT NOT NULL,
    game_id TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (user_id, game_id)
);
CREATE INDEX rating_history_user ON rating_history (user_id, game, at);

-- kind: swiss or round-robin. status: open (players join), running, finished. `round` is the current round.
CREATE TABLE tournaments (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    spec TEXT NOT NULL,
    game TEXT NOT NULL,
    kind TEXT NOT NULL,
    rounds BIGINT NOT NULL,
    rated BIGINT NOT NULL,
    clock_initial BIGINT,
    clock_increment BIGINT,
    days_per_move BIGINT,
    creator TEXT NOT NULL REFERENCES users (id),
    status TEXT NOT NULL,
    round BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX tournaments_status ON tournaments (status, created_at);

CREATE TABLE tournament_players (
    tournament_id TEXT NOT NULL REFERENCES tournaments (id),
    user_id TEXT NOT NULL REFERENCES users (id),
    joined_at BIGINT NOT NULL,
    -- The round after which the player withdrew (0: before the start), or NULL.
    withdrawn BIGINT,
    PRIMARY KEY (tournament_id, user_id)
);

-- Points without a game, in half points: a bye (no opponent this round) or a forfeit (the opponent withdrew).
CREATE TABLE tournament_byes (
    tournament_id TEXT NOT NULL REFERENCES tournaments (id),
    round BIGINT NOT NULL,
    user_id TEXT NOT NULL REFERENCES users (id),
    kind TEXT NOT NULL,
    half_points BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, round, user_id)
);
