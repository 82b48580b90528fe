-- Games imported from a file (status `imported`) keep the players' names the file gives; they have no users.
ALTER TABLE games ADD COLUMN first_label TEXT;
ALTER TABLE games ADD COLUMN second_label TEXT;
