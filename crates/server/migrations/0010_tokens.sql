-- Personal API tokens: a program acts as its user with one, within the token's scopes. Only the token's
-- SHA-256 is kept; the token itself is shown once, when it is made.
CREATE TABLE api_tokens (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    name TEXT NOT NULL,
    scopes TEXT NOT NULL,
    hash TEXT NOT NULL UNIQUE,
    created_at BIGINT NOT NULL,
    last_used_at BIGINT NOT NULL DEFAULT 0,
    revoked_at BIGINT
);
CREATE INDEX api_tokens_user ON api_tokens (user_id, created_at);
