/** `npm run db:migrate`: applies pending migrations to DATABASE_URL (or the embedded database). */
import { migrateDatabase } from '~/db/migrate.server'
import { closeDatabase, getConnection } from '~/db/db.server'

try {
	await migrateDatabase()
	console.log(`Migrations applied to ${getConnection().target}.`)
} finally {
	await closeDatabase()
}
