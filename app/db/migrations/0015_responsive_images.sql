-- Smaller copies of each image in AVIF and WebP (issue 18, docs/decisions/0093): their widths.
-- Images stored before stay null until the clean-up job makes theirs; other files have none.
ALTER TABLE "uploads" ADD COLUMN "variant_widths" integer[];--> statement-breakpoint
UPDATE "uploads" SET "variant_widths" = '{}' WHERE "mime_type" NOT LIKE 'image/%';--> statement-breakpoint
CREATE INDEX "uploads_without_variants_idx" ON "uploads" USING btree ("id") WHERE variant_widths is null;
