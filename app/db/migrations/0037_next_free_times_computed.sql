ALTER TABLE "workshops" DROP COLUMN "next_free_times";--> statement-breakpoint
ALTER TABLE "workshops" ADD COLUMN "next_free_checked_at" timestamp with time zone;
