import { type Language } from './config'
import { type Dictionaries } from './translator'

/**
 * The browser's dictionaries: every namespace of a language in one request
 * (/resources/locales/{lng}), fetched once. Loading them all keeps the first render in the
 * browser identical to the server's, whichever components a page uses.
 */
const bundles = new Map<Language, Promise<Dictionaries>>()

export function loadDictionaries(language: Language): Promise<Dictionaries> {
	let bundle = bundles.get(language)
	if (!bundle) {
		bundle = fetch(`/resources/locales/${encodeURIComponent(language)}`, { credentials: 'same-origin' }).then((response) => {
			if (!response.ok) throw new Error(`dictionaries for ${language}: HTTP ${response.status}`)
			return response.json() as Promise<Dictionaries>
		})
		bundles.set(language, bundle)
		// A failed request may be retried later.
		bundle.catch(() => bundles.delete(language))
	}
	return bundle
}
