CREATE TYPE "public"."extra_work_status" AS ENUM('waiting', 'approved', 'declined', 'withdrawn');--> statement-breakpoint
CREATE TABLE "extra_work" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"offer_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"status" "extra_work_status" DEFAULT 'waiting' NOT NULL,
	"vat_mode" "vat_mode" NOT NULL,
	"price_cents" integer NOT NULL,
	"labour_cents" integer NOT NULL,
	"parts_cents" integer NOT NULL,
	"fees_cents" integer NOT NULL,
	"vat_cents" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"answered_at" timestamp with time zone,
	CONSTRAINT "extra_work_price_positive" CHECK ("extra_work"."price_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "extra_work_images" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"extra_work_id" uuid NOT NULL,
	"upload_id" uuid NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "extra_work_images_max_three" CHECK ("extra_work_images"."position" between 0 and 2)
);
--> statement-breakpoint
CREATE TABLE "extra_work_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"extra_work_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"kind" "offer_line_kind" NOT NULL,
	"description" text NOT NULL,
	"reference" text DEFAULT '' NOT NULL,
	"quantity_hundredths" integer NOT NULL,
	"unit_price_cents" integer NOT NULL,
	"total_cents" integer NOT NULL,
	CONSTRAINT "extra_work_lines_position_key" UNIQUE("extra_work_id","position"),
	CONSTRAINT "extra_work_lines_quantity_positive" CHECK ("extra_work_lines"."quantity_hundredths" > 0),
	CONSTRAINT "extra_work_lines_price_positive" CHECK ("extra_work_lines"."unit_price_cents" > 0)
);
--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "approved_extra_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "extra_work" ADD CONSTRAINT "extra_work_offer_id_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."offers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "extra_work_images" ADD CONSTRAINT "extra_work_images_extra_work_id_extra_work_id_fk" FOREIGN KEY ("extra_work_id") REFERENCES "public"."extra_work"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "extra_work_images" ADD CONSTRAINT "extra_work_images_upload_id_uploads_id_fk" FOREIGN KEY ("upload_id") REFERENCES "public"."uploads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "extra_work_lines" ADD CONSTRAINT "extra_work_lines_extra_work_id_extra_work_id_fk" FOREIGN KEY ("extra_work_id") REFERENCES "public"."extra_work"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "extra_work_offer_idx" ON "extra_work" USING btree ("offer_id","created_at");--> statement-breakpoint
CREATE INDEX "extra_work_images_extra_work_idx" ON "extra_work_images" USING btree ("extra_work_id","position");--> statement-breakpoint
CREATE INDEX "extra_work_images_upload_idx" ON "extra_work_images" USING btree ("upload_id");--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_approved_extra_not_negative" CHECK ("offers"."approved_extra_cents" >= 0);