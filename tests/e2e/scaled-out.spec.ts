import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3'
import pg from 'pg'
import S3rver from 's3rver'
import sharp from 'sharp'
import { type Browser, type Page } from '@playwright/test'
import { encodeId } from '../../app/utils/public-id'
import { SmtpSink } from '../support/smtp-sink'
import { demo, dictionary, expect, loginAsAdmin, test } from './fixtures'
import { startTestOpenIdProvider } from '../support/openid-provider.mjs'
import { startProcess, until, type Started } from './processes'

/**
 * The portal scaled out (issue 17, part 6; issue 34): two web processes (RUN_JOBS=false) and one
 * worker over one PostgreSQL database and one S3-compatible server (s3rver), behind Debian's nginx
 * running a copy of deploy/nginx.conf (its upstream block and listen line changed, every other path
 * under a temporary prefix). The public traffic goes through nginx; a test that needs one process
 * in particular calls it directly (cookies are per host, not per port, so a browser signed in on
 * one is signed in on the other).
 */

const run = Date.now().toString(36)
const database = `autohub_scaled_${run}`
// The PostgreSQL server of the PostgreSQL pass, or this machine's; the test makes a database of its own there.
const testDatabaseUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const databaseUrl = (name: string) => Object.assign(new URL(testDatabaseUrl), { pathname: `/${name}` }).toString()
const ports = { a: 3900 + Math.floor(Math.random() * 40), b: 3950 + Math.floor(Math.random() * 40), nginx: 3990 + Math.floor(Math.random() * 9) }
/** The public address: nginx. */
const proxyUrl = `http://127.0.0.1:${ports.nginx}`
/** One web process, directly. */
const direct = (backend: 'a' | 'b') => `http://127.0.0.1:${ports[backend]}`
const nginxBinary = process.env.NGINX_PATH ?? '/usr/sbin/nginx'
const bucket = `autohub-scaled-${run}`

let admin: pg.Client
let web: Record<string, string>
let s3: { server: S3rver; directory: string; client: S3Client; endpoint: string }
const smtp = new SmtpSink()
/** The tests' eID provider: the administrator confirms the sign-in with eID (decision 0156). */
let eidProvider: Awaited<ReturnType<typeof startTestOpenIdProvider>> | undefined
let nginxPrefix: string | undefined
const processes: Record<'a' | 'b' | 'worker' | 'nginx', Started | undefined> = { a: undefined, b: undefined, worker: undefined, nginx: undefined }

