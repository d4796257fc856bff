/**
 * The HTTP server: the Express app of server/app.ts (Vite's middleware in development) on PORT.
 * With WEB_CONCURRENCY above 1 (a server database) this process is the primary of that many web
 * processes (node:cluster, sharing the port; each listens once its start is over), and starts a
 * new one when one dies. On SIGTERM or SIGINT each web process stops taking connections, lets the
 * requests in flight finish (at most SHUTDOWN_TIMEOUT_MS), and exits; /readyz answers 503 from the
 * signal on (and for SHUTDOWN_DELAY_MS before it stops listening).
 */
// First: tracing, when configured, is on before anything loads http or pg (docs/operations.md).
import '../app/observability/start-tracing.server'
import cluster from 'node:cluster'
import { fileURLToPath } from 'node:url'
import { type ServerBuild } from 'react-router'
import { openEmbeddedEarly } from '~/db/embedded-database.server'
import { checkServingConfiguration, getEnv, type Env } from '../app/utils/env.server'
import { logger } from '../app/utils/logger.server'
import { withTimeout } from '../app/utils/promises'
import { collectProcessMetrics } from '../app/observability/metrics.server'
import { serveMetrics } from '../app/observability/metrics-server.server'
import { stopTracing } from '../app/observability/tracing.server'
import { createServerApp } from './app'

const MODE = process.env.NODE_ENV === 'development' ? 'development' : 'production'
const BUILD_URL = new URL('../build/server/index.js', import.meta.url).href

function refuseToStart(error: unknown): never {
	logger.error('the server cannot start: invalid configuration', { reason: error instanceof Error ? error.message : String(error) })
	process.exit(1)
}

/** The configuration, checked before any process starts: a bad one stops here, not in a restart loop. */
function checkedEnv(): Env {
	try {
		// Every setting (HOST, TRUST_PROXY, the secrets, and what production on a server database needs).
		checkServingConfiguration()
		return getEnv()
	} catch (error) {
		refuseToStart(error)
	}
}

// A promise nobody awaited failed: a bug to log and fix, not a reason to stop serving everyone.
process.on('unhandledRejection', (reason) => logger.error('unhandled rejection', { err: reason }))

if (cluster.isPrimary) {
	const env = checkedEnv()
	if (env.WEB_CONCURRENCY && env.WEB_CONCURRENCY > 1 && env.usesEmbeddedDatabase) {
		logger.warn('WEB_CONCURRENCY is ignored on the embedded database: one process opens it', { WEB_CONCURRENCY: env.WEB_CONCURRENCY })
	}
	if (MODE === 'production' && env.webConcurrency > 1) runPrimary(env)
	else await serve(env)
} else {
	await serve(getEnv())
}

function runPrimary(env: Env) {
	let stopping = false
	let quickDeaths = 0
	const startedAt = new Map<number, number>()
	const fork = () => {
		const worker = cluster.fork()
		startedAt.set(worker.id, Date.now())
	}
	const workers = () => Object.values(cluster.workers ?? {}).filter((worker) => worker !== undefined)

	// Each web process runs this file, whatever started the primary (npm start, a test's script).
	cluster.setupPrimary({ exec: fileURLToPath(import.meta.url) })
	logger.info('starting web processes', { count: env.webConcurrency })
	// One scrape here sums every web process's metrics (prom-client's AggregatorRegistry).
	if (env.METRICS_PORT) serveMetrics(env.METRICS_PORT, { host: env.HOST, cluster: true })
	for (let i = 0; i < env.webConcurrency; i++) fork()

	cluster.on('exit', (worker, code, signal) => {
		const lived = Date.now() - (startedAt.get(worker.id) ?? 0)
		startedAt.delete(worker.id)
		if (stopping) {
			if (workers().length === 0) process.exit(0)
			return
		}
		// One that dies again and again right after its start (the database refuses it) is restarted
		// ever more slowly, up to half a minute apart.
		quickDeaths = lived < 10_000 ? quickDeaths + 1 : 0
		const delay = Math.min(30_000, 250 * 2 ** quickDeaths)
		logger.error('a web process stopped; starting another', { pid: worker.process.pid, code, signal, inMs: delay })
		setTimeout(() => {
			if (!stopping) fork()
		}, delay)
	})

	const stop = (signal: string) => {
		if (stopping) return
		stopping = true
		logger.info('stopping web processes', { signal })
		if (workers().length === 0) process.exit(0)
		for (const worker of workers()) worker.process.kill('SIGTERM')
		setTimeout(() => {
			logger.error('web processes did not stop in time: killed')
			for (const worker of workers()) worker.process.kill('SIGKILL')
			process.exit(1)
		}, env.SHUTDOWN_DELAY_MS + env.SHUTDOWN_TIMEOUT_MS + 5_000).unref()
	}
	process.on('SIGTERM', () => stop('SIGTERM'))
	process.on('SIGINT', () => stop('SIGINT'))
}

