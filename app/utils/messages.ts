import { type TFunction } from '~/i18n/translator'

/**
 * A message that travels between server and browser (form errors, API texts): a translation key,
 * optionally with parameters as `key|{"minutes":15}`. Made by `message()`, shown by `translateMessage()`.
 */
export function message(key: string, params?: Record<string, string | number>) {
	return params ? `${key}|${JSON.stringify(params)}` : key
}

export function translateMessage(t: TFunction, entry: string): string {
	const bar = entry.indexOf('|')
	if (bar < 0) return t(entry)
	let params: Record<string, unknown> = {}
	try {
		params = JSON.parse(entry.slice(bar + 1)) as Record<string, unknown>
	} catch {
		// A malformed entry shows its key's text without parameters.
	}
	return t(entry.slice(0, bar), params)
}
