// `node scripts/check-production-install.mjs`: makes a production install in a temporary copy of this
// checkout (its sources and production packages, `npm run build`, `npm prune --omit=dev`: no tsx, no esbuild)
// and runs there every script the README names, as an operator would: on a new PostgreSQL database
// (db:migrate, db:seed without SESSION_SECRET, admin:create, jobs, the worker for a moment, backup
// refusing, npm start answering /readyz) and on a new embedded DATA_DIR (the same; the worker refuses
// it, with its reason; backup, and restore into an empty DATA_DIR). Any failure prints that command's output and fails the check (decision 0113).
//
// CHECK_DATABASE_URL: a PostgreSQL server where a database `autohub_prodcheck_<random>` is created
// and dropped (default postgres://postgres@127.0.0.1:5432/test). The build is made in this checkout
// (it needs the development packages) and copied; REUSE_BUILD=1 copies the one there is (CI, right
// after `npm test` built it).
import { spawn, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { freePort } from './free-port.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
const serverUrl = new URL(process.env.CHECK_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test')
const reuseBuild = process.env.REUSE_BUILD === '1'
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'autohub-prodcheck-'))
const app = path.join(work, 'autohub')
const databaseName = `autohub_prodcheck_${randomBytes(4).toString('hex')}`
const databaseUrl = Object.assign(new URL(serverUrl), { pathname: `/${databaseName}` }).href
const secret = randomBytes(32).toString('hex')
const began = performance.now()
const failures = []
/** Processes still running, stopped at the end whatever happened. */
const running = new Set()

const seconds = () => ((performance.now() - began) / 1000).toFixed(0).padStart(3)
const say = (text) => console.log(`[${seconds()} s] ${text}`)

function fail(label, reason, output = '') {
	failures.push(label)
	console.error(`\n✗ ${label}: ${reason}\n${output.trim().split('\n').slice(-40).join('\n')}\n`)
}

/** A step of the install itself: it must succeed, or nothing after it means anything. */
function prepare(label, command, args, options = {}) {
	const started = performance.now()
	const result = spawnSync(command, args, { cwd: app, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options })
	if (result.status !== 0) {
		fail(label, `exit ${result.status ?? result.signal}`, `${result.stdout}${result.stderr}`)
		throw new Error(`the production install could not be made (${label})`)
	}
	say(`${label} (${((performance.now() - started) / 1000).toFixed(1)} s)`)
}

/** What an operator's shell has: no development variables, no database or secret unless given. */
function environment(extra) {
	return { PATH: process.env.PATH, HOME: process.env.HOME ?? work, LOG_LEVEL: 'info', ...extra }
}


/** `npm run <args>` in the install; resolves with its exit code and output. `whileRunning` runs once `readyText` is printed. */
function npm(args, env, { readyText, whileRunning, timeoutMs = 180_000 } = {}) {
	const child = spawn('npm', args, { cwd: app, env: environment(env), stdio: ['ignore', 'pipe', 'pipe'], detached: true })
	running.add(child)
	let output = ''
	let ready = false
	let pending = Promise.resolve()
	const onData = (chunk) => {
		output += String(chunk)
		if (!ready && readyText && output.includes(readyText)) {
			ready = true
			pending = whileRunning(child, () => output).catch((error) => {
				output += `\n(check: ${error.message})`
				child.kill('SIGKILL')
			})
		}
	}
	child.stdout.on('data', onData)
	child.stderr.on('data', onData)
	const timer = setTimeout(() => {
		output += `\n(check: no end after ${timeoutMs / 1000} s: killed)`
		process.kill(-child.pid, 'SIGKILL')
	}, timeoutMs)
	return new Promise((resolve) =>
		child.on('exit', async (code, signal) => {
			clearTimeout(timer)
			running.delete(child)
			await pending
			resolve({ code: code ?? signal, output, ready })
		}),
	)
}

