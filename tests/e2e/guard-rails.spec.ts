import pg from 'pg'
import { expect, test } from '@playwright/test'
import { startProcess, until, type Started } from './processes'
import { freePort } from '../../scripts/free-port.mjs'

/**
 * The built server started as an operator would, in production on a PostgreSQL server, with
 * settings that would not fail but quietly do the wrong thing: it refuses to start, naming the
 * setting (decision 0142). And a web process with MIGRATE_ON_START=false leaves a new database
 * alone until the release step migrates it (decision 0143).
 */

const serverUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

function databaseUrl(name: string) {
	const url = new URL(serverUrl)
	url.pathname = `/${name}`
	return url.href
}

/** Production on a server database with all it needs; `env` takes away or spoils one setting. */
async function startServer(env: Record<string, string | undefined>): Promise<Started & { url: string }> {
	// The system picks a port nobody listens on: two workers choosing at random once met on one.
	const port = await freePort()
	const started = startProcess([process.execPath, 'server-build/index.js'], {
		HOST: '127.0.0.1',
		PORT: String(port),
		DATABASE_URL: databaseUrl('autohub_never_reached'),
		SESSION_SECRET: 'guard-rails-test-session-secret-0123456789abcdef',
		APP_URL: `http://127.0.0.1:${port}`,
		SMTP_URL: 'smtp://127.0.0.1:2525',
		SEED_DEMO_DATA: 'false',
		WEB_CONCURRENCY: '2',
		LOG_LEVEL: 'info',
		...env,
	})
	return { ...started, url: `http://127.0.0.1:${port}` }
}

test('in production on a server database the server refuses to start, naming the setting, before any web process', async () => {
	const cases: Array<[Record<string, string | undefined>, string]> = [
		[{ APP_URL: undefined }, 'APP_URL is not set'],
		[{ SMTP_URL: undefined }, 'SMTP_URL is not set'],
		[{ STRIPE_SECRET_KEY: 'sk_live_guard' }, 'STRIPE_WEBHOOK_SECRET is not set'],
		[{ STRIPE_WEBHOOK_SECRET: 'whsec_guard' }, 'STRIPE_SECRET_KEY is not set'],
		[{ TRUST_PROXY: 'yes' }, 'TRUST_PROXY'],
		[{ HOST: 'not a host' }, 'HOST'],
		[{ SESSION_SECRETS: 'guard-rails-test-session-secret-new-0123456789' }, 'SESSION_SECRETS or SESSION_SECRET, not both'],
	]
	const servers = await Promise.all(cases.map(([env]) => startServer(env)))
	for (const [index, server] of servers.entries()) {
		expect(await server.exited, cases[index]![1]).toBe(1)
		const refusal = server.output().split('\n').find((line) => line.includes('the server cannot start'))
		expect(refusal, server.output()).toContain(cases[index]![1])
		// Refused in the primary: no web process was started, nothing tried the database.
		expect(server.output()).not.toContain('starting web processes')
	}
})

test('with SMTP_URL unset and EMAIL_TO_DISK=true it starts (e-mails kept on disk on purpose)', async () => {
	// The database is out of reach: the server starts and answers 503, which is all this needs.
	const server = await startServer({ SMTP_URL: undefined, EMAIL_TO_DISK: 'true', DATABASE_URL: 'postgres://postgres@127.0.0.1:1/autohub', WEB_CONCURRENCY: '1' })
	try {
		await until(async () => ((await fetch(`${server.url}/readyz`)).status === 503 ? true : undefined))
		expect(server.output()).not.toContain('the server cannot start')
	} finally {
		server.process.kill('SIGTERM')
		await server.exited
	}
})

test.describe('MIGRATE_ON_START=false', () => {
	test.skip(!process.env.TEST_DATABASE_URL, 'runs in the PostgreSQL pass (TEST_DATABASE_URL)')

	test('a new database stays unmigrated, /readyz says how far behind, and the process serves once `npm run db:migrate` ran', async () => {
		test.setTimeout(180_000)
		const name = `autohub_guards_${Date.now()}`
		const admin = new pg.Client({ connectionString: serverUrl })
		await admin.connect()
		await admin.query(`create database "${name}"`)
		const env = { DATABASE_URL: databaseUrl(name), MIGRATE_ON_START: 'false', WEB_CONCURRENCY: '1' }
		const server = await startServer(env)
		try {
			const behind = await until(async () => {
				const response = await fetch(`${server.url}/readyz`)
				const body = (await response.json()) as { pendingMigrations?: number }
				return response.status === 503 && body.pendingMigrations ? body : undefined
			})
			expect(behind.pendingMigrations).toBeGreaterThan(30)
			expect(server.output()).toMatch(/migration\(s\) behind this code and MIGRATE_ON_START=false: run `npm run db:migrate`/)
			const database = new pg.Client({ connectionString: databaseUrl(name) })
			await database.connect()
			const tables = await database.query(`select count(*)::int as n from information_schema.tables where table_schema = 'public'`)
			expect(tables.rows[0].n).toBe(0)

			// The worker too: it stops with the reason rather than run jobs against a schema it does not know.
			const worker = startProcess([process.execPath, 'scripts/run.mjs', 'worker'], { ...env, SESSION_SECRET: 'guard-rails-test-session-secret-0123456789abcdef', APP_URL: server.url, EMAIL_TO_DISK: 'true' })
			expect(await worker.exited).toBe(1)
			expect(worker.output()).toContain('migration(s) behind')

			const migrate = startProcess([process.execPath, 'scripts/run.mjs', 'db-migrate'], { DATABASE_URL: databaseUrl(name) })
			expect(await migrate.exited, migrate.output()).toBe(0)
			// The server tries its start again every few seconds, and is ready without a restart.
			await until(async () => ((await fetch(`${server.url}/readyz`)).status === 200 ? true : undefined), 60_000)
			await database.end()
		} finally {
			server.process.kill('SIGTERM')
			await server.exited
			await admin.query(`drop database if exists "${name}" with (force)`)
			await admin.end()
		}
	})
})
