/** The languages and namespaces of the portal's texts, shared by the server, the browser and the widgets. */
export const supportedLanguages = ['et', 'en', 'ru'] as const
export type Language = (typeof supportedLanguages)[number]
export const fallbackLanguage: Language = 'et'
export const defaultNamespace = 'common'
/** Every namespace, one JSON file each under locales/{lng}/. */
export const namespaces = ['common', 'auth', 'account', 'public', 'customer', 'workshop', 'admin', 'widgets', 'billing', 'booking'] as const
export type Namespace = (typeof namespaces)[number]

/** How the selector labels each language (spec §1: EE, EN, RU). */
export const languageCodes: Record<Language, string> = { et: 'EE', en: 'EN', ru: 'RU' }

/** The locale each language formats dates, numbers and money with (app/utils/format.ts, money.ts). */
export const intlLocales: Record<Language, string> = { et: 'et-EE', en: 'en-GB', ru: 'ru-RU' }

export function isLanguage(value: unknown): value is Language {
	return typeof value === 'string' && (supportedLanguages as readonly string[]).includes(value)
}
