import { supportedLanguages, type Language } from '~/i18n/config'
import { getEnv } from './env.server'
import { type Crumb } from './json-ld'
import { type PageMeta } from './meta'

/** The portal's public origin (APP_URL), without a trailing slash: for absolute links in meta tags, the sitemap and the API. */
export function publicOrigin(): string {
	return getEnv().APP_URL.replace(/\/+$/, '')
}

const ogLocales: Record<Language, string> = { et: 'et_EE', en: 'en_GB', ru: 'ru_RU' }

/** Query parameters that never make a page different (language, the framework's own). */
const IGNORED_PARAMS = new Set(['lng', '_routes', '_data', 'index'])

/** A path of the portal as an absolute address (meta tags, search data, the JSON API); other addresses as they are. */
export function absoluteUrl(path: string | null): string | null {
	if (!path) return null
	return path.startsWith('/') ? `${publicOrigin()}${path}` : path
}

/**
 * A page's path in `language` (or with no language): the path and the query that matter,
 * `?lng=` last. Empty parameters and the framework's own are dropped.
 */
export function pagePath(pathname: string, search: URLSearchParams | string, language: Language | null = null): string {
	const params = new URLSearchParams()
	for (const [key, value] of new URLSearchParams(search)) {
		if (!IGNORED_PARAMS.has(key) && value !== '') params.append(key, value)
	}
	if (language) params.set('lng', language)
	const query = params.toString()
	return `${pathname}${query ? `?${query}` : ''}`
}

/** A page's absolute address in `language`, or with no language for `x-default`. */
export function pageUrl(pathname: string, search: URLSearchParams | string, language: Language | null): string {
	return `${publicOrigin()}${pagePath(pathname, search, language)}`
}

/**
 * The meta of a page in the reader's language: translated title and description, the
 * canonical address, and `hreflang` alternates for every language and `x-default` (the address
 * without ?lng=, which shows Estonian to a new visitor). A language version (?lng=) is its own
 * canonical; so is the address without it, the `x-default` (pointing it at ?lng=et would make the
 * canonical another of the page's own alternates, which search engines read as a contradiction).
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
		canonical: pageUrl(url.pathname, url.search, canonicalLanguage(request, language)),
		alternates: [
			...supportedLanguages.map((lng) => ({ hrefLang: lng, href: pageUrl(url.pathname, url.search, lng) })),
			{ hrefLang: 'x-default', href: pageUrl(url.pathname, url.search, null) },
		],
		noindex: options.noindex,
		locale: ogLocales[language],
	}
}

/** The language of a page's canonical address: the one asked for by ?lng=, else none (the x-default). */
function canonicalLanguage(request: Request, language: Language): Language | null {
	return new URL(request.url).searchParams.has('lng') ? language : null
}

/**
 * A page's breadcrumb trail (home first, the page itself last), each step with its address in the
 * canonical address's language, so the trail names canonical pages.
 */
export function breadcrumbTrail(request: Request, language: Language, steps: Array<{ name: string; path: string }>): Crumb[] {
	const crumbLanguage = canonicalLanguage(request, language)
	return steps.map(({ name, path }) => {
		const url = new URL(path, 'http://portal')
		return { name, path, url: pageUrl(url.pathname, url.search, crumbLanguage) }
	})
}
