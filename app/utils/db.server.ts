import fs from 'node:fs'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { type SQL } from 'drizzle-orm'
import { type PgDatabase, type PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres'
import pg from 'pg'
import * as schema from '~/db/schema'
import { getEnv } from './env.server'
import { logger } from './logger.server'
import { forgetSingleton, singleton } from './singleton.server'

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

function openConnection(): Connection {
	const env = getEnv()
	if (env.DATABASE_URL) {
		const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: 10 })
		// An idle connection the server ends (a restart, a dropped database) is an 'error' event on
		// the pool; unheard, it would stop the process. The pool replaces the connection on next use.
		pool.on('error', (error) => logger.warn('database connection lost', { error: error.message }))
		const url = new URL(env.DATABASE_URL)
		return {
			db: drizzlePostgres(pool, { schema, casing: 'snake_case' }) as unknown as Database,
			kind: 'postgres',
			target: `postgres://${url.host}${url.pathname}`,
			close: () => pool.end(),
		}
	}
	const inMemory = env.dataDir.startsWith('memory://')
	const directory = inMemory ? env.dataDir : `${env.dataDir}/pglite`
	if (!inMemory) fs.mkdirSync(directory, { recursive: true })
	const client = new PGlite(directory, { extensions: { pg_trgm } })
	return {
		db: drizzlePglite(client, { schema, casing: 'snake_case' }) as unknown as Database,
		kind: 'pglite',
		target: inMemory ? 'pglite (in memory)' : `pglite ${directory}`,
		close: () => client.close(),
	}
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

/** True when an insert or update broke a unique constraint (on PGlite and on a server alike). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
	for (let current: unknown = error; current && typeof current === 'object'; current = (current as { cause?: unknown }).cause) {
		const { code, constraint: name } = current as { code?: string; constraint?: string }
		if (code === '23505') return constraint ? name === constraint : true
	}
	return false
}