const ready = (port: number) => until(async () => ((await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200 ? true : undefined), 120_000)

/** Replaces what `pattern` finds, which must be there exactly once: a changed deploy/nginx.conf fails here, loudly. */
function replaceOnce(text: string, pattern: RegExp, replacement: string) {
	const found = text.match(new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`)) ?? []
	if (found.length !== 1) throw new Error(`deploy/nginx.conf: ${pattern} found ${found.length} times, not once`)
	return text.replace(pattern, replacement)
}

/**
 * deploy/nginx.conf with this test's web processes and port: the upstream block keeps its settings,
 * its servers become the two local processes (without `resolve` and the container's resolver,
 * which Debian's nginx 1.22 lacks and a local address does not need).
 */
function nginxConfig() {
	const original = fs.readFileSync('deploy/nginx.conf', 'utf8')
	let config = replaceOnce(original, /^\t\tlisten 80;$/m, `\t\tlisten 127.0.0.1:${ports.nginx};`)
	const block = /^\tupstream autohub \{[\s\S]*?^\t\}/m.exec(config)?.[0]
	if (!block) throw new Error('deploy/nginx.conf: no upstream autohub block')
	let upstream = replaceOnce(block, /^\t\tresolver .*\n/m, '')
	upstream = replaceOnce(upstream, /server web-1:3000 resolve /, `server 127.0.0.1:${ports.a} `)
	upstream = replaceOnce(upstream, /server web-2:3000 resolve /, `server 127.0.0.1:${ports.b} `)
	config = config.replace(block, upstream)
	return config
}

async function startNginx() {
	nginxPrefix = fs.mkdtempSync(path.join(os.tmpdir(), 'nginx-scaled-'))
	// Run as root, nginx's workers are its compiled-in user (nobody): they must reach the cache and temporary directories.
	fs.chmodSync(nginxPrefix, 0o755)
	fs.writeFileSync(path.join(nginxPrefix, 'nginx.conf'), nginxConfig())
	// Its log goes to /dev/stdout, which nginx opens by name: a file, as a socket (Node's pipes) cannot be opened.
	const log = path.join(nginxPrefix, 'output.log')
	const out = fs.openSync(log, 'a')
	const child = spawn(nginxBinary, ['-p', `${nginxPrefix}/`, '-c', path.join(nginxPrefix, 'nginx.conf'), '-g', 'daemon off;'], { stdio: ['ignore', out, out], detached: true })
	fs.closeSync(out)
	const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
	processes.nginx = { process: child, output: () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : ''), exited }
	await until(async () => ((await fetch(`${proxyUrl}/readyz`)).status === 200 ? true : undefined), 30_000).catch((error: unknown) => {
		throw new Error(`nginx did not answer: ${String(error)}\n${processes.nginx?.output()}`)
	})
}

/** Requests nginx passed to one web process and got a 200 for, from its access log. */
const servedBy = (backend: 'a' | 'b') => (processes.nginx?.output().match(new RegExp(`upstream=127\\.0\\.0\\.1:${ports[backend]} upstream_status=200 `, 'g')) ?? []).length

// It needs the PostgreSQL server whichever database the run uses: it runs once, in the PostgreSQL pass.
test.skip(!process.env.TEST_DATABASE_URL, 'runs in the PostgreSQL pass (TEST_DATABASE_URL)')
test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
	test.setTimeout(240_000)
	admin = new pg.Client({ connectionString: testDatabaseUrl })
	await admin.connect()
	await admin.query(`create database "${database}"`)

	const directory = fs.mkdtempSync(path.join(os.tmpdir(), 's3rver-scaled-'))
	const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory })
	const { port } = await server.run()
	const endpoint = `http://127.0.0.1:${port}`
	const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } })
	await client.send(new CreateBucketCommand({ Bucket: bucket }))
	s3 = { server, directory, client, endpoint }

	await smtp.start()
	// The answers come back to the public address; the demo data links the administrator's eID.
	eidProvider = await startTestOpenIdProvider({ redirectUris: [`${proxyUrl}/eid/callback`] })

	const shared = {
		OIDC_ISSUER: eidProvider.issuer,
		OIDC_CLIENT_ID: eidProvider.clientId,
		OIDC_CLIENT_SECRET: eidProvider.clientSecret,
		EID_HASH_SECRET: 'scaled-out-test-eid-hash-secret-0123456789',
		NODE_ENV: 'production',
		DATABASE_URL: databaseUrl(database),
		SESSION_SECRET: 'scaled-out-test-session-secret-0123456789abcdef',
		S3_BUCKET: bucket,
		S3_ENDPOINT: endpoint,
		S3_ACCESS_KEY_ID: 'S3RVER',
		S3_SECRET_ACCESS_KEY: 'S3RVER',
		S3_FORCE_PATH_STYLE: 'true',
		SMTP_URL: smtp.url,
		OUTBOX_POLL_MS: '500',
		APP_URL: proxyUrl,
		TRUST_PROXY: 'loopback',
		HOST: '127.0.0.1',
		LOG_LEVEL: 'warn',
		TEST_ONLY_CHEAP_PASSWORD_HASHING: 'true',
		AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
	}
	// A stopping process answers /readyz with 503 for a second and a half, then stops listening.
	web = { ...shared, RUN_JOBS: 'false', WEB_CONCURRENCY: '1', SHUTDOWN_DELAY_MS: '1500' }
	// The first loads the demo data (its images into the bucket); the second starts on it.
	processes.a = startProcess([process.execPath, 'server-build/index.js'], { ...web, PORT: String(ports.a), SEED_DEMO_DATA: 'true' })
	await ready(ports.a)
	processes.b = startProcess([process.execPath, 'server-build/index.js'], { ...web, PORT: String(ports.b), SEED_DEMO_DATA: 'false' })
	processes.worker = startProcess([process.execPath, 'server-build/scripts/worker.js'], shared)
	await ready(ports.b)
	// The worker is working once it has put its schedules in pg-boss's schema.
	await until(async () => ((await query<{ n: number }>('select count(*)::int as n from pgboss.schedule'))[0]!.n > 0 ? true : undefined), 90_000)
	await startNginx()
})

