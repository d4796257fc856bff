import { createCookie, createCookieSessionStorage } from 'react-router'
import { CSRF } from 'remix-utils/csrf/server'
import { SESSION_COOKIE } from '../../../app/utils/http-cache'
import { BENCH_SESSION_SECRET, languageCookie } from './server'

/**
 * A returning signed-in browser's cookies, as the portal set them (signed with the secret the
 * bench gives it): the session holding `sessionToken`, a CSRF token (app/utils/csrf.server.ts) and
 * the language. `csrf`: the token its pages' forms carry, for the form posts it sends.
 */
export type SignedInBrowser = { cookie: string; csrf: string }

const secrets = [BENCH_SESSION_SECRET]
const storage = createCookieSessionStorage({ cookie: { name: SESSION_COOKIE, path: '/', httpOnly: true, sameSite: 'lax', secrets } })
const csrfStore = new CSRF({ cookie: createCookie('csrf', { path: '/', httpOnly: true, sameSite: 'lax', secrets }), formDataKey: 'csrf', secret: BENCH_SESSION_SECRET })

export async function signedInBrowser(sessionToken: string, language = 'en'): Promise<SignedInBrowser> {
	const session = await storage.getSession()
	session.set('token', sessionToken)
	const sessionCookie = (await storage.commitSession(session)).split(';')[0]
	const [csrf, csrfCookie] = await csrfStore.commitToken(new Request('http://bench/'))
	return { cookie: `${sessionCookie}; ${csrfCookie!.split(';')[0]}; ${languageCookie(language)}`, csrf }
}
