/** `npm run jobs`: runs every background job once (outbox delivery, clean-up, and later renewals). */
import { closeDatabase } from '~/db/db.server'
import { runJobsOnce } from '~/jobs/schedule.server'
import { checkConfiguration, migrateOrCheck } from '~/utils/startup.server'

// As the web process and the worker: the jobs' e-mails carry unsubscribe links signed with the
// portal's SESSION_SECRET, so a missing one stops here with the reason, not in the middle of a job.
try {
	checkConfiguration()
} catch (error) {
	console.error(`The jobs cannot run: ${error instanceof Error ? error.message : String(error)}`)
	process.exit(1)
}
try {
	// MIGRATE_ON_START=false: only checked; a database behind this code stops here with the count.
	await migrateOrCheck()
	await runJobsOnce()
} finally {
	await closeDatabase()
}
