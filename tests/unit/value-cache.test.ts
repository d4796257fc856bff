import { describe, expect, test } from 'vitest'
import { approximateBytes, valueCache } from '~/caching/value-cache.server'

describe('valueCache (lru-cache, emptied by the cache bus)', () => {
	test('keeps a value until its lifetime ends', async () => {
		const cache = valueCache<{ n: number }>('ads', { ttlMs: 50 })
		let loads = 0
		const load = async () => ({ n: ++loads })
		expect(await cache.get('k', load)).toEqual({ n: 1 })
		expect(await cache.get('k', load)).toEqual({ n: 1 })
		await new Promise((resolve) => setTimeout(resolve, 120))
		expect(await cache.get('k', load)).toEqual({ n: 2 })
	})

	test('a read that began before the cache was emptied keeps nothing', async () => {
		const cache = valueCache<{ n: number }>('site-settings', { ttlMs: 60_000 })
		let release = () => {}
		const slow = cache.get('k', () => new Promise((resolve) => (release = () => resolve({ n: 1 }))))
		cache.clear()
		release()
		expect(await slow).toEqual({ n: 1 })
		expect(await cache.get('k', async () => ({ n: 2 }))).toEqual({ n: 2 })
	})

	test('is bounded in entries and in bytes, the least recently used going first', async () => {
		const cache = valueCache<{ text: string }>('directory-counts', { ttlMs: 60_000, max: 2, maxBytes: 1_000 })
		const value = (text: string) => async () => ({ text })
		await cache.get('a', value('a'))
		await cache.get('b', value('b'))
		await cache.get('a', value('changed'))
		await cache.get('c', value('c'))
		// 'b' was the least recently used of the two kept.
		expect(await cache.get('a', value('again'))).toEqual({ text: 'a' })
		expect(await cache.get('b', value('reloaded'))).toEqual({ text: 'reloaded' })
		// Larger than the byte bound: given, never kept.
		const large = 'x'.repeat(2_000)
		expect(await cache.get('large', value(large))).toEqual({ text: large })
		expect(await cache.get('large', value('small'))).toEqual({ text: 'small' })
	})

	test('measures Maps and Sets by their entries', () => {
		expect(approximateBytes(new Map([['a', 1]]))).toBeGreaterThan(approximateBytes(new Map()))
		expect(approximateBytes(new Set(['abc']))).toBeGreaterThan(approximateBytes(new Set()))
	})
})
