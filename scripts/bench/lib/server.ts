import { spawn, spawnSync, type ChildProcess } from 'node:child_process'

/** Builds this checkout's portal (`npm run build`), so the figures are of the current code. */
export function buildPortal() {
	const result = spawnSync('npm', ['run', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] })
	if (result.status !== 0) throw new Error('npm run build failed')
}

/** The portal's cookie secret in the bench, so a suite can sign its visitors' session cookies. */
export const BENCH_SESSION_SECRET = process.env.SESSION_SECRET ?? 'benchmark-session-secret-0123456789abcdef'

/** A returning visitor's language: the portal's `lng` cookie (app/i18n/i18n.server.ts, unsigned: base64 of the JSON value), as a `Cookie` header's pair. */
export const languageCookie = (language: string) => `lng=${encodeURIComponent(Buffer.from(JSON.stringify(language)).toString('base64'))}`

/** A Node process the bench started: when it was spawned, and its end (a failure to spawn ends it too). */
export type Started = { child: ChildProcess; spawnedAt: number; exited: Promise<void>; hasExited: () => boolean; stop: () => Promise<void> }

/**
 * Starts `node <args>` in `cwd` (default: this checkout), its output but errors dropped, with the
 * bench's environment and `env` over it (`undefined` removes a variable).
 */
export function spawnNode(args: string[], options: { cwd?: string; env?: Record<string, string | undefined> } = {}): Started {
	const env = { ...process.env, ...options.env }
	for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name]
	const spawnedAt = performance.now()
	const child = spawn(process.execPath, args, { cwd: options.cwd, stdio: ['ignore', 'ignore', 'inherit'], env })
	let done = false
	const exited = new Promise<void>((resolve) => {
		child.once('exit', () => resolve())
		child.once('error', (error) => (console.error(`[bench] node ${args.join(' ')}: ${error.message}`), resolve()))
	}).then(() => void (done = true))
	const stop = async () => {
		if (!done) child.kill('SIGTERM')
		await exited
	}
	return { child, spawnedAt, exited, hasExited: () => done, stop }
}

/**
 * Asks `url` every `intervalMs` until it answers 200 (its body read); returns the time since the
 * process was spawned, ms. Throws when the process stops first, or after `timeoutMs`.
 */
export async function firstOk(started: Started, url: string, options: { headers?: Record<string, string>; intervalMs?: number; timeoutMs?: number } = {}) {
	const { headers = {}, intervalMs = 20, timeoutMs = 180_000 } = options
	const deadline = Date.now() + timeoutMs
	while (Date.now() < deadline && !started.hasExited()) {
		const ok = await fetch(url, { headers })
			.then(async (response) => (await response.arrayBuffer(), response.status === 200))
			.catch(() => false)
		if (ok) return performance.now() - started.spawnedAt
		await new Promise((resolve) => setTimeout(resolve, intervalMs))
	}
	throw new Error(`${url} gave no 200 ${started.hasExited() ? '(the process stopped)' : `within ${timeoutMs / 1000} s`}`)
}

/**
 * Starts the built portal on the bench database, the way tests/e2e/serve.mjs does for the
 * end-to-end tests: production mode, no demo data, logs at warn, one web process unless WEB_CONCURRENCY says more. Resolves once /readyz is 200.
 * `{ demoIn: dir }` instead of a database URL: the embedded database in that folder, with the demo
 * data. `cwd`: another checkout's build (its own server-build and build folders); `nodeArgs`: Node's
 * own options (a profiler); `env`: more of its environment (`RUN_JOBS: 'false'`, say).
 */
export async function startPortal(
	database: string | { demoIn: string },
	port: number,
	options: { cwd?: string; nodeArgs?: string[]; env?: Record<string, string> } = {},
): Promise<{ url: string; stop: () => Promise<void> }> {
	const url = `http://127.0.0.1:${port}`
	const portal = spawnNode([...(options.nodeArgs ?? []), 'server-build/index.js'], {
		cwd: options.cwd,
		env: {
			...(typeof database === 'string'
				? { DATABASE_URL: database, SEED_DEMO_DATA: 'false' }
				: { DATABASE_URL: undefined, DATA_DIR: database.demoIn, SEED_DEMO_DATA: 'true' }),
			NODE_ENV: 'production',
			PORT: String(port),
			HOST: '127.0.0.1',
			APP_URL: url,
			SESSION_SECRET: BENCH_SESSION_SECRET,
			LOG_LEVEL: 'warn',
			SMTP_URL: '',
			// Production on a server database wants SMTP_URL, or e-mails kept on disk on purpose (decision 0142).
			EMAIL_TO_DISK: 'true',
			// Figures per web process, which docs/scaling.md multiplies; WEB_CONCURRENCY=2 npm run bench measures two.
			WEB_CONCURRENCY: process.env.WEB_CONCURRENCY ?? '1',
			...options.env,
		},
	})
	try {
		await firstOk(portal, `${url}/readyz`, { intervalMs: 250, timeoutMs: 120_000 })
	} catch (error) {
		await portal.stop()
		throw new Error(`the portal did not start: ${(error as Error).message}`)
	}
	return { url, stop: portal.stop }
}
