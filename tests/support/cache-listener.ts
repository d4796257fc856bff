import { afterAll, beforeAll, expect } from 'vitest'
import { cacheListenerReady, startCacheListener, stopCacheListener } from '~/utils/cache-bus.server'

/** The test file's process listens on the cache bus, as a web process on PostgreSQL does, for the tests of the calling block. */
export function listenToCacheBus() {
	beforeAll(async () => {
		startCacheListener()
		for (let waited = 0; !cacheListenerReady() && waited < 5_000; waited += 25) await new Promise((resolve) => setTimeout(resolve, 25))
		expect(cacheListenerReady()).toBe(true)
	})
	afterAll(() => stopCacheListener())
}
