/**
 * Gives every integration (and fuzz) test file a fresh, migrated database of its own: a copy of
 * the template that tests/setup/database-template.ts migrated once for the run (docs/decisions/0076),
 * in-memory PGlite by default, or a new database on the server named by TEST_DATABASE_URL.
 * Without that globalSetup (a config that lacks it) the database is made and migrated here, as before.
 * App modules read the environment on first use, so this runs before any of them opens it.
 */
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, inject } from 'vitest'

const serverUrl = process.env.TEST_DATABASE_URL
const databaseName = `autohub_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`
const template = inject('databaseTemplate')
if (template && template.kind !== (serverUrl ? 'postgres' : 'pglite')) throw new Error(`the ${template.kind} template does not fit this run's database`)

process.env.NODE_ENV = 'test'
process.env.LOG_LEVEL ??= 'error'
process.env.SEED_DEMO_DATA = 'false'
// The tests' addresses are the default portal's, http://localhost:3000 (APP_URL follows PORT): a
// PORT or APP_URL in the developer's shell must not move them.
delete process.env.PORT
delete process.env.APP_URL

if (serverUrl) {
	const from = template?.kind === 'postgres' ? ` template "${template.name}"` : ''
	await withServer((client) => client.query(`create database "${databaseName}"${from}`))
	const url = new URL(serverUrl)
	url.pathname = `/${databaseName}`
	process.env.DATABASE_URL = url.toString()
	// Files go to a folder of this test file's own, never into the developer's ./data.
	process.env.DATA_DIR = path.join(os.tmpdir(), databaseName)
} else {
	delete process.env.DATABASE_URL
	process.env.DATA_DIR = `memory://${databaseName}`
	if (template?.kind === 'pglite') {
		const { startEmbeddedDatabasesFrom } = await import('~/db/db.server')
		startEmbeddedDatabasesFrom(new Blob([fs.readFileSync(template.tarball)]))
	}
}

const { resetEnvCache } = await import('~/utils/env.server')
resetEnvCache()
const { migrateDatabase } = await import('~/db/migrate.server')
// A copy of the template is migrated already: this finds nothing to do, and proves it.
await migrateDatabase()

afterAll(async () => {
	const { closeDatabase } = await import('~/db/db.server')
	await closeDatabase()
	if (serverUrl) {
		// Its copy of the demo template too, if it moved there (tests/support/demo-data.ts).
		for (const name of [databaseName, `${databaseName}_demo`]) await withServer((client) => client.query(`drop database if exists "${name}" with (force)`))
		fs.rmSync(process.env.DATA_DIR!, { recursive: true, force: true })
	}
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
