import { defaultNamespace, type Language, type Namespace } from './config'

/**
 * The portal's translate function, on the server and in the browser (docs/decisions/0108). It reads
 * the dictionaries under locales/ as i18next did and gives the same strings for what they use:
 * - a key is a dotted path in a namespace, `'ns:key'` names the namespace; a key not found in the
 *   given namespaces is looked up in the shared one (`common`); a key found nowhere is returned as is;
 * - `{{name}}` takes `options.name`, `{{name, number}}` formats it as a number in the language;
 *   a value not given leaves the placeholder, null is empty; nothing is escaped (React escapes what it renders);
 * - with a numeric `count`, the key's plural form for the language (`key_one`, `key_few`, … by
 *   Intl.PluralRules, `key_zero` for 0 when there is one) comes first, then the key itself.
 * tests/unit/translator.test.ts holds it to i18next's output for every key of every dictionary.
 */
export type Dictionary = { [key: string]: string | Dictionary }
export type Dictionaries = Record<string, Dictionary>
export type TOptions = Record<string, unknown>
export type TFunction = (key: string, options?: TOptions) => string

const NAMESPACE_SEPARATOR = ':'
const PLACEHOLDER = /\{\{\s*([\w.-]+)\s*(?:,\s*([\w]+)\s*)?\}\}/g

const pluralRules = new Map<string, Intl.PluralRules>()
const numberFormats = new Map<string, Intl.NumberFormat>()

function pluralCategory(language: string, count: number) {
	let rules = pluralRules.get(language)
	if (!rules) pluralRules.set(language, (rules = new Intl.PluralRules(language)))
	return rules.select(count)
}

function formatNumber(language: string, value: unknown) {
	let format = numberFormats.get(language)
	if (!format) numberFormats.set(language, (format = new Intl.NumberFormat(language)))
	return format.format(value as number)
}

function lookup(dictionary: Dictionary | undefined, key: string): string | undefined {
	let node: string | Dictionary | undefined = dictionary
	for (const part of key.split('.')) {
		if (node === undefined || typeof node === 'string') return undefined
		node = node[part]
	}
	return typeof node === 'string' ? node : undefined
}

function interpolate(text: string, language: string, options: TOptions | undefined) {
	if (!text.includes('{{')) return text
	return text.replace(PLACEHOLDER, (placeholder, name: string, format: string | undefined) => {
		const value = options?.[name]
		if (value === undefined) return placeholder
		if (value === null) return ''
		return format === 'number' ? formatNumber(language, value) : String(value)
	})
}

/** A translate function for one language, looking in these namespaces first, then in `common`. */
export function createTranslator(language: Language, dictionaries: Dictionaries, namespaces: Namespace | readonly Namespace[] = defaultNamespace): TFunction {
	const own = typeof namespaces === 'string' ? [namespaces] : [...namespaces]
	const searched = own.includes(defaultNamespace) ? own : [...own, defaultNamespace]
	return (fullKey, options) => {
		const separator = fullKey.indexOf(NAMESPACE_SEPARATOR)
		const key = separator > 0 ? fullKey.slice(separator + 1) : fullKey
		const inNamespaces = separator > 0 ? [fullKey.slice(0, separator), defaultNamespace] : searched
		const count = options?.count
		const keys = typeof count === 'number' ? [...(count === 0 ? [`${key}_zero`] : []), `${key}_${pluralCategory(language, count)}`, key] : [key]
		for (const namespace of inNamespaces) {
			for (const candidate of keys) {
				const text = lookup(dictionaries[namespace], candidate)
				if (text !== undefined) return interpolate(text, language, options)
			}
		}
		return key
	}
}
