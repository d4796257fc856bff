import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { lintMigration, RULES, statements } from '#tests/support/migration-lint'

/**
 * Migrations that do not stop a busy site (docs/migrations.md, decision 0143): a new migration in
 * drizzle's folder (drizzle.config.ts `out`) that would lock a big table for long, or break the
 * release still serving while it runs, fails here, unless a comment before the statement allows it
 * and says why: `-- migration-lint: allow <rule> <reason>`.
 */
const folder = path.resolve(/out:\s*'([^']+)'/.exec(fs.readFileSync('drizzle.config.ts', 'utf8'))![1]!)

/**
 * The migrations made before these rules: they ran when the tables were small, and a migration
 * that has run is never changed. Never add to this list: allow a statement in the migration itself.
 */
const BEFORE_THE_RULES = new Set([
	'0000_extensions.sql',
	'0001_schema.sql',
	'0002_email_logged_status.sql',
	'0003_directory_indexes.sql',
	'0004_admin_blocked_index.sql',
	'0005_visits_source.sql',
	'0006_uploads_metadata_stripped.sql',
	'0007_email_events.sql',
	'0008_response_minutes.sql',
	'0009_request_expiry.sql',
	'0010_addressed_requests.sql',
	'0011_held_uploads.sql',
	'0012_half_star_ratings.sql',
	'0013_cache_triggers.sql',
	'0014_pages_changed.sql',
	'0015_responsive_images.sql',
	'0016_pages_changed_columns.sql',
	'0017_itemised_offers.sql',
	'0018_extra_work.sql',
	'0019_final_bill.sql',
	'0020_review_moderation.sql',
	'0021_vehicle_passport.sql',
	'0022_price_record_index.sql',
	'0023_vehicle_reminders.sql',
	'0024_vehicle_history_link.sql',
	'0025_request_share_history.sql',
	'0026_consents.sql',
	'0027_account_deletion.sql',
	'0028_e_invoice.sql',
	'0029_personal_pages_changed.sql',
	'0030_no_kept_pages.sql',
	'0031_odometer_unit.sql',
	'0032_vehicle_transfers.sql',
	'0033_offer_warranty_part_quality.sql',
	'0034_ad_language_rating_sort.sql',
	'0035_registry_code_lengths.sql',
	'0036_bookings.sql',
	'0037_next_free_times_computed.sql',
	'0038_booking_work_started.sql',
])

const migrations = fs.readdirSync(folder).filter((file) => file.endsWith('.sql')).sort()

describe('the migrations in drizzle’s folder', () => {
	test('are where drizzle.config.ts says, and the list of the old ones names only files that are there', () => {
		expect(migrations.length).toBeGreaterThan(30)
		for (const file of BEFORE_THE_RULES) expect(migrations, file).toContain(file)
	})

	test.each(migrations.filter((file) => !BEFORE_THE_RULES.has(file)))('%s keeps the rules of docs/migrations.md', (file) => {
		const problems = lintMigration(fs.readFileSync(path.join(folder, file), 'utf8'))
		expect(problems.map((problem) => `${problem.rule}: ${problem.message}\n    in: ${problem.statement}`)).toEqual([])
	})

	test('the check reads them all without failing', () => {
		for (const file of migrations) expect(() => lintMigration(fs.readFileSync(path.join(folder, file), 'utf8'))).not.toThrow()
	})
})

const rules = (sql: string) => lintMigration(sql).map((problem) => problem.rule)