async function serve(env: Env) {
	// The embedded database opens while the app loads (the app takes this client over): a reopened
	// DATA_DIR answers sooner than the two one after the other (decision 0094).
	if (env.usesEmbeddedDatabase) openEmbeddedEarly(env.dataDir)
	const viteDevServer =
		MODE === 'development'
			? await import('vite').then((vite) => vite.createServer({ server: { middlewareMode: true }, appType: 'custom' }))
			: undefined

	async function getBuild(): Promise<ServerBuild> {
		if (viteDevServer) return (await viteDevServer.ssrLoadModule('virtual:react-router/server-build')) as ServerBuild
		return (await import(BUILD_URL)) as ServerBuild
	}

	// The configuration was checked in the primary; what createServerApp finds wrong still stops here.
	const { app, entry, drain, firstStartSettled } = await createServerApp({
		mode: MODE,
		getBuild,
		viteDevServer,
		trustProxy: env.TRUST_PROXY,
		appUrl: env.APP_URL,
		stripeCheckout: env.stripeCheckout,
	}).catch(refuseToStart)

	// A web process of a cluster is asked by the primary; a single one serves its own.
	if (env.METRICS_PORT) {
		if (cluster.isWorker) collectProcessMetrics({ clusterWorker: true })
		else serveMetrics(env.METRICS_PORT, { host: env.HOST })
	}

	// One of a cluster's web processes takes connections once its first start is over (ready, or the
	// database unreachable: then it answers 503 like the others): the primary hands each new connection
	// to a listening process in turn, so one that replaces a dead one would otherwise be given requests
	// to hold and /healthz checks to fail while the others serve. A single process listens at once (the
	// embedded start answers sooner; /readyz says 503 meanwhile).
	if (cluster.isWorker) await firstStartSettled()
	const server = app.listen(env.PORT, env.HOST, () => {
		logger.info('server listening', { url: `http://localhost:${env.PORT}`, mode: MODE })
	})
	server.on('error', (error) => {
		logger.error('server failed to listen', { port: env.PORT, err: error })
		void entry.shutdown().finally(() => process.exit(1))
	})

	let stopping = false
	async function stop(signal: string) {
		if (stopping) return
		stopping = true
		logger.info('server stopping', { signal })
		drain()
		// Still taking requests for a moment, answering /readyz with 503, so a load balancer that
		// checks it sends the next ones elsewhere before this process stops listening.
		if (env.SHUTDOWN_DELAY_MS) await new Promise((resolve) => setTimeout(resolve, env.SHUTDOWN_DELAY_MS))
		// No new connections; idle ones close now, busy ones once their answer is sent.
		const closed = new Promise<'closed'>((resolve) => server.close(() => resolve('closed')))
		setInterval(() => server.closeIdleConnections(), 100).unref()
		if ((await withTimeout(closed, env.SHUTDOWN_TIMEOUT_MS, 'late')) === 'late') {
			logger.warn('requests still in flight at the time limit: their connections are closed', { ms: env.SHUTDOWN_TIMEOUT_MS })
			server.closeAllConnections()
		}
		await viteDevServer?.close()
		// PGlite must be closed cleanly so its files are consistent on the next start.
		await entry.shutdown().catch((error) => logger.error('shutdown failed', { err: error }))
		await stopTracing()
		process.exit(0)
	}
	process.on('SIGTERM', () => void stop('SIGTERM'))
	process.on('SIGINT', () => void stop('SIGINT'))
	// The primary is gone (killed): this process must not live on alone.
	if (cluster.isWorker) process.on('disconnect', () => void stop('disconnect'))
}
