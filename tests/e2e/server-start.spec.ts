import http from 'node:http'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { expect, test } from '@playwright/test'
import { dictionary } from './fixtures'
import { startProcess, until, type Started } from './processes'
import { freePort } from '../../scripts/free-port.mjs'

/**
 * The built server started as an operator would, with configurations that must not work quietly:
 * no session secret on a shared database, the database out of reach, and the embedded default
 * keeping the secret it generated.
 */

// Each test starts its own servers with their own databases: the pass's database is not theirs, so
// one pass runs them (CI's two passes would run the same starts twice).
test.skip(Boolean(process.env.TEST_DATABASE_URL), 'starts its own servers on their own databases: the embedded pass runs it')

type Server = Started & { url: string }

async function startServer(env: Record<string, string | undefined>, nodeOptions: string[] = []): Promise<Server> {
	// The system picks a port nobody listens on: two workers choosing at random once met on one.
	const port = await freePort()
	const started = startProcess([process.execPath, ...nodeOptions, 'server-build/index.js'], {
		HOST: '127.0.0.1',
		PORT: String(port),
		APP_URL: `http://127.0.0.1:${port}`,
		LOG_LEVEL: 'info',
		// Production on a server database wants SMTP_URL, or this (decision 0142).
		EMAIL_TO_DISK: 'true',
		...env,
	})
	return { ...started, url: `http://127.0.0.1:${port}` }
}

async function stop(server: Server) {
	server.process.kill('SIGTERM')
	await server.exited
}

test('with DATABASE_URL and no SESSION_SECRET the server refuses to start, and says why', async () => {
	const server = await startServer({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test', SESSION_SECRET: undefined })
	expect(await server.exited).toBe(1)
	expect(server.output()).toContain('SESSION_SECRET is not set')
})

test('while PostgreSQL cannot be reached, pages and calls answer 503 with Retry-After, in the reader’s language', async () => {
	test.setTimeout(60_000)
	const server = await startServer({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/autohub', SESSION_SECRET: 'unreachable-database-test-secret-0123456789' })
	try {
		// The first start fails within a moment (until then the starting page, Retry-After 5); from
		// then on every request is answered at once.
		const page = await until(async () => {
			const response = await fetch(`${server.url}/?lng=en`)
			return response.status === 503 && response.headers.get('Retry-After') === '30' ? response : undefined
		})
		expect(page.headers.get('Retry-After')).toBe('30')
		expect(page.headers.get('Content-Type')).toContain('text/html')
		const body = await page.text()
		expect(body).toContain(dictionary('en')('errors.unavailableTitle'))
		expect(body).not.toMatch(/ECONNREFUSED|at .*\.js/)
		const api = await fetch(`${server.url}/admin/api/workshop-list`, { headers: { 'Accept-Language': 'ru' } })
		expect(api.status).toBe(503)
		expect(await api.json()).toEqual({ status: 503, message: dictionary('ru')('errors.unavailableText') })
		// Alive (liveness never asks the database), not ready.
		expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
		expect((await fetch(`${server.url}/readyz`)).status).toBe(503)
	} finally {
		await stop(server)
	}
})

test('a first start on a new DATA_DIR answers at once with the starting page (503, Retry-After) in the reader’s language, then serves; with PORT and no APP_URL its links name that port', async () => {
	test.setTimeout(240_000)
	const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'autohub-first-'))
	// As `npm start` on a bare machine: the embedded database with the demo data, no APP_URL.
	const server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: undefined, SESSION_SECRET: undefined, SEED_DEMO_DATA: undefined, SMTP_URL: undefined, APP_URL: undefined })
	// Each answer within seconds (a loaded CI machine's seconds): a request held until the start is
	// over (a minute or more) fails here. The new database is made on a worker thread meanwhile.
	const get = (url: string, init: RequestInit = {}) => fetch(`${server.url}${url}`, { ...init, signal: AbortSignal.timeout(15_000) })
	try {
		// The first answer the port gives, while the database is made and the demo data loaded.
		const first = await until(() => get('/?lng=en'), 60_000)
		expect(first.status).toBe(503)
		expect(first.headers.get('Retry-After')).toBe('5')
		expect(first.headers.get('Cache-Control')).toBe('no-store')
		expect(first.headers.get('Content-Type')).toContain('text/html')
		expect(first.headers.get('Set-Cookie')).toBeNull()
		const en = dictionary('en')
		const html = await first.text()
		expect(html).toContain(`<h1>${en('errors.startingTitle')}</h1>`)
		expect(html).toContain(en('errors.startingText'))
		expect(html).toContain('<html lang="en">')
		// A browser reloads it by itself, without a script; its styles carry the strict CSP's nonce.
		expect(html).toContain('<meta http-equiv="refresh" content="5">')
		expect(html).not.toContain('<script')
		const csp = first.headers.get('Content-Security-Policy')!
		expect(csp).toContain("script-src 'self' 'nonce-")
		const nonce = /style-src 'self' 'nonce-([^']+)'/.exec(csp)![1]!
		expect(html).toContain(`<style nonce="${nonce}">`)

		// The language: ?lng=, then the portal's cookie, then the browser's Accept-Language, then Estonian.
		const titleOf = async (response: Response) => /<h1>([^<]*)<\/h1>/.exec(await response.text())?.[1]
		expect(await titleOf(await get('/workshop-list', { headers: { 'Accept-Language': 'ru-RU,ru;q=0.9' } }))).toBe(dictionary('ru')('errors.startingTitle'))
		expect(await titleOf(await get('/workshop-list', { headers: { 'Accept-Language': 'ru', Cookie: `lng=${encodeURIComponent(btoa(JSON.stringify('en')))}` } }))).toBe(en('errors.startingTitle'))
		expect(await titleOf(await get('/workshop-list', { headers: { 'Accept-Language': 'de' } }))).toBe(dictionary('et')('errors.startingTitle'))
		// A form post and the JSON API are answered at once too; load balancers and tests wait on /readyz.
		const posted = await get('/login', { method: 'POST', body: new URLSearchParams({ email: 'a@example.com' }) })
		expect(posted.status).toBe(503)
		const api = await get('/admin/api/workshop-list', { headers: { 'Accept-Language': 'en' } })
		expect(api.status).toBe(503)
		expect(await api.json()).toEqual({ status: 503, message: en('errors.startingText') })
		const readiness = await get('/readyz')
		expect(readiness.status).toBe(503)
		expect(readiness.headers.get('Retry-After')).toBe('5')
		expect(await readiness.json()).toEqual({ status: 'starting' })
		// The process is alive all the while: a liveness probe must not restart a long first start.
		expect((await get('/healthz')).status).toBe(200)

		// Once ready, the pages.
		await until(async () => ((await get('/readyz')).status === 200 ? true : undefined), 200_000)
		const home = await get('/?lng=en')
		expect(home.status).toBe(200)
		expect(await home.text()).toContain(en('home.heroTitle'))
		expect(server.output()).toMatch(/"migrations":"applied","demoDataLoaded":true/)
		// initdb ran on a worker thread, not holding the event loop (decision 0130).
		expect(server.output()).toContain('new embedded database made on a worker thread')

		// PORT without APP_URL: the widgets' images and links are at http://localhost:$PORT.
		const port = new URL(server.url).port
		const list = (await (await get('/admin/api/workshop-list?lng=en')).json()) as { data: { items: Array<{ logo: string | null; url: string }> } }
		const logos = list.data.items.map((item) => item.logo).filter(Boolean)
		expect(logos.length).toBeGreaterThan(0)
		for (const logo of logos) expect(logo).toMatch(new RegExp(`^http://localhost:${port}/uploads/`))
		for (const item of list.data.items) expect(item.url).toMatch(new RegExp(`^http://localhost:${port}/workshop-details/`))
	} finally {
		await stop(server)
		fs.rmSync(dataDir, { recursive: true, force: true })
	}
})

