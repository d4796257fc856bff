import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator'
import { type PgliteDatabase } from 'drizzle-orm/pglite'
import { type NodePgDatabase } from 'drizzle-orm/node-postgres'
import { ADVISORY_LOCKS, getConnection, withAdvisoryLock } from '~/utils/db.server'
import { getEnv } from '~/utils/env.server'
import { migrationsDir } from '~/utils/paths.server'

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
	await withAdvisoryLock(getEnv().DATABASE_URL!, ADVISORY_LOCKS.migrations, () =>
		migratePostgres(db as unknown as NodePgDatabase, { migrationsFolder: migrationsDir }),
	)
}