/** Runs one script and checks its exit code and what it printed. */
async function check(label, args, env, { code = 0, says, ...options } = {}) {
	const started = performance.now()
	const result = await npm(args, env, options)
	const took = `${((performance.now() - started) / 1000).toFixed(1)} s`
	if (result.code !== code) return fail(label, `exit ${result.code}, expected ${code} (${took})`, result.output)
	if (options.readyText && !result.ready) return fail(label, `never printed "${options.readyText}" (${took})`, result.output)
	for (const text of [says].flat().filter(Boolean)) {
		if (!result.output.includes(text)) return fail(label, `did not print "${text}" (${took})`, result.output)
	}
	say(`✓ ${label} (${took})`)
}

/** SIGTERM to npm, as a process manager stops it: npm passes it on, the process stops cleanly (exit 0). */
const stopWithSigterm = async (child) => child.kill('SIGTERM')

/** `npm start` until /readyz answers 200, then stopped. */
async function checkStart(label, env) {
	const port = await freePort()
	await check(label, ['start'], { HOST: '127.0.0.1', PORT: String(port), WEB_CONCURRENCY: '1', ...env }, {
		readyText: '"msg":"server listening"',
		says: ['"msg":"server stopping"'],
		whileRunning: async (child) => {
			const deadline = Date.now() + 120_000
			for (;;) {
				const status = await fetch(`http://127.0.0.1:${port}/readyz`).then((response) => response.status, () => 0)
				if (status === 200) break
				if (Date.now() > deadline) throw new Error(`/readyz answered ${status} for two minutes`)
				await new Promise((resolve) => setTimeout(resolve, 250))
			}
			child.kill('SIGTERM')
		},
	})
}

async function onPostgres() {
	const dataDir = path.join(work, 'data-postgres')
	const env = { DATABASE_URL: databaseUrl, DATA_DIR: dataDir }
	// What production on a server database needs to serve (decision 0142): e-mails kept on disk on purpose here.
	const withSecret = { ...env, SESSION_SECRET: secret, APP_URL: 'http://localhost', EMAIL_TO_DISK: 'true' }
	await check('PostgreSQL: npm run db:migrate', ['run', 'db:migrate'], env, { says: 'Migrations applied to' })
	await check('PostgreSQL: npm run db:seed (no SESSION_SECRET)', ['run', 'db:seed'], env, { says: 'Demo data loaded into' })
	await check('PostgreSQL: npm run admin:create -- x@example.com', ['run', 'admin:create', '--', 'x@example.com'], env, { says: 'Created administrator x@example.com' })
	await check('PostgreSQL: npm run jobs', ['run', 'jobs'], withSecret, { says: '"job":"response-times"' })
	await check('PostgreSQL: npm run worker, stopped with SIGTERM', ['run', 'worker'], withSecret, {
		readyText: '"msg":"worker started"',
		whileRunning: stopWithSigterm,
		says: '"msg":"worker stopping"',
	})
	await check('PostgreSQL: npm start without APP_URL refuses, naming it', ['start'], { ...withSecret, APP_URL: undefined }, { code: 1, says: 'APP_URL is not set' })
	// Migrated by the release step above: a web process that does not migrate starts all the same.
	await checkStart('PostgreSQL: npm start (MIGRATE_ON_START=false), /readyz 200, stopped with SIGTERM', { ...withSecret, MIGRATE_ON_START: 'false' })
	await check('PostgreSQL: npm run backup refuses, pointing at docs/backup.md', ['run', 'backup'], withSecret, { code: 1, says: 'docs/backup.md' })
}

