/**
 * `npm run worker`: a process that only runs the background jobs, for web processes started with
 * RUN_JOBS=false (any number of each; a schedule runs once across them all, decision 0084).
 * PostgreSQL only: on the embedded database the jobs run in the web process. Stops cleanly on
 * SIGTERM/SIGINT: running jobs finish (for a few seconds at most), then the database is closed.
 */
// First: tracing, when configured, is on before pg is used (docs/operations.md).
import '~/observability/start-tracing.server'
import { startCacheListener } from '~/caching/cache-bus.server'
import { getEnv } from '~/utils/env.server'
import { getFileStore } from '~/uploads/file-store.server'
import { startBackgroundJobs } from '~/jobs/schedule.server'
import { logger } from '~/utils/logger.server'
import { checkConfiguration, migrateOrCheck, shutdown } from '~/utils/startup.server'
import { registerDatabaseMetrics } from '~/observability/database-metrics.server'
import { serveMetrics } from '~/observability/metrics-server.server'
import { stopTracing } from '~/observability/tracing.server'

function refuse(reason: string): never {
	logger.error('the worker cannot start', { reason })
	process.exit(1)
}

// As the web process: a missing SESSION_SECRET (the e-mails' unsubscribe links are signed with it)
// stops the start here, not every e-mail job later.
try {
	checkConfiguration()
} catch (error) {
	refuse(error instanceof Error ? error.message : String(error))
}
if (getEnv().usesEmbeddedDatabase) {
	refuse('no DATABASE_URL: on the embedded database (PGlite) the web process runs the jobs itself, and no other process may open its files. Set DATABASE_URL to a PostgreSQL server to run workers.')
}

let stopping = false
async function stop(signal: string) {
	if (stopping) return
	stopping = true
	logger.info('worker stopping', { signal })
	// Running jobs finish first, then the cache listener and the database close (as in a web process).
	await shutdown().catch((error: unknown) => logger.error('shutdown failed', { err: error }))
	await stopTracing()
	process.exit(0)
}
process.on('SIGTERM', () => void stop('SIGTERM'))
process.on('SIGINT', () => void stop('SIGINT'))
// As in the web process: a promise nobody awaited failed, a bug to log, not a reason to stop working.
process.on('unhandledRejection', (reason) => logger.error('unhandled rejection', { err: reason }))

try {
	// MIGRATE_ON_START=false: only checked; a database behind this code stops here with the count.
	await migrateOrCheck()
	// The clean-up job sweeps the file store: a bucket that cannot be reached stops the start, as in a web process.
	await getFileStore().check()
	// The jobs read the site settings and lists too: an administrator's change empties them here as well.
	startCacheListener()
	await startBackgroundJobs({ work: true })
	// Its own scrape: the jobs' runs and failures, the queues, the outbox, its pool and event loop.
	const metricsPort = getEnv().METRICS_PORT
	if (metricsPort) {
		registerDatabaseMetrics()
		serveMetrics(metricsPort, { host: getEnv().HOST })
	}
	logger.info('worker started')
} catch (error) {
	logger.error('the worker failed to start', { err: error })
	await shutdown().catch(() => {})
	process.exit(1)
}
