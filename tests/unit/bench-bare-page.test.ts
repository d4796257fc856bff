import http from 'node:http'
import { type AddressInfo } from 'node:net'
import { gunzipSync } from 'node:zlib'
import compression from 'compression'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { loadAnswer, serveAnswers, withoutJavaScript } from '../../scripts/bench/lib/bare-page'

// The lighthouse bench's baseline (decision 0095) must lose every script and nothing else.
describe('withoutJavaScript', () => {
	test('drops scripts and module preloads, keeps styles, data and content', () => {
		const page = [
			'<html><head><link rel="stylesheet" href="/assets/app.css"/>',
			'<link rel="modulepreload" href="/assets/entry.client.js"/>',
			'<script type="application/ld+json">{"@type":"AutoRepair"}</script></head>',
			'<body><main><h1>Autohub</h1></main>',
			'<script nonce="abc">window.__reactRouterContext = {};</script>',
			'<script type="module" async nonce="abc">import "/assets/manifest.js";</script>',
			'</body></html>',
		].join('')
		const bare = withoutJavaScript(page)
		expect(bare).not.toMatch(/modulepreload|__reactRouterContext|import "/)
		expect(bare).toContain('<link rel="stylesheet" href="/assets/app.css"/>')
		expect(bare).toContain('<script type="application/ld+json">{"@type":"AutoRepair"}</script>')
		expect(bare).toContain('<main><h1>Autohub</h1></main>')
	})
})

// The bare baselines (pages, signed-in, lighthouse) send the portal's answers again from memory: the
// body and its content-encoding must agree, whether or not the client asked for gzip.
describe('loadAnswer and serveAnswers', () => {
	const html = `<!DOCTYPE html><html><body>${'<p>Autohub</p>'.repeat(200)}</body></html>`
	let portal: http.Server
	let portalUrl: string
	beforeAll(async () => {
		// A stand-in for the portal: the same compression middleware (server/app.ts), gzip when asked for.
		const compress = compression()
		portal = http.createServer((request, response) =>
			compress(request as never, response as never, () => {
				response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', ETag: 'W/"portal"' })
				response.end(html)
			}),
		)
		await new Promise<void>((resolve) => portal.listen(0, '127.0.0.1', resolve))
		portalUrl = `http://127.0.0.1:${(portal.address() as AddressInfo).port}`
	})
	afterAll(() => new Promise<void>((resolve) => portal.close(() => resolve())))

	/** A raw GET (no fetch: it would decode the body and hide a wrong header). */
	const get = (url: string, headers: Record<string, string> = {}) =>
		new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
			http.get(url, { headers }, (response) => {
				const chunks: Buffer[] = []
				response.on('data', (chunk: Buffer) => chunks.push(chunk))
				response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }))
			}).on('error', reject)
		})

	test('the portal gzipped the page it was asked for, as the baselines ask for it', async () => {
		expect((await get(portalUrl, { 'Accept-Encoding': 'gzip, deflate' })).headers['content-encoding']).toBe('gzip')
	})

	test('a client that does not ask for gzip (autocannon) gets the plain body, with no content-encoding', async () => {
		const bare = await serveAnswers(0, async () => loadAnswer(portalUrl))
		try {
			const { headers, body } = await get(bare.url)
			expect(headers['content-encoding']).toBeUndefined()
			expect(body.toString('utf8')).toBe(html)
			expect(headers['content-length']).toBe(String(body.length))
			expect(headers.etag).toBe('W/"portal"')
		} finally {
			await bare.stop()
		}
	})

	test('a client that asks for gzip (a browser) gets it gzipped, labelled so', async () => {
		const answer = await loadAnswer(portalUrl)
		const bare = await serveAnswers(0, () => answer)
		try {
			const { headers, body } = await get(bare.url, { 'Accept-Encoding': 'gzip, deflate, br' })
			expect(headers['content-encoding']).toBe('gzip')
			expect(headers.vary).toMatch(/accept-encoding/i)
			expect(gunzipSync(body).toString('utf8')).toBe(html)
		} finally {
			await bare.stop()
		}
	})

	test('a rewritten body loses the portal ETag, and an unknown path is a 404', async () => {
		const bare = await serveAnswers(0, async (request) => (request.url === '/' ? loadAnswer(portalUrl, {}, (text) => text.replace('Autohub', 'Bare')) : undefined))
		try {
			const { headers, body } = await get(bare.url)
			expect(headers.etag).toBeUndefined()
			expect(body.toString('utf8')).toContain('<p>Bare</p>')
			expect(await new Promise((resolve) => http.get(`${bare.url}/nowhere`, (response) => (response.resume(), resolve(response.statusCode))))).toBe(404)
		} finally {
			await bare.stop()
		}
	})
})
