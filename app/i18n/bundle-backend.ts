import { type BackendModule, type ReadCallback } from 'i18next'

/**
 * The browser's dictionaries: every namespace of a language in one request
 * (/resources/locales/{lng}), fetched once and shared by all namespaces. Loading them all keeps the
 * first render in the browser identical to the server's, whichever components a page uses.
 */
const bundles = new Map<string, Promise<Record<string, Record<string, unknown>>>>()

function bundleFor(language: string) {
	let bundle = bundles.get(language)
	if (!bundle) {
		bundle = fetch(`/resources/locales/${encodeURIComponent(language)}`, { credentials: 'same-origin' }).then((response) => {
			if (!response.ok) throw new Error(`dictionaries for ${language}: HTTP ${response.status}`)
			return response.json() as Promise<Record<string, Record<string, unknown>>>
		})
		bundles.set(language, bundle)
		// A failed request may be retried later.
		bundle.catch(() => bundles.delete(language))
	}
	return bundle
}

export const bundleBackend: BackendModule = {
	type: 'backend',
	init() {},
	read(language: string, namespace: string, callback: ReadCallback) {
		bundleFor(language).then(
			(bundle) => callback(null, bundle[namespace] ?? {}),
			(error: Error) => callback(error, false),
		)
	},
}
