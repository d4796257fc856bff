-- No process keeps whole pages any more (issue 31, docs/decisions/0118): a CDN or reverse proxy in
-- front caches the anonymous pages by their Cache-Control, and nothing needs to hear that a table
-- the pages show changed. The triggers of migrations 0014, 0016 and 0029 go with their functions.
DROP FUNCTION IF EXISTS autohub_say_pages_changed() CASCADE;
--> statement-breakpoint
DROP FUNCTION IF EXISTS autohub_say_personal_pages_changed() CASCADE;
