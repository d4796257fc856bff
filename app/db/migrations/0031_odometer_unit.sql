-- Issue 32 (docs/decisions/0122): each vehicle has its odometer unit, km by default, and every
-- reading is kept in km. The readings stored so far were typed under "Mileage (miles)": each
-- existing vehicle becomes a miles vehicle and its readings become km, so it shows the same numbers.
CREATE TYPE "public"."odometer_unit" AS ENUM('km', 'mi');--> statement-breakpoint
ALTER TABLE "vehicles" ADD COLUMN "odometer_unit" "odometer_unit" DEFAULT 'km' NOT NULL;
--> statement-breakpoint
-- A service reminder already told for its occurrence (its key "day/due reading") stays told: its
-- key becomes the same occurrence in km. Read before the readings below change.
UPDATE "vehicle_reminders" SET "notified_key" = split_part("notified_key", '/', 1) || '/' || (round("last_done_mileage" * 1.609344)::int + "every_km")::text
WHERE "kind" = 'service' AND "last_done_mileage" IS NOT NULL AND "every_km" IS NOT NULL
  AND split_part("notified_key", '/', 2) = ("last_done_mileage" + round("every_km" / 1.609344)::int)::text;--> statement-breakpoint
UPDATE "vehicles" SET "odometer_unit" = 'mi', "mileage" = round("mileage" * 1.609344)::int;--> statement-breakpoint
UPDATE "offers" SET "mileage_at_job" = round("mileage_at_job" * 1.609344)::int WHERE "mileage_at_job" IS NOT NULL;--> statement-breakpoint
UPDATE "service_records" SET "mileage" = round("mileage" * 1.609344)::int;--> statement-breakpoint
UPDATE "vehicle_reminders" SET "last_done_mileage" = round("last_done_mileage" * 1.609344)::int WHERE "last_done_mileage" IS NOT NULL;--> statement-breakpoint
-- A service notice already sent names the reading in the vehicle's unit (now "reading", was "miles").
UPDATE "notifications" SET "message_params" = ("message_params" - 'miles') || jsonb_build_object('reading', "message_params" -> 'miles')
WHERE "message_key" = 'notifications.reminderService' AND "message_params" ? 'miles';
