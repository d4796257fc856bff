import { expect, test } from './fixtures'

const origin = `http://127.0.0.1:${process.env.E2E_PORT ?? '3210'}`

// What search engines read is the server's HTML: these tests run without JavaScript.
test.use({ javaScriptEnabled: false })

test('every public page has a description, a canonical address and hreflang alternates', async ({ page }) => {
	for (const path of ['/', '/workshop-list', '/cities', '/about', '/terms-conditions', '/privacy-poicy', '/contact-us']) {
		await page.goto(`${path}?lng=en`)
		await expect(page.locator('meta[name="description"]'), path).toHaveAttribute('content', /.{20,}/)
		await expect(page.locator('link[rel="canonical"]'), path).toHaveAttribute('href', `${origin}${path}?lng=en`)
		for (const language of ['et', 'en', 'ru']) {
			await expect(page.locator(`link[rel="alternate"][hreflang="${language}"]`), path).toHaveAttribute('href', `${origin}${path}?lng=${language}`)
		}
		await expect(page.locator('link[rel="alternate"][hreflang="x-default"]'), path).toHaveAttribute('href', `${origin}${path}`)
	}
})

test('the title and description follow the language', async ({ page }) => {
	await page.goto('/workshop-list?city=tartu&lng=et')
	await expect(page).toHaveTitle('Autotöökojad: Tartu · Autohub')
	await page.goto('/workshop-list?city=tartu&service=engine&lng=ru')
	await expect(page).toHaveTitle('Автосервисы: Ремонт двигателя, Тарту · Autohub')
	await page.goto('/workshop-list?city=tartu&lng=ru')
	await expect(page).toHaveTitle('Автосервисы — Тарту · Autohub')
	await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `${origin}/workshop-list?city=tartu&lng=ru`)
})

test('sitemap.xml lists the pages and the workshops; robots.txt points at it', async ({ request }) => {
	const sitemap = await request.get('/sitemap.xml')
	expect(sitemap.status()).toBe(200)
	expect(sitemap.headers()['content-type']).toContain('application/xml')
	const xml = await sitemap.text()
	expect(xml).toContain(`<loc>${origin}/contact-us</loc>`)
	// The demo's twelve listed workshops, and any other tests have added since.
	expect(xml.match(/<loc>[^<]*\/workshop-details\//g)!.length).toBeGreaterThanOrEqual(12)
	const robots = await (await request.get('/robots.txt')).text()
	expect(robots).toContain(`Sitemap: ${origin}/sitemap.xml`)
})

test('the public API answers other origins, preflight included', async ({ request }) => {
	const headers = { Origin: 'https://partner.example' }
	for (const path of ['/admin/api/site-settings', '/admin/api/ads-details', '/admin/api/visit-insert', '/admin/api/workshop-list', '/admin/api/workshop-filters']) {
		const response = await request.get(path, { headers })
		expect(response.status(), path).toBe(200)
		expect(response.headers()['access-control-allow-origin'], path).toBe('*')
		expect(response.headers()['access-control-allow-credentials'], path).toBeUndefined()
	}
	const preflight = await request.fetch('/admin/api/contact-us', {
		method: 'OPTIONS',
		headers: { ...headers, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
	})
	expect(preflight.status()).toBe(204)
	expect(preflight.headers()['access-control-allow-methods']).toContain('POST')
	const refused = await request.post('/admin/api/contact-us?lng=en', { headers, data: { name: 'A', email: 'bad', message: 'x' } })
	expect(refused.status()).toBe(422)
	expect(await refused.json()).toEqual({ status: 422, message: 'Please correct the marked fields.', errors: { email: ['Enter a valid e-mail address.'] } })
})
