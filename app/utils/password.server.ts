import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'
import { DomainError } from '~/utils/errors'
import { logger } from './logger.server'

/**
 * Passwords are hashed with scrypt (slow, salted, memory-hard), stored as
 * `scrypt$N$r$p$salt$hash`, so the cost can be raised without breaking old hashes: a hash made
 * with a lower cost is replaced at the owner's next successful sign-in (`needsRehash`).
 * The cost is OWASP's advice for scrypt (N=2^17, r=8, p=1: 128 MiB and about half a second);
 * the unit and integration tests use a cheaper one so that hundreds of sign-ups stay quick.
 */
export const PRODUCTION_COST = { N: 2 ** 17, r: 8, p: 1 }
const TEST_COST = { N: 2 ** 14, r: 8, p: 1 }
/**
 * Set to exactly `true` by the end-to-end tests' server (tests/e2e/serve.mjs), which runs the
 * production build: it then hashes with the tests' cost too (docs/decisions/0076). Never set it
 * on a real portal; one that has it says so in its log. The fuzz suite and
 * tests/unit/password-cost.test.ts keep the full cost.
 */
export const TEST_ONLY_CHEAP_HASHING = 'TEST_ONLY_CHEAP_PASSWORD_HASHING'
const cheapForTests = process.env[TEST_ONLY_CHEAP_HASHING] === 'true'
if (cheapForTests && process.env.NODE_ENV !== 'test') {
	logger.warn(`${TEST_ONLY_CHEAP_HASHING} is set: passwords are hashed with the tests' cheap cost (tests only, never a real portal).`)
}
const COST = process.env.NODE_ENV === 'test' || cheapForTests ? TEST_COST : PRODUCTION_COST
const KEY_LENGTH = 32
/** Room for the largest cost accepted from a stored hash (N=2^18, r=8: 256 MiB). */
const MAX_MEMORY = 300 * 1024 * 1024
const MAX_N = 2 ** 18

/**
 * At most two hashes at a time: each holds one of Node's four worker threads for half a second,
 * and a flood of sign-ins must not leave none for reading files. A queue longer than
 * MAX_WAITING is answered "busy, try again in a moment" (503) instead of growing without end.
 */
const MAX_HASHING = 2
const MAX_WAITING = 100
let hashing = 0
const waiting: Array<() => void> = []

async function withHashSlot<T>(work: () => Promise<T>): Promise<T> {
	if (hashing >= MAX_HASHING) {
		if (waiting.length >= MAX_WAITING) throw new DomainError('common:errors.busy', 503)
		await new Promise<void>((resolve) => waiting.push(resolve))
	}
	hashing++
	try {
		return await work()
	} finally {
		hashing--
		waiting.shift()?.()
	}
}

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
	return withHashSlot(
		() =>
			new Promise((resolve, reject) => {
				scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...options, maxmem: MAX_MEMORY }, (error, key) =>
					error ? reject(error) : resolve(key),
				)
			}),
	)
}

export async function hashPassword(password: string): Promise<string> {
	const salt = randomBytes(16)
	const key = await derive(password, salt, COST)
	return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$')
}

function parse(stored: string | null) {
	if (!stored) return null
	const [scheme, n, r, p, salt, hash] = stored.split('$')
	const cost = { N: Number(n), r: Number(r), p: Number(p) }
	if (scheme !== 'scrypt' || !salt || !hash) return null
	if (![cost.N, cost.r, cost.p].every(Number.isSafeInteger) || cost.N > MAX_N || cost.r > 32 || cost.p > 4) return null
	return { cost, salt: Buffer.from(salt, 'base64url'), hash: Buffer.from(hash, 'base64url') }
}

/** Whether the password is the one of the stored hash; an account without a password (null, eID only) has none that is. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
	const parsed = parse(stored)
	if (!parsed) return false
	const actual = await derive(password, parsed.salt, parsed.cost)
	return actual.length === parsed.hash.length && timingSafeEqual(actual, parsed.hash)
}

/** Whether a stored hash was made with less work than today's cost (then it is replaced at sign-in). */
export function needsRehash(stored: string | null): boolean {
	const parsed = parse(stored)
	return !parsed || parsed.cost.N < COST.N || parsed.cost.r < COST.r || parsed.cost.p < COST.p
}
