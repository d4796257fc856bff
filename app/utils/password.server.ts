import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'

/**
 * Passwords are hashed with scrypt (slow, salted, memory-hard), stored as
 * `scrypt$N$r$p$salt$hash` so the cost can be raised later without breaking old hashes.
 */
const COST = { N: 2 ** 15, r: 8, p: 1 }
const KEY_LENGTH = 32
const MAX_MEMORY = 64 * 1024 * 1024

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...options, maxmem: MAX_MEMORY }, (error, key) =>
			error ? reject(error) : resolve(key),
		)
	})
}

export async function hashPassword(password: string): Promise<string> {
	const salt = randomBytes(16)
	const key = await derive(password, salt, COST)
	return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$')
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
	const [scheme, n, r, p, salt, hash] = stored.split('$')
	if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false
	const expected = Buffer.from(hash, 'base64url')
	const actual = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) })
	return actual.length === expected.length && timingSafeEqual(actual, expected)
}
