-- Quotas, stored analyses, hashed session tokens and fair clocks across restarts.

-- The engine's analysis of a finished game (JSON), computed once.
CREATE TABLE analyses (
    game_id TEXT PRIMARY KEY REFERENCES games (id),
    body TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

-- A session's id is now the SHA-256 of its token (hex): a copy of the table hands over no session. The sessions
-- stored before held the tokens themselves; they end, and their users sign in again.
DELETE FROM sessions;
CREATE INDEX sessions_expiry ON sessions (expires_at);

-- Quotas count a user's open challenges and the tournaments made in the last day.
CREATE INDEX challenges_creator ON challenges (creator, status);
CREATE INDEX tournaments_creator ON tournaments (creator, created_at);

-- Each running server's last sign of life, and the spans when none was running: time in such a span is
-- charged to no clock.
CREATE TABLE heartbeats (
    process TEXT PRIMARY KEY,
    at BIGINT NOT NULL
);
CREATE TABLE downtimes (
    from_ms BIGINT NOT NULL,
    to_ms BIGINT NOT NULL
);
CREATE INDEX downtimes_to ON downtimes (to_ms);
