import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { freePort } from '../../scripts/free-port.mjs'

const BUILT = path.resolve('server-build/index.js')

/** The built server (`npm start`'s server-build/index.js) or an operator's script in a process of its own, with what it printed. */
export type BuiltServer = { url: string; process: ChildProcess; output: () => string; stop: () => Promise<void> }

/**
 * Starts the production build as an operator would, on a free port, with only PATH, production
 * mode and `env` from outside. Its database: this test file's (tests/setup/database.ts) unless
 * `env` names another.
 */
export async function startBuiltServer(env: Record<string, string | undefined>, script = BUILT): Promise<BuiltServer> {
	if (!existsSync(script)) throw new Error(`${script} is missing: run \`npm run build\` first.`)
	const port = await freePort()
	const url = `http://127.0.0.1:${port}`
	const child = spawn(process.execPath, [script], {
		env: {
			PATH: process.env.PATH,
			NODE_ENV: 'production',
			HOST: '127.0.0.1',
			PORT: String(port),
			APP_URL: url,
			LOG_LEVEL: 'info',
			SEED_DEMO_DATA: 'false',
			// Production on PostgreSQL needs a way out for e-mails: kept on disk, as the tests want.
			EMAIL_TO_DISK: 'true',
			SESSION_SECRET: 'built-server-test-session-secret-0123456789',
			DATABASE_URL: process.env.DATABASE_URL,
			DATA_DIR: process.env.DATABASE_URL ? process.env.DATA_DIR : `memory://built-${port}`,
			...env,
		},
		stdio: ['ignore', 'pipe', 'pipe'],
	})
	let output = ''
	child.stdout!.on('data', (chunk) => (output += String(chunk)))
	child.stderr!.on('data', (chunk) => (output += String(chunk)))
	const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
	return {
		url,
		process: child,
		output: () => output,
		stop: async () => {
			if (child.exitCode === null) child.kill('SIGTERM')
			await exited
		},
	}
}

export { until } from './until'
