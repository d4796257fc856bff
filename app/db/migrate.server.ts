import fs from 'node:fs'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { type PgliteDatabase } from 'drizzle-orm/pglite'
import { type NodePgDatabase } from 'drizzle-orm/node-postgres'
import { ADVISORY_LOCKS, getConnection, pgErrorCode, queryRows, withAdvisoryLock, type Database } from '~/db/db.server'
import { getEnv } from '~/utils/env.server'
import { migrationsDir } from '~/utils/paths.server'

/**
 * Applies the SQL migrations in app/db/migrations that have not run yet: 'applied' when some
 * could have, 'current' when the embedded database was found up to date and nothing ran.
 * On a server, an advisory lock held on its own connection makes concurrent starts wait for each other,
 * and the migrations run on a connection of their own with MIGRATION_LOCK_TIMEOUT_MS as lock_timeout:
 * one that cannot have a busy table's lock soon fails (run it again later) rather than queue every
 * request behind it (decision 0143). Drizzle runs all pending migrations in one transaction.
 * Drizzle's migrator is loaded only when it runs: a current data directory never needs it.
 */
export async function migrateDatabase(): Promise<'applied' | 'current'> {
	const { db, kind } = getConnection()
	if (kind === 'pglite') {
		// Reopening a data directory: one query instead of drizzle's schema, table and transaction
		// statements and reading every migration file (decision 0094).
		if (await isCurrent(db)) return 'current'
		const { migrate } = await import('drizzle-orm/pglite/migrator')
		await migrate(db as unknown as PgliteDatabase, { migrationsFolder: migrationsDir })
		return 'applied'
	}
	const [{ migrate }, { drizzle }] = await Promise.all([import('drizzle-orm/node-postgres/migrator'), import('drizzle-orm/node-postgres')])
	const { DATABASE_URL, MIGRATION_LOCK_TIMEOUT_MS } = getEnv()
	await withAdvisoryLock(DATABASE_URL!, ADVISORY_LOCKS.migrations, async () => {
		const client = new pg.Client({ connectionString: DATABASE_URL, options: `-c lock_timeout=${MIGRATION_LOCK_TIMEOUT_MS}` })
		await client.connect()
		try {
			await migrate(drizzle(client) as unknown as NodePgDatabase, { migrationsFolder: migrationsDir })
		} finally {
			await client.end()
		}
	})
	return 'applied'
}

/** How many migrations of app/db/migrations the database has not run yet (all of them on a new one). */
export async function pendingMigrations(database: Database): Promise<number> {
	const last = await lastApplied(database)
	return journalTimes().filter((when) => last === null || when > last).length
}

/** PostgreSQL's undefined_table: "relation … does not exist". */
const UNDEFINED_TABLE = '42P01'

/**
 * Whether the database has run the newest migration of the journal. Drizzle applies a migration
 * when its `when` is later than the last one the database recorded, so when that record is at
 * least the newest `when`, drizzle would apply nothing.
 */
export async function isCurrent(database: Database): Promise<boolean> {
	const last = await lastApplied(database)
	return last !== null && last >= Math.max(...journalTimes())
}

function journalTimes(): number[] {
	const journal = JSON.parse(fs.readFileSync(path.join(migrationsDir, 'meta', '_journal.json'), 'utf8')) as { entries: Array<{ when: number }> }
	return journal.entries.map((entry) => entry.when)
}

/** The `when` of the newest migration the database recorded, or null (none, or no table yet). */
async function lastApplied(database: Database): Promise<number | null> {
	const [row] = await queryRows<{ last: string | null }>(database, sql`select max(created_at)::text as last from drizzle.__drizzle_migrations`).catch(
		(error: unknown) => {
			// No such table yet (a new data directory): not current; drizzle's migrator makes it. Any
			// other failure (the database unreadable, say) is the start's, not a reason to migrate.
			if (pgErrorCode(error) === UNDEFINED_TABLE) return []
			throw error
		},
	)
	return row?.last != null ? Number(row.last) : null
}
