/**
 * A refused move in the domain (a status transition that is not allowed, a limit reached):
 * a translation key and an HTTP status. Routes show it next to the form; the API answers it.
 */
export class DomainError extends Error {
	constructor(
		public readonly key: string,
		public readonly status: 400 | 401 | 403 | 404 | 409 | 422 | 429 | 503 = 409,
		public readonly params?: Record<string, string | number>,
	) {
		super(key)
	}
}

/** Not there, or not yours: the same answer, so another user's ids reveal nothing. */
export const notFound = () => new DomainError('common:errors.notFoundTitle', 404)

/** A limit reached (429): "try again in N minutes", which also sets the answer's Retry-After. */
export const tooManyAttempts = (retryAfterSeconds: number) =>
	new DomainError('common:validation.tooManyAttempts', 429, { minutes: Math.max(1, Math.ceil(retryAfterSeconds / 60)) })

/** A refusal about one field of a form (an unknown choice, a taken value): shown next to that field. */
export class FieldError extends DomainError {
	constructor(
		public readonly field: string,
		key: string,
		status: 409 | 422 = 422,
		params?: Record<string, string | number>,
	) {
		super(key, status, params)
	}
}
