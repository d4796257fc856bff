import { sql } from 'drizzle-orm'
import pg from 'pg'
import { type DbOrTx, afterCommit, db, getConnection } from '~/db/db.server'
import { getEnv } from '~/utils/env.server'
import { logger } from '~/utils/logger.server'
import { singleton } from '~/utils/singleton.server'

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
 * On the embedded database there is one process: emptying its own copy is all there is to do, and
 * it hears the triggers' per-user messages through PGlite's own `listen`. The caches keep short
 * lifetimes as a safety net (a notification lost with its connection).
 */

const CHANNEL = 'autohub_cache'
/** The payload that empties every cache (an operator's `select pg_notify('autohub_cache', '*')`). */
const EVERY_CACHE = '*'
const RECONNECT_MIN_MS = 1_000
const RECONNECT_MAX_MS = 30_000

/** Every cache on the bus: a name not listed here is a type error, not a change that empties nothing. */
export type CacheName = 'site-settings' | 'ads' | 'reference-lists' | 'directory-counts' | 'price-pages' | 'partners' | 'insights'

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

/** Forgets one user's entries of a per-user cache in this process. */
export function forgetUserHere(scope: UserScope, userId: string) {
	userScopes.get(scope)?.forgetUser(userId)
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

type Listener = {
	client: pg.Client | null
	/** Stops PGlite's own listening (the embedded database). */
	unlisten: (() => Promise<void>) | null
	listening: boolean
	stopped: boolean
	retry: ReturnType<typeof setTimeout> | null
	delayMs: number
}

const listener = singleton<Listener>('cache-bus:listener', () => ({ client: null, unlisten: null, listening: false, stopped: true, retry: null, delayMs: RECONNECT_MIN_MS }))

/**
 * Starts listening for changes (startup): on PostgreSQL on a connection of its own; on the embedded
 * database through PGlite's `listen`, so its triggers' messages (a job's write, say) reach the
 * caches of its one process as well.
 */
export function startCacheListener() {
	if (!listener.stopped) return
	listener.stopped = false
	const url = getEnv().DATABASE_URL
	if (url) void connect(url)
	else void listenEmbedded()
}

async function listenEmbedded() {
	const { $client } = getConnection().db as unknown as { $client: { listen: (channel: string, callback: (payload: string) => void) => Promise<() => Promise<void>> } }
	try {
		const unlisten = await $client.listen(CHANNEL, (payload) => heard(payload))
		if (listener.stopped) return void (await unlisten().catch(() => undefined))
		listener.unlisten = unlisten
		listener.listening = true
	} catch (error) {
		logger.warn('the embedded database does not listen: nothing is kept per user', { err: error })
	}
}

/** A message on the channel: a test's marker, or the caches to empty. */
function heard(payload: string) {
	const marker = markers.get(payload)
	if (marker) return marker()
	clearHere([payload])
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
		if (message.channel === CHANNEL && message.payload) heard(message.payload)
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
	const unlisten = listener.unlisten
	listener.client = null
	listener.unlisten = null
	listener.listening = false
	await client?.end().catch(() => undefined)
	await unlisten?.().catch(() => undefined)
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
