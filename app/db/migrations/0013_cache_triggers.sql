-- Per-user caches (issue 18, docs/decisions/0089): the notification poll and the token → user
-- lookup are answered from memory until the database says a user's rows changed. These triggers
-- say so on the cache bus's channel, from every writer (the portal, a script, psql), at commit:
-- 'notifications:<user id>' when a user's notifications change, 'user:<user id>' when what a
-- session shows of its user changes (a session ended, the account blocked, renamed or deleted, a
-- workshop named). Statement-level, so a bulk write says each user once; updates of users and
-- workshops say only what a session shows (a rating recomputed for every workshop says nothing).
CREATE FUNCTION autohub_say_users_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	changed uuid;
BEGIN
	IF TG_OP IN ('INSERT', 'UPDATE') THEN
		FOR changed IN EXECUTE format('SELECT DISTINCT %I FROM new_rows', TG_ARGV[1]) LOOP
			PERFORM pg_notify('autohub_cache', TG_ARGV[0] || ':' || changed);
		END LOOP;
	END IF;
	IF TG_OP IN ('DELETE', 'UPDATE') THEN
		FOR changed IN EXECUTE format('SELECT DISTINCT %I FROM old_rows', TG_ARGV[1]) LOOP
			PERFORM pg_notify('autohub_cache', TG_ARGV[0] || ':' || changed);
		END LOOP;
	END IF;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER notifications_inserted AFTER INSERT ON notifications REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION autohub_say_users_changed('notifications', 'user_id');
--> statement-breakpoint
CREATE TRIGGER notifications_updated AFTER UPDATE ON notifications REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
	FOR EACH STATEMENT EXECUTE FUNCTION autohub_say_users_changed('notifications', 'user_id');
--> statement-breakpoint
CREATE TRIGGER notifications_deleted AFTER DELETE ON notifications REFERENCING OLD TABLE AS old_rows
	FOR EACH STATEMENT EXECUTE FUNCTION autohub_say_users_changed('notifications', 'user_id');
--> statement-breakpoint
CREATE TRIGGER sessions_updated AFTER UPDATE ON sessions REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
	FOR EACH STATEMENT EXECUTE FUNCTION autohub_say_users_changed('user', 'user_id');
--> statement-breakpoint
CREATE TRIGGER sessions_deleted AFTER DELETE ON sessions REFERENCING OLD TABLE AS old_rows
	FOR EACH STATEMENT EXECUTE FUNCTION autohub_say_users_changed('user', 'user_id');
--> statement-breakpoint
CREATE FUNCTION autohub_say_session_users_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	changed uuid;
BEGIN
	FOR changed IN
		SELECT DISTINCT o.id FROM old_rows o JOIN new_rows n ON n.id = o.id
		WHERE (n.email, n.role, n.first_name, n.last_name, n.mobile, n.preferred_language, n.blocked)
			IS DISTINCT FROM (o.email, o.role, o.first_name, o.last_name, o.mobile, o.preferred_language, o.blocked)
	LOOP
		PERFORM pg_notify('autohub_cache', 'user:' || changed);
	END LOOP;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION autohub_say_workshop_owners_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	changed uuid;
BEGIN
	FOR changed IN
		SELECT o.user_id FROM old_rows o JOIN new_rows n ON n.id = o.id
		WHERE (n.workshop_name, n.user_id) IS DISTINCT FROM (o.workshop_name, o.user_id)
		UNION SELECT n.user_id FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE n.user_id IS DISTINCT FROM o.user_id
	LOOP
		PERFORM pg_notify('autohub_cache', 'user:' || changed);
	END LOOP;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_updated AFTER UPDATE ON users REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
	FOR EACH STATEMENT EXECUTE FUNCTION autohub_say_session_users_changed();
--> statement-breakpoint
CREATE TRIGGER users_deleted AFTER DELETE ON users REFERENCING OLD TABLE AS old_rows
	FOR EACH STATEMENT EXECUTE FUNCTION autohub_say_users_changed('user', 'id');
--> statement-breakpoint
CREATE TRIGGER workshops_inserted AFTER INSERT ON workshops REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION autohub_say_users_changed('user', 'user_id');
--> statement-breakpoint
CREATE TRIGGER workshops_updated AFTER UPDATE ON workshops REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
	FOR EACH STATEMENT EXECUTE FUNCTION autohub_say_workshop_owners_changed();
--> statement-breakpoint
CREATE TRIGGER workshops_deleted AFTER DELETE ON workshops REFERENCING OLD TABLE AS old_rows
	FOR EACH STATEMENT EXECUTE FUNCTION autohub_say_users_changed('user', 'user_id');
