ALTER TABLE "workshops" ADD COLUMN "vat_number" text;--> statement-breakpoint
ALTER TABLE "workshops" ADD COLUMN "wants_e_invoice" boolean DEFAULT false NOT NULL;