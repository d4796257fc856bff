declare module 'virtual:dictionaries' {
	type Language = 'et' | 'en' | 'ru'
	/** A few texts in every language, for before the dictionary has arrived. */
	export const boot: Record<Language, Record<string, string>>
	/** One language's texts, keyed `namespace:key` (widgets/rollup.config.mjs). */
	export function loadDictionary(language: Language, base: string): Promise<Record<string, string>>
}

declare module '*.css' {
	const css: string
	export default css
}
