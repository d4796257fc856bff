CREATE TABLE "eid_identities" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"subject_hash" text NOT NULL,
	"country" text NOT NULL,
	"last_method" text,
	"last_used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "password_hash" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "eid_identities" ADD CONSTRAINT "eid_identities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "eid_identities_subject_key" ON "eid_identities" USING btree ("subject_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "eid_identities_user_key" ON "eid_identities" USING btree ("user_id");