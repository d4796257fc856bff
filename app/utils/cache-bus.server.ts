import { sql } from 'drizzle-orm'
import pg from 'pg'
import { type DbOrTx, afterCommit, db, getConnection } from './db.server'
import { getEnv } from './env.server'
import { logger } from './logger.server'
import { singleton } from './singleton.server'

/**
 * The in-memory caches of a process (site settings, ads, reference lists, the directory's counts),
 * by name, and how a change empties them in every process (issue 17, docs/decisions/0085):
 *
 * - each cache registers its name and how to empty itself (`registerCache`);
 * - a change calls `forgetCaches(tx, name)`: inside the writer's transaction it sends
 *   `pg_notify('autohub_cache', name)`, which PostgreSQL delivers on commit only, so a rolled-back
 *   save empties nothing; this process empties its own copy after the commit (a reader in between
 *   would otherwise fill it again with what is about to change);
 * - on PostgreSQL every process holds one connection that LISTENs and empties the named cache when
 *   told (`startCacheListener`). A lost connection is opened again, and every cache is emptied then:
 *   what was said while it was away is not heard again.
 *
 * On the embedded database there is one process: emptying its own copy is all there is to do. The
 * caches keep their short lifetimes as a safety net (a notification lost with its connection).
 */

const CHANNEL = 'autohub_cache'
/** The payload that empties every cache (an operator's `select pg_notify('autohub_cache', '*')`). */
const EVERY_CACHE = '*'
const RECONNECT_MIN_MS = 1_000
const RECONNECT_MAX_MS = 30_000

/**
 * Every cache on the bus: a name not listed here is a type error, not a change that empties nothing.
 * `pages` (the kept shared pages, page-cache.server.ts) comes from migration 0014's triggers,
 * `personal-pages` (the kept signed-in pages) from migration 0029's.
 */
export type CacheName = 'site-settings' | 'ads' | 'reference-lists' | 'directory-counts' | 'pages' | 'personal-pages'

/**
 * Caches kept per user (user-cache.server.ts). Their messages name the user, `<scope>:<user id>`,
 * and come from the database's triggers (migration 0013), not from `forgetCaches`.
 */
export type UserScope = 'notifications' | 'user'
type UserScopeHandlers = { forgetUser: (userId: string) => void; forgetAll: () => void }
const USER_MESSAGE = /^(notifications|user):([0-9a-f-]{36})$/

// Per process, not per module: the tests load the built app beside the source, Vite reloads modules.
const caches = singleton('cache-bus:caches', () => new Map<string, Set<() => void>>())

/** Names a cache of this process and how to empty it. */
export function registerCache(name: CacheName, clear: () => void) {
	let clears = caches.get(name)
	if (!clears) caches.set(name, (clears = new Set()))
	clears.add(clear)
}

const userScopes = singleton('cache-bus:user-scopes', () => new Map<UserScope, UserScopeHandlers>())

/** Names a per-user cache of this process and how to forget a user's entries, or all. */
export function registerUserScope(scope: UserScope, handlers: UserScopeHandlers) {
	userScopes.set(scope, handlers)
}

/**
 * Forgets one user's entries of a per-user cache in this process, and then the kept signed-in
 * pages, which show them (the bell's count, the name): a page rendered after a table's message but
 * before the user's would otherwise keep what the per-user cache still held (decision 0112).
 */
export function forgetUserHere(scope: UserScope, userId: string) {
	userScopes.get(scope)?.forgetUser(userId)
	for (const clear of caches.get('personal-pages') ?? []) clear()
}

/** Empties the named caches of this process (every one for `*`); a name not loaded here has nothing to empty. */
function clearHere(names: readonly string[]) {
	for (const name of names) {
		const ofUser = USER_MESSAGE.exec(name)
		if (ofUser) {
			forgetUserHere(ofUser[1] as UserScope, ofUser[2]!)
			continue
		}
		const clears = name === EVERY_CACHE ? [...caches.values()].flatMap((set) => [...set]) : [...(caches.get(name) ?? [])]
		for (const clear of clears) clear()
		if (name === EVERY_CACHE) for (const scope of userScopes.values()) scope.forgetAll()
	}
}

