import { describe, expect, test } from 'vitest'
import { clearRateLimit, hitRateLimit } from '~/utils/rate-limit.server'

describe('rate limits', () => {
	test('allow the limit, refuse the next, and say how long to wait', async () => {
		const rule = { limit: 20, windowSeconds: 900 }
		for (let attempt = 1; attempt <= 20; attempt++) {
			expect((await hitRateLimit('test:login:1.2.3.4', rule)).allowed, `attempt ${attempt}`).toBe(true)
		}
		const refused = await hitRateLimit('test:login:1.2.3.4', rule)
		expect(refused.allowed).toBe(false)
		expect(refused.retryAfterSeconds).toBeGreaterThan(800)
		// Other keys are counted apart.
		expect((await hitRateLimit('test:login:5.6.7.8', rule)).allowed).toBe(true)
	})

	test('start again when the window has passed, or when cleared', async () => {
		const rule = { limit: 1, windowSeconds: 1 }
		expect((await hitRateLimit('test:short', rule)).allowed).toBe(true)
		expect((await hitRateLimit('test:short', rule)).allowed).toBe(false)
		await new Promise((resolve) => setTimeout(resolve, 1100))
		expect((await hitRateLimit('test:short', rule)).allowed).toBe(true)
		await clearRateLimit('test:short')
		expect((await hitRateLimit('test:short', rule)).allowed).toBe(true)
	})

	test('count correctly under concurrent attempts', async () => {
		const rule = { limit: 10, windowSeconds: 60 }
		const results = await Promise.all(Array.from({ length: 25 }, () => hitRateLimit('test:parallel', rule)))
		expect(results.filter((r) => r.allowed)).toHaveLength(10)
	})
})
