ALTER TABLE "bookings" ADD COLUMN "work_started_at" timestamp with time zone;--> statement-breakpoint
-- Jobs started before the column: the customer's notice of it said when (its first one).
UPDATE "bookings" b SET "work_started_at" = n.at
FROM (SELECT "received_id", min("created_at") AS at FROM "notifications" WHERE "message_key" = 'notifications.bookingInWork' GROUP BY "received_id") n
WHERE n."received_id" = b."request_id" AND b."status" IN ('in_work', 'ready', 'done');