async function onEmbedded() {
	const env = { DATA_DIR: path.join(work, 'data-embedded') }
	await check('embedded: npm run db:migrate', ['run', 'db:migrate'], env, { says: 'Migrations applied to' })
	await check('embedded: npm run db:seed', ['run', 'db:seed'], env, { says: 'Demo data loaded into' })
	await check('embedded: npm run admin:create -- x@example.com', ['run', 'admin:create', '--', 'x@example.com'], env, { says: 'Created administrator x@example.com' })
	await check('embedded: npm run jobs', ['run', 'jobs'], env, { says: '"job":"response-times"' })
	// A backup of the install (no portal running: the script opens DATA_DIR), restored into an empty one (decision 0144).
	const archive = path.join(work, 'embedded-backup.tar.gz')
	await check('embedded: npm run backup', ['run', 'backup', '--', archive], env, { says: 'Backup written to' })
	await check('embedded: npm run restore into an empty DATA_DIR', ['run', 'restore', '--', archive], { DATA_DIR: path.join(work, 'data-restored') }, { says: 'as its manifest says' })
	await check('embedded: npm run restore refuses a DATA_DIR that is not empty', ['run', 'restore', '--', archive], env, { code: 1, says: 'is not empty' })
	// The web process runs the jobs on the embedded database: a worker must refuse, saying why.
	await check('embedded: npm run worker refuses, with its reason', ['run', 'worker'], env, { code: 1, says: 'no DATABASE_URL' })
	await checkStart('embedded: npm start, /readyz 200, stopped with SIGTERM', env)
}

const server = new pg.Client({ connectionString: serverUrl.href })
let created = false
try {
	// The server first: a wrong CHECK_DATABASE_URL fails before a minute of copying.
	await server.connect()
	say(`making a production install in ${app}`)
	fs.mkdirSync(app)
	// This checkout as it is (committed or not), without what git ignores.
	const files = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' }).stdout.split('\0')
	for (const file of files.filter(Boolean)) {
		if (fs.existsSync(path.join(root, file))) fs.cpSync(path.join(root, file), path.join(app, file))
	}
	// The packages npm counts as production ones (what `npm prune --omit=dev` keeps of an `npm ci`),
	// copied, not linked: node_modules may share its files with other checkouts. A third of the whole.
	const listed = spawnSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: root, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 })
	const packages = [...new Set(listed.stdout.split('\n').filter((line) => line.startsWith(path.join(root, 'node_modules'))))]
		.map((line) => path.relative(root, line))
		.sort()
		.filter((dir, i, all) => !all.slice(0, i).some((parent) => dir.startsWith(`${parent}/`)))
	if (packages.length < 50) throw new Error(`npm ls listed ${packages.length} production packages: ${listed.stderr}`)
	prepare(`copied the ${packages.length} production packages`, 'cp', ['-a', '--parents', ...packages, 'node_modules/.package-lock.json', app], { cwd: root })
	// The build needs the development packages: it is made here, in this checkout, and copied.
	if (reuseBuild) say('reusing the build (REUSE_BUILD=1)')
	else prepare('npm run build (in this checkout)', 'npm', ['run', 'build'], { cwd: root })
	for (const built of ['build', 'server-build', 'public/widgets']) {
		if (!fs.existsSync(path.join(root, built))) throw new Error(`${built} is missing: run \`npm run build\` first`)
		fs.cpSync(path.join(root, built), path.join(app, built), { recursive: true })
	}
	prepare('npm prune --omit=dev', 'npm', ['prune', '--omit=dev', '--offline', '--no-audit', '--no-fund'])
	for (const devOnly of ['tsx', 'esbuild', 'vite']) {
		if (fs.existsSync(path.join(app, 'node_modules', devOnly))) throw new Error(`${devOnly} is still installed after npm prune: this would not check a production install`)
	}

	await server.query(`create database ${databaseName}`)
	created = true
	say(`created database ${databaseName}; the two databases' runs go side by side`)
	await Promise.all([onPostgres(), onEmbedded()])
} catch (error) {
	fail('the check', error instanceof Error ? error.message : String(error))
} finally {
	for (const child of running) {
		try {
			process.kill(-child.pid, 'SIGKILL')
		} catch {
			// Gone already.
		}
	}
	if (created) await server.query(`drop database if exists ${databaseName} with (force)`).catch((error) => fail('dropping the database', error.message))
	await server.end().catch(() => {})
	// Some 20,000 files: their removal took a minute on a shared machine, and nothing waits for it.
	spawn('rm', ['-rf', work], { detached: true, stdio: 'ignore' }).unref()
}

if (failures.length) {
	console.error(`\nThe production install FAILED ${failures.length} check(s) in ${seconds().trim()} s:\n${failures.map((label) => `  ✗ ${label}`).join('\n')}`)
	process.exit(1)
}
say('the production install runs every script the README names')
