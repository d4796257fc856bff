import { spawn, type ChildProcess } from 'node:child_process'

/** A process a test started as an operator would (the built server, a worker), with what it printed. */
export type Started = { process: ChildProcess; output: () => string; exited: Promise<number | null> }

/**
 * Starts a command with only PATH, production mode and `env` from outside. In a process group of its
 * own, so a test can stop a primary with its web processes (`process.kill(-pid)`).
 */
export function startProcess(command: string[], env: Record<string, string | undefined>): Started {
	const child = spawn(command[0]!, command.slice(1), {
		env: { PATH: process.env.PATH, NODE_ENV: 'production', ...env },
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true,
	})
	let output = ''
	child.stdout!.on('data', (chunk) => (output += String(chunk)))
	child.stderr!.on('data', (chunk) => (output += String(chunk)))
	const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
	return { process: child, output: () => output, exited }
}

export { until } from '../support/until'
