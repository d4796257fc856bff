import http from 'node:http'
import { dictionary, expect, javaScriptModes, test, uniqueEmail } from './fixtures'
import { addVehicle, person, register } from './people'

/**
 * Issue 13 as a visitor and an attacker see it in a real browser: no redirect to another site,
 * forms posted from another site refused with a readable answer (and accepted behind a proxy
 * that says where the user really is), and upload headers sent once.
 */

for (const javaScriptEnabled of javaScriptModes) {
	test(`a returnTo that leads elsewhere stays on the portal (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async ({ browser, baseURL }) => {
		const page = await person(browser, javaScriptEnabled, baseURL)
		await register(page, 'customer', uniqueEmail('redirect'), { first: 'Rein', last: 'Suunaja' })
		// A tab after the slash: browsers drop it and read `//evil.example/`, another site.
		// Random, not the clock: the two variants run side by side and a plate is unique.
		const plate = `R${Math.random().toString(36).slice(2, 8).toUpperCase()}`
		await addVehicle(page, plate, javaScriptEnabled, '/add-vehicle?lng=en&returnTo=%2F%09%2Fevil.example%2F')
		// The add, the redirect and the list's load: generous on a loaded machine.
		await expect(page).toHaveURL(/\/my-vehicle$/, { timeout: 30_000 })
		expect(new URL(page.url()).host).toBe(new URL(baseURL!).host)
		await expect(page.getByText(plate).first()).toBeVisible()
		await page.context().close()
	})
}

test('a form posted from another site is refused with the translated "form expired" text', async ({ request, baseURL }) => {
	const common = dictionary('et')
	// A valid form token and its cookie: only the origin tells the forged post from the real one.
	const token = /name="csrf" value="([^"]+)"/.exec(await (await request.get('/login')).text())?.[1]
	expect(token).toBeTruthy()
	const form = { csrf: token!, email: 'customer@example.com', password: 'demo12345' }
	const response = await request.post('/login', { headers: { Origin: 'https://evil.example' }, form, maxRedirects: 0 })
	expect(response.status()).toBe(403)
	expect(await response.text()).toContain(common('errors.formExpired'))
	const own = await request.post('/login', { headers: { Origin: new URL(baseURL!).origin }, form, maxRedirects: 0 })
	expect([own.status(), own.headers()['location']]).toEqual([302, '/dashboard'])
	// "null" is what a sandboxed or privacy-stripped page sends: refused too.
	const hidden = await request.post('/login?lng=en', { headers: { Origin: 'null' }, form: { email: 'x' }, maxRedirects: 0 })
	expect(hidden.status()).toBe(403)
	expect(await hidden.text()).toContain(dictionary('en')('errors.formExpired'))
})

test('behind a reverse proxy a real sign-in from the public address goes through', async ({ request }) => {
	// The test server trusts the proxy headers from loopback (TRUST_PROXY=loopback), as a real one would its proxy.
	const proxied = { 'X-Forwarded-Host': 'autohub.example', 'X-Forwarded-Proto': 'https' }
	const page = await request.get('/login', { headers: proxied })
	const token = /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1]
	expect(token).toBeTruthy()
	const signIn = await request.post('/login', {
		headers: { ...proxied, Origin: 'https://autohub.example' },
		form: { csrf: token!, email: 'customer@example.com', password: 'demo12345' },
		maxRedirects: 0,
	})
	expect(signIn.status()).toBe(302)
	expect(signIn.headers()['location']).toBe('/dashboard')
	// The same post claiming another public address is another site's.
	const forged = await request.post('/login', {
		headers: { ...proxied, Origin: 'https://evil.example' },
		form: { csrf: token!, email: 'customer@example.com', password: 'demo12345' },
		maxRedirects: 0,
	})
	expect(forged.status()).toBe(403)
})

