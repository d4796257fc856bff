import { describe, expect, test } from 'vitest'
import { lazily } from '~/utils/singleton.server'

describe('lazily', () => {
	test('loads on the first call, not before, and keeps the value for every later call', async () => {
		let loads = 0
		const value = lazily(async () => ({ n: ++loads }))
		expect(loads).toBe(0)
		const [first, second] = await Promise.all([value(), value()])
		expect(loads).toBe(1)
		expect(second).toBe(first)
		expect(await value()).toBe(first)
		expect(loads).toBe(1)
	})

	test('a failed load is not kept: the calls that shared it fail, the next call loads again', async () => {
		let loads = 0
		const value = lazily(async () => {
			loads++
			if (loads === 1) throw new Error('module not found')
			return 'loaded'
		})
		const failed = await Promise.allSettled([value(), value()])
		expect(failed.map((result) => result.status)).toEqual(['rejected', 'rejected'])
		expect(loads).toBe(1)
		expect(await value()).toBe('loaded')
		expect(await value()).toBe('loaded')
		expect(loads).toBe(2)
	})

	test('a load that throws before its first await is a rejection too, and is retried', async () => {
		let loads = 0
		const value = lazily((): Promise<string> => {
			if (++loads === 1) throw new Error('thrown at once')
			return Promise.resolve('loaded')
		})
		await expect(value()).rejects.toThrow('thrown at once')
		expect(await value()).toBe('loaded')
	})
})
