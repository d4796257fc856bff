import { createCookie } from '@remix-run/node'
import { CSRF, CSRFError } from 'remix-utils/csrf/server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { getSessionSecrets } from './env.server'
import { cookiesAreSecure } from './session.server'

let csrf: CSRF | undefined

function getCsrf() {
	if (csrf) return csrf
	csrf = new CSRF({
		cookie: createCookie('csrf', {
			path: '/',
			httpOnly: true,
			sameSite: 'lax',
			secure: cookiesAreSecure(),
			secrets: getSessionSecrets(),
		}),
		formDataKey: 'csrf',
		secret: getSessionSecrets()[0],
	})
	return csrf
}

/** The token for this visitor's forms, and the cookie to set when it is new. */
export function commitCsrfToken(request: Request) {
	return getCsrf().commitToken(request)
}

/** Throws CSRFError unless the body carries this visitor's token (the JSON calls answer it themselves). */
export async function checkCsrf(request: Request, body: FormData | URLSearchParams) {
	const formData = body instanceof FormData ? body : new FormData()
	if (!(body instanceof FormData)) for (const [key, value] of body) formData.append(key, value)
	await getCsrf().validate(formData, request.headers)
}

/**
 * Every form action calls this first. A missing or wrong token answers 403, in the reader's
 * language, and changes nothing.
 */
export async function validateCsrf(request: Request, formData: FormData) {
	try {
		await getCsrf().validate(formData, request.headers)
	} catch (error) {
		if (error instanceof CSRFError) {
			const t = getFixedT(await getLanguage(request))
			throw new Response(t('errors.formExpired'), { status: 403 })
		}
		throw error
	}
}
