/** `npm run jobs`: runs every background job once (outbox delivery, clean-up, and later renewals). */
import { migrateDatabase } from '~/db/migrate.server'
import { closeDatabase } from '~/db/db.server'
import { runJobsOnce } from '~/jobs/schedule.server'

try {
	await migrateDatabase()
	await runJobsOnce()
} finally {
	await closeDatabase()
}
