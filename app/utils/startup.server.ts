import { sql } from 'drizzle-orm'
import { loadDemoDataIfEmpty } from '~/db/seed/demo-data.server'
import { migrateDatabase } from '~/db/migrate.server'
import { closeDatabase, db, getConnection } from './db.server'
import { getEnv, usesDevelopmentSessionSecret } from './env.server'
import { startBackgroundJobs, stopBackgroundJobs } from './jobs.server'
import { logger } from './logger.server'
import { singleton } from './singleton.server'

type StartupState = { phase: 'starting' | 'ready' | 'failed'; error?: string; promise?: Promise<void> }

const state = singleton<StartupState>('startup', () => ({ phase: 'starting' }))

/**
 * Brings the app to a serving state once per process: migrations, then demo data when configured.
 * The server holds requests until this resolves; /healthz reports it.
 */
export function startup(options: { backgroundJobs: boolean } = { backgroundJobs: true }): Promise<void> {
	state.promise ??= (async () => {
		const started = performance.now()
		const env = getEnv()
		if (usesDevelopmentSessionSecret()) {
			logger.warn('SESSION_SECRET is not set: using the development secret. Set it in production.')
		}
		try {
			const { target } = getConnection()
			await migrateDatabase()
			const seeded = env.seedDemoData ? await loadDemoDataIfEmpty() : false
			state.phase = 'ready'
			if (options.backgroundJobs) startBackgroundJobs()
			logger.info('database ready', {
				database: target,
				demoDataLoaded: seeded,
				ms: Math.round(performance.now() - started),
			})
		} catch (error) {
			state.phase = 'failed'
			state.error = error instanceof Error ? error.message : String(error)
			// The next call tries again (the server retries while the database is unreachable).
			state.promise = undefined
			logger.error('startup failed', { error: error instanceof Error ? error.stack : String(error) })
			throw error
		}
	})()
	return state.promise
}

/** 200 once migrated and answering; 503 while starting or after a failure. */
export async function checkHealth(): Promise<{ status: number; body: Record<string, unknown> }> {
	if (state.phase !== 'ready') return { status: 503, body: { status: state.phase, error: state.error } }
	try {
		await db.execute(sql`select 1`)
		return { status: 200, body: { status: 'ok' } }
	} catch (error) {
		return { status: 503, body: { status: 'database unavailable', error: String(error) } }
	}
}

export async function shutdown() {
	stopBackgroundJobs()
	await closeDatabase()
}
