ALTER TABLE "uploads" ADD COLUMN "held_since" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "uploads_held_idx" ON "uploads" USING btree ("held_since") WHERE held_since is not null;