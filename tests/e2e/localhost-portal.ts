import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { type BrowserContext } from '@playwright/test'
import { startProcess, until, type Started } from './processes'
import { freePort } from '../../scripts/free-port.mjs'

/**
 * A built portal of a spec's own at http://localhost:PORT, on its own data, for what needs a host
 * name (WebAuthn refuses an IP address, and the shared server is at 127.0.0.1). `env` is what its
 * commands (the server, `admin:create`) run with; start the server with `start()`.
 */
export async function localhostPortal(name: string) {
	const port = await freePort()
	const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `autohub-${name}-`))
	const url = `http://localhost:${port}`
	const env = {
		HOST: '127.0.0.1',
		PORT: String(port),
		APP_URL: url,
		LOG_LEVEL: 'warn',
		TRUST_PROXY: 'loopback',
		EMAIL_TO_DISK: 'true',
		SESSION_SECRET: `${name}-e2e-secret-0123456789abcdef`,
		SEED_DEMO_DATA: 'false',
		DATA_DIR: dataDir,
		...(process.env.TEST_DATABASE_URL ? { DATABASE_URL: process.env.TEST_DATABASE_URL } : {}),
	}
	let server: Started | undefined
	return {
		url,
		env,
		/** Starts the server and waits until it is ready. */
		async start() {
			const started = startProcess([process.execPath, 'server-build/index.js'], env)
			server = started
			await until(async () => ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok ? true : undefined), 120_000).catch((error: unknown) => {
				throw new Error(`the server on ${port} did not start:\n${started.output()}`, { cause: error })
			})
		},
		async stop() {
			server?.process.kill('SIGTERM')
			await server?.exited
			fs.rmSync(dataDir, { recursive: true, force: true })
		},
	}
}

/** A browser with a passkey-capable device (user verification by "fingerprint", always given), through the DevTools protocol. */
export async function withAuthenticator(context: BrowserContext) {
	const page = context.pages()[0] ?? (await context.newPage())
	const cdp = await context.newCDPSession(page)
	await cdp.send('WebAuthn.enable')
	const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
		options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
	})
	return { page, cdp, authenticatorId }
}
