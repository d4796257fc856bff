import pg from 'pg'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator'
import { type PgliteDatabase } from 'drizzle-orm/pglite'
import { type NodePgDatabase } from 'drizzle-orm/node-postgres'
import { getConnection } from '~/utils/db.server'
import { getEnv } from '~/utils/env.server'
import { migrationsDir } from '~/utils/paths.server'

// Any constant works; it only has to be the same in every process that migrates.
const MIGRATION_LOCK = 727_001

/**
 * Applies the SQL migrations in app/db/migrations that have not run yet.
 * On a server, an advisory lock held on its own connection makes concurrent starts wait for each other.
 */
export async function migrateDatabase() {
	const { db, kind } = getConnection()
	if (kind === 'pglite') {
		await migratePglite(db as unknown as PgliteDatabase, { migrationsFolder: migrationsDir })
		return
	}
	const lock = new pg.Client({ connectionString: getEnv().DATABASE_URL })
	await lock.connect()
	try {
		await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK])
		await migratePostgres(db as unknown as NodePgDatabase, { migrationsFolder: migrationsDir })
	} finally {
		await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {})
		await lock.end()
	}
}
