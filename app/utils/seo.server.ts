import { supportedLanguages, type Language } from '~/i18n/config'
import { getEnv } from './env.server'
import { type PageMeta } from './meta'

/** The portal's public origin (APP_URL), without a trailing slash: for absolute links in meta tags, the sitemap and the API. */
export function publicOrigin(): string {
	return getEnv().APP_URL.replace(/\/+$/, '')
}

const ogLocales: Record<Language, string> = { et: 'et_EE', en: 'en_GB', ru: 'ru_RU' }

/** Query parameters that never make a page different (language, Remix's own). */
const IGNORED_PARAMS = new Set(['lng', '_routes', '_data', 'index'])

/**
 * A page's absolute address in `language` (or with no language for `x-default`): the path and
 * the query that matter, `?lng=` last. Empty parameters are dropped.
 */
export function pageUrl(pathname: string, search: URLSearchParams | string, language: Language | null): string {
	const params = new URLSearchParams()
	for (const [key, value] of new URLSearchParams(search)) {
		if (!IGNORED_PARAMS.has(key) && value !== '') params.append(key, value)
	}
	if (language) params.set('lng', language)
	const query = params.toString()
	return `${publicOrigin()}${pathname}${query ? `?${query}` : ''}`
}

/**
 * The meta of a page in the reader's language: translated title and description, the
 * canonical address of this language version, and `hreflang` alternates for every language
 * and `x-default` (the address without ?lng=, which shows Estonian to a new visitor).
 */
export function pageSeo(
	request: Request,
	language: Language,
	page: { title: string; description?: string },
	options: { noindex?: boolean } = {},
): PageMeta {
	const url = new URL(request.url)
	return {
		...page,
		canonical: pageUrl(url.pathname, url.search, language),
		alternates: [
			...supportedLanguages.map((lng) => ({ hrefLang: lng, href: pageUrl(url.pathname, url.search, lng) })),
			{ hrefLang: 'x-default', href: pageUrl(url.pathname, url.search, null) },
		],
		noindex: options.noindex,
		locale: ogLocales[language],
	}
}
