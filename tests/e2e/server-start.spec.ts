import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { dictionary } from './fixtures'

/**
 * The built server started as an operator would, with configurations that must not work quietly:
 * no session secret on a shared database, the database out of reach, and the embedded default
 * keeping the secret it generated.
 */

type Started = { process: ChildProcess; output: () => string; url: string; exited: Promise<number | null> }

let nextPort = 3600 + Math.floor(Math.random() * 300)

function startServer(env: Record<string, string | undefined>): Started {
	const port = nextPort++
	const child = spawn(process.execPath, ['server-build/index.js'], {
		env: { PATH: process.env.PATH, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), APP_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: 'info', ...env },
		stdio: ['ignore', 'pipe', 'pipe'],
	})
	let output = ''
	child.stdout!.on('data', (chunk) => (output += String(chunk)))
	child.stderr!.on('data', (chunk) => (output += String(chunk)))
	const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
	return { process: child, output: () => output, url: `http://127.0.0.1:${port}`, exited }
}

async function until<T>(check: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
	const deadline = Date.now() + timeoutMs
	for (;;) {
		const value = await check().catch(() => undefined)
		if (value !== undefined) return value
		if (Date.now() > deadline) throw new Error('timed out')
		await new Promise((resolve) => setTimeout(resolve, 250))
	}
}

async function stop(server: Started) {
	server.process.kill('SIGTERM')
	await server.exited
}

test('with DATABASE_URL and no SESSION_SECRET the server refuses to start, and says why', async () => {
	const server = startServer({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test', SESSION_SECRET: undefined })
	expect(await server.exited).toBe(1)
	expect(server.output()).toContain('SESSION_SECRET is not set')
})

test('while PostgreSQL cannot be reached, pages and calls answer 503 with Retry-After, in the reader’s language', async () => {
	test.setTimeout(60_000)
	const server = startServer({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/autohub', SESSION_SECRET: 'unreachable-database-test-secret-0123456789' })
	try {
		// The first start fails within a moment; from then on every request is answered at once.
		const page = await until(async () => {
			const response = await fetch(`${server.url}/?lng=en`)
			return response.status === 503 && response.headers.get('Retry-After') ? response : undefined
		})
		expect(page.headers.get('Retry-After')).toBe('30')
		expect(page.headers.get('Content-Type')).toContain('text/html')
		const body = await page.text()
		expect(body).toContain(dictionary('en')('errors.unavailableTitle'))
		expect(body).not.toMatch(/ECONNREFUSED|at .*\.js/)
		const api = await fetch(`${server.url}/admin/api/workshop-list`, { headers: { 'Accept-Language': 'ru' } })
		expect(api.status).toBe(503)
		expect(await api.json()).toEqual({ status: 503, message: dictionary('ru')('errors.unavailableText') })
		expect((await fetch(`${server.url}/healthz`)).status).toBe(503)
	} finally {
		await stop(server)
	}
})

test('on the embedded database a session secret is made once and kept in DATA_DIR', async () => {
	test.setTimeout(120_000)
	const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'autohub-secret-'))
	const env = { DATA_DIR: dataDir, SEED_DEMO_DATA: 'false', SESSION_SECRET: undefined, DATABASE_URL: undefined }
	try {
		const first = startServer(env)
		await until(async () => ((await fetch(`${first.url}/healthz`)).status === 200 ? true : undefined))
		const secret = fs.readFileSync(path.join(dataDir, 'session-secret'), 'utf8').trim()
		expect(secret).toMatch(/^[0-9a-f]{64}$/)
		expect((fs.statSync(path.join(dataDir, 'session-secret')).mode & 0o777).toString(8)).toBe('600')
		expect(first.output()).not.toContain('development secret')
		await stop(first)

		const second = startServer(env)
		await until(async () => ((await fetch(`${second.url}/healthz`)).status === 200 ? true : undefined))
		expect(fs.readFileSync(path.join(dataDir, 'session-secret'), 'utf8').trim()).toBe(secret)
		await stop(second)
	} finally {
		fs.rmSync(dataDir, { recursive: true, force: true })
	}
})
