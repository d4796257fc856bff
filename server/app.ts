/**
 * The Express application around React Router's request handler. It owns what is true of every
 * response: a request id (X-Request-Id, on every log line), security headers with a per-request
 * CSP nonce, one structured log line per request and its duration metric, /healthz and /readyz,
 * the cross-origin check of form posts, answering 503 while the database is not there, HTTP
 * caching (Cache-Control, ETag and 304, server/http-cache.ts), and a last line of defence that
 * turns a failure of the visitor's making into a 4xx.
 * server/index.ts listens with it; the tests run it in-process (tests/fuzz).
 */
import crypto from 'node:crypto'
import { readdirSync } from 'node:fs'
import path from 'node:path'
import { STATUS_CODES } from 'node:http'
import { trace, type Span } from '@opentelemetry/api'
import { createRequestHandler, type ServerBuild } from 'react-router'
import compression from 'compression'
import express, { type NextFunction, type Request, type Response } from 'express'
import helmet from 'helmet'
import { BODY_LINGER_MS, MAX_BODY_BYTES, retryAfterHeader, STARTING_RETRY_SECONDS, UNAVAILABLE_RETRY_SECONDS } from '../app/utils/http'
import { loggablePath, logger } from '../app/utils/logger.server'
import { withTimeout } from '../app/utils/promises'
import { currentRequestContext, requestIdFrom, runInRequestContext, type RequestContext } from '../app/utils/request-context.server'
import { observeRequest } from '../app/observability/metrics.server'
import { COMPRESSION_OPTIONS, fetchRequestOf, requestUrl, sendFetchResponse, trustsProxy } from './fetch-bridge'
import { NONCE_BYTES, withHttpCaching } from './http-cache'

/** What the app's entry module (app/entry.server.tsx) gives the server besides rendering. */
export type AppEntry = {
	startup: (options?: { backgroundJobs: boolean }) => Promise<void>
	checkHealth: () => Promise<{ status: number; body: Record<string, unknown> }>
	shutdown: () => Promise<void>
	/** Throws with a message for the operator when the configuration cannot work. */
	checkConfiguration: () => void
	/** A translated error answer (HTML, or JSON for the API) for failures found before React Router runs. */
	errorResponse: (request: globalThis.Request, status: number, options?: { retryAfterSeconds?: number; nonce?: string }) => Promise<globalThis.Response>
	/** The 503 every request gets while the portal starts: Retry-After, and a page that reloads itself. */
	startingResponse: (request: globalThis.Request, options?: { nonce?: string }) => Promise<globalThis.Response>
	/** A loader's or action's failure as the answer it deserves (a 4xx or a 503), or null for a real bug. */
	failureResponse: (error: unknown, request: globalThis.Request) => Promise<globalThis.Response | null>
	/** The database's gauges for Prometheus (pool, outbox, queues), read only when scraped. */
	registerDatabaseMetrics?: () => void
}

export type ServerOptions = {
	mode: 'development' | 'production'
	/** The build, or a function returning the current one (Vite in development). */
	getBuild: () => Promise<ServerBuild>
	viteDevServer?: { middlewares: express.RequestHandler }
	backgroundJobs?: boolean
	/** Express `trust proxy` (TRUST_PROXY). */
	trustProxy?: string
	/** The portal's public address (APP_URL): form posts from it are same-origin even behind a proxy. */
	appUrl?: string
	/** Whether a paid package's form may be answered with a redirect to Stripe Checkout (CSP form-action). */
	stripeCheckout?: boolean
}

const STARTUP_RETRY_MS = 5_000
/** /readyz answers within this, whatever the database does. */
const READINESS_TIMEOUT_MS = 3_000
/** The partner widgets' script and styles (public/widgets/), at an address that never changes. */
const WIDGET_CACHE = 'public, max-age=300, s-maxage=3600, stale-while-revalidate=86400'
/** Methods whose requests change something: these must come from the portal's own pages. */
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
/**
 * Paths other sites may post to: the public JSON API (CORS, Bearer tokens) and provider webhooks.
 * Not their `.data` twins: those are React Router's single-fetch requests, which its own check refuses.
 */
