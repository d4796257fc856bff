/**
 * The HTTP server: Express around the Remix request handler (Vite's middleware in development).
 * It owns what is true of every response: security headers with a per-request CSP nonce,
 * one structured log line per request, /healthz, and holding requests until the database is ready.
 */
import crypto from 'node:crypto'
import { createRequestHandler } from '@remix-run/express'
import { type ServerBuild } from '@remix-run/node'
import compression from 'compression'
import express, { type NextFunction, type Request, type Response } from 'express'
import helmet from 'helmet'
import { logger } from '../app/utils/logger.server'

type AppEntry = {
	startup: () => Promise<void>
	checkHealth: () => Promise<{ status: number; body: Record<string, unknown> }>
	shutdown: () => Promise<void>
}

const MODE = process.env.NODE_ENV === 'development' ? 'development' : 'production'
const PORT = Number(process.env.PORT ?? 3000)
const HOST = process.env.HOST ?? '0.0.0.0'
const BUILD_URL = new URL('../build/server/index.js', import.meta.url).href
const STARTUP_RETRY_MS = 5_000

const viteDevServer =
	MODE === 'development'
		? await import('vite').then((vite) => vite.createServer({ server: { middlewareMode: true }, appType: 'custom' }))
		: undefined

async function getBuild(): Promise<ServerBuild> {
	if (viteDevServer) return (await viteDevServer.ssrLoadModule('virtual:remix/server-build')) as ServerBuild
	return (await import(BUILD_URL)) as ServerBuild
}

const entry = (await getBuild()).entry.module as unknown as AppEntry

// Start the database in the background; /healthz answers 503 until it is ready.
let ready: Promise<void> = startWithRetry()
function startWithRetry(): Promise<void> {
	return entry.startup().catch(async () => {
		await new Promise((resolve) => setTimeout(resolve, STARTUP_RETRY_MS))
		ready = startWithRetry()
		return ready
	})
}

const app = express()
app.disable('x-powered-by')
if (process.env.TRUST_PROXY) app.set('trust proxy', process.env.TRUST_PROXY)

// One line per request: method, path, status, duration. Secrets in paths are redacted.
app.use((req, res, next) => {
	const started = process.hrtime.bigint()
	res.on('finish', () => {
		logger.info('request', {
			method: req.method,
			path: req.path.replace(/^\/reset-password\/[^/]+/, '/reset-password/[redacted]'),
			status: res.statusCode,
			ms: Number((process.hrtime.bigint() - started) / 10_000n) / 100,
		})
	})
	next()
})

app.use(compression())

app.use((_req, res, next) => {
	res.locals.cspNonce = crypto.randomBytes(16).toString('base64')
	next()
})

const nonce = (_req: unknown, res: unknown) => `'nonce-${(res as Response).locals.cspNonce}'`
app.use(
	helmet({
		contentSecurityPolicy: {
			useDefaults: false,
			// Vite's development client injects styles and scripts at run time; report only there.
			reportOnly: MODE === 'development',
			directives: {
				'default-src': ["'self'"],
				'script-src': ["'self'", nonce],
				'style-src': ["'self'", nonce],
				'img-src': ["'self'", 'data:', 'https:'],
				'font-src': ["'self'"],
				'connect-src': MODE === 'development' ? ["'self'", 'ws:'] : ["'self'"],
				'object-src': ["'none'"],
				'base-uri': ["'self'"],
				// A paid package's form is answered with a redirect to Stripe Checkout; browsers check
				// form-action on that redirect too, so without JavaScript it must be allowed.
				'form-action': process.env.STRIPE_SECRET_KEY && process.env.STRIPE_WEBHOOK_SECRET ? ["'self'", 'https://checkout.stripe.com'] : ["'self'"],
				'frame-ancestors': ["'none'"],
				'manifest-src': ["'self'"],
				'worker-src': ["'self'"],
			},
		},
		crossOriginEmbedderPolicy: false,
		referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
		frameguard: { action: 'deny' },
		strictTransportSecurity: { maxAge: 15_552_000, includeSubDomains: true },
	}),
)
app.use((_req, res, next) => {
	res.setHeader('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), interest-cohort=()')
	next()
})

// CORS preflight for the JSON API (spec §7): any origin, no credentials; tokens travel as Bearer.
app.options('/admin/api/*', (_req, res) => {
	res
		.set({
			'Access-Control-Allow-Origin': '*',
			'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
			'Access-Control-Allow-Headers': 'Content-Type, Accept, Authorization, Accept-Language',
			'Access-Control-Max-Age': '86400',
		})
		.status(204)
		.end()
})

// The partner widgets (issue 9) run on other sites: their script, texts and demo may be loaded
// from any origin (helmet's Cross-Origin-Resource-Policy is same-origin), and the ES module
// build by a module script, which asks with CORS.
app.use('/widgets', (_req, res, next) => {
	res.set({ 'Cross-Origin-Resource-Policy': 'cross-origin', 'Access-Control-Allow-Origin': '*' })
	next()
})
// Uploaded files decide for themselves (app/routes/uploads.$id.ts): public ones, such as the logos
// the widgets show, are cross-origin; private ones stay same-origin. Remix appends its headers,
// so helmet's value must go first.
app.use('/uploads', (_req, res, next) => {
	res.removeHeader('Cross-Origin-Resource-Policy')
	next()
})

app.get('/healthz', async (_req, res) => {
	const { status, body } = await entry.checkHealth()
	res.status(status).set('Cache-Control', 'no-store').json(body)
})

if (viteDevServer) {
	app.use(viteDevServer.middlewares)
} else {
	// Fingerprinted assets never change; everything else in public/ may.
	// A missing fingerprinted asset is a 404, not a redirect to the home page.
	app.use('/assets', express.static('build/client/assets', { immutable: true, maxAge: '1y', fallthrough: false }))
	app.use(express.static('build/client', { maxAge: '1h' }))
}

// Hold requests while the database migrates at start (a second or two on a bare machine).
app.use(async (_req, _res, next) => {
	try {
		await ready
		next()
	} catch (error) {
		next(error)
	}
})

app.all(
	'*',
	createRequestHandler({
		build: viteDevServer ? getBuild : await getBuild(),
		mode: MODE,
		getLoadContext: (req, res) => ({ cspNonce: res.locals.cspNonce as string, clientIp: req.ip ?? 'unknown' }),
	}),
)

// Errors outside Remix (a missing static file, a failed startup): a short answer, a structured log line.
app.use((error: { status?: number; statusCode?: number; message?: string }, _req: Request, res: Response, _next: NextFunction) => {
	const status = error.status ?? error.statusCode ?? 500
	if (status >= 500) logger.error('request failed', { error: error.message ?? String(error) })
	res.status(status).type('text/plain').send(status === 404 ? 'Not found' : 'Service unavailable')
})

const server = app.listen(PORT, HOST, () => {
	logger.info('server listening', { url: `http://localhost:${PORT}`, mode: MODE })
})
server.on('error', (error) => {
	logger.error('server failed to listen', { port: PORT, error: String(error) })
	void entry.shutdown().finally(() => process.exit(1))
})

let stopping = false
async function stop(signal: string) {
	if (stopping) return
	stopping = true
	logger.info('server stopping', { signal })
	server.close()
	await viteDevServer?.close()
	// PGlite must be closed cleanly so its files are consistent on the next start.
	await entry.shutdown().catch((error) => logger.error('shutdown failed', { error: String(error) }))
	process.exit(0)
}
process.on('SIGTERM', () => void stop('SIGTERM'))
process.on('SIGINT', () => void stop('SIGINT'))
