/** i18next settings shared by the server, the browser and (later) the widgets. */
export const supportedLanguages = ['et', 'en', 'ru'] as const
export type Language = (typeof supportedLanguages)[number]
export const fallbackLanguage: Language = 'et'
export const defaultNamespace = 'common'
/** Every namespace, one JSON file each under locales/{lng}/. */
export const namespaces = ['common', 'auth', 'account', 'public', 'customer', 'workshop', 'admin', 'widgets', 'billing'] as const

/** How the selector labels each language (spec §1: EE, EN, RU). */
export const languageCodes: Record<Language, string> = { et: 'EE', en: 'EN', ru: 'RU' }

/** The locale each language formats dates, numbers and money with (app/utils/format.ts, money.ts). */
export const intlLocales: Record<Language, string> = { et: 'et-EE', en: 'en-GB', ru: 'ru-RU' }

export function isLanguage(value: unknown): value is Language {
	return typeof value === 'string' && (supportedLanguages as readonly string[]).includes(value)
}

export const i18nConfig = {
	supportedLngs: [...supportedLanguages],
	fallbackLng: fallbackLanguage,
	defaultNS: defaultNamespace,
	// A key not found in a feature's namespace is looked up in the shared one (validation, status labels).
	fallbackNS: defaultNamespace,
	ns: [...namespaces],
	interpolation: { escapeValue: false },
	react: { useSuspense: false },
	returnNull: false,
} as const
