-- Migration 0014 told the kept pages (decision 0091) of every change to users, though the pages
-- show only a person's name and whether they are blocked: a password rehashed at login, a
-- language or an e-mail preference emptied every process's pages. Now only those columns, as
-- migration 0013 does for the sessions' cache. And an image's copies (decision 0093), made by a
-- job after the page that shows the image was kept, now say so too.
DROP TRIGGER users_pages ON users;
--> statement-breakpoint
CREATE TRIGGER users_pages AFTER INSERT OR DELETE OR UPDATE OF first_name, last_name, blocked ON users FOR EACH STATEMENT EXECUTE FUNCTION autohub_say_pages_changed();
--> statement-breakpoint
CREATE TRIGGER uploads_pages AFTER UPDATE OF width, height, variant_widths, sha256, thumbnail_key ON uploads FOR EACH STATEMENT EXECUTE FUNCTION autohub_say_pages_changed();
