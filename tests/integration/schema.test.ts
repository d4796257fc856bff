import { getTableName, is, sql } from 'drizzle-orm'
import { PgTable } from 'drizzle-orm/pg-core'
import { describe, expect, test } from 'vitest'
import * as schema from '~/db/schema'
import { isCurrent, migrateDatabase } from '~/db/migrate.server'
import { db, getConnection, pgErrorCode, queryRows } from '~/db/db.server'

const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(db, query)

describe(`the migrations on ${process.env.TEST_DATABASE_URL ? 'a PostgreSQL server' : 'embedded PGlite'}`, () => {
	test('run against the database this file was given', () => {
		expect(getConnection().kind).toBe(process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite')
	})

	test('create every table of the schema, and nothing else', async () => {
		const expected = Object.values(schema)
			.filter((value) => is(value, PgTable))
			.map((table) => getTableName(table as PgTable))
			.sort()
		const actual = (await rows<{ table_name: string }>(sql`select table_name from information_schema.tables where table_schema = 'public' order by 1`)).map((r) => r.table_name)
		expect(actual).toEqual(expected)
		// The product's entities, named as the foundation issue lists them.
		expect(actual).toEqual(
			expect.arrayContaining([
				'users',
				'sessions',
				'workshops',
				'vehicles',
				'service_requests',
				'service_request_images',
				'offers',
				'reviews',
				'notifications',
				'chat_messages',
				'packages',
				'subscriptions',
				'content_pages',
				'ads',
				'site_settings',
				'contact_messages',
				'email_outbox',
				'visits',
				'services',
				'car_brands',
				'spare_parts',
				'payment_methods',
				'cities',
			]),
		)
	})

	test('create the status enums of our status model', async () => {
		const enums = await rows<{ name: string; labels: string[] | string }>(
			sql`select t.typname as name, array_agg(e.enumlabel order by e.enumsortorder) as labels
			    from pg_type t join pg_enum e on e.enumtypid = t.oid group by t.typname`,
		)
		const labels = Object.fromEntries(enums.map((e) => [e.name, Array.isArray(e.labels) ? e.labels : String(e.labels).replace(/[{}]/g, '').split(',')]))
		expect(labels.request_status).toEqual(['pending', 'offer', 'in_progress', 'completed', 'cancelled', 'expired'])
		expect(labels.offer_status).toEqual(['pending', 'selected', 'rejected', 'job_completed', 'request_cancelled', 'request_expired', 'bill_proposed', 'bill_disputed'])
		expect(labels.user_role).toEqual(['customer', 'workshop', 'admin'])
	})

	test('use random UUIDs, never sequences, as primary keys', async () => {
		const keys = await rows<{ table_name: string; data_type: string; column_default: string | null }>(sql`
			select c.table_name, c.data_type, c.column_default
			from information_schema.table_constraints k
			join information_schema.key_column_usage u on u.constraint_name = k.constraint_name and u.table_name = k.table_name
			join information_schema.columns c on c.table_name = u.table_name and c.column_name = u.column_name
			where k.constraint_type = 'PRIMARY KEY' and k.table_schema = 'public' and c.column_name = 'id'`)
		const withBooleanId = ['site_settings']
		for (const key of keys.filter((k) => !withBooleanId.includes(k.table_name))) {
			expect(key.data_type, key.table_name).toBe('uuid')
			expect(key.column_default, key.table_name).toBe('gen_random_uuid()')
		}
	})

	test('index the directory filters and the notification poll', async () => {
		const indexes = (await rows<{ indexname: string }>(sql`select indexname from pg_indexes where schemaname = 'public'`)).map((i) => i.indexname)
		expect(indexes).toEqual(
			expect.arrayContaining([
				'workshops_city_idx',
				'workshops_featured_idx',
				'workshops_name_trgm_idx',
				'workshop_services_item_idx',
				'workshop_car_brands_item_idx',
				'notifications_user_created_idx',
				'notifications_user_unread_idx',
				'reviews_workshop_idx',
				'chat_messages_pair_idx',
			]),
		)
	})

	test('are idempotent: running them again changes nothing', async () => {
		const before = await rows<{ n: number }>(sql`select count(*)::int as n from information_schema.columns where table_schema = 'public'`)
		await migrateDatabase()
		const after = await rows<{ n: number }>(sql`select count(*)::int as n from information_schema.columns where table_schema = 'public'`)
		expect(after).toEqual(before)
	})

	test('on the embedded database, a current one is told so by one query and nothing runs (decision 0094)', async () => {
		const kind = getConnection().kind
		expect(await isCurrent(db)).toBe(true)
		// On PGlite a reopened data directory skips drizzle's migrator; a server always runs it, under its lock.
		expect(await migrateDatabase()).toBe(kind === 'pglite' ? 'current' : 'applied')
		// A database that has not run the newest migration is not current (the record put back after).
		const [newest] = await rows<{ id: number; hash: string; created_at: string }>(
			sql`select id, hash, created_at::text from drizzle.__drizzle_migrations order by created_at desc limit 1`,
		)
		await db.execute(sql`delete from drizzle.__drizzle_migrations where id = ${newest!.id}`)
		try {
			expect(await isCurrent(db)).toBe(false)
		} finally {
			await db.execute(sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${newest!.id}, ${newest!.hash}, ${newest!.created_at})`)
		}
		expect(await isCurrent(db)).toBe(true)
	})

	test('a database without drizzle’s record is not current; any other failure of the question is thrown, not taken for “migrate”', async () => {
		await db.execute(sql`alter table drizzle.__drizzle_migrations rename to kept_migrations`)
		try {
			expect(await isCurrent(db)).toBe(false)
		} finally {
			await db.execute(sql`alter table drizzle.kept_migrations rename to __drizzle_migrations`)
		}
		await db.execute(sql`alter table drizzle.__drizzle_migrations rename column created_at to kept_created_at`)
		try {
			await expect(isCurrent(db)).rejects.toSatisfy((error) => pgErrorCode(error) === '42703')
		} finally {
			await db.execute(sql`alter table drizzle.__drizzle_migrations rename column kept_created_at to created_at`)
		}
		expect(await isCurrent(db)).toBe(true)
	})

	test('enforce the rules that must hold whatever the code does', async () => {
		const userId = crypto.randomUUID()
		await db.execute(sql`insert into users (id, email, password_hash, role, first_name, last_name) values (${userId}, 'Case@Example.com', 'x', 'customer', 'Ann', 'Lee')`)
		// E-mail addresses are unique whatever their case.
		await expect(db.execute(sql`insert into users (email, password_hash, role, first_name, last_name) values ('case@example.com', 'x', 'customer', 'A', 'B')`)).rejects.toThrow()
		const city = crypto.randomUUID()
		await db.execute(sql`insert into cities (id, code, name_et, name_en, name_ru) values (${city}, 'x', 'X', 'X', 'X')`)
		// A company ID is 8 digits (a registry code) or 10 (decision 0120).
		await expect(
			db.execute(sql`insert into workshops (user_id, contact_first_name, contact_last_name, company_name, company_id, workshop_name)
			               values (${userId}, 'A', 'B', 'C', '12345', 'W')`),
		).rejects.toThrow()
	})
})