describe('the check', () => {
	test('splits statements on drizzle’s breakpoints and semicolons, not inside quotes or function bodies', () => {
		const sql = `CREATE FUNCTION f() RETURNS trigger AS $$ BEGIN PERFORM 1; RETURN NEW; END $$ LANGUAGE plpgsql;--> statement-breakpoint
UPDATE "t" SET "a" = 'x;y';`
		expect(statements(sql).map((statement) => statement.sql)).toEqual([
			'CREATE FUNCTION f() RETURNS trigger AS $$ BEGIN PERFORM 1; RETURN NEW; END $$ LANGUAGE plpgsql',
			`UPDATE "t" SET "a" = 'x;y'`,
		])
	})

	test('lets a new table have anything: it is empty', () => {
		expect(
			rules(`CREATE TABLE "cars" ("id" serial PRIMARY KEY, "owner_id" uuid NOT NULL);--> statement-breakpoint
ALTER TABLE "cars" ADD CONSTRAINT "cars_owner_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id");--> statement-breakpoint
CREATE INDEX "cars_owner_idx" ON "cars" USING btree ("owner_id");`),
		).toEqual([])
	})

	test.each([
		['index-lock', `CREATE INDEX "users_name_idx" ON "users" USING btree ("name");`],
		['index-lock', `CREATE UNIQUE INDEX IF NOT EXISTS "users_email_key" ON "public"."users" ("email");`],
		['concurrently-in-transaction', `CREATE INDEX CONCURRENTLY "users_name_idx" ON "users" ("name");`],
		['constraint-not-valid', `ALTER TABLE "offers" ADD CONSTRAINT "offers_price" CHECK ("price" > 0);`],
		['constraint-not-valid', `ALTER TABLE "offers" ADD CONSTRAINT "offers_user_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id");`],
		['column-type', `ALTER TABLE "reviews" ALTER COLUMN "rating" SET DATA TYPE double precision;`],
		['column-type', `ALTER TABLE reviews ALTER rating TYPE bigint;`],
		['volatile-default', `ALTER TABLE "users" ADD COLUMN "token" uuid DEFAULT gen_random_uuid() NOT NULL;`],
		['volatile-default', `ALTER TABLE "users" ADD COLUMN "n" serial;`],
		['set-not-null', `ALTER TABLE "users" ALTER COLUMN "name" SET NOT NULL;`],
		['rename', `ALTER TABLE "users" RENAME COLUMN "name" TO "full_name";`],
		['drop', `ALTER TABLE "workshops" DROP COLUMN "next_free_times";`],
		['drop', `DROP TABLE "old_things";`],
		['backfill', `UPDATE "bookings" SET "x" = 1;`],
		['validate-same-release', `ALTER TABLE "offers" ADD CONSTRAINT "offers_price" CHECK ("price" > 0) NOT VALID;--> statement-breakpoint
ALTER TABLE "offers" VALIDATE CONSTRAINT "offers_price";`],
	] as const)('flags %s: %s', (rule, sql) => {
		expect(rules(sql)).toEqual([rule])
		expect(RULES[rule]).toBeTruthy()
	})

	test('passes what the rules ask for instead', () => {
		expect(rules(`ALTER TABLE "offers" ADD CONSTRAINT "offers_price" CHECK ("price" > 0) NOT VALID;`)).toEqual([])
		expect(rules(`ALTER TABLE "offers" VALIDATE CONSTRAINT "offers_price";`)).toEqual([])
		expect(rules(`ALTER TABLE "users" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;`)).toEqual([])
		expect(rules(`ALTER TABLE "users" ADD COLUMN "kind" text DEFAULT 'person';`)).toEqual([])
		expect(rules(`ALTER TABLE "users" ALTER COLUMN "name" DROP NOT NULL;`)).toEqual([])
	})

	test('lets a statement through with an allow comment that names the rule and says why, and only that rule', () => {
		expect(rules(`-- migration-lint: allow index-lock workshops has a few thousand rows
CREATE INDEX "workshops_x_idx" ON "workshops" ("x");`)).toEqual([])
		expect(rules(`-- migration-lint: allow backfill wrong rule
CREATE INDEX "workshops_x_idx" ON "workshops" ("x");`)).toEqual(['index-lock'])
		expect(rules(`-- migration-lint: allow index-lock
CREATE INDEX "workshops_x_idx" ON "workshops" ("x");`)).toEqual(['allow-without-reason', 'index-lock'])
		// The comment is for the statement after it, not the ones that follow.
		expect(rules(`-- migration-lint: allow index-lock small table
CREATE INDEX "a_idx" ON "workshops" ("a");--> statement-breakpoint
CREATE INDEX "b_idx" ON "workshops" ("b");`)).toEqual(['index-lock'])
	})
})
