CREATE TYPE "public"."part_quality" AS ENUM('original', 'equivalent', 'aftermarket');--> statement-breakpoint
ALTER TABLE "offer_lines" ADD COLUMN "quality" "part_quality";--> statement-breakpoint
ALTER TABLE "offer_lines" ADD COLUMN "used" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Each offer carries its own warranty (issue 32). An offer whose job has not completed takes its
-- workshop profile's warranty, the one it was made under as far as anyone knows; a completed job
-- already holds the one copied from the profile when it completed. Part lines made before the
-- quality was asked keep none: "not stated".
UPDATE "offers" o SET "warranty_work_km" = w."warranty_work_km", "warranty_parts_months" = w."warranty_parts_months"
FROM "workshops" w WHERE w."id" = o."workshop_id" AND o."completed_at" IS NULL;
