-- The signed-in pages each process keeps (issue 18, docs/decisions/0112) are forgotten when any
-- table they could show changes, whoever writes it (the portal, a job, a script, psql):
-- 'personal-pages' on the cache bus's channel, once per statement, at commit. Every table of the
-- schema but those no kept page shows and that change all the time: sessions (a kept page is only
-- sent to a live session of its owner, checked on every use through migration 0013's triggers),
-- rate limits, visits, the e-mail outbox and the audit log. A table added later needs its trigger
-- too: tests/integration/personal-page-cache.test.ts fails until it has one or is listed here.
CREATE FUNCTION autohub_say_personal_pages_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('autohub_cache', 'personal-pages');
	RETURN NULL;
END
$$;
--> statement-breakpoint
DO $$
DECLARE
	shown text;
BEGIN
	FOR shown IN
		SELECT tablename FROM pg_tables
		WHERE schemaname = current_schema()
			AND tablename NOT IN ('sessions', 'rate_limits', 'visits', 'email_outbox', 'audit_log', '__drizzle_migrations')
	LOOP
		EXECUTE format(
			'CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION autohub_say_personal_pages_changed()',
			shown || '_personal_pages', shown);
	END LOOP;
END
$$;
