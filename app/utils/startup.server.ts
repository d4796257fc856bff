import { sql } from 'drizzle-orm'
import { migrateDatabase, pendingMigrations } from '~/db/migrate.server'
import { hasDemoData } from '~/db/seed/has-demo-data.server'
import { startCacheListener, stopCacheListener } from '~/caching/cache-bus.server'
import { stopDailyCounts } from '~/counting/daily-counts.server'
import { closeDatabase, db, getConnection } from '~/db/db.server'
import { EMBEDDED_JOBS_DELAY_MS, makeEmbeddedDatabase } from '~/db/embedded-database.server'
import { getFileStore } from '~/uploads/file-store.server'
import { checkServingConfiguration, getEnv, usesDevelopmentSessionSecret } from './env.server'
import { startBackgroundJobs, stopBackgroundJobs } from '~/jobs/schedule.server'
import { logger } from './logger.server'
import { singleton } from './singleton.server'

type StartupState = { phase: 'starting' | 'ready' | 'failed'; promise?: Promise<void>; pendingMigrations?: number }

const state = singleton<StartupState>('startup', () => ({ phase: 'starting' }))

/**
 * Throws, with a message for the operator, when the configuration cannot work (an invalid
 * variable, no SESSION_SECRET on a shared database, production on one without APP_URL…): the
 * server, the worker and `npm run jobs` then refuse to start.
 */
export function checkConfiguration() {
	checkServingConfiguration()
}

/**
 * Migrates, or with MIGRATE_ON_START=false (the release step `npm run db:migrate` does it) only
 * checks: a database behind this code fails the start with a message naming the pending count, and
 * the server tries again until it is migrated (its /readyz says 503 meanwhile), rather
 * than serve errors from a schema it does not know (decision 0143).
 */
export async function migrateOrCheck(): Promise<'applied' | 'current' | 'not run'> {
	if (getEnv().migrateOnStart) return migrateDatabase()
	const pending = await pendingMigrations(db)
	if (pending > 0) {
		state.pendingMigrations = pending
		throw new Error(`the database is ${pending} migration(s) behind this code and MIGRATE_ON_START=false: run \`npm run db:migrate\``)
	}
	state.pendingMigrations = 0
	return 'not run'
}

/**
 * Brings the app to a serving state once per process: migrations, then demo data when configured.
 * The server holds requests until this resolves; /readyz reports it.
 */
export function startup(options: { backgroundJobs: boolean } = { backgroundJobs: true }): Promise<void> {
	state.promise ??= (async () => {
		const started = performance.now()
		const env = getEnv()
		if (usesDevelopmentSessionSecret()) {
			logger.warn('SESSION_SECRET is not set: using the development secret (development and tests only).')
		}
		try {
			// A new embedded database is made on a worker thread: the starting page keeps answering.
			const made = env.usesEmbeddedDatabase ? await makeEmbeddedDatabase(env.dataDir) : 'existing'
			if (made === 'made') logger.info('new embedded database made on a worker thread', { ms: Math.round(performance.now() - started) })
			if (made === 'failed') logger.warn('making the embedded database on a worker thread failed: making it on the main thread')
			const { target } = getConnection()
			// The database answering first, so that the log says where a slow start went (decision 0130).
			await db.execute(sql`select 1`)
			const openedAt = performance.now()
			const migrations = await migrateOrCheck()
			const migratedAt = performance.now()
			await getFileStore().check()
			const seeded = env.seedDemoData ? await loadDemoDataIfEmpty() : false
			const seededAt = performance.now()
			// RUN_JOBS=false: on PostgreSQL this process only queues jobs, `npm run worker` runs them.
			// The delay is the embedded timers' (a server's pg-boss schedules do not read it).
			if (options.backgroundJobs) await startBackgroundJobs({ work: env.runJobs, firstRunAfterMs: EMBEDDED_JOBS_DELAY_MS })
			// Other processes' changes to the settings, ads and lists empty this one's caches too.
			startCacheListener()
			state.phase = 'ready'
			logger.info('database ready', {
				database: target,
				files: getFileStore().location,
				migrations,
				demoDataLoaded: seeded,
				openMs: Math.round(openedAt - started),
				migrateMs: Math.round(migratedAt - openedAt),
				demoDataMs: Math.round(seededAt - migratedAt),
				ms: Math.round(performance.now() - started),
			})
		} catch (error) {
			// The next call tries again (the server retries while the database is unreachable): the
			// first failure is an error in the log, the retries that follow only warnings.
			if (state.phase !== 'failed') logger.error('startup failed', { err: error })
			else logger.warn('startup failed again', { err: error })
			state.phase = 'failed'
			state.promise = undefined
			throw error
		}
	})()
	return state.promise
}

/**
 * The demo data when the database has none. Its module (the whole data set, and sharp for its
 * pictures) is loaded only then: a reopened data directory costs one query (decision 0094).
 */
async function loadDemoDataIfEmpty(): Promise<boolean> {
	if (await hasDemoData(db)) return false
	const demo = await import('~/db/seed/demo-data.server')
	await demo.loadDemoData(db)
	return true
}

/** 200 once migrated and answering; 503 while starting or after a failure. */
export async function checkHealth(): Promise<{ status: number; body: Record<string, unknown> }> {
	// Anyone may ask: the answer names the state, never the driver's error text (that is in the log).
	if (state.phase !== 'ready') {
		// A count only, for whoever deploys: the release step has not migrated yet.
		const pending = state.pendingMigrations ? { pendingMigrations: state.pendingMigrations } : {}
		return { status: 503, body: { status: state.phase, ...pending } }
	}
	try {
		await db.execute(sql`select 1`)
		return { status: 200, body: { status: 'ok' } }
	} catch {
		return { status: 503, body: { status: 'database unavailable' } }
	}
}

export async function shutdown() {
	// Running jobs finish first (for a few seconds at most): they need the database.
	await stopBackgroundJobs().catch((error: unknown) => logger.error('stopping the background jobs failed', { err: error }))
	await stopCacheListener()
	// What this process counted since its last write (decision 0152).
	await stopDailyCounts().catch((error: unknown) => logger.error('writing the daily counts failed', { err: error }))
	await closeDatabase()
}
