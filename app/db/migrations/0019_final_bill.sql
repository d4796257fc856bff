CREATE TYPE "public"."bill_decision" AS ENUM('billed', 'binding');--> statement-breakpoint
ALTER TYPE "public"."offer_status" ADD VALUE 'bill_proposed';--> statement-breakpoint
ALTER TYPE "public"."offer_status" ADD VALUE 'bill_disputed';--> statement-breakpoint
CREATE TABLE "bill_disputes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"offer_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"billed_cents" integer NOT NULL,
	"binding_cents" integer NOT NULL,
	"decision" "bill_decision",
	"note" text,
	"resolved_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	CONSTRAINT "bill_disputes_offer_key" UNIQUE("offer_id"),
	CONSTRAINT "bill_disputes_settled" CHECK (("bill_disputes"."decision" is null) = ("bill_disputes"."resolved_at" is null))
);
--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "bill_reason" text;--> statement-breakpoint
ALTER TABLE "bill_disputes" ADD CONSTRAINT "bill_disputes_offer_id_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."offers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bill_disputes" ADD CONSTRAINT "bill_disputes_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bill_disputes_open_idx" ON "bill_disputes" USING btree ("created_at") WHERE "bill_disputes"."resolved_at" is null;