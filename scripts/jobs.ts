/** `npm run jobs`: runs every background job once (outbox delivery, clean-up, and later renewals). */
import { migrateDatabase } from '~/db/migrate.server'
import { closeDatabase } from '~/db/db.server'
import { runJobsOnce } from '~/jobs/schedule.server'
import { checkConfiguration } from '~/utils/startup.server'

// As the web process and the worker: the jobs' e-mails carry unsubscribe links signed with the
// portal's SESSION_SECRET, so a missing one stops here with the reason, not in the middle of a job.
try {
	checkConfiguration()
} catch (error) {
	console.error(`The jobs cannot run: ${error instanceof Error ? error.message : String(error)}`)
	process.exit(1)
}
try {
	await migrateDatabase()
	await runJobsOnce()
} finally {
	await closeDatabase()
}
