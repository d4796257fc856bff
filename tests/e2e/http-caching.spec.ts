import { createHash } from 'node:crypto'
import http from 'node:http'
import zlib from 'node:zlib'
import pg from 'pg'
import { demo, dictionary, expect, expectToast, login, loginAsAdmin, open, test, uniqueEmail } from './fixtures'
import { addVehicle, person, register } from './people'

/**
 * Issue 17, part 5 (docs/decisions/0085): the anonymous public pages, the public JSON API and the
 * widgets' script carry Cache-Control for shared caches and an ETag, and answer 304 to a matching
 * If-None-Match; nothing personal is ever cacheable.
 */

type Answer = { status: number; headers: Record<string, string>; body: string }

/**
 * A GET without a cookie jar (Playwright's request context keeps the cookies it is given): each
 * call sends exactly the headers named, as a cache in front of the portal would forward them.
 */
async function get(path: string, headers: Record<string, string> = {}): Promise<Answer> {
	// As a browser revalidates: Node's fetch would otherwise ask `no-cache`, which static files answer in full.
	const revalidation: Record<string, string> = headers['If-None-Match'] ? { 'Cache-Control': 'max-age=0' } : {}
	const response = await fetch(new URL(path, test.info().project.use.baseURL), { headers: { 'X-Forwarded-For': randomIp(), ...revalidation, ...headers }, redirect: 'manual' })
	return { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() }
}
const randomIp = () => `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`
const nonceOf = (answer: Answer) => /'nonce-([^']+)'/.exec(answer.headers['content-security-policy'] ?? '')?.[1]
/** The `lng` cookie as the portal sets it (a React Router cookie: JSON in base64). */
const lng = (language: string) => ({ Cookie: `lng=${encodeURIComponent(btoa(JSON.stringify(language)))}` })
/** The cookie a reader of this address has once the address has set it (?lng= is remembered). */
const cookieFor = (path: string): Record<string, string> => {
	const language = new URL(path, 'http://x').searchParams.get('lng')
	return language ? lng(language) : {}
}

/** The answer again with its ETag: a 304 without a body, and the caching headers the cache keeps. */
async function expectNotModified(path: string, first: Answer, headers: Record<string, string> = {}) {
	const etag = first.headers['etag']!
	const again = await get(path, { ...headers, 'If-None-Match': etag })
	expect(again.status, path).toBe(304)
	expect(again.body, path).toBe('')
	expect(again.headers['etag'], path).toBe(etag)
	expect(again.headers['cache-control'], path).toBe(first.headers['cache-control'])
	// A page: the policy a revalidating cache takes from the 304 names the nonce of the body it kept.
	if (first.headers['content-type']?.startsWith('text/html')) expect(nonceOf(again), path).toBe(nonceOf(first))
	// A different tag (an older page) gets the whole answer.
	expect((await get(path, { ...headers, 'If-None-Match': 'W/"older"' })).status, path).toBe(200)
}

test.describe('anonymous public pages', () => {
	test('are shared-cacheable with an ETag, answer 304 when unchanged, and keep one nonce per page', async () => {
		const workshop = /href="(\/workshop-details\/[^"?]+)"/.exec((await get('/workshop-list?lng=en', cookieFor('?lng=en'))).body)![1]!
		for (const path of ['/', '/?lng=ru', '/workshop-list', '/workshop-list?lng=en&sort=rating', '/cities', workshop, '/about?lng=en', '/terms-conditions', '/privacy-poicy?lng=et']) {
			const first = await get(path, cookieFor(path))
			expect(first.status, path).toBe(200)
			const headers = first.headers
			expect(headers['cache-control'], path).toMatch(/^public, .*s-maxage=\d+.*stale-while-revalidate=\d+/)
			expect(headers['etag'], path).toMatch(/^W\/"[\w-]+"$/)
			// The language may come from the `lng` cookie: shared caches keep one copy per cookie.
			expect(headers['vary'], path).toMatch(/cookie/i)
			expect(headers['set-cookie'], path).toBeUndefined()
			// The page's scripts carry the nonce of its Content-Security-Policy, and no form token is in it.
			const nonce = nonceOf(first)!
			const scripts = [...first.body.matchAll(/<script\b[^>]*>/g)]
			expect(scripts.length, path).toBeGreaterThan(0)
			for (const script of scripts) expect(script[0], path).toContain(`nonce="${nonce}"`)
			expect(first.body, path).not.toMatch(/name="csrf"/)
			// The same page has the same ETag and nonce in every render, so a cache's stored body and CSP always agree.
			const second = await get(path, cookieFor(path))
			expect(second.headers['etag'], path).toBe(headers['etag'])
			expect(nonceOf(second), path).toBe(nonce)
			await expectNotModified(path, first, cookieFor(path))
		}
	})

	test('a page with a form, or one that sets a cookie, is private and never kept', async () => {
		for (const path of ['/login', '/register', '/contact-us', '/login?lng=en']) {
			const first = await get(path, lng('en'))
			expect(first.headers['cache-control'], path).toBe('private, no-store')
			expect(first.headers['etag'], path).toBeUndefined()
			// Fresh nonces where nothing is cached.
			expect(nonceOf(await get(path)), path).not.toBe(nonceOf(first))
		}
		// ?lng= naming a language not remembered yet: the answer sets the `lng` cookie, so it is not shared.
		for (const cookie of [{}, lng('en')]) {
			const switched = await get('/cities?lng=ru', cookie)
			expect(switched.headers['set-cookie']).toContain(lng('ru').Cookie)
			expect(switched.headers['cache-control']).toBe('private, no-store')
			expect(switched.headers['etag']).toBeUndefined()
		}
	})

	test('the language is part of what a cache keeps: another language is another ETag', async () => {
		const tags = new Map<string, string>()
		for (const language of ['et', 'en', 'ru']) tags.set(language, (await get(`/cities?lng=${language}`, lng(language))).headers['etag']!)
		expect(new Set(tags.values()).size).toBe(3)
		// Without ?lng= the `lng` cookie decides: the same page as that language's, and Vary: Cookie says so.
		const remembered = await get('/cities', lng('ru'))
		expect(remembered.body).toContain('lang="ru"')
		expect(remembered.headers['vary']).toMatch(/cookie/i)
		expect((await get('/cities')).body).toContain('lang="et"')
	})
})

