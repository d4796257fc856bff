-- Bookings (issue 33, docs/decisions/0134): a workshop's capacity (bays, weekly hours with breaks, days off),
-- the offer's proposed times and the booked time of a chosen offer, held by an exclusion constraint.
CREATE EXTENSION IF NOT EXISTS btree_gist;--> statement-breakpoint
CREATE TYPE "public"."booking_change_status" AS ENUM('waiting', 'accepted', 'declined', 'withdrawn');--> statement-breakpoint
CREATE TYPE "public"."booking_party" AS ENUM('customer', 'workshop');--> statement-breakpoint
CREATE TYPE "public"."booking_status" AS ENUM('booked', 'car_received', 'in_work', 'ready', 'done', 'cancelled', 'no_show', 'not_taken');--> statement-breakpoint
CREATE TABLE "booking_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"booking_id" uuid NOT NULL,
	"proposed_by" "booking_party" NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"cancel" boolean DEFAULT false NOT NULL,
	"status" "booking_change_status" DEFAULT 'waiting' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"answered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "bookings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workshop_id" uuid NOT NULL,
	"bay_id" uuid NOT NULL,
	"offer_id" uuid NOT NULL,
	"request_id" uuid NOT NULL,
	"customer_id" uuid,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"blocks_until" timestamp with time zone NOT NULL,
	"status" "booking_status" DEFAULT 'booked' NOT NULL,
	"sequence" integer DEFAULT 0 NOT NULL,
	"first_reminder_at" timestamp with time zone,
	"second_reminder_at" timestamp with time zone,
	"car_received_at" timestamp with time zone,
	"ready_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bookings_offer_key" UNIQUE("offer_id"),
	CONSTRAINT "bookings_order" CHECK ("bookings"."starts_at" < "bookings"."ends_at" and "bookings"."ends_at" <= "bookings"."blocks_until")
);
--> statement-breakpoint
CREATE TABLE "workshop_bays" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workshop_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workshop_bays_position_key" UNIQUE("workshop_id","position")
);
--> statement-breakpoint
CREATE TABLE "workshop_calendars" (
	"workshop_id" uuid PRIMARY KEY NOT NULL,
	"min_notice_minutes" integer DEFAULT 120 NOT NULL,
	"horizon_days" integer DEFAULT 42 NOT NULL,
	"buffer_minutes" integer DEFAULT 0 NOT NULL,
	"step_minutes" integer DEFAULT 30 NOT NULL,
	"open_on_public_holidays" boolean DEFAULT false NOT NULL,
	"own_hours" boolean DEFAULT false NOT NULL,
	"feed_token" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workshop_calendars_notice" CHECK ("workshop_calendars"."min_notice_minutes" >= 0),
	CONSTRAINT "workshop_calendars_horizon" CHECK ("workshop_calendars"."horizon_days" between 1 and 366),
	CONSTRAINT "workshop_calendars_buffer" CHECK ("workshop_calendars"."buffer_minutes" between 0 and 480),
	CONSTRAINT "workshop_calendars_step" CHECK ("workshop_calendars"."step_minutes" in (10, 15, 20, 30, 60))
);
--> statement-breakpoint
CREATE TABLE "workshop_days_off" (
	"workshop_id" uuid NOT NULL,
	"day" date NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	CONSTRAINT "workshop_days_off_workshop_id_day_pk" PRIMARY KEY("workshop_id","day")
);
--> statement-breakpoint
CREATE TABLE "workshop_hours" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workshop_id" uuid NOT NULL,
	"weekday" smallint NOT NULL,
	"opens" time NOT NULL,
	"closes" time NOT NULL,
	CONSTRAINT "workshop_hours_weekday" CHECK ("workshop_hours"."weekday" between 1 and 7),
	CONSTRAINT "workshop_hours_order" CHECK ("workshop_hours"."opens" < "workshop_hours"."closes")
);
--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "booking_minutes" integer;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "proposed_starts" timestamp with time zone[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "any_free_time" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "booking_free_change_hours" integer DEFAULT 24 NOT NULL;--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "booking_first_reminder_hours" integer DEFAULT 24 NOT NULL;--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "booking_second_reminder_hours" integer DEFAULT 2 NOT NULL;--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "booking_typical_minutes" integer DEFAULT 60 NOT NULL;--> statement-breakpoint
ALTER TABLE "workshops" ADD COLUMN "next_free_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "booking_changes" ADD CONSTRAINT "booking_changes_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_workshop_id_workshops_id_fk" FOREIGN KEY ("workshop_id") REFERENCES "public"."workshops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_bay_id_workshop_bays_id_fk" FOREIGN KEY ("bay_id") REFERENCES "public"."workshop_bays"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_offer_id_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."offers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_request_id_service_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."service_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_customer_id_users_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workshop_bays" ADD CONSTRAINT "workshop_bays_workshop_id_workshops_id_fk" FOREIGN KEY ("workshop_id") REFERENCES "public"."workshops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workshop_calendars" ADD CONSTRAINT "workshop_calendars_workshop_id_workshops_id_fk" FOREIGN KEY ("workshop_id") REFERENCES "public"."workshops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workshop_days_off" ADD CONSTRAINT "workshop_days_off_workshop_id_workshops_id_fk" FOREIGN KEY ("workshop_id") REFERENCES "public"."workshops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workshop_hours" ADD CONSTRAINT "workshop_hours_workshop_id_workshops_id_fk" FOREIGN KEY ("workshop_id") REFERENCES "public"."workshops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "booking_changes_one_waiting_key" ON "booking_changes" USING btree ("booking_id") WHERE "booking_changes"."status" = 'waiting';--> statement-breakpoint
CREATE INDEX "bookings_workshop_time_idx" ON "bookings" USING btree ("workshop_id","starts_at");--> statement-breakpoint
CREATE INDEX "bookings_customer_idx" ON "bookings" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "bookings_reminders_idx" ON "bookings" USING btree ("starts_at") WHERE "bookings"."status" = 'booked';--> statement-breakpoint
CREATE UNIQUE INDEX "workshop_calendars_feed_token_key" ON "workshop_calendars" USING btree ("feed_token");--> statement-breakpoint
CREATE INDEX "workshop_hours_workshop_idx" ON "workshop_hours" USING btree ("workshop_id","weekday");--> statement-breakpoint
CREATE INDEX "workshops_next_free_at_idx" ON "workshops" USING btree ("next_free_at");--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_booking_minutes" CHECK ("offers"."booking_minutes" between 10 and 1440);--> statement-breakpoint
-- No two bookings that hold their bay overlap in it: of many people choosing the last free time at
-- once, exactly one gets it; the others' inserts fail with 23P01 and are told the next free times.
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_bay_time_excl" EXCLUDE USING gist ("bay_id" WITH =, tstzrange("starts_at", "blocks_until") WITH &&) WHERE ("status" IN ('booked', 'car_received', 'in_work', 'ready'));
