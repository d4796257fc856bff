import { createCookie } from 'react-router'
import { rememberedCookie } from '~/caching/remembered-cookie.server'
import { CSRF, CSRFError } from 'remix-utils/csrf/server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { getSessionSecrets } from './env.server'
import { cookiesAreSecure } from './session.server'

let csrfs: CSRF[] | undefined

/**
 * One per session secret, the first signing: a token signed before a rotation (SESSION_SECRETS=new,old)
 * is still accepted, as the cookie around it is (decision 0142).
 */
function getCsrfs(): CSRF[] {
	if (csrfs) return csrfs
	const cookie = rememberedCookie(
		createCookie('csrf', {
			path: '/',
			httpOnly: true,
			sameSite: 'lax',
			secure: cookiesAreSecure(),
			secrets: getSessionSecrets(),
		}),
	)
	csrfs = getSessionSecrets().map((secret) => new CSRF({ cookie, formDataKey: 'csrf', secret }))
	return csrfs
}

function getCsrf() {
	return getCsrfs()[0]!
}

/** Valid when one of the secrets signed the token; any other fault is the same whatever the secret. */
async function validateWithAnySecret(formData: FormData, headers: Headers) {
	const all = getCsrfs()
	for (const [index, csrf] of all.entries()) {
		try {
			return await csrf.validate(formData, headers)
		} catch (error) {
			const tampered = error instanceof CSRFError && error.code === 'tampered_token_in_cookie'
			if (!tampered || index === all.length - 1) throw error
		}
	}
}

/** The token for this visitor's forms, and the cookie to set when it is new. */
export function commitCsrfToken(request: Request) {
	return getCsrf().commitToken(request)
}

/** Throws CSRFError unless the body carries this visitor's token (the JSON calls answer it themselves). */
export async function checkCsrf(request: Request, body: FormData | URLSearchParams) {
	const formData = body instanceof FormData ? body : new FormData()
	if (!(body instanceof FormData)) for (const [key, value] of body) formData.append(key, value)
	await validateWithAnySecret(formData, request.headers)
}

/**
 * Every form action calls this first. A missing or wrong token answers 403, in the reader's
 * language, and changes nothing.
 */
export async function validateCsrf(request: Request, formData: FormData) {
	try {
		await validateWithAnySecret(formData, request.headers)
	} catch (error) {
		if (error instanceof CSRFError) {
			const t = getFixedT(await getLanguage(request))
			throw new Response(t('errors.formExpired'), { status: 403 })
		}
		throw error
	}
}
