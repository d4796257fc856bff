import { createServer, type Server } from 'node:http'
import { type AddressInfo } from 'node:net'
import path from 'node:path'
import { Writable } from 'node:stream'
import { gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createLogger } from '~/utils/logger.server'
import { requestIdFrom, runInRequestContext } from '~/utils/request-context.server'
import { startBuiltServer, until, type BuiltServer } from '#tests/support/built-server'
import { freePort } from '../../scripts/free-port.mjs'

/**
 * What an operator sees of a running portal (issue 34, docs/operations.md): the request id on
 * answers and log lines, the Prometheus scrape on METRICS_PORT, OpenTelemetry traces sent to an
 * OTLP/HTTP receiver this test runs, and liveness apart from readiness. The built server runs in a
 * process of its own (npm run build first), on this file's database.
 */
const onPostgres = Boolean(process.env.DATABASE_URL)
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

type Attribute = { key: string; value: { stringValue?: string; intValue?: number | string } }
type OtlpSpan = { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; attributes?: Attribute[] }

/** An OTLP/HTTP receiver: keeps the spans of every POST /v1/traces (JSON, as the exporter sends them). */
async function startReceiver() {
	const spans: Array<OtlpSpan & { service?: string }> = []
	const server: Server = createServer((req, res) => {
		const chunks: Buffer[] = []
		req.on('data', (chunk: Buffer) => chunks.push(chunk))
		req.on('end', () => {
			if (req.method === 'POST' && req.url === '/v1/traces') {
				let body = Buffer.concat(chunks)
				if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body)
				const sent = JSON.parse(body.toString('utf8')) as {
					resourceSpans: Array<{ resource?: { attributes?: Attribute[] }; scopeSpans: Array<{ spans: OtlpSpan[] }> }>
				}
				for (const resource of sent.resourceSpans) {
					const service = resource.resource?.attributes?.find((a) => a.key === 'service.name')?.value.stringValue
					for (const scope of resource.scopeSpans) for (const span of scope.spans) spans.push({ ...span, service })
				}
			}
			res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}')
		})
	})
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

const attribute = (span: OtlpSpan, key: RegExp) => span.attributes?.find((a) => key.test(a.key))?.value

/** The JSON log lines a process wrote. */
const logLines = (output: string) =>
	output
		.split('\n')
		.filter((line) => line.startsWith('{'))
		.map((line) => JSON.parse(line) as Record<string, unknown>)

