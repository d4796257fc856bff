import fs from 'node:fs'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { type PgliteDatabase } from 'drizzle-orm/pglite'
import { type NodePgDatabase } from 'drizzle-orm/node-postgres'
import { ADVISORY_LOCKS, getConnection, pgErrorCode, queryRows, withAdvisoryLock, type Database } from '~/db/db.server'
import { getEnv } from '~/utils/env.server'
import { migrationsDir } from '~/utils/paths.server'

/**
 * Applies the SQL migrations in app/db/migrations that have not run yet: 'applied' when some
 * could have, 'current' when the embedded database was found up to date and nothing ran.
 * On a server, an advisory lock held on its own connection makes concurrent starts wait for each other.
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
	const { migrate } = await import('drizzle-orm/node-postgres/migrator')
	await withAdvisoryLock(getEnv().DATABASE_URL!, ADVISORY_LOCKS.migrations, () => migrate(db as unknown as NodePgDatabase, { migrationsFolder: migrationsDir }))
	return 'applied'
}

/** PostgreSQL's undefined_table: "relation … does not exist". */
const UNDEFINED_TABLE = '42P01'

/**
 * Whether the database has run the newest migration of the journal. Drizzle applies a migration
 * when its `when` is later than the last one the database recorded, so when that record is at
 * least the newest `when`, drizzle would apply nothing.
 */
export async function isCurrent(database: Database): Promise<boolean> {
	const journal = JSON.parse(fs.readFileSync(path.join(migrationsDir, 'meta', '_journal.json'), 'utf8')) as { entries: Array<{ when: number }> }
	const newest = Math.max(...journal.entries.map((entry) => entry.when))
	const [row] = await queryRows<{ last: string | null }>(database, sql`select max(created_at)::text as last from drizzle.__drizzle_migrations`).catch(
		(error: unknown) => {
			// No such table yet (a new data directory): not current; drizzle's migrator makes it. Any
			// other failure (the database unreadable, say) is the start's, not a reason to migrate.
			if (pgErrorCode(error) === UNDEFINED_TABLE) return []
			throw error
		},
	)
	return row?.last != null && Number(row.last) >= newest
}