const CROSS_ORIGIN_PATHS = /^\/(admin\/api|webhooks)\/(?!.*\.data$)/

export async function createServerApp(options: ServerOptions) {
	const { mode, viteDevServer } = options
	const entry = guardEntry((await options.getBuild()).entry.module as unknown as AppEntry)
	entry.checkConfiguration()
	entry.registerDatabaseMetrics?.()

	// Start the database in the background; until it is ready /readyz and every page answer 503 at
	// once (a starting page that reloads itself), and so does every page once a start has failed (the
	// database is unreachable), instead of waiting for it (decision 0130).
	let started = false
	let startupFailed = false
	const firstStart = entry.startup({ backgroundJobs: options.backgroundJobs ?? true })
	let ready: Promise<void> = afterStart(firstStart)
	function afterStart(attempt: Promise<void>): Promise<void> {
		return attempt.then(
			() => {
				started = true
				startupFailed = false
			},
			async () => {
				started = true
				startupFailed = true
				await new Promise((resolve) => setTimeout(resolve, STARTUP_RETRY_MS))
				ready = afterStart(entry.startup({ backgroundJobs: options.backgroundJobs ?? true }))
				return ready
			},
		)
	}

	const app = express()
	app.disable('x-powered-by')
	if (options.trustProxy) app.set('trust proxy', trustProxyValue(options.trustProxy))

	// Every request has an id: the proxy's X-Request-Id when well-formed (nginx's $request_id), else
	// a new one. It goes back in the answer and onto every log line written while the request is
	// handled (the logger reads it from the request's AsyncLocalStorage), however deep in the domain.
	app.use((req, res, next) => {
		const context: TracedContext = { requestId: requestIdFrom(req.get('x-request-id')), span: trace.getActiveSpan(), method: req.method }
		res.setHeader('X-Request-Id', context.requestId)
		runInRequestContext(context, next)
	})

	// While stopping, requests already on their way are answered, and their connections closed.
	let draining = false
	app.use((_req, res, next) => {
		if (draining) res.set('Connection', 'close')
		next()
	})

	// One line per request: its id, method, path, route, status, duration. No query string; secrets in
	// paths are redacted. The same duration goes to the metrics, by route pattern (never the path).
	app.use((req, res, next) => {
		const started = process.hrtime.bigint()
		const context = currentRequestContext()
		res.on('finish', () => {
			const seconds = Number(process.hrtime.bigint() - started) / 1e9
			const route = context?.route ?? 'other'
			observeRequest(req.method, route, res.statusCode, seconds)
			logger.info('request', {
				requestId: context?.requestId,
				method: req.method,
				path: loggablePath(req.path),
				route,
				status: res.statusCode,
				ms: Math.round(seconds * 100_000) / 100,
			})
		})
		next()
	})

	// What the fetch bridge does not compress itself (static files, streams, large text), alike.
	app.use(compression(COMPRESSION_OPTIONS))

	app.use((_req, res, next) => {
		res.locals.cspNonce = crypto.randomBytes(NONCE_BYTES).toString('base64')
		next()
	})

	const nonce = (_req: unknown, res: unknown) => `'nonce-${(res as Response).locals.cspNonce}'`
	app.use(
		helmet({
			contentSecurityPolicy: {
				useDefaults: false,
				// Vite's development client injects styles and scripts at run time; report only there.
				reportOnly: mode === 'development',
				directives: {
					'default-src': ["'self'"],
					'script-src': ["'self'", nonce],
					'style-src': ["'self'", nonce],
					// blob: for the previews of photos chosen in a form (they never leave the browser).
					'img-src': ["'self'", 'data:', 'blob:', 'https:'],
					'font-src': ["'self'"],
					'connect-src': mode === 'development' ? ["'self'", 'ws:'] : ["'self'"],
					'object-src': ["'none'"],
					'base-uri': ["'self'"],
					// A paid package's form is answered with a redirect to Stripe Checkout; browsers check
					// form-action on that redirect too, so without JavaScript it must be allowed.
					'form-action': options.stripeCheckout ? ["'self'", 'https://checkout.stripe.com'] : ["'self'"],
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

	// CORS preflight for the JSON API (spec §7): any origin, no credentials; tokens travel as Bearer,
	// a partner's key as X-Partner-Key (app/domain/partners/partners.ts, decision 0154).
	app.options('/admin/api/*', (_req, res) => {
		res
			.set({
				'Access-Control-Allow-Origin': '*',
				'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
				'Access-Control-Allow-Headers': 'Content-Type, Accept, Authorization, Accept-Language, X-Partner-Key',
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
	// the widgets show, are cross-origin; private ones stay same-origin. React Router appends its headers,
	// so helmet's value must go first.
	app.use('/uploads', (_req, res, next) => {
		res.removeHeader('Cross-Origin-Resource-Policy')
		next()
	})

	// The administrator's e-mail previews (the route's exact shape only) set their own CSP: inline
	// styles, nothing to run. Anything else under the path keeps the portal's.
	app.use(/^\/admin\/emails\/preview\/[^/]+\/[^/]+$/i, (_req, res, next) => {
		res.removeHeader('Content-Security-Policy')
		next()
	})

	// Liveness: the process is up and its event loop answers; the database is not asked (a restart
	// would not bring it back). 200 while it starts too: a long first start is no reason to kill it.
	app.get('/healthz', (_req, res) => {
		nameRoute('healthz')
		res.status(200).set('Cache-Control', 'no-store').json({ status: 'ok' })
	})
	// Readiness: started, the database answers (within a few seconds), and not stopping; a load
	// balancer sends no new requests to a 503. While it starts, 503 with Retry-After.
	app.get('/readyz', async (_req, res) => {
		nameRoute('readyz')
		const { status, body } = draining
			? { status: 503, body: { status: 'draining' } }
			: await withTimeout(entry.checkHealth(), READINESS_TIMEOUT_MS, { status: 503, body: { status: 'database unavailable' } })
		if (!started) res.set(retryAfterHeader(STARTING_RETRY_SECONDS))
		res.status(status).set('Cache-Control', 'no-store').json(body)
	})

	if (viteDevServer) {
		app.use(viteDevServer.middlewares)
	} else {
		// Fingerprinted assets never change; everything else in public/ may.
		// A missing fingerprinted asset is a 404, not a redirect to the home page.
		app.use('/assets', (_req, _res, next) => {
			nameRoute('assets')
			next()
		})
		app.use('/assets', express.static('build/client/assets', { immutable: true, maxAge: '1y', fallthrough: false }))
		// The rest of public/ is a handful of files fixed at build time: only their addresses go to the
		// disk, so a page costs no stat() of a file that is not there.
		const publicFiles = new Set(filesUnder('build/client', ['assets']))
		const servePublic = express.static('build/client', {
			maxAge: '1h',
			// The widgets' script keeps its address on partners' pages (no fingerprint): browsers and
			// CDNs revalidate it (ETag) every few minutes, a CDN may serve it a day while it asks again.
			setHeaders: (res, file) => {
				if (/[/\\]widgets[/\\][^/\\]+\.(m?js|css)$/.test(file)) res.setHeader('Cache-Control', WIDGET_CACHE)
			},
		})
		app.use((req, res, next) => {
			if (!publicFiles.has(decodedPath(req.path))) return next()
			nameRoute('public')
			servePublic(req, res, next)
		})
	}

	// An answer sent before its request's body was read (a body refused unread, a page that takes
	// none) leaves the client still sending: closing now would reset the connection before the client
	// reads the answer, and a browser shows a connection error instead. So the rest is read and
	// dropped once the answer is out; past MAX_BODY_BYTES or BODY_LINGER_MS the connection is closed
	// (docs/decisions/0115).
	app.use((req, res, next) => {
		let closeAfterBody = false
		const writeHead = res.writeHead
		res.writeHead = function (this: Response, ...args: Parameters<Response['writeHead']>) {
			if (!req.complete && !res.headersSent && !keepsConnection(req, res)) {
				// Node would close the moment the answer is written (the client or the shutdown asked
				// for it): the connection is held open instead, and closed here once the body is read.
				closeAfterBody = true
				res.setHeader('Connection', 'keep-alive')
			}
			return writeHead.apply(this, args)
		} as Response['writeHead']
		res.on('finish', () => {
			if (req.destroyed) return
			if (!req.complete) dropRestOfBody(req, closeAfterBody)
			else if (closeAfterBody) req.socket.end()
		})
		next()
	})

	/** A translated refusal in the portal's look (the page's styles carry this response's CSP nonce). */
	const refuse = async (req: Request, res: Response, status: number, retryAfterSeconds?: number) =>
		send(res, await entry.errorResponse(plainRequest(req), status, { retryAfterSeconds, nonce: res.locals.cspNonce as string }))

	// A request React Router could not even turn into a URL (a Host header that is no host, a target that
	// is no path) is a 400 here, not a 500 there; so is a body declared larger than any form takes.
	app.use(
		guarded(async (req, res, next) => {
			if (!requestUrl(req, trustsProxy(req))) return refuse(req, res, 400)
			// A body declared larger than the portal ever reads: refused at once, and the rest read and
			// dropped for a while after the answer (above). Smaller ones reach the app, whose upload forms
			// answer with the form and the error beside the field that was too large.
			if (Number(req.get('content-length') ?? 0) > MAX_BODY_BYTES) return refuse(req, res, 413)
			next()
		}),
	)

	// A form posted from another site is refused before anything runs: 403 with the translated
	// "form expired" text. React Router's own check (a bare 400) follows it: see guardBuild.
	app.use(
		guarded(async (req, res, next) => {
			if (!UNSAFE_METHODS.has(req.method) || CROSS_ORIGIN_PATHS.test(req.path)) return next()
			const origin = req.get('origin')
			if (origin === undefined) return next() // not a browser's form post: the CSRF token decides
			if (!ownOrigins(req, options.appUrl).has(origin)) return refuse(req, res, 403)
			next()
		}),
	)

	// Until the first start is over (a new DATA_DIR migrates and loads the demo data: a minute on a
	// busy machine) every request is answered at once with the starting page, never held; once a
	// start has failed, the database is unreachable: 503 with Retry-After, not a hanging page.
	app.use(
		guarded(async (req, res, next) => {
			if (!started) {
				nameRoute('starting')
				return send(res, await entry.startingResponse(plainRequest(req), { nonce: res.locals.cspNonce as string }))
			}
			if (startupFailed) return refuse(req, res, 503, UNAVAILABLE_RETRY_SECONDS)
			await ready
			next()
		}),
	)

	// React Router's request handler, with the caching headers set between its answer and its sending.
	const handleRequest = createRequestHandler(
		viteDevServer ? async () => guardBuild(await options.getBuild(), entry, options.appUrl) : guardBuild(await options.getBuild(), entry, options.appUrl),
		mode,
	)
	app.all(
		'*',
		guarded(async (req, res) => {
			const context = { cspNonce: res.locals.cspNonce as string, clientIp: req.ip ?? 'unknown' }
			const answer = await handleRequest(fetchRequestOf(req, res), context)
			await sendFetchResponse(req, res, await withHttpCaching(req, res, answer))
		}),
	)

	// Errors outside React Router (a missing static file, a failed startup): a short answer, a structured log line.
	app.use((error: { status?: number; statusCode?: number }, req: Request, res: Response, next: NextFunction) => {
		const status = error.status ?? error.statusCode ?? 500
		if (status >= 500) logger.error('request failed', { err: error })
		if (res.headersSent) return next(error)
		// In the reader's language, like every other refusal; a 500 here is the server out of order.
		void refuse(req, res, status >= 500 ? 503 : status, status >= 500 ? UNAVAILABLE_RETRY_SECONDS : undefined)
	})

	return {
		app,
		entry,
		ready: () => ready,
		/** Once the first start has succeeded or failed: from then on every request is answered at once. */
		firstStartSettled: () => firstStart.then(() => undefined, () => undefined),
		/** From now on /readyz answers 503 and every answer closes its connection. */
		drain: () => {
			draining = true
		},
		shutdown: () => entry.shutdown(),
	}
}

/** The request context, with the request's server span when tracing is on. */
type TracedContext = RequestContext & { span?: Span; method?: string }

/**
 * Names the current request's route pattern: the metrics' label, the log line's `route`, and the
 * server span's `http.route` and name ("GET routes/_public.workshop-list").
 */
function nameRoute(route: string) {
	const context = currentRequestContext() as TracedContext | undefined
	if (!context) return
	context.route = route
	context.span?.setAttribute('http.route', route)
	context.span?.updateName(`${context.method} ${route}`)
}

/** Whether Node keeps this answer's connection open for another request (HTTP/1.1 unless either side said close). */
function keepsConnection(req: Request, res: Response) {
	if (/\bclose\b/i.test(String(res.getHeader('Connection') ?? ''))) return false
	const asked = req.headers.connection ?? ''
	return req.httpVersion === '1.0' ? /\bkeep-alive\b/i.test(asked) : !/\bclose\b/i.test(asked)
}

/**
 * Reads and drops what is left of a request's body after its answer, as Node does for a body
 * nobody read (IncomingMessage's _dump), including from whoever read it first (React Router's stream would
 * queue it in memory); then half-closes the connection if it is not to be kept, so the client reads
 * the answer before the end (RFC 9112 §9.6). Past MAX_BODY_BYTES or BODY_LINGER_MS the connection
 * is closed at once: the answer went out first.
 */
function dropRestOfBody(req: Request, close: boolean) {
	let dropped = 0
	const cut = () => req.socket.destroy()
	const timer = setTimeout(cut, BODY_LINGER_MS).unref()
	req.removeAllListeners('data')
	req.on('data', (chunk: Buffer) => {
		dropped += chunk.byteLength
		if (dropped > MAX_BODY_BYTES) cut()
	})
	req.once('end', () => {
		clearTimeout(timer)
		if (close) req.socket.end()
	})
	req.once('close', () => clearTimeout(timer))
	req.resume()
}

/** Express ignores the promise a middleware returns: a failure in one must reach the error handler, not crash the process. */
function guarded(handler: (req: Request, res: Response, next: NextFunction) => Promise<void>) {
	return (req: Request, res: Response, next: NextFunction) => {
		handler(req, res, next).catch(next)
	}
}

/** The origins a same-site form post may carry: the configured public address, and this request's own. */
function ownOrigins(req: Request, appUrl: string | undefined) {
	const origins = new Set<string>()
	if (appUrl) origins.add(new URL(appUrl).origin)
	// With TRUST_PROXY, Express reads the protocol from X-Forwarded-Proto; the host is read the same way.
	const url = requestUrl(req, trustsProxy(req))
	if (url) origins.add(url.origin)
	return origins
}

/** "true", a hop count, or a list of addresses/subnets, as Express understands them. */
function trustProxyValue(value: string): boolean | number | string {
	if (value === 'true') return true
	if (value === 'false') return false
	return /^\d+$/.test(value) ? Number(value) : value
}

/**
 * The request as the app's error answers read it (the path for the API's JSON, ?lng=, the
 * language cookie and Accept-Language), built so that it cannot fail on a malformed one.
 */
function plainRequest(req: Request): globalThis.Request {
	const headers = new Headers()
	for (const name of ['cookie', 'accept-language', 'accept']) {
		const value = req.get(name)
		if (value) headers.set(name, value)
	}
	let url = new URL('http://localhost/')
	try {
		url = new URL(req.originalUrl, 'http://localhost')
	} catch {
		// A target that is no path: the home page's language rules apply.
	}
	return new globalThis.Request(url, { headers })
}

async function send(res: Response, answer: globalThis.Response) {
	res.status(answer.status)
	answer.headers.forEach((value, key) => res.setHeader(key, value))
	res.send(Buffer.from(await answer.arrayBuffer()))
}

/** The entry's answers must never fail themselves: a plain text stands in. */
function guardEntry(entry: AppEntry): AppEntry {
	return {
		...entry,
		errorResponse: (request, status, options) =>
			// The last resort, when even the translated page cannot be made: the status's own name.
			entry.errorResponse(request, status, options).catch(() => new globalThis.Response(STATUS_CODES[status] ?? 'Error', { status })),
		startingResponse: (request, options) =>
			entry
				.startingResponse(request, options)
				.catch(() => new globalThis.Response(STATUS_CODES[503], { status: 503, headers: { ...retryAfterHeader(STARTING_RETRY_SECONDS), 'Cache-Control': 'no-store' } })),
	}
}

const guardedBuilds = new WeakMap<ServerBuild, ServerBuild>()

/**
 * The build with every loader and action wrapped: a failure that is not a bug (the database is
 * unreachable, a body that cannot be read, a refused domain move nobody caught) is thrown as the
 * Response it deserves, so React Router answers its status instead of a 500. Anything else stays a 500.
 */
function guardBuild(build: ServerBuild, entry: AppEntry, appUrl: string | undefined): ServerBuild {
	const known = guardedBuilds.get(build)
	if (known) return known
	type Handler = ((args: { request: globalThis.Request }) => unknown) | undefined
	const depthOf = (id: string): number => {
		const parent = build.routes[id]?.parentId
		return parent ? 1 + depthOf(parent) : 0
	}
	const wrap = (id: string, handler: Handler) => {
		if (!handler) return handler
		// Counted once per route here, not on every request.
		const depth = depthOf(id)
		return async (args: { request: globalThis.Request }) => {
			// The deepest route that runs names the request (its id is the route pattern: bounded, no ids).
			const context = currentRequestContext()
			if (context && (context.routeDepth === undefined || depth > context.routeDepth)) {
				context.routeDepth = depth
				nameRoute(id)
			}
			try {
				return await handler(args)
			} catch (error) {
				if (error instanceof globalThis.Response) throw error
				const answer = await entry.failureResponse(error, args.request).catch(() => null)
				throw answer ?? error
			}
		}
	}
	const routes = Object.fromEntries(
		Object.entries(build.routes).flatMap(([id, route]) => {
			if (!route) return []
			const module = route.module as unknown as Record<string, unknown>
			return [[id, { ...route, module: { ...module, loader: wrap(id, module.loader as Handler), action: wrap(id, module.action as Handler) } }]]
		}),
	) as ServerBuild['routes']
	// React Router refuses a form post whose Origin is not the request's own address; the public
	// address (APP_URL) is one too when a proxy in front is not trusted to say so (the gate above
	// has already compared the whole origin).
	const result = { ...build, routes, allowedActionOrigins: appUrl ? [new URL(appUrl).host] : build.allowedActionOrigins }
	guardedBuilds.set(build, result)
	return result
}

/** The URL paths of the files under `root` ('/widgets/widgets.js'), leaving out the named top folders. */
function filesUnder(root: string, leaveOut: string[]): string[] {
	return readdirSync(root, { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isFile())
		.map((entry) => `/${path.relative(root, path.join(entry.parentPath ?? entry.path, entry.name)).split(path.sep).join('/')}`)
		.filter((file) => !leaveOut.some((folder) => file.startsWith(`/${folder}/`)))
}

/** A URL path as the file names read (`%20` a space); a malformed escape matches no file. */
function decodedPath(urlPath: string) {
	try {
		return decodeURIComponent(urlPath)
	} catch {
		return ''
	}
}
