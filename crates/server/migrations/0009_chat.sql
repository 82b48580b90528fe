-- Game chat: each line said in a game's players' or spectators' room, kept with the game; a report may name
-- the chat line it is about.
CREATE TABLE chat_lines (
    id TEXT PRIMARY KEY,
    game_id TEXT NOT NULL,
    room TEXT NOT NULL,
    user_id TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX chat_lines_game ON chat_lines (game_id, created_at);
CREATE INDEX chat_lines_user ON chat_lines (user_id, created_at);

ALTER TABLE reports ADD COLUMN chat_line TEXT;
