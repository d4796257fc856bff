import { type SQL } from 'drizzle-orm'
import { type PgDatabase, type PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres'
import pg from 'pg'
import * as schema from '~/db/schema'
import { DomainError } from '~/utils/errors'
import { openBackupDoor } from '~/backup/door.server'
import { createEmbeddedClient, embeddedDirectory, takeEarlyClient } from '~/db/embedded-database.server'
import { getEnv } from '~/utils/env.server'
import { logger } from '~/utils/logger.server'
import { forgetSingleton, singleton } from '~/utils/singleton.server'

export type Schema = typeof schema
export type Database = PgDatabase<PgQueryResultHKT, Schema>
/** A transaction or the database itself: domain functions take either. */
export type DbOrTx = Database | Parameters<Parameters<Database['transaction']>[0]>[0]

type Connection = {
	db: Database
	kind: 'pglite' | 'postgres'
	/** A human-readable target for logs (never includes a password). */
	target: string
	close: () => Promise<void>
	/** PostgreSQL's pool (its counts are metrics); none on PGlite, one connection in the process. */
	pool?: pg.Pool
}

function connectionKey() {
	const env = getEnv()
	return `db:${env.DATABASE_URL ?? env.dataDir}`
}

/**
 * The database of this process: PostgreSQL when DATABASE_URL is set, else embedded
 * PGlite in DATA_DIR. Opened once per process (PGlite must never be opened twice on a directory).
 */
export function getConnection(): Connection {
	return singleton(connectionKey(), openConnection)
}

/**
 * A data directory (a PGlite `dumpDataDir` tarball) that new in-memory databases start from,
 * instead of an empty cluster. Only the tests set it: each test file's database is a copy of one
 * migrated template (tests/setup/database.ts, docs/decisions/0076).
 */
let embeddedTemplate: Blob | undefined
export function startEmbeddedDatabasesFrom(tarball: Blob | undefined) {
	embeddedTemplate = tarball
}

function openConnection(): Connection {
	const env = getEnv()
	if (env.DATABASE_URL) {
		const pool = createPool(env.DATABASE_URL)
		const url = new URL(env.DATABASE_URL)
		return {
			db: drizzlePostgres(pool, { schema, casing: 'snake_case' }) as unknown as Database,
			kind: 'postgres',
			target: `postgres://${url.host}${url.pathname}`,
			close: () => pool.end(),
			pool,
		}
	}
	const inMemory = env.dataDir.startsWith('memory://')
	const directory = embeddedDirectory(env.dataDir)
	const loadDataDir = inMemory ? embeddedTemplate : undefined
	// The server may have started opening it already (server/index.ts).
	const client = takeEarlyClient(directory, { loadDataDir }) ?? createEmbeddedClient(directory, loadDataDir)
	// Whoever holds a data directory open makes its backups (`npm run backup`, decision 0144).
	const door = inMemory ? null : openBackupDoor(client, env.dataDir, (message, details) => logger.warn(message, details))
	return {
		db: drizzlePglite(client, { schema, casing: 'snake_case' }) as unknown as Database,
		kind: 'pglite',
		target: inMemory ? 'pglite (in memory)' : `pglite ${directory}`,
		close: async () => {
			await door?.close()
			await client.close()
		},
	}
}

/** The PostgreSQL pool of a process: ten connections, five seconds to connect. */
export function createPool(url: string) {
	const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5_000 })
	// An idle connection the server ends (a restart, a dropped database) is an 'error' event on
	// the pool; unheard, it would stop the process. The pool replaces the connection on next use.
	pool.on('error', (error) => logger.warn('database connection lost', { err: error }))
	markConnectionErrors(pool)
	return pool
}

/**
 * Errors of connecting to the server are marked `fromDatabase`, so that an unreachable database
 * (a 503) is told apart from any other network failure, a payment provider's say.
 */
function markConnectionErrors(pool: pg.Pool) {
	const mark = (error: Error) => Object.assign(error, { fromDatabase: true })
	const connect = pool.connect.bind(pool) as (callback?: (error: Error | undefined, client: pg.PoolClient | undefined, release: () => void) => void) => Promise<pg.PoolClient> | void
	pool.connect = ((callback?: (error: Error | undefined, client: pg.PoolClient | undefined, release: () => void) => void) => {
		if (callback) return connect((error, client, release) => callback(error && mark(error), client, release))
		return (connect() as Promise<pg.PoolClient>).catch((error: Error) => {
			throw mark(error)
		})
	}) as typeof pool.connect
}

/** Closes this process's database (tests, scripts, shutdown). */
export async function closeDatabase() {
	const key = connectionKey()
	const store = (globalThis as { __autohubSingletons?: Map<string, unknown> }).__autohubSingletons
	const connection = store?.get(key) as Connection | undefined
	if (!connection) return
	forgetSingleton(key)
	await connection.close()
}

