import { expect, test } from '@playwright/test'

/**
 * The API's contract over HTTP, through the whole server (decision 0145): an unknown path under
 * /admin/api is the API's JSON 404 for any method, never the portal's redirect to /; a known call
 * with a method it does not take is a JSON 405 with Allow; the OpenAPI document is served.
 */
const unknownPaths = ['/admin/api', '/admin/api/nope', '/admin/api/workshop-list/extra', '/admin/api/workshop-details/a/b']

test('an unknown path under /admin/api answers the JSON 404 for GET and POST, with or without a token', async ({ request }) => {
	for (const path of unknownPaths) {
		for (const headers of [{}, { Authorization: 'Bearer not-a-token' }] as Array<Record<string, string>>) {
			for (const method of ['GET', 'POST'] as const) {
				const response = await request.fetch(`${path}?lng=en`, { method, headers, data: method === 'POST' ? {} : undefined, maxRedirects: 0 })
				const what = `${method} ${path} ${JSON.stringify(headers)}`
				expect(response.status(), what).toBe(404)
				expect(response.headers()['content-type'], what).toBe('application/json; charset=utf-8')
				expect(response.headers()['access-control-allow-origin'], what).toBe('*')
				expect(await response.json(), what).toEqual({ status: 404, message: 'Not found.' })
			}
		}
	}
	// The `.data` twins are React Router's own transport (turbo-stream), not the API: they carry the same
	// 404, and no redirect either.
	for (const method of ['GET', 'POST'] as const) {
		const twin = await request.fetch('/admin/api/nope.data?lng=en', { method, data: method === 'POST' ? {} : undefined, maxRedirects: 0 })
		expect(twin.status(), `${method} .data`).toBe(404)
		expect(twin.headers()['location']).toBeUndefined()
	}
	// Outside the API, the portal's own rule stays: any other path goes home.
	expect((await request.get('/admin/apix', { maxRedirects: 0 })).status()).toBe(302)
})

test('a known call with a method it does not take answers a JSON 405 with Allow', async ({ request }) => {
	for (const [method, path, allow] of [
		['POST', '/admin/api/workshop-list', 'GET, OPTIONS'],
		['PUT', '/admin/api/site-settings', 'GET, OPTIONS'],
		['DELETE', '/admin/api/workshop-details/abc', 'GET, OPTIONS'],
		['GET', '/admin/api/login', 'POST, OPTIONS'],
		['PATCH', '/admin/api/send-chat', 'POST, OPTIONS'],
	] as const) {
		const response = await request.fetch(`${path}?lng=en`, { method, maxRedirects: 0 })
		expect(response.status(), `${method} ${path}`).toBe(405)
		expect(response.headers()['allow'], `${method} ${path}`).toBe(allow)
		expect(await response.json()).toEqual({ status: 405, message: 'This method is not allowed here.' })
	}
})

test('the OpenAPI document is public, cacheable and answers CORS', async ({ request }) => {
	const response = await request.get('/admin/api/openapi.json', { headers: { Origin: 'https://partner.example' } })
	expect(response.status()).toBe(200)
	expect(response.headers()['cache-control']).toMatch(/^public, max-age=3600/)
	expect(response.headers()['access-control-allow-origin']).toBe('*')
	const etag = response.headers()['etag']
	expect(etag).toBeTruthy()
	expect((await request.get('/admin/api/openapi.json', { headers: { 'If-None-Match': etag! } })).status()).toBe(304)
	const document = await response.json()
	expect(document.openapi).toBe('3.1.1')
	expect(Object.keys(document.paths)).toContain('/workshop-details/{id}')
	const preflight = await request.fetch('/admin/api/openapi.json', { method: 'OPTIONS', headers: { Origin: 'https://partner.example', 'Access-Control-Request-Method': 'GET' } })
	expect(preflight.status()).toBe(204)
	expect(preflight.headers()['access-control-allow-origin']).toBe('*')
})
