ALTER TABLE "visits" ADD COLUMN "source_hash" text;--> statement-breakpoint
CREATE INDEX "visits_day_source_idx" ON "visits" USING btree ("day","source_hash");