/**
 * The database, opened on first use. A proxy so that importing this module opens nothing:
 * scripts and tests choose their database through the environment before the first query.
 */
export const db: Database = new Proxy({} as Database, {
	get(_target, property) {
		const real = getConnection().db
		const value = Reflect.get(real, property, real)
		return typeof value === 'function' ? value.bind(real) : value
	},
})

/** Rows of a raw SQL query; both drivers answer `{ rows }`. */
export async function queryRows<T>(database: DbOrTx, query: SQL): Promise<T[]> {
	const result = (await database.execute(query)) as unknown as { rows: T[] }
	return result.rows
}

/** An error and its causes, outermost first (drizzle wraps the driver's error in its own). */
export function* errorCauses(error: unknown): Generator<Record<string, unknown>> {
	for (let current: unknown = error; current && typeof current === 'object'; current = (current as { cause?: unknown }).cause) {
		yield current as Record<string, unknown>
	}
}

/** The PostgreSQL error code of an error or any of its causes. */
export function pgErrorCode(error: unknown): string | undefined {
	for (const { code } of errorCauses(error)) if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code
	return undefined
}

/** deadlock_detected and serialization_failure: PostgreSQL aborted the transaction, running it again may succeed. */
const RETRYABLE = new Set(['40P01', '40001'])
const MAX_ATTEMPTS = 4

export type Tx = Parameters<Parameters<Database['transaction']>[0]>[0]

/** How many transactions were run again since start (a deadlock under the one lock order is a bug). */
export const transactionStats = { retried: 0 }

/** Work to do once the transaction has committed (files promoted into the store, say), per transaction. */
const commitHooks = new WeakMap<object, Array<() => Promise<void>>>()

/**
 * Runs `after` once `tx` has committed; outside a transaction (or in one not opened by
 * `transaction()`), at once. A rolled-back attempt's hooks never run.
 */
export async function afterCommit(tx: DbOrTx, after: () => Promise<void>, options: { once?: string } = {}) {
	const hooks = commitHooks.get(tx)
	if (!hooks) return after()
	// `once`: a step many writes ask for (wake the outbox) runs once per transaction.
	if (options.once) {
		const asked = onceAsked.get(hooks) ?? new Set<string>()
		onceAsked.set(hooks, asked)
		if (asked.has(options.once)) return
		asked.add(options.once)
	}
	hooks.push(after)
}
const onceAsked = new WeakMap<object, Set<string>>()

/** The advisory locks processes take on a PostgreSQL server, side by side so no two share a key. */
export const ADVISORY_LOCKS = { migrations: 727_001, jobQueues: 727_002 } as const

/**
 * Runs `work` holding an advisory lock on a connection of its own, so processes starting at once
 * (migrations, creating the job queues) take turns.
 */
export async function withAdvisoryLock(url: string, key: number, work: () => Promise<void>) {
	const lock = new pg.Client({ connectionString: url })
	await lock.connect()
	try {
		await lock.query('select pg_advisory_lock($1)', [key])
		await work()
	} finally {
		await lock.query('select pg_advisory_unlock($1)', [key]).catch(() => {})
		await lock.end()
	}
}

/**
 * Every write that spans several statements goes through here: one transaction, run again (up
 * to four times, after a short random pause) when PostgreSQL aborts it as a deadlock or a
 * serialization failure, so the loser of a race gets the domain's answer on its next attempt,
 * never a 500. When the attempts run out the caller gets a 409 "try again". Work registered
 * with `afterCommit` runs once, after the commit that counted.
 */
export async function transaction<T>(work: (tx: Tx) => Promise<T>, options: { retry?: boolean } = {}): Promise<T> {
	// A transaction that calls out (a payment provider's charge) must not run twice: no retry.
	const maxAttempts = options.retry === false ? 1 : MAX_ATTEMPTS
	for (let attempt = 1; ; attempt++) {
		const hooks: Array<() => Promise<void>> = []
		try {
			const result = await db.transaction(async (tx) => {
				commitHooks.set(tx, hooks)
				return work(tx)
			})
			for (const hook of hooks) {
				await hook().catch((error: unknown) => logger.error('after-commit step failed', { err: error }))
			}
			return result
		} catch (error) {
			const code = pgErrorCode(error)
			if (!code || !RETRYABLE.has(code)) throw error
			if (attempt >= maxAttempts) {
				logger.warn('transaction gave up after repeated conflicts', { code, attempts: attempt })
				throw new DomainError('common:errors.conflict', 409)
			}
			transactionStats.retried++
			logger.info('transaction aborted by the database, running it again', { code, attempt })
			await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * attempt))
		}
	}
}

/** True when an insert or update broke a unique constraint (on PGlite and on a server alike). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
	for (const { code, constraint: name } of errorCauses(error)) if (code === '23505') return constraint ? name === constraint : true
	return false
}
