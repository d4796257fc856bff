/**
 * The HTTP server: the Express app of server/app.ts (Vite's middleware in development) on PORT,
 * and a clean stop on SIGTERM/SIGINT.
 */
import { type ServerBuild } from '@remix-run/node'
import { logger } from '../app/utils/logger.server'
import { createServerApp } from './app'

const MODE = process.env.NODE_ENV === 'development' ? 'development' : 'production'
const PORT = Number(process.env.PORT ?? 3000)
const HOST = process.env.HOST ?? '0.0.0.0'
const BUILD_URL = new URL('../build/server/index.js', import.meta.url).href

const viteDevServer =
	MODE === 'development'
		? await import('vite').then((vite) => vite.createServer({ server: { middlewareMode: true }, appType: 'custom' }))
		: undefined

async function getBuild(): Promise<ServerBuild> {
	if (viteDevServer) return (await viteDevServer.ssrLoadModule('virtual:remix/server-build')) as ServerBuild
	return (await import(BUILD_URL)) as ServerBuild
}

function refuseToStart(error: unknown): never {
	logger.error('the server cannot start: invalid configuration', { reason: error instanceof Error ? error.message : String(error) })
	process.exit(1)
}

// A missing SESSION_SECRET on a shared database, or a TRUST_PROXY Express cannot read (say `yes`),
// stops the start here, with the reason (createServerApp checks the configuration first).
const { app, entry } = await createServerApp({
	mode: MODE,
	getBuild,
	viteDevServer,
	trustProxy: process.env.TRUST_PROXY || undefined,
	appUrl: process.env.APP_URL || undefined,
	stripeCheckout: Boolean(process.env.STRIPE_SECRET_KEY && process.env.STRIPE_WEBHOOK_SECRET),
}).catch(refuseToStart)

const server = app.listen(PORT, HOST, () => {
	logger.info('server listening', { url: `http://localhost:${PORT}`, mode: MODE })
})
server.on('error', (error) => {
	logger.error('server failed to listen', { port: PORT, err: error })
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
	await entry.shutdown().catch((error) => logger.error('shutdown failed', { err: error }))
	process.exit(0)
}
// A promise nobody awaited failed: a bug to log and fix, not a reason to stop serving everyone.
process.on('unhandledRejection', (reason) => logger.error('unhandled rejection', { err: reason }))
process.on('SIGTERM', () => void stop('SIGTERM'))
process.on('SIGINT', () => void stop('SIGINT'))