/**
 * Empties the named caches in every process. With `tx` (a transaction of `transaction()`), the
 * other processes hear of it when it commits, this one right after; without, at once. On the
 * embedded database only this process's copies exist.
 */
export async function forgetCaches(tx: DbOrTx | undefined, ...names: CacheName[]) {
	const postgres = getConnection().kind === 'postgres'
	if (!tx) {
		clearHere(names)
		if (postgres) await notify(db, names).catch((error: unknown) => logger.warn('cache change not announced', { err: error, caches: names }))
		return
	}
	if (postgres) await notify(tx, names)
	await afterCommit(tx, async () => clearHere(names))
}

async function notify(database: DbOrTx, names: readonly string[]) {
	for (const name of names) await database.execute(sql`select pg_notify(${CHANNEL}, ${name})`)
}

type Listener = { client: pg.Client | null; listening: boolean; stopped: boolean; retry: ReturnType<typeof setTimeout> | null; delayMs: number }

const listener = singleton<Listener>('cache-bus:listener', () => ({ client: null, listening: false, stopped: true, retry: null, delayMs: RECONNECT_MIN_MS }))

/** On PostgreSQL, starts listening for other processes' changes (startup); nothing on the embedded database. */
export function startCacheListener() {
	const url = getEnv().DATABASE_URL
	if (!url || !listener.stopped) return
	listener.stopped = false
	void connect(url)
}

async function connect(url: string) {
	// keepAlive: a half-open connection is noticed, not left deaf until the caches' TTLs.
	const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000, keepAlive: true })
	listener.client = client
	let lost = false
	const reconnect = (error?: unknown) => {
		if (lost) return
		lost = true
		void client.end().catch(() => undefined)
		// A client stopped and replaced meanwhile is no longer this listener's to reconnect.
		if (listener.client !== client) return
		listener.client = null
		listener.listening = false
		if (listener.stopped) return
		logger.warn('cache listener lost its connection, reconnecting', { err: error, inMs: listener.delayMs })
		listener.retry = setTimeout(() => {
			listener.retry = null
			if (!listener.stopped) void connect(url)
		}, listener.delayMs)
		listener.delayMs = Math.min(listener.delayMs * 2, RECONNECT_MAX_MS)
	}
	client.on('error', reconnect)
	client.on('end', () => reconnect())
	client.on('notification', (message) => {
		if (message.channel !== CHANNEL || !message.payload) return
		const heard = markers.get(message.payload)
		if (heard) return heard()
		clearHere([message.payload])
	})
	try {
		await client.connect()
		await client.query(`listen ${CHANNEL}`)
		if (listener.stopped) return void (await client.end().catch(() => undefined))
		// Whatever changed while nobody listened (the start, a lost connection) was not heard: start afresh.
		clearHere([EVERY_CACHE])
		listener.listening = true
		listener.delayMs = RECONNECT_MIN_MS
	} catch (error) {
		reconnect(error)
	}
}

/** Stops listening (shutdown). */
export async function stopCacheListener() {
	listener.stopped = true
	if (listener.retry) clearTimeout(listener.retry)
	listener.retry = null
	const client = listener.client
	listener.client = null
	listener.listening = false
	await client?.end().catch(() => undefined)
}

const markers = singleton('cache-bus:markers', () => new Map<string, () => void>())

/**
 * Resolves once this process's listener has heard everything committed before the call: a marker
 * sent after them arrives after them (PostgreSQL delivers in commit order). For tests; at once
 * when nothing listens.
 */
export async function cacheBusHeardAll(timeoutMs = 5_000) {
	if (!listener.listening) return
	const marker = `marker:${crypto.randomUUID()}`
	const heard = new Promise<void>((resolve, reject) => {
		const timer = setTimeout(() => reject(new Error('the cache listener did not hear its marker')), timeoutMs)
		markers.set(marker, () => {
			clearTimeout(timer)
			resolve()
		})
	})
	try {
		await db.execute(sql`select pg_notify(${CHANNEL}, ${marker})`)
		await heard
	} finally {
		markers.delete(marker)
	}
}

/** Whether this process hears other processes' changes now (tests). */
export function cacheListenerReady() {
	return listener.listening
}
