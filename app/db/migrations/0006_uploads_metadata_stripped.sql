ALTER TABLE "uploads" ADD COLUMN "metadata_stripped" boolean DEFAULT true NOT NULL;--> statement-breakpoint
CREATE INDEX "uploads_unstripped_idx" ON "uploads" USING btree ("id") WHERE not metadata_stripped;--> statement-breakpoint
-- Images stored before issue 13 kept their metadata (EXIF position, author): the clean-up job re-encodes them.
UPDATE "uploads" SET "metadata_stripped" = false WHERE "purpose" IN ('workshop_logo', 'workshop_photo', 'request_image', 'site_logo', 'site_favicon', 'ad_image');
