import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { Worker } from 'node:worker_threads'
import { PGlite } from '@electric-sql/pglite'
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'

/**
 * The embedded database's client (PGlite), apart from the rest of db.server.ts so that the server
 * can start opening it before it loads the app (decision 0094): opening a data directory is half
 * a second of WebAssembly, loading the app as long again, and the two overlap.
 */

/**
 * PostgreSQL's settings for the embedded database, over the ones PGlite starts with. Its buffer
 * pool is allocated and cleared in the process's memory at start: PostgreSQL's default of 128 MB
 * was a third of a started portal's memory, for a database of a few dozen megabytes whose files the
 * system caches anyway. Durability is PGlite's own, unchanged.
 */
const SETTINGS = ['-c', 'shared_buffers=16MB']

/** What PostgreSQL is started with (the bench's bare baseline starts it the same way). */
export const embeddedStartParams = () => [...PGlite.defaultStartParams, ...SETTINGS]

/** Where in DATA_DIR the database lives (`memory://…` is a database in memory, the tests'). */
export function embeddedDirectory(dataDir: string) {
	return dataDir.startsWith('memory://') ? dataDir : `${dataDir}/pglite`
}

/** A new client on `directory`; it opens in the background, its queries wait for it. */
export function createEmbeddedClient(directory: string, loadDataDir?: Blob) {
	if (!directory.startsWith('memory://')) fs.mkdirSync(directory, { recursive: true })
	return new PGlite(directory, {
		extensions: { pg_trgm, btree_gist },
		loadDataDir,
		startParams: embeddedStartParams(),
	})
}

/**
 * The background jobs' first runs wait this long after the start (startup.server.ts), so the first
 * visitors are not queued behind them on the one connection. A server's pg-boss schedules are not affected.
 */
export const EMBEDDED_JOBS_DELAY_MS = 5_000

/** A worker thread's script: makes the database of `directory` with PGlite (initdb), closes it, says 'ok'. */
const INITDB_SCRIPT = `
const { parentPort, workerData } = require('node:worker_threads')
const { PGlite } = require(workerData.entry)
;(async () => {
	const client = new PGlite(workerData.directory, { startParams: workerData.startParams })
	await client.waitReady
	await client.close()
	parentPort.postMessage('ok')
})().catch((error) => parentPort.postMessage(String(error && error.stack || error)))
`

/**
 * Makes a new data directory's database (PostgreSQL's initdb: seconds of WebAssembly that would hold
 * the event loop) on a worker thread, so that the server answers its starting page meanwhile; the
 * app then opens it as an existing one (decision 0130). Nothing to do when the directory holds a
 * database already, or is in memory. A worker that fails leaves the making to the app's own open.
 */
export async function makeEmbeddedDatabase(dataDir: string): Promise<'made' | 'existing' | 'failed'> {
	const directory = embeddedDirectory(dataDir)
	if (dataDir.startsWith('memory://') || fs.existsSync(path.join(directory, 'PG_VERSION'))) return 'existing'
	const isNew = !fs.existsSync(directory)
	fs.mkdirSync(directory, { recursive: true })
	const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite')
	const result = await new Promise<'made' | 'failed'>((resolve) => {
		const worker = new Worker(INITDB_SCRIPT, { eval: true, workerData: { entry, directory, startParams: embeddedStartParams() } })
		worker.once('message', (message) => resolve(message === 'ok' ? 'made' : 'failed'))
		worker.once('error', () => resolve('failed'))
		worker.once('exit', () => resolve('failed'))
	})
	// Half a database is no start for the app's own open: the folder this made goes again.
	if (result === 'failed' && isNew) fs.rmSync(directory, { recursive: true, force: true })
	return result
}

type Early = { directory: string; client: PGlite }
const slot = globalThis as { __autohubEarlyDatabase?: Early }

/**
 * Starts opening the database of a data directory now (server/index.ts, before the app is
 * loaded), when the directory holds one already (its PG_VERSION): a first start's database is
 * made by the app's own `getConnection()`, once. The app's first `getConnection()` on the same
 * directory takes this client over; a failure to open is reported there, by the start's first query.
 */
export function openEmbeddedEarly(dataDir: string) {
	const directory = embeddedDirectory(dataDir)
	if (slot.__autohubEarlyDatabase || !fs.existsSync(path.join(directory, 'PG_VERSION'))) return
	const client = createEmbeddedClient(directory)
	client.waitReady.catch(() => undefined)
	slot.__autohubEarlyDatabase = { directory, client }
}

/**
 * The client `openEmbeddedEarly` started, handed over once when it is the one asked for: the same
 * directory, opened without a tarball to start from. One that is not is closed, never left open
 * beside the client the caller opens instead.
 */
export function takeEarlyClient(directory: string, options: { loadDataDir?: Blob } = {}): PGlite | undefined {
	const early = slot.__autohubEarlyDatabase
	if (!early) return undefined
	slot.__autohubEarlyDatabase = undefined
	if (early.directory === directory && !options.loadDataDir) return early.client
	// Closing waits for it to have opened; one that failed to open has nothing to close.
	void early.client.close().catch(() => undefined)
	return undefined
}
