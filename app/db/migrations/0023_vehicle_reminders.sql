CREATE TYPE "public"."reminder_kind" AS ENUM('inspection', 'tyres', 'service');--> statement-breakpoint
CREATE TABLE "vehicle_reminders" (
	"vehicle_id" uuid NOT NULL,
	"kind" "reminder_kind" NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"due_on" date,
	"last_done_on" date,
	"last_done_mileage" integer,
	"every_months" smallint,
	"every_km" integer,
	"days_before" smallint DEFAULT 14 NOT NULL,
	"snoozed_until" date,
	"notified_key" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "vehicle_reminders_vehicle_id_kind_pk" PRIMARY KEY("vehicle_id","kind"),
	CONSTRAINT "vehicle_reminders_days_before" CHECK ("vehicle_reminders"."days_before" between 1 and 60),
	CONSTRAINT "vehicle_reminders_every_months" CHECK ("vehicle_reminders"."every_months" is null or "vehicle_reminders"."every_months" between 1 and 48),
	CONSTRAINT "vehicle_reminders_every_km" CHECK ("vehicle_reminders"."every_km" is null or "vehicle_reminders"."every_km" between 1000 and 100000)
);
--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "tyre_autumn_day" text DEFAULT '10-01' NOT NULL;--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "tyre_spring_day" text DEFAULT '03-15' NOT NULL;--> statement-breakpoint
ALTER TABLE "vehicle_reminders" ADD CONSTRAINT "vehicle_reminders_vehicle_id_vehicles_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."vehicles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "vehicle_reminders_active_idx" ON "vehicle_reminders" USING btree ("kind") WHERE "vehicle_reminders"."active";