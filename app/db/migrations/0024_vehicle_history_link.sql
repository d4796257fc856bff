ALTER TABLE "vehicles" ADD COLUMN "history_token" text;--> statement-breakpoint
CREATE UNIQUE INDEX "vehicles_history_token_key" ON "vehicles" USING btree ("history_token");