test('the public JSON API and the widgets’ script are shared-cacheable with an ETag and a 304', async () => {
	for (const path of ['/admin/api/site-settings', '/admin/api/ads-details?lng=et', '/admin/api/workshop-list?lng=en', '/admin/api/workshop-filters?lng=et', '/widgets/widgets.js']) {
		const first = await get(path)
		expect(first.status, path).toBe(200)
		expect(first.headers['cache-control'], path).toMatch(/public, .*s-maxage=\d+.*stale-while-revalidate=\d+/)
		expect(first.headers['etag'], path).toBeTruthy()
		await expectNotModified(path, first)
	}
	// The same file by an escaped address, as the static server reads it.
	expect((await get('/widgets/widgets%2Ejs')).body).toBe((await get('/widgets/widgets.js')).body)
	// Without ?lng= the caller's headers chose the language: only the caller may keep it.
	const unnamed = await get('/admin/api/workshop-list')
	expect(unnamed.headers['cache-control']).toMatch(/^private/)
	expect(unnamed.headers['vary']).toMatch(/accept-language/i)
})

test('from a shared page (no form token) to the login form in the browser: the form gets its token and works', async ({ page }) => {
	// No query on either address: only the root's own rule (not a changed query) reloads its data.
	await open(page, '/about', true)
	await page.locator('header a[href="/login"]').first().click()
	await expect(page).toHaveURL(/\/login/)
	await expect(page.locator('main form input[name="csrf"]')).not.toHaveValue('')
	await page.locator('input[name="email"]').fill(demo.customer.email)
	await page.locator('input[name="password"]').fill(demo.customer.password)
	await page.locator('main form button[type="submit"]').click()
	await page.waitForURL('**/dashboard')
})

test('a HEAD carries no ETag of its empty body: none, or the one its GET carries', async () => {
	// A HEAD has no body to tag: it may carry none, or the GET's (RFC 9110 §9.3.2).
	const url = new URL('/about', test.info().project.use.baseURL)
	const full = await fetch(url, { headers: { 'X-Forwarded-For': randomIp() } })
	expect(full.headers.get('etag')).toBeTruthy()
	const head = await fetch(url, { method: 'HEAD', headers: { 'X-Forwarded-For': randomIp() } })
	expect(head.status).toBe(200)
	expect([null, full.headers.get('etag')]).toContain(head.headers.get('etag'))
	expect(head.headers.get('cache-control')).toMatch(/s-maxage/)
	expect(await head.text()).toBe('')
})

test('logged out, once the message is shown, the session cookie is gone and the pages are shared again', async ({ page }) => {
	const en = dictionary('en', 'auth')
	await login(page, demo.customer.email, demo.customer.password)
	await open(page, '/dashboard?lng=en', false)
	await page.getByRole('button', { name: en('logout.button') }).first().click()
	await expectToast(page, en('logout.success'))
	expect((await page.context().cookies()).map((cookie) => cookie.name)).not.toContain('__session')
	const about = await page.request.get('/about')
	expect(about.headers()['cache-control']).toMatch(/^public/)
})