test('on the embedded database a session secret is made once and kept in DATA_DIR', async () => {
	test.setTimeout(240_000)
	const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'autohub-secret-'))
	const env = { DATA_DIR: dataDir, SEED_DEMO_DATA: 'false', SESSION_SECRET: undefined, DATABASE_URL: undefined }
	try {
		// A first start migrates a new PGlite: over a minute once on a busy CI machine, beside another first start.
		const first = await startServer(env)
		await until(async () => ((await fetch(`${first.url}/readyz`)).status === 200 ? true : undefined), 150_000)
		const secret = fs.readFileSync(path.join(dataDir, 'session-secret'), 'utf8').trim()
		expect(secret).toMatch(/^[0-9a-f]{64}$/)
		expect((fs.statSync(path.join(dataDir, 'session-secret')).mode & 0o777).toString(8)).toBe('600')
		expect(first.output()).not.toContain('development secret')
		await stop(first)

		const second = await startServer(env)
		await until(async () => ((await fetch(`${second.url}/readyz`)).status === 200 ? true : undefined))
		expect(fs.readFileSync(path.join(dataDir, 'session-secret'), 'utf8').trim()).toBe(secret)
		await stop(second)
	} finally {
		fs.rmSync(dataDir, { recursive: true, force: true })
	}
})

