ALTER TYPE "public"."offer_status" ADD VALUE 'request_expired';--> statement-breakpoint
ALTER TYPE "public"."request_status" ADD VALUE 'expired';--> statement-breakpoint
ALTER TABLE "service_requests" ADD COLUMN "reopen_count" integer DEFAULT 0 NOT NULL;