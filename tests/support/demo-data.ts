import fs from 'node:fs'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { expect, inject } from 'vitest'
import { loadDemoDataIfEmpty } from '~/db/seed/demo-data.server'
import { closeDatabase, db, queryRows, startEmbeddedDatabasesFrom } from '~/db/db.server'
import { resetEnvCache } from '~/utils/env.server'
import { storageRoot } from '~/uploads/file-store.server'

/**
 * The demo data in this test file's database, loaded once per file (decision 0109). While the
 * database is still empty (no account yet) the file moves to a copy of the run's demo template
 * (tests/setup/database-template.ts): a new database cloned from it on PostgreSQL, a new in-memory
 * one started from its tarball on PGlite, with its stored pictures copied into this file's store.
 * That takes a moment where loading the data takes about 25 s on PGlite. A database that holds
 * anything already, or a run without the template, gets the demo data loaded as before.
 */
let demoLoading: Promise<void> | null = null

export function demoData(): Promise<void> {
	demoLoading ??= useDemoTemplate().catch((error: unknown) => {
		demoLoading = null
		throw error
	})
	return demoLoading
}

async function useDemoTemplate() {
	const template = inject('demoTemplate')
	const [row] = await queryRows<{ accounts: number }>(db, sql`select count(*)::int as accounts from users`)
	if (!template || row?.accounts) {
		const loaded = await loadDemoDataIfEmpty()
		// A minute under load, where the template takes a moment: the file made accounts before asking.
		if (loaded && template) console.warn(`${expect.getState().testPath ?? 'a test file'}: the demo data loaded the slow way; call demoData() in beforeAll, before any account is made`)
		return
	}
	await closeDatabase()
	if (template.kind === 'postgres') {
		const url = new URL(process.env.DATABASE_URL!)
		const copy = `${url.pathname.slice(1)}_demo`
		const server = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL })
		await server.connect()
		try {
			await server.query(`create database "${copy}" template "${template.name}"`)
		} finally {
			await server.end()
		}
		url.pathname = `/${copy}`
		process.env.DATABASE_URL = url.toString()
		resetEnvCache()
	} else {
		startEmbeddedDatabasesFrom(new Blob([fs.readFileSync(template.tarball)]))
	}
	fs.cpSync(template.files, storageRoot(), { recursive: true })
	// Opened now, by this module: another copy of the app's code (the fuzz suite's build) finds it open.
	await queryRows(db, sql`select 1`)
}
