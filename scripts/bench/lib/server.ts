import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'

/** Builds the portal (unless told not to, or there is a build and `build` is false). */
export function buildPortal(force: boolean) {
	const built = existsSync('build/server/index.js') && existsSync('server-build/index.js')
	if (built && !force) return
	const result = spawnSync('npm', ['run', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] })
	if (result.status !== 0) throw new Error('npm run build failed')
}

/**
 * Starts the built portal on the bench database, the way tests/e2e/serve.mjs does for the
 * end-to-end tests: production mode, no demo data, logs at warn, one web process unless WEB_CONCURRENCY says more. Resolves once /healthz is 200.
 */
export async function startPortal(databaseUrl: string, port: number): Promise<{ url: string; stop: () => Promise<void> }> {
	const url = `http://127.0.0.1:${port}`
	const child: ChildProcess = spawn('node', ['server-build/index.js'], {
		stdio: ['ignore', 'ignore', 'inherit'],
		env: {
			...process.env,
			NODE_ENV: 'production',
			DATABASE_URL: databaseUrl,
			SEED_DEMO_DATA: 'false',
			PORT: String(port),
			HOST: '127.0.0.1',
			APP_URL: url,
			SESSION_SECRET: process.env.SESSION_SECRET ?? 'benchmark-session-secret-0123456789abcdef',
			LOG_LEVEL: 'warn',
			SMTP_URL: '',
			// Figures per web process, which docs/scaling.md multiplies; WEB_CONCURRENCY=2 npm run bench measures two.
			WEB_CONCURRENCY: process.env.WEB_CONCURRENCY ?? '1',
		},
	})
	let exited = false
	child.on('exit', () => (exited = true))
	const deadline = Date.now() + 120_000
	while (Date.now() < deadline) {
		if (exited) throw new Error('the portal stopped while starting')
		const ok = await fetch(`${url}/healthz`)
			.then((r) => r.ok)
			.catch(() => false)
		if (ok) break
		await new Promise((resolve) => setTimeout(resolve, 250))
	}
	if (Date.now() >= deadline) throw new Error('the portal did not start within 120 s')
	return {
		url,
		stop: () =>
			new Promise<void>((resolve) => {
				if (exited) return resolve()
				child.once('exit', () => resolve())
				child.kill('SIGTERM')
			}),
	}
}
