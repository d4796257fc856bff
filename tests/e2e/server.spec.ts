import { expect, test } from '@playwright/test'

test.describe('every response', () => {
	test('carries the security headers, with a fresh CSP nonce that the page’s scripts use', async ({ request }) => {
		// A page with a form: a shared page's nonce is its own, the same in every render (tests/e2e/http-caching.spec.ts).
		const first = await request.get('/login')
		const second = await request.get('/login')
		const csp = first.headers()['content-security-policy']!
		expect(csp).toContain("default-src 'self'")
		expect(csp).toContain("frame-ancestors 'none'")
		expect(csp).toContain("object-src 'none'")
		expect(csp).not.toContain('unsafe-inline')
		expect(csp).not.toContain('unsafe-eval')
		const nonce = /'nonce-([^']+)'/.exec(csp)?.[1]
		expect(nonce).toBeTruthy()
		expect(/'nonce-([^']+)'/.exec(second.headers()['content-security-policy']!)?.[1]).not.toBe(nonce)

		expect(first.headers()['x-content-type-options']).toBe('nosniff')
		expect(first.headers()['referrer-policy']).toBe('strict-origin-when-cross-origin')
		expect(first.headers()['x-frame-options']).toBe('DENY')

		const html = await first.text()
		const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0])
		expect(scripts.length).toBeGreaterThan(0)
		for (const script of scripts) expect(script).toContain(`nonce="${nonce}"`)
	})

	test('static files carry them too', async ({ request }) => {
		const html = await (await request.get('/')).text()
		const stylesheet = /href="(\/assets\/[^"]+\.css)"/.exec(html)![1]!
		const response = await request.get(stylesheet)
		expect(response.status()).toBe(200)
		expect(response.headers()['x-content-type-options']).toBe('nosniff')
		expect(response.headers()['cache-control']).toContain('immutable')
	})
})

test('GET /healthz (alive) and /readyz (the database answers) say 200 once the database is migrated, each with its request id', async ({ request }) => {
	for (const probe of ['/healthz', '/readyz']) {
		const response = await request.get(probe, { headers: { 'X-Request-Id': `probe${probe.replace('/', '-')}` } })
		expect(response.status(), probe).toBe(200)
		expect(await response.json(), probe).toEqual({ status: 'ok' })
		expect(response.headers()['x-request-id'], probe).toBe(`probe${probe.replace('/', '-')}`)
	}
})

test('any unknown path redirects to the home page', async ({ request }) => {
	for (const path of ['/no-such-page', '/a/b/c', '/dashboard-old?x=1']) {
		const response = await request.get(path, { maxRedirects: 0 })
		expect(response.status(), path).toBe(302)
		expect(response.headers()['location'], path).toBe('/')
	}
})

test('a missing asset or file is a 404, not a redirect', async ({ request }) => {
	expect((await request.get('/assets/missing-0000.js', { maxRedirects: 0 })).status()).toBe(404)
	expect((await request.get('/uploads/not-an-id', { maxRedirects: 0 })).status()).toBe(404)
	const unknownButWellFormed = Buffer.from(crypto.randomUUID()).toString('base64url')
	expect((await request.get(`/uploads/${unknownButWellFormed}`, { maxRedirects: 0 })).status()).toBe(404)
})

test('the logo and favicon from site settings are served as images', async ({ request }) => {
	const html = await (await request.get('/')).text()
	const favicon = /<link rel="icon" href="([^"]+)"/.exec(html)![1]!
	// The logo's img names its WebP copy (issue 18); the favicon is the PNG itself.
	const logo = /<img src="(\/uploads\/[^"]+)"[^>]*class="brand__logo"/.exec(html)![1]!.replaceAll('&amp;', '&')
	expect(logo).toMatch(/^\/uploads\/[\w-]+\?w=\d+&f=webp&v=\w{12}$/)
	for (const [url, type] of [
		[favicon, 'image/png'],
		[logo, 'image/webp'],
	]) {
		const response = await request.get(url!)
		expect(response.status()).toBe(200)
		expect(response.headers()['content-type']).toBe(type)
	}
})

test('the browser’s dictionaries are served as one JSON per language, and only known ones', async ({ request }) => {
	const response = await request.get('/resources/locales/ru')
	expect(response.status()).toBe(200)
	expect(response.headers()['content-type']).toContain('application/json')
	const bundle = await response.json()
	expect(bundle.common.nav.workshops).toBe('Автосервисы')
	expect(Object.keys(bundle)).toEqual(expect.arrayContaining(['common', 'auth', 'account', 'public']))
	expect((await request.get('/resources/locales/de')).status()).toBe(404)
})
