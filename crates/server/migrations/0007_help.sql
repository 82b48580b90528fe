-- Engine help between people: a casual challenge may allow hints, and the game made from it keeps that
-- choice, which both players agreed to (one made the challenge, the other accepted it).
ALTER TABLE challenges ADD COLUMN help BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN help BIGINT NOT NULL DEFAULT 0;
