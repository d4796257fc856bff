import { createCookie, createCookieSessionStorage } from 'react-router'
import { rememberedCookie } from '~/caching/remembered-cookie.server'
import { getEnv, getSessionSecrets } from './env.server'
import { SESSION_COOKIE } from './http-cache'
import { type Toast } from './toast'

/**
 * The signed cookie session: it carries the sign-in token (backed by a row in `sessions`,
 * so logout and blocking end it at once) and one-time flash messages that survive a redirect.
 */
export type SessionData = { token: string }
export type SessionFlashData = { toast: Toast }

let storage: ReturnType<typeof create> | undefined

function create() {
	return createCookieSessionStorage<SessionData, SessionFlashData>({
		cookie: rememberedCookie(
			createCookie(SESSION_COOKIE, {
				// Its presence alone makes every page personal (app/utils/http-cache.ts).
				path: '/',
				httpOnly: true,
				sameSite: 'lax',
				secure: cookiesAreSecure(),
				secrets: getSessionSecrets(),
				// As long as a sign-in lasts (auth.server.ts); the server-side row decides the rest.
				maxAge: 30 * 24 * 60 * 60,
			}),
		),
	})
}

export function getSessionStorage() {
	return (storage ??= create())
}

/** Secure cookies in production, unless the portal is served over plain http on this machine. */
export function cookiesAreSecure() {
	const env = getEnv()
	if (!env.isProduction) return false
	const url = new URL(env.APP_URL)
	const local = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)
	return url.protocol === 'https:' || !local
}

export async function getSession(request: Request) {
	return getSessionStorage().getSession(request.headers.get('Cookie'))
}
