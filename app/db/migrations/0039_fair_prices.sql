CREATE TYPE "public"."engine_band" AS ENUM('any', 'up_to_1600', '1600_2500', 'over_2500');--> statement-breakpoint
CREATE TYPE "public"."vehicle_class" AS ENUM('small', 'family', 'suv_van', 'electric');--> statement-breakpoint
CREATE TABLE "price_list_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workshop_id" uuid NOT NULL,
	"service_id" uuid NOT NULL,
	"vehicle_class" "vehicle_class" NOT NULL,
	"engine_band" "engine_band" DEFAULT 'any' NOT NULL,
	"vat_mode" "vat_mode" DEFAULT 'included' NOT NULL,
	"labour_cents" integer DEFAULT 0 NOT NULL,
	"parts_cents" integer DEFAULT 0 NOT NULL,
	"fees_cents" integer DEFAULT 0 NOT NULL,
	"vat_cents" integer DEFAULT 0 NOT NULL,
	"price_cents" integer NOT NULL,
	"duration_minutes" integer NOT NULL,
	"included" text DEFAULT '' NOT NULL,
	"valid_from" date NOT NULL,
	"valid_until" date,
	"sends_instant" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "price_list_items_price" CHECK ("price_list_items"."price_cents" > 0 and "price_list_items"."price_cents" <= 10000000),
	CONSTRAINT "price_list_items_duration" CHECK ("price_list_items"."duration_minutes" between 1 and 43200),
	CONSTRAINT "price_list_items_validity" CHECK ("price_list_items"."valid_until" is null or "price_list_items"."valid_until" >= "price_list_items"."valid_from"),
	CONSTRAINT "price_list_items_electric_any_engine" CHECK ("price_list_items"."vehicle_class" <> 'electric' or "price_list_items"."engine_band" = 'any')
);
--> statement-breakpoint
CREATE TABLE "price_list_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"item_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"kind" "offer_line_kind" NOT NULL,
	"description" text NOT NULL,
	"reference" text DEFAULT '' NOT NULL,
	"quality" "part_quality",
	"used" boolean DEFAULT false NOT NULL,
	"quantity_hundredths" integer NOT NULL,
	"unit_price_cents" integer NOT NULL,
	"total_cents" integer NOT NULL,
	CONSTRAINT "price_list_lines_position_key" UNIQUE("item_id","position"),
	CONSTRAINT "price_list_lines_quantity_positive" CHECK ("price_list_lines"."quantity_hundredths" > 0),
	CONSTRAINT "price_list_lines_price_positive" CHECK ("price_list_lines"."unit_price_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "price_ranges" (
	"service_id" uuid NOT NULL,
	"vehicle_class" "vehicle_class" NOT NULL,
	"county" text NOT NULL,
	"p25_cents" integer NOT NULL,
	"p50_cents" integer NOT NULL,
	"p75_cents" integer NOT NULL,
	"jobs" integer NOT NULL,
	"workshops" integer NOT NULL,
	"period_from" date NOT NULL,
	"period_to" date NOT NULL,
	"computed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "price_ranges_service_id_vehicle_class_county_pk" PRIMARY KEY("service_id","vehicle_class","county")
);
--> statement-breakpoint
ALTER TABLE "cities" ADD COLUMN "county" text;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "price_list_item_id" uuid;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "instant" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "service_requests" ADD COLUMN "instant_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "vehicles" ADD COLUMN "vehicle_class" "vehicle_class" DEFAULT 'family' NOT NULL;--> statement-breakpoint
ALTER TABLE "vehicles" ADD COLUMN "engine_cc" integer;--> statement-breakpoint
ALTER TABLE "price_list_items" ADD CONSTRAINT "price_list_items_workshop_id_workshops_id_fk" FOREIGN KEY ("workshop_id") REFERENCES "public"."workshops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_list_items" ADD CONSTRAINT "price_list_items_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_list_lines" ADD CONSTRAINT "price_list_lines_item_id_price_list_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."price_list_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_ranges" ADD CONSTRAINT "price_ranges_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "price_list_items_workshop_idx" ON "price_list_items" USING btree ("workshop_id","service_id");--> statement-breakpoint
CREATE INDEX "price_list_items_service_idx" ON "price_list_items" USING btree ("service_id","vehicle_class");--> statement-breakpoint
CREATE INDEX "price_ranges_county_idx" ON "price_ranges" USING btree ("county","service_id");--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_price_list_item_id_price_list_items_id_fk" FOREIGN KEY ("price_list_item_id") REFERENCES "public"."price_list_items"("id") ON DELETE set null ON UPDATE no action NOT VALID;--> statement-breakpoint
ALTER TABLE "cities" ADD CONSTRAINT "cities_county_known" CHECK (county is null or county in ('harju', 'hiiu', 'ida-viru', 'jogeva', 'jarva', 'laane', 'laane-viru', 'polva', 'parnu', 'rapla', 'saare', 'tartu', 'valga', 'viljandi', 'voru')) NOT VALID;--> statement-breakpoint
ALTER TABLE "vehicles" ADD CONSTRAINT "vehicles_engine_cc" CHECK ("vehicles"."engine_cc" between 50 and 10000) NOT VALID;--> statement-breakpoint
-- One price per service, class and band on any day (issue 35): two items' validities never overlap.
ALTER TABLE "price_list_items" ADD CONSTRAINT "price_list_items_no_overlap" EXCLUDE USING gist ("workshop_id" WITH =, "service_id" WITH =, "vehicle_class" WITH =, "engine_band" WITH =, daterange("valid_from", "valid_until", '[]') WITH &&);--> statement-breakpoint
-- migration-lint: allow backfill touches only the electric vehicles (a few per cent), which are their own class
UPDATE "vehicles" SET "vehicle_class" = 'electric' WHERE "fuel_type" = 'electric';--> statement-breakpoint
-- migration-lint: allow backfill cities is a short reference list; the demo's and the usual cities get their county
UPDATE "cities" SET "county" = c.county FROM (VALUES ('tallinn', 'harju'), ('maardu', 'harju'), ('keila', 'harju'), ('saue', 'harju'), ('tartu', 'tartu'), ('elva', 'tartu'), ('narva', 'ida-viru'), ('kohtla-jarve', 'ida-viru'), ('johvi', 'ida-viru'), ('sillamae', 'ida-viru'), ('parnu', 'parnu'), ('viljandi', 'viljandi'), ('rakvere', 'laane-viru'), ('kuressaare', 'saare'), ('haapsalu', 'laane'), ('voru', 'voru'), ('paide', 'jarva'), ('valga', 'valga'), ('polva', 'polva'), ('jogeva', 'jogeva'), ('rapla', 'rapla'), ('kardla', 'hiiu')) AS c(code, county) WHERE "cities"."code" = c.code;