/** Rows of the portal's database, read as an operator would. */
async function query<T>(text: string, values: unknown[] = []): Promise<T[]> {
	const client = new pg.Client({ connectionString: databaseUrl(database) })
	await client.connect()
	try {
		return (await client.query(text, values)).rows as T[]
	} finally {
		await client.end()
	}
}

test.afterAll(async () => {
	test.setTimeout(90_000)
	// Each with its children, if any.
	for (const started of Object.values(processes)) {
		try {
			if (started?.process.pid) process.kill(-started.process.pid, 'SIGKILL')
		} catch {
			// Stopped already.
		}
	}
	if (nginxPrefix) fs.rmSync(nginxPrefix, { recursive: true, force: true })
	// Each step bounded: a connection left open by a killed process must not hold the run (CI once
	// waited out the hook's whole time here).
	await bounded('smtp', () => smtp.stop())
	await bounded('eID provider', async () => eidProvider?.stop())
	await bounded('s3rver', async () => {
		s3?.client.destroy()
		await s3?.server.close()
	})
	if (s3) fs.rmSync(s3.directory, { recursive: true, force: true })
	await bounded('database', async () => {
		await admin?.query(`drop database if exists "${database}" with (force)`)
		await admin?.end()
	})
})

async function bounded(name: string, step: () => Promise<unknown>, ms = 15_000) {
	let timer: NodeJS.Timeout | undefined
	const late = new Promise<void>((resolve) => {
		timer = setTimeout(() => {
			console.warn(`scaled-out clean-up: ${name} did not finish in ${ms} ms; going on`)
			resolve()
		}, ms)
	})
	await Promise.race([step().catch((error: unknown) => console.warn(`scaled-out clean-up: ${name} failed`, error)), late])
	clearTimeout(timer)
}

const randomIp = () => `10.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`

/** A browser on one web process (directly) or on the public address (nginx). */
async function personOn(browser: Browser, backend: 'a' | 'b' | 'nginx') {
	const context = await browser.newContext({ baseURL: backend === 'nginx' ? proxyUrl : direct(backend), extraHTTPHeaders: { 'X-Forwarded-For': randomIp() } })
	return context.newPage()
}

async function loginThroughForm(page: Page, email: string, password: string) {
	await page.goto('/login?lng=en')
	await page.locator('input[name="email"]').fill(email)
	await page.locator('input[name="password"]').fill(password)
	await page.locator('main form button[type="submit"]').click()
	await page.waitForURL('**/dashboard')
}

async function apiLogin(backend: 'a' | 'b', email: string, password: string) {
	const response = await fetch(`${direct(backend)}/admin/api/login`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': randomIp() },
		body: JSON.stringify({ email, password }),
	})
	expect(response.status).toBe(200)
	return ((await response.json()) as { token: string }).token
}

const api = (backend: 'a' | 'b', call: string, token: string, body: Record<string, string> = {}) =>
	fetch(`${direct(backend)}/admin/api/${call}?lng=en`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, 'X-Forwarded-For': randomIp() },
		body: JSON.stringify(body),
	})

