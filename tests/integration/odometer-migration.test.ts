import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { sql } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/pglite'
import { migrate } from 'drizzle-orm/pglite/migrator'
import { afterAll, expect, test } from 'vitest'
import { fromKm } from '~/domain/service-flow/vehicle-kinds'
import { migrationsDir } from '~/utils/paths.server'

/**
 * Issue 32, item 2 (decision 0122): a database of before the odometer unit, whose readings were
 * typed as miles, is migrated to km without losing a reading: each vehicle becomes a miles vehicle
 * and shows exactly what its owner typed. On its own embedded database, migrated up to the
 * migration before, filled, then migrated on.
 */

const journal = JSON.parse(fs.readFileSync(path.join(migrationsDir, 'meta', '_journal.json'), 'utf8')) as { entries: Array<{ tag: string }> }
const before = fs.mkdtempSync(path.join(os.tmpdir(), 'autohub-before-odometer-'))
const client = new PGlite({ extensions: { pg_trgm, btree_gist } })
afterAll(async () => {
	await client.close()
	fs.rmSync(before, { recursive: true, force: true })
})

test('an existing reading survives: its vehicle is in miles and shows the same number, kept in km', async () => {
	const upTo = journal.entries.findIndex((entry) => entry.tag.startsWith('0031_'))
	expect(upTo).toBeGreaterThan(0)
	const kept = journal.entries.slice(0, upTo)
	fs.mkdirSync(path.join(before, 'meta'))
	for (const entry of kept) fs.copyFileSync(path.join(migrationsDir, `${entry.tag}.sql`), path.join(before, `${entry.tag}.sql`))
	fs.writeFileSync(path.join(before, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries: kept }))
	const database = drizzle(client)
	await migrate(database, { migrationsFolder: before })

	// As the form of before stored them: miles.
	await database.execute(sql`insert into users (id, email, password_hash, role, first_name, last_name)
	                           values ('00000000-0000-4000-8000-000000000001', 'old@example.com', 'x', 'customer', 'Olga', 'Old')`)
	await database.execute(sql`insert into car_brands (id, code, name_et, name_en, name_ru) values ('00000000-0000-4000-8000-000000000002', 'toyota', 'Toyota', 'Toyota', 'Toyota')`)
	await database.execute(sql`insert into vehicles (id, owner_id, registration_number, brand_id, model, model_specification, transmission, mileage)
	                           values ('00000000-0000-4000-8000-000000000003', '00000000-0000-4000-8000-000000000001', '123ABC',
	                                   '00000000-0000-4000-8000-000000000002', 'Corolla', '1.8', 'automatic', 61514)`)
	await database.execute(sql`insert into service_records (vehicle_id, performed_on, mileage, description)
	                           values ('00000000-0000-4000-8000-000000000003', '2026-01-10', 58000, 'Oil')`)
	await database.execute(sql`insert into vehicle_reminders (vehicle_id, kind, last_done_on, last_done_mileage, every_months, every_km, notified_key)
	                           values ('00000000-0000-4000-8000-000000000003', 'service', '2026-01-10', 58000, 12, 15000, '2027-01-10/67321')`)
	await database.execute(sql`insert into notifications (user_id, type, message_key, message_params, received_id)
	                           values ('00000000-0000-4000-8000-000000000001', 1, 'notifications.reminderService',
	                                   '{"vehicle":"123ABC","dueDay":"2027-01-10","miles":67321}', '00000000-0000-4000-8000-000000000003')`)

	await migrate(database, { migrationsFolder: migrationsDir })

	const [vehicle] = (await database.execute(sql`select mileage, odometer_unit from vehicles`)).rows as Array<{ mileage: number; odometer_unit: 'km' | 'mi' }>
	expect(vehicle).toEqual({ mileage: 98_997, odometer_unit: 'mi' })
	expect(fromKm(vehicle!.mileage, vehicle!.odometer_unit)).toBe(61_514)
	const [record] = (await database.execute(sql`select mileage from service_records`)).rows as Array<{ mileage: number }>
	expect(fromKm(record!.mileage, 'mi')).toBe(58_000)
	// The reminder's last service in km, its interval as it was (km), and the occurrence already told still told.
	const [reminder] = (await database.execute(sql`select last_done_mileage, every_km, notified_key from vehicle_reminders`)).rows as Array<Record<string, unknown>>
	expect(reminder).toEqual({ last_done_mileage: 93_342, every_km: 15_000, notified_key: '2027-01-10/108342' })
	const [notice] = (await database.execute(sql`select message_params from notifications`)).rows as Array<{ message_params: Record<string, unknown> }>
	expect(notice!.message_params).toEqual({ vehicle: '123ABC', dueDay: '2027-01-10', reading: 67_321 })

	// A vehicle added now is in km.
	await database.execute(sql`insert into vehicles (owner_id, registration_number, brand_id, model, model_specification, transmission, mileage)
	                           values ('00000000-0000-4000-8000-000000000001', '456DEF', '00000000-0000-4000-8000-000000000002', 'Yaris', '1.5', 'manual', 1000)`)
	const [added] = (await database.execute(sql`select odometer_unit from vehicles where registration_number = '456DEF'`)).rows as Array<{ odometer_unit: string }>
	expect(added!.odometer_unit).toBe('km')
})