describe('a running portal', () => {
	let server: BuiltServer
	let receiver: Awaited<ReturnType<typeof startReceiver>>
	let metricsUrl: string

	beforeAll(async () => {
		receiver = await startReceiver()
		const metricsPort = await freePort()
		metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`
		server = await startBuiltServer({
			METRICS_PORT: String(metricsPort),
			OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
			OTEL_SERVICE_NAME: 'autohub-test',
			// The batch goes out within a fifth of a second, not five.
			OTEL_BSP_SCHEDULE_DELAY: '200',
			// On PostgreSQL two web processes (node:cluster): the primary's scrape sums them.
			WEB_CONCURRENCY: '2',
		})
		await until(async () => ((await fetch(`${server.url}/readyz`)).status === 200 ? true : undefined), 120_000)
	}, 150_000)

	afterAll(async () => {
		await server?.stop()
		await receiver?.close()
	})

	test('each answer carries a request id: the proxy’s when well-formed, else a new one; the log line names it', async () => {
		const given = 'a1b2c3d4e5f60718293a4b5c6d7e8f90'
		const echoed = await fetch(`${server.url}/workshop-list?lng=en`, { headers: { 'X-Request-Id': given } })
		expect(echoed.status).toBe(200)
		expect(echoed.headers.get('X-Request-Id')).toBe(given)

		const made = await fetch(`${server.url}/workshop-list?lng=en`)
		expect(made.headers.get('X-Request-Id')).toMatch(UUID)

		for (const malformed of ['has space', 'x'.repeat(129), 'semi;colon', '']) {
			const refused = await fetch(`${server.url}/healthz`, { headers: { 'X-Request-Id': malformed } })
			expect(refused.headers.get('X-Request-Id'), malformed).toMatch(UUID)
		}
		// Not found is answered too, with its own id.
		const missing = await fetch(`${server.url}/assets/no-such-file.js`, { headers: { 'X-Request-Id': 'missing-1' } })
		expect(missing.status).toBe(404)
		expect(missing.headers.get('X-Request-Id')).toBe('missing-1')

		const line = await until(async () => logLines(server.output()).find((entry) => entry.msg === 'request' && entry.requestId === given))
		expect(line).toMatchObject({ level: 'info', method: 'GET', path: '/workshop-list', route: 'routes/_public.workshop-list', status: 200 })
		await until(async () => logLines(server.output()).find((entry) => entry.msg === 'request' && entry.requestId === 'missing-1' && entry.status === 404))
		expect(server.output()).not.toContain('has space')
	})

	test('METRICS_PORT lists request durations by route pattern, the pool, the outbox, the queues, the caches and the event loop', async () => {
		for (const path of ['/?lng=en', '/workshop-list?lng=en', '/workshop-list?lng=en&page=2', '/cities?lng=en']) expect((await fetch(`${server.url}${path}`)).status).toBe(200)
		// The public port does not serve them.
		expect((await fetch(`${server.url}/metrics`, { redirect: 'manual' })).status).not.toBe(200)

		const scrape = await fetch(metricsUrl)
		expect(scrape.status).toBe(200)
		expect(scrape.headers.get('Content-Type')).toContain('text/plain')
		const text = await scrape.text()
		const value = (pattern: RegExp) => {
			const match = new RegExp(`^${pattern.source} ([0-9.e+-]+|NaN)$`, 'm').exec(text)
			return match ? Number(match[1]) : undefined
		}
		// By route id, never the raw path: the query string and page numbers are not labels.
		expect(value(/autohub_http_request_duration_seconds_count\{method="GET",route="routes\/_public\.workshop-list",status="200"\}/)).toBeGreaterThanOrEqual(2)
		expect(value(/autohub_http_request_duration_seconds_count\{method="GET",route="readyz",status="200"\}/)).toBeGreaterThanOrEqual(1)
		expect(text).toMatch(/autohub_http_request_duration_seconds_bucket\{le="0\.5",method="GET",route="routes\/_public\._index",status="200"\} \d+/)
		expect(text).not.toMatch(/route="\/workshop-list/)
		expect(text).not.toMatch(/page=2/)

		expect(value(/autohub_email_outbox_backlog/)).toBeGreaterThanOrEqual(0)
		expect(value(/autohub_email_outbox_oldest_unsent_seconds/)).toBeGreaterThanOrEqual(0)
		expect(value(/autohub_metrics_database_up/)).toBe(1)
		// Since the last scrape (here the first: the start, which on PGlite holds the loop for seconds).
		expect(value(/nodejs_eventloop_lag_p99_seconds/)).toBeGreaterThan(0)
		// Now: the loop answers.
		expect(value(/nodejs_eventloop_lag_seconds/)).toBeGreaterThanOrEqual(0)
		expect(value(/nodejs_eventloop_lag_seconds/)).toBeLessThan(5)
		expect(text).toMatch(/autohub_cache_lookups_total\{cache="[a-z:-]+",result="(hit|miss)"\} \d+/)
		if (onPostgres) {
			expect(value(/autohub_db_pool_connections\{state="idle"\}/)).toBeGreaterThanOrEqual(0)
			expect(value(/autohub_db_pool_connections\{state="waiting"\}/)).toBe(0)
			// Two web processes, one scrape: the primary sums their pools (ten connections each).
			expect(value(/autohub_db_pool_max/)).toBe(20)
			// The jobs' queues exist once pg-boss has started in this process.
			const queues = await until(async () => {
				const again = await (await fetch(metricsUrl)).text()
				return /autohub_job_queue_depth\{queue="email-outbox"\} \d+/.test(again) ? again : undefined
			}, 60_000)
			expect(queues).toMatch(/autohub_job_queue_failed\{queue="[a-z-]+"\} 0/)
			expect(queues).toMatch(/autohub_job_queue_oldest_waiting_seconds\{queue="[a-z-]+"\} [0-9.e+-]+/)
		} else {
			// PGlite: no pool, no pg-boss: nothing said rather than something made up.
			expect(text).not.toMatch(/autohub_db_pool_connections\{/)
			expect(text).not.toMatch(/autohub_job_queue_depth\{/)
		}
	})

	test('a request is traced to the OTLP endpoint: its server span names the route, and its queries are in the same trace', async () => {
		const response = await fetch(`${server.url}/workshop-list?lng=en`, { headers: { 'X-Request-Id': 'traced-1' } })
		expect(response.status).toBe(200)
		const serverSpan = await until(async () =>
			receiver.spans.find((span) => span.kind === 2 && attribute(span, /^http\.route$/)?.stringValue === 'routes/_public.workshop-list'),
		)
		expect(serverSpan.service).toBe('autohub-test')
		expect(serverSpan.name).toBe('GET routes/_public.workshop-list')
		// Probes are not traced.
		expect(receiver.spans.some((span) => attribute(span, /^http\.route$/)?.stringValue === 'readyz')).toBe(false)
		if (!onPostgres) return // PGlite has no pg driver to trace.
		const query = await until(async () =>
			receiver.spans.find((span) => span.traceId === serverSpan.traceId && /^db\.system/.test(span.attributes?.map((a) => a.key).join(' ') ?? '') && span.kind === 3),
		)
		expect(attribute(query, /^db\.system/)?.stringValue).toBe('postgresql')
	})
})

describe('the worker', () => {
	test.skipIf(!onPostgres)('`npm run worker` serves its own METRICS_PORT: its job runs, the queues and the outbox', async () => {
		const metricsPort = await freePort()
		const worker = await startBuiltServer({ METRICS_PORT: String(metricsPort) }, path.resolve('server-build/scripts/worker.js'))
		try {
			const text = await until(async () => {
				const scraped = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text()
				return /autohub_job_runs_total\{job="email-outbox",outcome="ok"\} [1-9]/.test(scraped) ? scraped : undefined
			}, 60_000)
			expect(text).toMatch(/autohub_job_queue_depth\{queue="email-outbox"\} \d+/)
			expect(text).toMatch(/^autohub_email_outbox_backlog \d+$/m)
			expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds [0-9.e+-]+$/m)
			// No web process here: no request was answered.
			expect(text).not.toMatch(/autohub_http_request_duration_seconds_count\{/)
		} finally {
			await worker.stop()
		}
	})
})

describe('liveness apart from readiness', () => {
	test('with the database out of reach /healthz says 200 (the process lives) and /readyz 503', async () => {
		// Nothing listens on port 1: every connection is refused.
		const server = await startBuiltServer({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none', DATA_DIR: undefined })
		try {
			const health = await until(async () => {
				const response = await fetch(`${server.url}/healthz`)
				return response.status === 200 ? response : undefined
			})
			expect(await health.json()).toEqual({ status: 'ok' })
			const ready = await fetch(`${server.url}/readyz`)
			expect(ready.status).toBe(503)
			expect(ready.headers.get('Cache-Control')).toBe('no-store')
			// Once the first start has failed: still alive, still not ready.
			await until(async () => (server.output().includes('startup failed') ? true : undefined))
			expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
			const failed = await fetch(`${server.url}/readyz`)
			expect(failed.status).toBe(503)
			expect(await failed.json()).toEqual({ status: 'failed' })
		} finally {
			await server.stop()
		}
	})
})

describe('the logger', () => {
	test('every line written inside a request names its id, however deep; outside none', () => {
		let written = ''
		const logger = createLogger(new Writable({ write: (chunk, _encoding, done) => ((written += String(chunk)), done()) }))
		runInRequestContext({ requestId: requestIdFrom('proxy-id-1') }, () => {
			logger.error({ err: new Error('deep') }, 'failed deep in the domain')
		})
		logger.error('outside any request')
		const [inside, outside] = written.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)
		expect(inside).toMatchObject({ level: 'error', requestId: 'proxy-id-1', msg: 'failed deep in the domain' })
		expect(outside).not.toHaveProperty('requestId')
		expect(requestIdFrom('bad id')).toMatch(UUID)
	})
})