test('a session started on one web process is valid on the other', async ({ browser }) => {
	const page = await personOn(browser, 'a')
	await loginThroughForm(page, demo.customer.email, demo.customer.password)
	await page.goto(`${direct('b')}/dashboard?lng=en`)
	await expect(page).toHaveURL(/\/dashboard/)
	await expect(page.locator('body')).toContainText(demo.customer.name.split(' ')[0]!)
	await page.context().close()
})

test('a logo uploaded through one web process goes to the bucket and is served by the other', async ({ browser }) => {
	const w = dictionary('en', 'workshop')
	const page = await personOn(browser, 'a')
	await loginThroughForm(page, demo.workshop.email, demo.workshop.password)
	await page.goto('/workshop-profile?lng=en')
	const logo = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#8e44ad' } }).png().toBuffer()
	await page.getByLabel(w('profile.logo')).setInputFiles({ name: 'new-logo.png', mimeType: 'image/png', buffer: logo })
	const saved = page.waitForResponse((response) => response.url().includes('/workshop-profile') && response.request().method() === 'POST')
	await page.getByRole('button', { name: w('profile.save') }).click()
	expect((await saved).status()).toBeLessThan(400)

	const rows = await query<{ id: string; storage_key: string }>(`select id, storage_key from uploads where purpose = 'workshop_logo' and original_name = 'new-logo.png'`)
	expect(rows).toHaveLength(1)
	const { id, storage_key: key } = rows[0]!
	const objects = await s3.client.send(new ListObjectsV2Command({ Bucket: bucket }))
	expect((objects.Contents ?? []).map((object) => object.Key)).toContain(key)

	const served = await fetch(`${direct('b')}/uploads/${encodeId(id)}`)
	expect(served.status).toBe(200)
	expect(served.headers.get('Content-Type')).toBe('image/png')
	expect((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).width).toBe(300)
	await page.context().close()
})

test('a chat message sent through one web process reaches the bell polled on the other', async () => {
	const customer = await apiLogin('a', demo.customer.email, demo.customer.password)
	const workshop = await apiLogin('b', demo.workshop.email, demo.workshop.password)
	const [receiver] = await query<{ id: string }>('select id from users where email = $1', [demo.workshop.email])
	const sent = await api('a', 'send-chat', customer, { receiver_id: receiver!.id, message: `Hello from process a ${run}` })
	expect(sent.status).toBe(200)
	const poll = await api('b', 'get-notification', workshop)
	expect(poll.status).toBe(200)
	const { notifications } = (await poll.json()) as { notifications: Array<{ type: number; is_read: boolean; message: string }> }
	expect(notifications.find((n) => n.type === 1 && !n.is_read)?.message).toContain(demo.customer.name.split(' ')[0]!)
})

test('an administrator blocking a customer on one web process is refused on the other at once', async ({ browser }) => {
	const customer = await apiLogin('b', 'kadri.saar@example.com', demo.customer.password)
	expect((await api('b', 'get-notification', customer)).status).toBe(200)
	const adminPage = await personOn(browser, 'a')
	await loginAsAdmin(adminPage)
	await adminPage.goto('/admin/users?lng=en&q=kadri.saar')
	await adminPage.getByRole('link', { name: /kadri\.saar@example\.com|Kadri/ }).first().click()
	await adminPage.getByRole('button', { name: dictionary('en', 'admin')('user.block') }).click()
	await expect(adminPage.locator('.admin-facts')).toContainText(dictionary('en', 'admin')('users.blocked'))
	expect((await api('b', 'get-notification', customer)).status).toBe(401)
	await adminPage.context().close()
})

