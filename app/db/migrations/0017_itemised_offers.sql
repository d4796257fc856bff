CREATE TYPE "public"."offer_line_kind" AS ENUM('labour', 'part', 'fee');--> statement-breakpoint
CREATE TYPE "public"."vat_mode" AS ENUM('included', 'added');--> statement-breakpoint
CREATE TABLE "offer_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"offer_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"kind" "offer_line_kind" NOT NULL,
	"description" text NOT NULL,
	"reference" text DEFAULT '' NOT NULL,
	"quantity_hundredths" integer NOT NULL,
	"unit_price_cents" integer NOT NULL,
	"total_cents" integer NOT NULL,
	CONSTRAINT "offer_lines_position_key" UNIQUE("offer_id","position"),
	CONSTRAINT "offer_lines_quantity_positive" CHECK ("offer_lines"."quantity_hundredths" > 0),
	CONSTRAINT "offer_lines_price_positive" CHECK ("offer_lines"."unit_price_cents" > 0)
);
--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "vat_mode" "vat_mode" DEFAULT 'included' NOT NULL;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "labour_cents" integer;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "parts_cents" integer;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "fees_cents" integer;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "vat_cents" integer;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "earliest_start" date;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "duration_days" integer;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "valid_until" date;--> statement-breakpoint
ALTER TABLE "offer_lines" ADD CONSTRAINT "offer_lines_offer_id_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."offers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_duration_positive" CHECK ("offers"."duration_days" > 0);