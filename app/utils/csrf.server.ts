import { createCookie } from '@remix-run/node'
import { CSRF, CSRFError } from 'remix-utils/csrf/server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { getEnv } from './env.server'
import { cookiesAreSecure } from './session.server'

let csrf: CSRF | undefined

function getCsrf() {
	if (csrf) return csrf
	const env = getEnv()
	csrf = new CSRF({
		cookie: createCookie('csrf', {
			path: '/',
			httpOnly: true,
			sameSite: 'lax',
			secure: cookiesAreSecure(),
			secrets: env.sessionSecrets,
		}),
		formDataKey: 'csrf',
		secret: env.sessionSecrets[0],
	})
	return csrf
}

/** The token for this visitor's forms, and the cookie to set when it is new. */
export function commitCsrfToken(request: Request) {
	return getCsrf().commitToken(request)
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