test('signed in, the same pages are private and never kept', async ({ page }) => {
	await login(page, demo.customer.email, demo.customer.password)
	for (const path of ['/', '/workshop-list?lng=en', '/cities']) {
		const response = await page.request.get(path)
		expect(response.status(), path).toBe(200)
		expect(response.headers()['cache-control'], path).toBe('private, no-store')
		expect(response.headers()['etag'], path).toBeUndefined()
		// With the session's own form token (the header's log-out button).
		expect(await response.text(), path).toMatch(/name="csrf"/)
	}
})

test('a page arrives whole, with its length, and the bot trap is only where strangers send forms', async ({ page }) => {
	// Rendered in one buffer (decision 0092): a length instead of a chunked stream, the document complete.
	const home = await get('/?lng=en', { 'Accept-Encoding': 'identity' })
	expect(home.status).toBe(200)
	expect(Number(home.headers['content-length'])).toBe(Buffer.byteLength(home.body))
	expect(home.headers['transfer-encoding']).toBeUndefined()
	expect(home.body).toMatch(/<\/html>/)
	// The honeypot's trap field on the two public forms, not on a signed-in page.
	for (const path of ['/register', '/contact-us']) expect((await get(path)).body, path).toMatch(/name="name__confirm"/)
	await login(page, demo.customer.email, demo.customer.password)
	const dashboard = await page.request.get('/dashboard')
	expect(dashboard.status()).toBe(200)
	expect(await dashboard.text()).not.toMatch(/name__confirm/)
})

test.describe('a changed page', () => {
	test.use({ javaScriptEnabled: false })

	test('gets a new ETag, and the old one a full answer', async ({ page }) => {
		const admin = (key: string) => dictionary('en', 'admin')(key)
		const before = await get('/privacy-poicy?lng=en', lng('en'))
		const etag = before.headers['etag']!
		expect(etag).toBeTruthy()
		await page.goto('/?lng=en')
		await loginAsAdmin(page)
		await page.goto('/admin/content/privacy-policy/en?lng=en')
		const body = page.getByLabel(admin('content.body'))
		const original = await body.inputValue()
		try {
			await body.fill(`${original}<p>Changed for the cache test.</p>`)
			await page.getByRole('button', { name: admin('content.submit') }).click()
			await expectToast(page, admin('content.saved'))
			const after = await get('/privacy-poicy?lng=en', { ...lng('en'), 'If-None-Match': etag })
			expect(after.status).toBe(200)
			expect(after.headers['etag']).not.toBe(etag)
			expect(after.body).toContain('Changed for the cache test.')
		} finally {
			await page.goto('/admin/content/privacy-policy/en?lng=en')
			await page.getByLabel(admin('content.body')).fill(original)
			await page.getByRole('button', { name: admin('content.submit') }).click()
			await expectToast(page, admin('content.saved'))
		}
	})
})

/**
 * No process keeps whole pages (issue 31, docs/decisions/0118): a change made anywhere (psql here,
 * as another process or a job would write) shows on the next page, shared or signed in, and a
 * visitor of a shared page is counted by its layout's loader. A cache in front keeps the anonymous
 * pages as their Cache-Control says, and revalidates them by their ETag.
 */
