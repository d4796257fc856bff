/**
 * The production build, served in-process on an ephemeral port: the same Express app as
 * `npm start` (server/app.ts), with the built app (build/server/index.js, made by
 * `npm run build`), talking real HTTP. The database is the one tests/setup/database.ts made for
 * this file; the demo data is loaded into it at start.
 */
import { existsSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { type AddressInfo } from 'node:net'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { type ServerBuild } from 'react-router'

const BUILD = path.resolve('build/server/index.js')

export type RunningServer = { origin: string; close: () => Promise<void> }

export async function startServer(): Promise<RunningServer> {
	if (!existsSync(BUILD)) throw new Error(`${BUILD} is missing: run \`npm run build\` before the fuzz suite.`)

	// Listen first, so the portal's public address (APP_URL) can name the port.
	const server: Server = createServer()
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

	// As `npm start` runs it: production, with the demo data; cookies stay plain on http://127.0.0.1.
	process.env.NODE_ENV = 'production'
	process.env.APP_URL = origin
	process.env.SEED_DEMO_DATA = 'true'
	process.env.SESSION_SECRET ??= 'fuzz-suite-session-secret-0123456789abcdef'
	process.env.LOG_LEVEL = process.env.FUZZ_LOG_LEVEL ?? 'silent'
	// Production on a server database sends e-mail or says it keeps them on disk (decision 0142): here, on disk.
	if (!process.env.SMTP_URL) process.env.EMAIL_TO_DISK = 'true'

	const build = (await import(/* @vite-ignore */ pathToFileURL(BUILD).href)) as ServerBuild
	const { createServerApp } = await import('../../../server/app')
	const { app, ready } = await createServerApp({
		mode: 'production',
		getBuild: async () => build,
		backgroundJobs: false,
		appUrl: origin,
		// Each request names its own client address (X-Forwarded-For), so per-address rate limits
		// never stand between a malformed input and the validation it is meant to reach.
		trustProxy: 'loopback',
	})
	await ready()
	server.on('request', app)
	return {
		origin,
		close: async () => {
			server.closeAllConnections()
			await new Promise<void>((resolve) => server.close(() => resolve()))
			// The database itself is closed by tests/setup/database.ts, after this.
		},
	}
}
