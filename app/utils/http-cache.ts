/**
 * Which pages a shared cache (a CDN, a proxy) may keep, and for how long (issue 17, part 5;
 * docs/decisions/0085). Browser-safe: the root route asks it too. server/http-cache.ts applies it.
 *
 * A shared page is the same for every anonymous reader of the address in the same language: the
 * directory and the content pages. Such a page carries no CSRF token or honeypot (it has no form
 * that posts), so nothing in it belongs to one visitor. Everything else (forms, the signed-in
 * area, a request with a session) is `private, no-store`.
 */

const SHARED_PAGES = [/^\/$/, /^\/workshop-list$/, /^\/cities$/, /^\/workshop-details\/[^/]+$/, /^\/about$/, /^\/terms-conditions$/, /^\/privacy-poicy$/, /^\/prices\/[^/]+(\/[^/]+)?$/]

/** The session cookie (app/utils/session.server.ts): signed in, or a message waiting for the next page. */
export const SESSION_COOKIE = '__session'

/**
 * A shared page's answer: every cache revalidates it with its ETag before use (max-age=0), a shared
 * one may keep it a minute and serve it a minute longer while it asks again. The language comes
 * from ?lng= or the `lng` cookie, so the answer varies with the cookie (a CDN may key on `lng`
 * alone, README).
 */
export const SHARED_PAGE_CACHE = 'public, max-age=0, s-maxage=60, stale-while-revalidate=60'
/** Anything personal: neither kept nor reused. */
export const PERSONAL_CACHE = 'private, no-store'

/** The page a path shows: a single-fetch data request (`/workshop-list.data`, `/_root.data`) counts as its page. */
function pagePath(pathname: string) {
	const path = pathname.endsWith('.data') ? pathname.slice(0, -'.data'.length) : pathname
	return path === '/_root' ? '/' : path
}

/** Whether the path is a page every anonymous reader sees the same (in the language asked for). */
export function isSharedPage(pathname: string) {
	const path = pagePath(pathname)
	return SHARED_PAGES.some((pattern) => pattern.test(path))
}

/** Whether the Cookie header carries a session (signed in, or a toast to show). */
function hasSessionCookie(cookieHeader: string | null | undefined) {
	return Boolean(cookieHeader && cookieHeader.split(';').some((part) => part.trim().startsWith(`${SESSION_COOKIE}=`)))
}

/** Whether a request is for a shared page, read the same for every anonymous visitor. */
export function isSharedRead(method: string, pathname: string, cookieHeader: string | null | undefined) {
	return (method === 'GET' || method === 'HEAD') && isSharedPage(pathname) && !hasSessionCookie(cookieHeader)
}

/** `isSharedRead` of a Fetch request (the root loader). */
export function isSharedRequest(request: Request) {
	return isSharedRead(request.method, new URL(request.url).pathname, request.headers.get('Cookie'))
}
