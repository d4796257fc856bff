import { boot, loadDictionary } from 'virtual:dictionaries'
import { fallbackLanguage, isLanguage, type Language } from '~/i18n/config'

/**
 * The widgets' texts come from the portal's dictionaries (see widgets/rollup.config.mjs): keys are
 * written `'namespace:key'`, interpolation is i18next's `{{name}}`, plurals its `key_one`, `key_few`…
 * A few hundred bytes instead of i18next itself, which would not fit the size budget.
 */
export type Translate = (key: string, params?: Record<string, string | number>) => string

export function makeTranslate(language: Language, dictionary: Record<string, string> = boot[language]): Translate {
	const plurals = new Intl.PluralRules(language)
	return (key, params = {}) => {
		const plural = typeof params.count === 'number' ? dictionary[`${key}_${plurals.select(params.count)}`] : undefined
		const text = plural ?? dictionary[key] ?? key
		return text.replace(/{{\s*(\w+)\s*}}/g, (_, name: string) => String(params[name] ?? ''))
	}
}

const loading = new Map<string, Promise<Record<string, string>>>()

/** One language's texts, fetched once per page; a failed fetch may be tried again. */
export function dictionaryFor(language: Language, base: string): Promise<Record<string, string>> {
	const key = `${base} ${language}`
	let promise = loading.get(key)
	if (!promise) {
		promise = loadDictionary(language, base).catch((error: unknown) => {
			loading.delete(key)
			throw error
		})
		loading.set(key, promise)
	}
	return promise
}

/** data-lang, else the page's own language, else Estonian. */
export function pickLanguage(requested?: string | null): Language {
	for (const candidate of [requested, document.documentElement.lang]) {
		const code = candidate?.trim().slice(0, 2).toLowerCase()
		if (isLanguage(code)) return code
	}
	return fallbackLanguage
}
