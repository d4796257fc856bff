import { randomBytes, scryptSync } from 'node:crypto'
import { afterEach, describe, expect, test, vi } from 'vitest'

/**
 * The password cost of a server in production mode (docs/decisions/0076): the full cost, unless the
 * end-to-end tests' server asks for the tests' cheap one with TEST_ONLY_CHEAP_PASSWORD_HASHING=true.
 * The module reads the environment once, when it is loaded, so each case loads it anew.
 */
async function passwordModule(env: { NODE_ENV: string; cheap?: string }) {
	vi.resetModules()
	vi.stubEnv('NODE_ENV', env.NODE_ENV)
	vi.stubEnv('TEST_ONLY_CHEAP_PASSWORD_HASHING', env.cheap)
	vi.stubEnv('LOG_LEVEL', 'silent')
	return import('~/utils/password.server')
}

/** A stored hash with the given scrypt cost, as hashPassword writes it. */
function storedHash(password: string, N: number) {
	const salt = randomBytes(16)
	const key = scryptSync(password, salt, 32, { N, r: 8, p: 1, maxmem: 300 * 1024 * 1024 })
	return ['scrypt', N, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$')
}

afterEach(() => {
	vi.unstubAllEnvs()
	vi.resetModules()
})

describe('password hashing in production mode', () => {
	test('hashes and verifies at the full cost (scrypt N=2^17, r=8, p=1), and replaces a cheaper hash at sign-in', async () => {
		const { hashPassword, verifyPassword, needsRehash, PRODUCTION_COST } = await passwordModule({ NODE_ENV: 'production' })
		expect(PRODUCTION_COST).toEqual({ N: 131072, r: 8, p: 1 })
		const hash = await hashPassword('correct horse')
		expect(hash).toMatch(/^scrypt\$131072\$8\$1\$/)
		expect(await verifyPassword('correct horse', hash)).toBe(true)
		expect(await verifyPassword('correct hors', hash)).toBe(false)
		expect(needsRehash(hash)).toBe(false)
		// A hash made at the tests' cost is still accepted, and replaced at the owner's next sign-in.
		const cheaper = storedHash('correct horse', 2 ** 14)
		expect(await verifyPassword('correct horse', cheaper)).toBe(true)
		expect(needsRehash(cheaper)).toBe(true)
	}, 60_000)

	test('TEST_ONLY_CHEAP_PASSWORD_HASHING=true, and nothing else, gives the tests\u2019 cheap cost', async () => {
		const cheap = await passwordModule({ NODE_ENV: 'production', cheap: 'true' })
		expect(await cheap.hashPassword('correct horse')).toMatch(/^scrypt\$16384\$8\$1\$/)
		// Such a server never turns a full-cost hash into a cheaper one.
		expect(cheap.needsRehash(storedHash('x', 2 ** 17))).toBe(false)

		const cheaper = storedHash('correct horse', 2 ** 14)
		for (const value of [undefined, '', '1', 'yes', 'TRUE', 'false']) {
			const { needsRehash } = await passwordModule({ NODE_ENV: 'production', cheap: value })
			expect(needsRehash(cheaper), `TEST_ONLY_CHEAP_PASSWORD_HASHING=${value}`).toBe(true)
		}
	}, 60_000)
})
