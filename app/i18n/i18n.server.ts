import { createCookie } from '@remix-run/node'
import { createInstance, type i18n as I18n, type TFunction } from 'i18next'
import { initReactI18next } from 'react-i18next'
import { RemixI18Next } from 'remix-i18next/server'
import { fallbackLanguage, i18nConfig, isLanguage, supportedLanguages, type Language } from './config'
import { getResources } from './resources.server'

/** Remembers the chosen language for a year; set whenever ?lng= picks one. */
export const languageCookie = createCookie('lng', {
	path: '/',
	sameSite: 'lax',
	httpOnly: true,
	maxAge: 60 * 60 * 24 * 365,
})

// Detection only: ?lng= first, then the cookie, then Estonian. The browser's
// Accept-Language is deliberately ignored: the product's default is Estonian (spec §1).
const detector = new RemixI18Next({
	detection: {
		supportedLanguages: [...supportedLanguages],
		fallbackLanguage,
		cookie: languageCookie,
		order: ['searchParams', 'cookie'],
	},
})

// The JSON API serves other programs and partner sites as well: ?lng=, then the caller's
// Accept-Language, then the portal's cookie (the portal's own scripts send the page's language).
const apiDetector = new RemixI18Next({
	detection: {
		supportedLanguages: [...supportedLanguages],
		fallbackLanguage,
		cookie: languageCookie,
		order: ['searchParams', 'header', 'cookie'],
	},
})

export async function getLanguage(request: Request): Promise<Language> {
	const isApi = new URL(request.url).pathname.startsWith('/admin/api/')
	const detected = await (isApi ? apiDetector : detector).getLocale(request).catch(() => fallbackLanguage)
	return isLanguage(detected) ? detected : fallbackLanguage
}

/** The language asked for explicitly in the URL (?lng=), if any. */
export function getRequestedLanguage(request: Request): Language | null {
	const value = new URL(request.url).searchParams.get('lng')
	return isLanguage(value) ? value : null
}

const instances = new Map<Language, I18n>()

/**
 * One initialised i18next per language, shared by every request: creating an instance
 * per request costs about an eighth of a page render (stack notes, pitfall 9).
 * The instances are never mutated after init, so sharing them is safe.
 */
export function getI18nInstance(language: Language): I18n {
	let instance = instances.get(language)
	if (!instance) {
		instance = createInstance()
		void instance.use(initReactI18next).init({
			...i18nConfig,
			lng: language,
			resources: getResources(),
			initImmediate: false,
		})
		instances.set(language, instance)
	}
	return instance
}

/** A translate function for server-side texts (toasts, e-mails, API messages). */
export function getFixedT(language: Language, namespace: string = i18nConfig.defaultNS): TFunction {
	return getI18nInstance(language).getFixedT(language, namespace)
}
