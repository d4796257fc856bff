import { expect } from 'vitest'
import { DomainError } from '~/utils/errors'

/** What a promise was rejected with, or null when it was fulfilled. */
export async function rejection(promise: Promise<unknown>) {
	return promise.then(
		() => null,
		(error: unknown) => error,
	)
}

/** The domain refused the move with the translated message `key`. */
export async function refused(promise: Promise<unknown>, key: string) {
	const error = await rejection(promise)
	expect(error, `expected ${key}`).toBeInstanceOf(DomainError)
	expect((error as DomainError).key).toBe(key)
}
