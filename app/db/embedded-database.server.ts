import fs from 'node:fs'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
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
		extensions: { pg_trgm },
		loadDataDir,
		startParams: embeddedStartParams(),
	})
}

/**
 * The background jobs' first runs wait this long after the start (startup.server.ts), so the first
 * visitors are not queued behind them on the one connection. A server's pg-boss schedules are not affected.
 */
export const EMBEDDED_JOBS_DELAY_MS = 5_000

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
