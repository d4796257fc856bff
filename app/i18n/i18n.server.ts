import { createCookie } from 'react-router'
import Negotiator from 'negotiator'
import { defaultNamespace, fallbackLanguage, isLanguage, supportedLanguages, type Language, type Namespace } from './config'
import { getResources } from './resources.server'
import { createTranslator, type TFunction } from './translator'

/** Remembers the chosen language for a year; set whenever ?lng= picks one. */
export const languageCookie = createCookie('lng', {
	path: '/',
	sameSite: 'lax',
	httpOnly: true,
	maxAge: 60 * 60 * 24 * 365,
})

/**
 * The request's language: ?lng= first, then the cookie, then Estonian. The browser's
 * Accept-Language is deliberately ignored on pages: the product's default is Estonian (spec §1).
 * The JSON API serves other programs and partner sites as well: there the caller's
 * Accept-Language comes before the portal's cookie (the portal's own scripts send the page's language).
 */
export async function getLanguage(request: Request): Promise<Language> {
	const requested = getRequestedLanguage(request)
	if (requested) return requested
	if (new URL(request.url).pathname.startsWith('/admin/api/')) {
		const accepted = getAcceptedLanguage(request)
		if (accepted) return accepted
	}
	const remembered: unknown = await languageCookie.parse(request.headers.get('Cookie')).catch(() => null)
	return isLanguage(remembered) ? remembered : fallbackLanguage
}

/** The first of the browser's languages (Accept-Language) the portal speaks, if any. */
export function getAcceptedLanguage(request: Request): Language | null {
	const accepted = request.headers.get('Accept-Language')
	const chosen = accepted ? new Negotiator({ headers: { 'accept-language': accepted } }).language([...supportedLanguages]) : undefined
	return isLanguage(chosen) ? chosen : null
}

/** The language asked for explicitly in the URL (?lng=), if any. */
export function getRequestedLanguage(request: Request): Language | null {
	const value = new URL(request.url).searchParams.get('lng')
	return isLanguage(value) ? value : null
}

/** The dictionaries of a language, for the page's components (entry.server). */
export function getDictionaries(language: Language) {
	return getResources()[language]
}

const fixed = new Map<string, TFunction>()

/** A translate function for server-side texts (toasts, e-mails, API messages), made once per language and namespace. */
export function getFixedT(language: Language, namespace: Namespace = defaultNamespace): TFunction {
	const name = `${language}:${namespace}`
	let t = fixed.get(name)
	if (!t) fixed.set(name, (t = createTranslator(language, getDictionaries(language), namespace)))
	return t
}
