/** `npm run jobs`: runs every background job once (outbox delivery, clean-up, and later renewals). */
import { migrateDatabase } from '~/db/migrate.server'
import { closeDatabase } from '~/utils/db.server'
import { runJobsOnce } from '~/utils/jobs.server'

try {
	await migrateDatabase()
	await runJobsOnce()
} finally {
	await closeDatabase()
}
