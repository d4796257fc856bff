import { spawnSync } from 'node:child_process'
import pg from 'pg'
import { type BenchSuite } from '../types'

/** The bench database's own bookkeeping: which suites are seeded, at which version. */
const MARKER = 'bench_seed'

export function databaseName(url: string) {
	return decodeURIComponent(new URL(url).pathname.replace(/^\//, ''))
}

export async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
	const client = new pg.Client({ connectionString: url })
	await client.connect()
	try {
		return await run(client)
	} finally {
		await client.end()
	}
}

/** The server's maintenance database, to create or drop the bench database. */
function maintenanceUrl(url: string) {
	const u = new URL(url)
	u.pathname = '/postgres'
	return u.toString()
}

export async function databaseExists(url: string) {
	return withClient(maintenanceUrl(url), async (client) => {
		const { rows } = await client.query('select 1 from pg_database where datname = $1', [databaseName(url)])
		return rows.length > 0
	})
}

export async function recreateDatabase(url: string) {
	const name = databaseName(url).replace(/"/g, '""')
	await withClient(maintenanceUrl(url), async (client) => {
		await client.query(`drop database if exists "${name}" with (force)`)
		await client.query(`create database "${name}"`)
	})
}

/** The portal's own migrations, applied by its own script (`npm run db:migrate`). */
export function migrate(url: string) {
	const result = spawnSync('npm', ['run', '--silent', 'db:migrate'], {
		stdio: ['ignore', 'ignore', 'inherit'],
		env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'warn' },
	})
	if (result.status !== 0) throw new Error('migrations failed')
}

/** The seeded suites and their versions; null: no bench database, or not one the bench seeded. */
async function seededVersions(url: string): Promise<Map<string, number> | null> {
	if (!(await databaseExists(url))) return null
	return withClient(url, async (client) => {
		const { rows: exists } = await client.query(`select to_regclass('${MARKER}') as t`)
		if (!exists[0]?.t) return null
		const { rows } = await client.query<{ suite: string; version: number }>(`select suite, version from ${MARKER}`)
		return new Map(rows.map((row) => [row.suite, row.version]))
	})
}

/** The suites whose seed is missing or out of date (a suite `addedLater` that is missing is added by `seedAddedSuites` instead). */
export async function staleSuites(url: string, suites: BenchSuite[]): Promise<BenchSuite[]> {
	const seeded = await seededVersions(url)
	if (!seeded) return suites
	return suites.filter((suite) => (suite.addedLater && !seeded.has(suite.name) ? false : seeded.get(suite.name) !== suite.seedVersion))
}

/**
 * Adds the data of the chosen suites `addedLater` that this bench database has not had yet, once:
 * the database is migrated first (it may predate their tables), then each seed, then its marker.
 */
export async function seedAddedSuites(url: string, suites: BenchSuite[], log: (message: string) => void) {
	const seeded = (await seededVersions(url)) ?? new Map<string, number>()
	const missing = suites.filter((suite) => suite.addedLater && !seeded.has(suite.name))
	if (!missing.length) return
	migrate(url)
	await withClient(url, async (client) => {
		for (const suite of missing) {
			const started = Date.now()
			log(`${suite.name}: adding its data to the bench database (once)`)
			await suite.seed(client, (message) => log(`${suite.name}: ${message}`))
			await client.query(`insert into ${MARKER} (suite, version) values ($1, $2)`, [suite.name, suite.seedVersion])
			log(`${suite.name}: seeded in ${Math.round((Date.now() - started) / 1000)} s`)
		}
	})
}

/** Builds the database from scratch: migrations, then every suite's seed, then statistics. */
export async function seedDatabase(url: string, suites: BenchSuite[], log: (message: string) => void) {
	log(`creating ${databaseName(url)}`)
	await recreateDatabase(url)
	migrate(url)
	await withClient(url, async (client) => {
		await client.query(`create table ${MARKER} (suite text primary key, version int not null, seeded_at timestamptz not null default now())`)
		for (const suite of suites) {
			const started = Date.now()
			await suite.seed(client, (message) => log(`${suite.name}: ${message}`))
			await client.query(`insert into ${MARKER} (suite, version) values ($1, $2)`, [suite.name, suite.seedVersion])
			log(`${suite.name}: seeded in ${Math.round((Date.now() - started) / 1000)} s`)
		}
		log('vacuum analyze')
		await client.query('vacuum analyze')
	})
}
