/** Merges several header sets into one, keeping every Set-Cookie. */
export function combineHeaders(...sets: Array<HeadersInit | null | undefined>): Headers {
	const combined = new Headers()
	for (const set of sets) {
		if (!set) continue
		for (const [key, value] of new Headers(set).entries()) combined.append(key, value)
	}
	return combined
}

/**
 * The most of one body the portal reads at all (docs/decisions/0115): an upload form reads up to
 * this much, dropping what is over its limits, so it can answer with the form and the field's
 * error; after an answer the rest of a body is read and dropped up to this much too. A body
 * declared larger is refused before it is read.
 */
export const MAX_BODY_BYTES = 256 * 1024 * 1024

/** How long the rest of a body is read and dropped after its answer, before the connection is closed. */
export const BODY_LINGER_MS = 30_000

/** How long a client should wait while the database is out of reach (503). */
export const UNAVAILABLE_RETRY_SECONDS = 30

/** How long a client should wait while the portal starts (503), and how often the starting page reloads itself. */
export const STARTING_RETRY_SECONDS = 5

/** When a refused client may try again: whole seconds, at least one. */
export function retryAfterHeader(seconds: number): Record<string, string> {
	return { 'Retry-After': String(Math.max(1, Math.ceil(seconds))) }
}

/**
 * A private download (a PDF, a calendar, an e-invoice, a data export): an attachment with this
 * file name, never kept by a cache or indexed. `size` when it is known (a stored file).
 */
export function privateDownload(body: BodyInit, file: { contentType: string; filename: string; size?: number }): Response {
	const headers: Record<string, string> = {
		'Content-Type': file.contentType,
		'Content-Disposition': `attachment; filename="${file.filename.replace(/[^A-Za-z0-9._-]/g, '')}"`,
		'Cache-Control': 'private, no-store',
		'X-Robots-Tag': 'noindex',
	}
	if (file.size !== undefined) headers['Content-Length'] = String(file.size)
	return new Response(body, { headers })
}