test('a contact message sent through a web process that runs no jobs is delivered by the worker', async () => {
	const marker = `scaled-${run}-contact`
	const response = await fetch(`${direct('a')}/admin/api/contact-us?lng=en`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': randomIp() },
		body: JSON.stringify({ name: 'Mari Tamm', email: 'mari@example.com', message: `A question ${marker}` }),
	})
	expect(response.status).toBe(200)
	// This message's e-mail: the web processes work no queue, so only the worker can have sent it.
	await until(async () => (smtp.received.some((mail) => mail.text.includes(marker)) ? true : undefined), 30_000)
	expect(processes.worker!.output()).not.toMatch(/"level":"error"/)
})

/** A GET through nginx, with a Cookie header or none; what nginx's cache did, and the page. */
async function throughNginx(address: string, cookie?: string) {
	const response = await fetch(`${proxyUrl}${address}`, { headers: { 'X-Forwarded-For': randomIp(), ...(cookie ? { Cookie: cookie } : {}) } })
	return { status: response.status, cache: response.headers.get('X-Cache-Status'), cacheControl: response.headers.get('Cache-Control'), body: await response.text() }
}

/** The Cookie header of a browser signed in through nginx. */
async function signedInCookie(browser: Browser, person: { email: string; password: string }) {
	const page = await personOn(browser, 'nginx')
	await loginThroughForm(page, person.email, person.password)
	const cookies = await page.context().cookies(proxyUrl)
	await page.context().close()
	expect(cookies.map((cookie) => cookie.name)).toContain('__session')
	return cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ')
}

/** What only a signed-in page has: the log-out form. */
const SIGNED_IN = 'action="/logout"'

test('nginx keeps an anonymous shared page for a few seconds, and no personal one', async () => {
	// The directory is shared (public, s-maxage: app/utils/http-cache.ts); an unknown parameter makes this run's own copy.
	const address = `/workshop-list?probe=${run}`
	const first = await throughNginx(address)
	expect(first.status).toBe(200)
	expect(first.cacheControl).toMatch(/public.*s-maxage/)
	expect(first.cache).toBe('MISS')
	const second = await throughNginx(address)
	expect(second.cache).toBe('HIT')
	expect(second.body).toBe(first.body)
	// A page with a form (its CSRF token is the visitor's own) is never kept, even for anonymous visitors.
	for (let i = 0; i < 2; i++) expect((await throughNginx(`/login?probe=${run}`)).cache).not.toBe('HIT')
})

test('a signed-in request is never answered from the cache, and its answer is never kept', async ({ browser }) => {
	const customer = await signedInCookie(browser, demo.customer)
	const workshop = await signedInCookie(browser, demo.workshop)

	// The anonymous copy is there; a signed-in visitor of the same address still gets a page of their own.
	const address = `/workshop-list?probe=kept-${run}`
	await throughNginx(address)
	expect((await throughNginx(address)).cache).toBe('HIT')
	// The session cookie anywhere in the header counts (here after the language cookie).
	for (const cookie of [customer, `lng=et; ${customer}`]) {
		const signedIn = await throughNginx(address, cookie)
		expect(signedIn.cache).toBe('BYPASS')
		expect(signedIn.cacheControl).toBe('private, no-store')
		expect(signedIn.body).toContain(SIGNED_IN)
	}

	// Asked for first with a session: an anonymous visitor after it gets no copy of that answer.
	const fresh = `/workshop-list?probe=signed-first-${run}`
	expect((await throughNginx(fresh, customer)).body).toContain(SIGNED_IN)
	const anonymous = await throughNginx(fresh)
	expect(anonymous.cache).toBe('MISS')
	expect(anonymous.body).not.toContain(SIGNED_IN)

	// Two people on the same address, one after the other: each sees their own page, none from the cache.
	for (let i = 0; i < 2; i++) {
		const mine = await throughNginx('/dashboard?lng=en', customer)
		const theirs = await throughNginx('/dashboard?lng=en', workshop)
		expect([mine.cache, theirs.cache]).toEqual(['BYPASS', 'BYPASS'])
		expect(mine.body).toContain(demo.customer.name.split(' ')[0]!)
		expect(mine.body).not.toContain(demo.workshop.name)
		expect(theirs.body).toContain(demo.workshop.name)
	}
})