test('reopening an embedded data directory: no migrations or demo data to load, and the heavy modules wait until they are needed', async () => {
	test.setTimeout(180_000)
	const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'autohub-reopen-'))
	const modules = path.join(dataDir, 'modules.txt')
	const env = { DATA_DIR: dataDir, SESSION_SECRET: undefined, DATABASE_URL: undefined, SEED_DEMO_DATA: undefined, SMTP_URL: undefined }
	try {
		// The first start migrates and loads the demo data.
		const first = await startServer(env)
		await until(async () => ((await fetch(`${first.url}/readyz`)).status === 200 ? true : undefined), 150_000)
		expect(first.output()).toMatch(/"migrations":"applied","demoDataLoaded":true/)
		await stop(first)

		// Jobs off (RUN_JOBS=false): their first runs, 5 s after the start, may render an e-mail and
		// so load react-email; the list below would then depend on how long the pages took.
		const second = await startServer({ ...env, RUN_JOBS: 'false', LOADED_MODULES_FILE: modules }, ['--import', './tests/e2e/record-modules.mjs'])
		try {
			await until(async () => ((await fetch(`${second.url}/readyz`)).status === 200 ? true : undefined))
			// One query found the database current, one more (hasDemoData) found the data there (decision 0094).
			expect(second.output()).toMatch(/"migrations":"current","demoDataLoaded":false/)
			const list = await fetch(`${second.url}/workshop-list?lng=en`)
			expect(list.status).toBe(200)
			const workshop = /\/workshop-details\/[A-Za-z0-9_-]+/.exec(await list.text())![0]
			for (const page of ['/', workshop, '/cities', '/about', '/contact-us']) expect((await fetch(`${second.url}${page}?lng=en`)).status, page).toBe(200)
			const loaded = fs.readFileSync(modules, 'utf8')
			expect(loaded).toContain('/node_modules/@electric-sql/pglite/')
			// Loaded by the first upload, e-mail, invoice or payment, or never: not by a start and the public pages.
			// pg-boss is a server's job queue; drizzle's migrator is not needed by a current database.
			for (const name of ['sharp', 'pdf-lib', '@pdf-lib/fontkit', 'xmlbuilder2', '@aws-sdk/client-s3', '@react-email/components', '@react-email/render', 'stripe', 'nodemailer', 'pg-boss']) {
				expect(loaded, name).not.toContain(`/node_modules/${name}/`)
			}
			expect(loaded).not.toMatch(/demo-data\.server|email-layout\.server|invoice-pdf\.server|e-invoice-xml\.server|passport-pdf\.server|pdf-fonts\.server|\/drizzle-orm\/migrator\.js|\/assets\/migrator-/)
		} finally {
			await stop(second)
		}
	} finally {
		fs.rmSync(dataDir, { recursive: true, force: true })
	}
})

test('with WEB_CONCURRENCY=2 two web processes serve; one that dies is replaced; SIGTERM lets a request in flight finish', async () => {
	test.setTimeout(120_000)
	const name = `autohub_cluster_${Date.now()}`
	const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/test' })
	await admin.connect()
	await admin.query(`create database "${name}"`)
	const server = await startServer({
		DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${name}`,
		SESSION_SECRET: 'cluster-test-session-secret-0123456789abcdef',
		SEED_DEMO_DATA: 'false',
		WEB_CONCURRENCY: '2',
		SHUTDOWN_DELAY_MS: '3000',
	})
	const listening = () => [...server.output().matchAll(/"pid":(\d+)[^\n]*"msg":"server listening"/g)].map((match) => Number(match[1]))
	try {
		await until(async () => ((await fetch(`${server.url}/readyz`)).status === 200 && listening().length === 2 ? true : undefined))
		const [first, second] = listening()
		expect(first).not.toBe(second)
		expect(first).not.toBe(server.process.pid)

		// One dies: the other goes on serving, and a new one takes its place.
		process.kill(first!, 'SIGKILL')
		await until(async () => (listening().length === 3 ? true : undefined))
		expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
		expect(server.output()).toContain('a web process stopped; starting another')

		// A request on its way when the signal comes (its body still arriving) is answered.
		const body = JSON.stringify({ email: 'nobody@example.com', password: 'not-the-password-1' })
		const slow = http.request(`${server.url}/admin/api/login`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
		})
		const answered = new Promise<number>((resolve, reject) => {
			slow.on('response', (response) => {
				response.resume()
				response.on('end', () => resolve(response.statusCode!))
			})
			slow.on('error', reject)
		})
		slow.write(body.slice(0, 5))
		await new Promise((resolve) => setTimeout(resolve, 500))
		server.process.kill('SIGTERM')

		// Not ready from the signal on, while still answering; then no new connections.
		const readiness = await until(async () => {
			const response = await fetch(`${server.url}/readyz`)
			return response.status === 503 ? response : undefined
		})
		expect(await readiness.json()).toEqual({ status: 'draining' })
		await until(async () => (await fetch(`${server.url}/healthz`).then(() => undefined, () => true)))

		slow.end(body.slice(5))
		expect(await answered).toBe(401)
		expect(await server.exited).toBe(0)
	} finally {
		// The primary and its web processes, wherever the test stopped.
		try {
			process.kill(-server.process.pid!, 'SIGKILL')
		} catch {
			// All stopped already.
		}
		await admin.query(`drop database if exists "${name}" with (force)`)
		await admin.end()
	}
})
