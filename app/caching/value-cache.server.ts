import { LRUCache } from 'lru-cache'
import { cacheLookups } from '~/observability/metrics.server'
import { registerCache, type CacheName } from './cache-bus.server'

/**
 * Values a process keeps in memory for a while (the site's settings, ads, reference lists, the
 * directory's counts), bounded by lru-cache in entries and bytes, each for at most `ttlMs`, and
 * forgotten in every process when the cache bus names the cache (`forgetCaches(tx, name)`).
 *
 * A read that began before the cache was emptied keeps nothing: it may have read what the change
 * was about to replace.
 */
export type ValueCache<V> = {
	/** The kept value, or `load`'s, kept for next time. */
	get(key: string, load: () => Promise<V>): Promise<V>
	/** Forgets everything (what the bus does). */
	clear(): void
}

export type ValueCacheOptions = {
	ttlMs: number
	/** At most this many entries (default 1). */
	max?: number
	/** At most about this many bytes, each value measured as its JSON (default 16 MB). */
	maxBytes?: number
}

export function valueCache<V extends object>(name: CacheName, { ttlMs, max = 1, maxBytes = 16 * 1024 * 1024 }: ValueCacheOptions): ValueCache<V> {
	const kept = new LRUCache<string, V>({ max, ttl: ttlMs, maxSize: maxBytes, sizeCalculation: approximateBytes })
	let generation = 0
	const clear = () => {
		generation++
		kept.clear()
	}
	registerCache(name, clear)
	return {
		async get(key, load) {
			const hit = kept.get(key)
			if (hit !== undefined) {
				cacheLookups.inc({ cache: name, result: 'hit' })
				return hit
			}
			cacheLookups.inc({ cache: name, result: 'miss' })
			const began = generation
			const value = await load()
			if (began === generation) kept.set(key, value)
			return value
		},
		clear,
	}
}

/** The size lru-cache bounds: a value's JSON, Maps and Sets counted by their entries. */
export function approximateBytes(value: unknown): number {
	const json = JSON.stringify(value, (_key, item: unknown) => (item instanceof Map ? [...item] : item instanceof Set ? [...item] : item))
	return Math.max(1, json?.length ?? 1)
}
