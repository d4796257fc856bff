ALTER TYPE "public"."upload_purpose" ADD VALUE 'job_invoice' BEFORE 'site_logo';--> statement-breakpoint
ALTER TYPE "public"."upload_purpose" ADD VALUE 'service_document' BEFORE 'site_logo';--> statement-breakpoint
CREATE TABLE "service_records" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"vehicle_id" uuid NOT NULL,
	"performed_on" date NOT NULL,
	"mileage" integer NOT NULL,
	"description" text NOT NULL,
	"workshop_name" text DEFAULT '' NOT NULL,
	"price_cents" integer,
	"document_upload_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "service_records_mileage_not_negative" CHECK ("service_records"."mileage" >= 0),
	CONSTRAINT "service_records_price_positive" CHECK ("service_records"."price_cents" > 0)
);
--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "mileage_at_job" integer;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "invoice_upload_id" uuid;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "warranty_work_km" integer;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "warranty_parts_months" integer;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "warranty_notice_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "vehicles" ADD COLUMN "calendar_token" text;--> statement-breakpoint
ALTER TABLE "service_records" ADD CONSTRAINT "service_records_vehicle_id_vehicles_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."vehicles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_records" ADD CONSTRAINT "service_records_document_upload_id_uploads_id_fk" FOREIGN KEY ("document_upload_id") REFERENCES "public"."uploads"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "service_records_vehicle_idx" ON "service_records" USING btree ("vehicle_id","performed_on");--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_invoice_upload_id_uploads_id_fk" FOREIGN KEY ("invoice_upload_id") REFERENCES "public"."uploads"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "offers_warranty_untold_idx" ON "offers" USING btree ("completed_at") WHERE "offers"."warranty_parts_months" is not null and "offers"."warranty_notice_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "vehicles_calendar_token_key" ON "vehicles" USING btree ("calendar_token");--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_mileage_at_job_not_negative" CHECK ("offers"."mileage_at_job" >= 0);