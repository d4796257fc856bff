/**
 * Gives every integration test file a fresh, migrated database of its own:
 * in-memory PGlite by default, or a new database on the server named by TEST_DATABASE_URL.
 * App modules read the environment on first use, so this runs before any of them opens it.
 */
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll } from 'vitest'

const serverUrl = process.env.TEST_DATABASE_URL
const databaseName = `autohub_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`

process.env.NODE_ENV = 'test'
process.env.LOG_LEVEL ??= 'error'
process.env.SEED_DEMO_DATA = 'false'

if (serverUrl) {
	await withServer((client) => client.query(`create database "${databaseName}"`))
	const url = new URL(serverUrl)
	url.pathname = `/${databaseName}`
	process.env.DATABASE_URL = url.toString()
} else {
	delete process.env.DATABASE_URL
	process.env.DATA_DIR = `memory://${databaseName}`
}

const { resetEnvCache } = await import('~/utils/env.server')
resetEnvCache()
const { migrateDatabase } = await import('~/db/migrate.server')
await migrateDatabase()

afterAll(async () => {
	const { closeDatabase } = await import('~/utils/db.server')
	await closeDatabase()
	if (serverUrl) await withServer((client) => client.query(`drop database if exists "${databaseName}" with (force)`))
})

async function withServer(run: (client: pg.Client) => Promise<unknown>) {
	const client = new pg.Client({ connectionString: serverUrl })
	await client.connect()
	try {
		await run(client)
	} finally {
		await client.end()
	}
}
