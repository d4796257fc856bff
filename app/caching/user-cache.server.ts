import { LRUCache } from 'lru-cache'
import { type DbOrTx, afterCommit } from '~/db/db.server'
import { cacheListenerReady, forgetUserHere, registerUserScope, type UserScope } from './cache-bus.server'
import { singleton } from '~/utils/singleton.server'
import { cacheLookups } from '~/observability/metrics.server'
import { approximateBytes } from './value-cache.server'

/**
 * Answers kept in memory per user until the database says the user's rows changed (issue 18,
 * docs/decisions/0089): the bell's list ('notifications') and the token → user lookup ('user').
 *
 * - Triggers (migration 0013) send `notifications:<user id>` or `user:<user id>` on the cache bus
 *   at the commit of any write, whoever wrote; every process's listener forgets that user's
 *   entries. A write of this process also forgets them here right after its commit
 *   (`forgetUsers`), so the writer's next read is fresh without waiting for the bus.
 * - Only while this process listens (`cacheListenerReady`: PostgreSQL's LISTEN, or PGlite's own
 *   `listen` on the embedded database): without a listener a change elsewhere would go unheard,
 *   so nothing is kept.
 * - Bounded in entries and bytes, and each entry for ten minutes at most (lru-cache).
 * - A read that began before a change must not store what it read: each change is numbered, and
 *   a loaded value is kept only when no change to its user came after the read began.
 */
export type UserCache<V> = {
	/** The kept value, when this process may trust it. */
	get(key: string): V | undefined
	/** Reads with `load` unless kept; keeps the result for its user (`userOf`; null is not kept). */
	load(key: string, load: () => Promise<V>, userOf: (value: V) => string | null): Promise<V>
	/** Forgets one key (a token ended by this process). */
	forget(key: string): void
}

type Entry<V> = { userId: string; value: V }

type Scope<V> = {
	entries: LRUCache<string, Entry<V>>
	keysOfUser: Map<string, Set<string>>
	/** The number of the latest change per user; reset with `floor` raised when it grows large. */
	changedAt: Map<string, number>
	counter: number
	/** Reads begun before this number store nothing (everything was forgotten after they began). */
	floor: number
}

const CHANGES_REMEMBERED = 100_000

/**
 * `maxEntries` and `maxBytes` bound it (lru-cache, the least recently used going first); `ttlMs`
 * is a safety net for a message lost with the listener's connection.
 */
export function userCache<V extends object>(scope: UserScope, options: { maxEntries: number; maxBytes?: number; ttlMs?: number }): UserCache<V> {
	const state = singleton<Scope<V>>(`user-cache:${scope}`, () => {
		const keysOfUser = new Map<string, Set<string>>()
		const created: Scope<V> = {
			entries: new LRUCache<string, Entry<V>>({
				max: options.maxEntries,
				maxSize: options.maxBytes ?? 64 * 1024 * 1024,
				sizeCalculation: (entry, key) => key.length + approximateBytes(entry.value),
				ttl: options.ttlMs ?? 10 * 60_000,
				// An entry gone (evicted, expired, forgotten) leaves its user's index too.
				dispose: (entry, key, reason) => {
					if (reason === 'set') return
					const keys = keysOfUser.get(entry.userId)
					keys?.delete(key)
					if (keys?.size === 0) keysOfUser.delete(entry.userId)
				},
			}),
			keysOfUser,
			changedAt: new Map(),
			counter: 0,
			floor: 0,
		}
		registerUserScope(scope, {
			forgetUser: (userId) => forgetUser(created, userId),
			forgetAll: () => forgetAll(created),
		})
		return created
	})

	return {
		get(key) {
			if (!cacheListenerReady()) return undefined
			return state.entries.get(key)?.value
		},
		async load(key, load, userOf) {
			const kept = this.get(key)
			cacheLookups.inc({ cache: `user:${scope}`, result: kept === undefined ? 'miss' : 'hit' })
			if (kept !== undefined) return kept
			const began = state.counter
			const value = await load()
			const userId = userOf(value)
			if (userId && cacheListenerReady() && began >= state.floor && (state.changedAt.get(userId) ?? -1) <= began) {
				state.entries.set(key, { userId, value })
				let keys = state.keysOfUser.get(userId)
				if (!keys) state.keysOfUser.set(userId, (keys = new Set()))
				keys.add(key)
			}
			return value
		},
		forget(key) {
			state.entries.delete(key)
		},
	}
}

function forgetUser<V>(state: Scope<V>, userId: string) {
	state.counter++
	if (state.changedAt.size >= CHANGES_REMEMBERED) {
		state.changedAt.clear()
		state.floor = state.counter
	}
	state.changedAt.set(userId, state.counter)
	for (const key of [...(state.keysOfUser.get(userId) ?? [])]) state.entries.delete(key)
	state.keysOfUser.delete(userId)
}

function forgetAll<V>(state: Scope<V>) {
	state.counter++
	state.floor = state.counter
	state.changedAt.clear()
	state.entries.clear()
	state.keysOfUser.clear()
}

/**
 * Forgets users' entries in this process after `tx` commits (at once without one). Other processes
 * hear of it from the triggers; this is for the writer's own next read.
 */
export async function forgetUsers(tx: DbOrTx | undefined, scope: UserScope, userIds: Iterable<string>) {
	const ids = [...new Set(userIds)]
	if (!ids.length) return
	const forget = async () => {
		for (const id of ids) forgetUserHere(scope, id)
	}
	if (tx) await afterCommit(tx, forget)
	else await forget()
}