test.describe('every page is rendered afresh', () => {
	test.skip(!process.env.TEST_DATABASE_URL, 'another writer of the database needs the PostgreSQL server')

	test('a change made elsewhere shows on the next shared page, with a new ETag, and its visitor is counted', async () => {
		const url = new URL(process.env.TEST_DATABASE_URL!)
		url.pathname = `/autohub_e2e_${process.env.E2E_PORT ?? '3210'}`
		const client = new pg.Client({ connectionString: url.toString() })
		await client.connect()
		const path = '/privacy-poicy?lng=ru'
		const where = `where slug = 'privacy-policy' and language = 'ru'`
		const original = ((await client.query(`select body_html from content_pages ${where}`)).rows as Array<{ body_html: string }>)[0]!.body_html
		const marker = `Fresh ${Date.now().toString(36)}`
		const ip = randomIp()
		// The visitor's address as app/domain/site/visits.server.ts stores it: a salted hash per day.
		const secret = process.env.SESSION_SECRET ?? 'end-to-end-tests-session-secret-0123456789'
		const visitsFrom = async (address: string) => {
			const day = new Date().toISOString().slice(0, 10)
			const source = createHash('sha256').update(`${day}\n${address}\n\n${secret}`).digest('hex')
			const { rows } = await client.query<{ n: number }>('select count(*)::int as n from visits where day = $1 and source_hash = $2', [day, source])
			return rows[0]!.n
		}
		try {
			const first = await get(path, lng('ru'))
			expect(first.status).toBe(200)
			// Without any trigger telling: the next answer is the new page, under a new ETag.
			await client.query('set session_replication_role = replica')
			await client.query(`update content_pages set body_html = $1 ${where}`, [`<p>${marker}</p>`])
			const second = await get(path, lng('ru'))
			expect(second.body).toContain(marker)
			expect(second.headers['etag']).not.toBe(first.headers['etag'])
			expect((await get(path, { ...lng('ru'), 'If-None-Match': first.headers['etag']! })).status).toBe(200)

			const browserLike = { ...lng('ru'), 'X-Forwarded-For': ip, 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36' }
			await fetch(new URL(path, test.info().project.use.baseURL), { headers: browserLike })
			await expect.poll(() => visitsFrom(ip)).toBe(1)
		} finally {
			await client.query('set session_replication_role = origin')
			await client.query(`update content_pages set body_html = $1 ${where}`, [original])
			await client.end()
		}
	})

	test('a change made elsewhere shows on the next signed-in page and its data', async ({ browser, baseURL }) => {
		const url = new URL(process.env.TEST_DATABASE_URL!)
		url.pathname = `/autohub_e2e_${process.env.E2E_PORT ?? '3210'}`
		const client = new pg.Client({ connectionString: url.toString() })
		await client.connect()
		const customer = await person(browser, false, baseURL)
		const plate = `F${Date.now().toString(36).slice(-5).toUpperCase()}`
		try {
			await register(customer, 'customer', uniqueEmail('fresh'), { first: 'Kadri', last: 'Kask' })
			await addVehicle(customer, plate, false)
			const cookie = (await customer.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ')
			await client.query('set session_replication_role = replica')
			await client.query(`update vehicles set model = 'Auris' where registration_number = $1`, [plate])
			const html = await get('/my-vehicle?lng=en', { Cookie: cookie })
			expect(html.status).toBe(200)
			expect(html.headers['cache-control']).toBe('private, no-store')
			expect(html.body).toContain('Auris')
			const data = await get('/my-vehicle.data?lng=en', { Cookie: cookie })
			expect(data.body).toContain('Auris')
		} finally {
			await client.query('set session_replication_role = origin')
			await client.end()
			await customer.context().close()
		}
	})
})

test('a page and JSON are sent whole with their length, compressed as the browser takes them; a small answer is left as it is', async () => {
	const raw = (path: string, headers: Record<string, string>, method = 'GET') =>
		new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
			const request = http.request(new URL(path, test.info().project.use.baseURL), { method, headers: { 'X-Forwarded-For': randomIp(), ...headers } }, (response) => {
				const chunks: Buffer[] = []
				response.on('data', (chunk: Buffer) => chunks.push(chunk))
				response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }))
			})
			request.on('error', reject)
			request.end()
		})
	// As browsers ask (gzip listed first): Brotli, in one piece with its length. A shared page: the same bytes each time.
	const br = await raw('/about', { ...lng('en'), 'Accept-Encoding': 'gzip, deflate, br, zstd' })
	expect(br.headers['content-encoding']).toBe('br')
	expect(Number(br.headers['content-length'])).toBe(br.body.length)
	expect(br.headers['transfer-encoding']).toBeUndefined()
	expect(br.headers['vary']).toMatch(/accept-encoding/i)
	const page = zlib.brotliDecompressSync(br.body).toString()
	expect(page).toMatch(/^<!DOCTYPE html>/)
	const gzip = await raw('/about', { ...lng('en'), 'Accept-Encoding': 'gzip' })
	expect(gzip.headers['content-encoding']).toBe('gzip')
	expect(zlib.gunzipSync(gzip.body).toString()).toBe(page)
	const plain = await raw('/about', lng('en'))
	expect(plain.headers['content-encoding']).toBeUndefined()
	expect(Number(plain.headers['content-length'])).toBe(plain.body.length)
	expect(plain.body.toString()).toBe(page)
	// JSON too; a refusal of a few bytes is not worth compressing.
	const list = await raw('/admin/api/workshop-list?lng=en', { 'Accept-Encoding': 'br' })
	expect(list.headers['content-encoding']).toBe('br')
	expect(JSON.parse(zlib.brotliDecompressSync(list.body).toString())).toMatchObject({ status: 200 })
	const refused = await raw('/admin/api/get-notification', { 'Accept-Encoding': 'br', Accept: 'application/json' }, 'POST')
	expect(refused.status).toBe(401)
	expect(refused.headers['content-encoding']).toBeUndefined()
	expect(Number(refused.headers['content-length'])).toBe(refused.body.length)
	expect(JSON.parse(refused.body.toString())).toMatchObject({ status: 401 })
})
