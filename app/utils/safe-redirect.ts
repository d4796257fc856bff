import { safeRedirect as libraryCheck } from 'remix-utils/safe-redirect'

const ORIGIN = 'http://portal.invalid'

/**
 * The one way a path from the visitor (`returnTo`, `redirectTo`) becomes a redirect: a path on
 * this site, or `fallback`. On top of remix-utils' check (a leading slash, not `//`, `/\`, `..`),
 * anything with a control character or a backslash is refused, raw or percent-encoded (browsers
 * drop tabs and newlines from URLs, so `/\t/evil.example` would lead to another site, and a
 * CR/LF cannot be put into a header at all), and the URL a browser would build must stay here.
 */
export function safeRedirect(to: unknown, fallback = '/'): string {
	if (typeof to !== 'string' || to.length > 2000) return fallback
	// eslint-disable-next-line no-control-regex -- control characters are what this refuses
	if (/[\u0000-\u001f\u007f\\]/.test(to) || /%(?:[01][0-9a-f]|7f|5c)/i.test(to)) return fallback
	const path = libraryCheck(to, fallback)
	if (path === fallback) return fallback
	let url: URL
	try {
		url = new URL(path, ORIGIN)
	} catch {
		return fallback
	}
	if (url.origin !== ORIGIN) return fallback
	// Normalising can make a path protocol-relative (`/.//evil.example` is `//evil.example`): check again.
	const normalised = `${url.pathname}${url.search}${url.hash}`
	return libraryCheck(normalised, fallback) === normalised ? normalised : fallback
}

/**
 * Where a visitor goes back to after logging in: `?redirectTo=` on the home page (where the route
 * guard sends them), the login and the registration pages, carried along by their links and forms.
 */
export const REDIRECT_TO = 'redirectTo'

/** The visitor's way back from a form field or a query parameter: a safe path, or null. */
export function wayBack(to: unknown): string | null {
	const path = safeRedirect(to, '')
	return path === '' ? null : path
}

/** `path` with the visitor's way back attached, when there is one. */
export function withRedirectTo(path: string, redirectTo: string | null | undefined) {
	if (!redirectTo) return path
	const [pathname, search = ''] = path.split('?')
	const params = new URLSearchParams(search)
	params.set(REDIRECT_TO, redirectTo)
	return `${pathname}?${params}`
}
