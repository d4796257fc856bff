-- The shared pages each process keeps (issue 18, docs/decisions/0091) are forgotten when a table
-- they show changes, whoever writes it (the portal, a job, a script, psql): 'pages' on the cache
-- bus's channel, once per statement, at commit. The tables of the directory, the workshops'
-- pages, the reviews and the content pages; the settings, ads and lists say so through the portal
-- too (decision 0085).
CREATE FUNCTION autohub_say_pages_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('autohub_cache', 'pages');
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_pages AFTER INSERT OR UPDATE OR DELETE ON users FOR EACH STATEMENT EXECUTE FUNCTION autohub_say_pages_changed();
--> statement-breakpoint
CREATE TRIGGER workshops_pages AFTER INSERT OR UPDATE OR DELETE ON workshops FOR EACH STATEMENT EXECUTE FUNCTION autohub_say_pages_changed();
--> statement-breakpoint
CREATE TRIGGER workshop_photos_pages AFTER INSERT OR UPDATE OR DELETE ON workshop_photos FOR EACH STATEMENT EXECUTE FUNCTION autohub_say_pages_changed();
--> statement-breakpoint
CREATE TRIGGER workshop_services_pages AFTER INSERT OR UPDATE OR DELETE ON workshop_services FOR EACH STATEMENT EXECUTE FUNCTION autohub_say_pages_changed();
--> statement-breakpoint
CREATE TRIGGER workshop_car_brands_pages AFTER INSERT OR UPDATE OR DELETE ON workshop_car_brands FOR EACH STATEMENT EXECUTE FUNCTION autohub_say_pages_changed();
--> statement-breakpoint
CREATE TRIGGER workshop_spare_parts_pages AFTER INSERT OR UPDATE OR DELETE ON workshop_spare_parts FOR EACH STATEMENT EXECUTE FUNCTION autohub_say_pages_changed();
--> statement-breakpoint
CREATE TRIGGER workshop_payment_methods_pages AFTER INSERT OR UPDATE OR DELETE ON workshop_payment_methods FOR EACH STATEMENT EXECUTE FUNCTION autohub_say_pages_changed();
--> statement-breakpoint
CREATE TRIGGER reviews_pages AFTER INSERT OR UPDATE OR DELETE ON reviews FOR EACH STATEMENT EXECUTE FUNCTION autohub_say_pages_changed();
--> statement-breakpoint
CREATE TRIGGER content_pages_pages AFTER INSERT OR UPDATE OR DELETE ON content_pages FOR EACH STATEMENT EXECUTE FUNCTION autohub_say_pages_changed();
--> statement-breakpoint
CREATE TRIGGER ads_pages AFTER INSERT OR UPDATE OR DELETE ON ads FOR EACH STATEMENT EXECUTE FUNCTION autohub_say_pages_changed();
--> statement-breakpoint
CREATE TRIGGER site_settings_pages AFTER INSERT OR UPDATE OR DELETE ON site_settings FOR EACH STATEMENT EXECUTE FUNCTION autohub_say_pages_changed();
--> statement-breakpoint
CREATE TRIGGER services_pages AFTER INSERT OR UPDATE OR DELETE ON services FOR EACH STATEMENT EXECUTE FUNCTION autohub_say_pages_changed();
--> statement-breakpoint
CREATE TRIGGER car_brands_pages AFTER INSERT OR UPDATE OR DELETE ON car_brands FOR EACH STATEMENT EXECUTE FUNCTION autohub_say_pages_changed();
--> statement-breakpoint
CREATE TRIGGER spare_parts_pages AFTER INSERT OR UPDATE OR DELETE ON spare_parts FOR EACH STATEMENT EXECUTE FUNCTION autohub_say_pages_changed();
--> statement-breakpoint
CREATE TRIGGER payment_methods_pages AFTER INSERT OR UPDATE OR DELETE ON payment_methods FOR EACH STATEMENT EXECUTE FUNCTION autohub_say_pages_changed();
--> statement-breakpoint
CREATE TRIGGER cities_pages AFTER INSERT OR UPDATE OR DELETE ON cities FOR EACH STATEMENT EXECUTE FUNCTION autohub_say_pages_changed();
