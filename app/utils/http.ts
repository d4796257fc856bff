/** Merges several header sets into one, keeping every Set-Cookie. */
export function combineHeaders(...sets: Array<HeadersInit | null | undefined>): Headers {
	const combined = new Headers()
	for (const set of sets) {
		if (!set) continue
		for (const [key, value] of new Headers(set).entries()) combined.append(key, value)
	}
	return combined
}

/** When a refused client may try again: whole seconds, at least one. */
export function retryAfterHeader(seconds: number): Record<string, string> {
	return { 'Retry-After': String(Math.max(1, Math.ceil(seconds))) }
}