test('behind a proxy that is not trusted, a sign-in from the configured public address (APP_URL) goes through', async ({ request, baseURL }) => {
	// The shared server's APP_URL is http://127.0.0.1:PORT; the proxy here passes on another Host and no forwarded headers.
	const publicOrigin = new URL(baseURL!).origin
	const login = await request.get('/login')
	const token = /name="csrf" value="([^"]+)"/.exec(await login.text())?.[1]
	expect(token).toBeTruthy()
	const cookie = (await request.storageState()).cookies.map((c) => `${c.name}=${c.value}`).join('; ')
	const body = new URLSearchParams({ csrf: token!, email: 'customer@example.com', password: 'demo12345' }).toString()
	const signIn = await raw(baseURL!, {
		method: 'POST',
		path: '/login',
		body,
		headers: {
			'Host': `localhost:${new URL(baseURL!).port}`,
			'Origin': publicOrigin,
			'Cookie': cookie,
			'Content-Type': 'application/x-www-form-urlencoded',
			'Content-Length': String(Buffer.byteLength(body)),
		},
	})
	expect([signIn.status, signIn.headers.location]).toEqual([302, '/dashboard'])
})

test('a body the portal does not read is a 4xx with a readable answer, never a 500', async ({ request }) => {
	const wrongType = await request.post('/login?lng=en', { headers: { 'Content-Type': 'text/plain' }, data: 'email=a', maxRedirects: 0 })
	expect(wrongType.status()).toBe(415)
	expect(await wrongType.text()).toContain(dictionary('en')('errors.unsupportedType'))
	const brokenJson = await request.post('/admin/api/login?lng=en', { headers: { 'Content-Type': 'application/json' }, data: '{"email": ', maxRedirects: 0 })
	expect(brokenJson.status()).toBeGreaterThanOrEqual(400)
	expect(brokenJson.status()).toBeLessThan(500)
	const search = await request.get('/workshop-list?q=%00')
	expect(search.status()).toBe(200)
})

test('a stored file is sent with its headers once', async ({ request }) => {
	const home = await request.get('/')
	const upload = /\/uploads\/[A-Za-z0-9_-]+/.exec(await home.text())?.[0]
	expect(upload, 'the home page shows an uploaded image').toBeTruthy()
	const file = await request.get(upload!)
	expect(file.status()).toBe(200)
	const nosniff = file.headersArray().filter((header) => header.name.toLowerCase() === 'x-content-type-options')
	expect(nosniff).toEqual([{ name: expect.stringMatching(/x-content-type-options/i), value: 'nosniff' }])
})

/** A raw request, with the Host and target exactly as given (fetch would correct both). */
function raw(baseURL: string, options: { method?: string; path: string; headers: Record<string, string>; body?: string }) {
	const url = new URL(baseURL)
	return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
		const request = http.request({ host: url.hostname, port: url.port, method: options.method ?? 'GET', path: options.path, headers: options.headers }, (response) => {
			let body = ''
			response.on('data', (chunk) => (body += String(chunk)))
			response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }))
		})
		request.on('error', reject)
		request.end(options.body)
	})
}

test('a request that is not even well-formed gets a 4xx, and the server carries on', async ({ baseURL, request }) => {
	const forwarded = { 'X-Forwarded-For': '10.250.0.1' }
	const badHost = await raw(baseURL!, { method: 'POST', path: '/login', headers: { ...forwarded, 'Host': 'a b', 'Origin': 'http://a b', 'Content-Length': '0' } })
	expect(badHost.status).toBe(400)
	const badForwardedHost = await raw(baseURL!, { path: '/', headers: { ...forwarded, 'X-Forwarded-Host': 'a b' } })
	expect(badForwardedHost.status).toBe(400)
	const oddTarget = await raw(baseURL!, { method: 'POST', path: '//a:99999/', headers: { ...forwarded, 'Origin': 'https://evil.example', 'Content-Length': '0' } })
	expect(oddTarget.status).toBe(403)
	const oddGet = await raw(baseURL!, { path: '//a:99999/', headers: forwarded })
	expect(oddGet.status).toBeLessThan(500)
	// React Router's own requests of the JSON API are not exempt from the origin check.
	const dataTwin = await request.post('/admin/api/login.data', { headers: { Origin: 'https://evil.example' }, maxRedirects: 0 })
	expect(dataTwin.status()).toBe(403)
	expect((await request.get('/healthz')).status()).toBe(200)
})

test('a form body over the limit is refused with a readable 413, not read into memory', async ({ request }) => {
	const huge = await request.post('/login?lng=en', { headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, data: `email=${'a'.repeat(3 * 1024 * 1024)}`, maxRedirects: 0 })
	expect(huge.status()).toBe(413)
	expect(await huge.text()).toContain(dictionary('en')('errors.tooLarge'))
	// The unread rest of the body was read and dropped after the answer: the server carries on.
	expect((await request.get('/healthz')).status()).toBe(200)
})
