import { redirect } from 'react-router'
import { combineHeaders } from './http'
import { getSession, getSessionStorage } from './session.server'
import { ToastSchema, type Toast, type ToastInput } from './toast'

/** Redirects and shows a toast on the next page, with JavaScript on or off. */
export async function redirectWithToast(url: string, toast: ToastInput, init?: ResponseInit & { request?: Request }) {
	const headers = await flashToastHeaders(toast, init?.request)
	return redirect(url, { ...init, headers: combineHeaders(init?.headers, headers) })
}

export async function flashToastHeaders(toast: ToastInput, request?: Request) {
	const session = request ? await getSession(request) : await getSessionStorage().getSession()
	session.flash('toast', ToastSchema.parse({ id: crypto.randomUUID(), ...toast }))
	return new Headers({ 'Set-Cookie': await getSessionStorage().commitSession(session) })
}

/**
 * Reads (and so consumes) the flashed toast; commit the returned headers. `dropToken` also removes a
 * sign-in token whose session has ended, in the same cookie write.
 */
export async function getToast(
	request: Request,
	options: { dropToken?: boolean } = {},
): Promise<{ toast: Toast | null; headers: Headers | null }> {
	const session = await getSession(request)
	const raw = session.get('toast')
	if (options.dropToken) session.unset('token')
	if (!raw && !options.dropToken) return { toast: null, headers: null }
	const parsed = raw ? ToastSchema.safeParse(raw) : null
	return {
		toast: parsed?.success ? parsed.data : null,
		// Signed out, the shown message was all it held: the cookie goes, so the next pages may be
		// shared ones a cache keeps (app/utils/http-cache.ts treats any session cookie as personal).
		headers: new Headers({
			'Set-Cookie': session.has('token') ? await getSessionStorage().commitSession(session) : await getSessionStorage().destroySession(session),
		}),
	}
}