test('a draining web process is taken out of rotation: every request through nginx meanwhile succeeds', async () => {
	test.setTimeout(120_000)
	// Both serve before the drain (round robin).
	await until(async () => {
		await throughNginx(`/login?lng=en&warm=${Math.random()}`)
		return servedBy('a') > 0 && servedBy('b') > 0 ? true : undefined
	}, 20_000)

	const statuses: number[] = []
	let bursting = true
	const burst = (async () => {
		for (let n = 0; bursting; n++) {
			const [page, ready] = await Promise.all([
				fetch(`${proxyUrl}/login?lng=en&burst=${n}`, { headers: { 'X-Forwarded-For': randomIp() } }).then((r) => r.status, () => 0),
				fetch(`${proxyUrl}/readyz`).then((r) => r.status, () => 0),
			])
			statuses.push(page, ready)
			await new Promise((resolve) => setTimeout(resolve, 25))
		}
	})()

	await new Promise((resolve) => setTimeout(resolve, 300))
	const drained = processes.b!
	drained.process.kill('SIGTERM')
	// Draining: /readyz says so (an orchestrator's check), while nginx still gets answers from it or the other.
	await until(async () => ((await fetch(`${direct('b')}/readyz`)).status === 503 ? true : undefined), 5_000)
	await drained.exited
	// nginx logs a request when its answer is out: a moment for the last one the process answered.
	await new Promise((resolve) => setTimeout(resolve, 200))
	const beforeExit = servedBy('b')
	await new Promise((resolve) => setTimeout(resolve, 1_500))
	bursting = false
	await burst

	expect(statuses.length).toBeGreaterThan(20)
	expect(statuses.filter((status) => status !== 200), `${statuses.length} answers`).toEqual([])
	// After its exit, every request went to the other process.
	expect(servedBy('b')).toBe(beforeExit)

	// Back for the tests after this one; nginx tries it again once its fail_timeout (10 s) is over.
	processes.b = startProcess([process.execPath, 'server-build/index.js'], { ...web, PORT: String(ports.b), SEED_DEMO_DATA: 'false' })
	await ready(ports.b)
	const before = servedBy('b')
	await until(async () => {
		await throughNginx(`/login?lng=en&back=${Math.random()}`)
		return servedBy('b') > before ? true : undefined
	}, 30_000)
})

test('killing a web process loses no write it acknowledged', async () => {
	const marker = `scaled-${run}-kill`
	let killedAt = Infinity
	const send = async (n: number) => {
		const sentAt = Date.now()
		const response = await fetch(`${proxyUrl}/admin/api/contact-us?lng=en`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': randomIp() },
			body: JSON.stringify({ name: 'Mari Tamm', email: 'mari@example.com', message: `${marker} ${n}` }),
		}).catch(() => null)
		return response?.status === 200 ? { n, afterKill: sentAt > killedAt + 200 } : null
	}
	const sending = Array.from({ length: 60 }, (_, n) => new Promise((resolve) => setTimeout(resolve, n * 20)).then(() => send(n)))
	await new Promise((resolve) => setTimeout(resolve, 500))
	processes.a!.process.kill('SIGKILL')
	killedAt = Date.now()
	const acknowledged = (await Promise.all(sending)).filter((sent) => sent !== null)
	// Some were answered before the kill; those sent after it were passed to the other process by
	// nginx (a refused connection: the POST never reached the dead one, so it is safe to send on).
	expect(acknowledged.length).toBeGreaterThan(20)
	expect(acknowledged.filter((sent) => sent.afterKill).length).toBeGreaterThan(5)

	const rows = await query<{ message: string }>('select message from contact_messages where message like $1', [`${marker} %`])
	const stored = new Set(rows.map((row) => Number(row.message.split(' ').pop())))
	for (const { n } of acknowledged) expect(stored.has(n), `acknowledged message ${n} is stored`).toBe(true)
})
