CREATE TABLE "daily_counts" (
	"day" date NOT NULL,
	"kind" text NOT NULL,
	"workshop_id" uuid,
	"partner_id" uuid,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "daily_counts_key" UNIQUE NULLS NOT DISTINCT("day","kind","workshop_id","partner_id")
);
--> statement-breakpoint
CREATE TABLE "partners" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"key_prefix" text NOT NULL,
	"key_hash" text NOT NULL,
	"allowed_origins" text[] DEFAULT '{}' NOT NULL,
	"rate_limit_per_minute" integer DEFAULT 600 NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "partners_keyHash_unique" UNIQUE("key_hash")
);
--> statement-breakpoint
CREATE TABLE "widget_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_hash" text NOT NULL,
	"email" text NOT NULL,
	"language" "language" NOT NULL,
	"payload" jsonb NOT NULL,
	"workshop_id" uuid,
	"partner_id" uuid,
	"source_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"confirmed_at" timestamp with time zone,
	"request_id" uuid,
	CONSTRAINT "widget_requests_tokenHash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "sign_in_method" text;--> statement-breakpoint
ALTER TABLE "daily_counts" ADD CONSTRAINT "daily_counts_workshop_id_workshops_id_fk" FOREIGN KEY ("workshop_id") REFERENCES "public"."workshops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "daily_counts" ADD CONSTRAINT "daily_counts_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partners" ADD CONSTRAINT "partners_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "widget_requests" ADD CONSTRAINT "widget_requests_workshop_id_workshops_id_fk" FOREIGN KEY ("workshop_id") REFERENCES "public"."workshops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "widget_requests" ADD CONSTRAINT "widget_requests_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "widget_requests" ADD CONSTRAINT "widget_requests_request_id_service_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."service_requests"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "daily_counts_workshop_idx" ON "daily_counts" USING btree ("workshop_id","day");--> statement-breakpoint
CREATE INDEX "daily_counts_partner_idx" ON "daily_counts" USING btree ("partner_id","day");--> statement-breakpoint
CREATE INDEX "widget_requests_email_idx" ON "widget_requests" USING btree ("email","created_at");--> statement-breakpoint
CREATE INDEX "widget_requests_source_idx" ON "widget_requests" USING btree ("source_hash","created_at");