import { createContext, Fragment, type ReactElement, type ReactNode, cloneElement, useCallback, useContext, useEffect, useMemo, useState } from 'react'
import { fallbackLanguage, type Language, type Namespace } from './config'
import { createTranslator, type Dictionaries, type TFunction } from './translator'

/**
 * The page's language and its dictionaries, for every component (docs/decisions/0108). The server
 * gives them from locales/ (entry.server); the browser fetches the language's bundle before it
 * hydrates (entry.client), and another bundle when the page's language changes.
 */
type Translations = {
	language: Language
	dictionaries: Dictionaries
	/** Makes this the language of the page's texts, once its dictionaries are there. */
	changeLanguage: (language: Language) => void
}

const TranslationContext = createContext<Translations>({ language: fallbackLanguage, dictionaries: {}, changeLanguage: () => {} })

export function TranslationProvider({
	language,
	dictionaries,
	load,
	children,
}: {
	language: Language
	dictionaries: Dictionaries
	/** The browser's: fetches another language's dictionaries. */
	load?: (language: Language) => Promise<Dictionaries>
	children: ReactNode
}) {
	const [current, setCurrent] = useState({ language, dictionaries })
	const changeLanguage = useCallback(
		(next: Language) => {
			if (!load) return
			load(next).then(
				(loaded) => setCurrent((shown) => (shown.language === next ? shown : { language: next, dictionaries: loaded })),
				// The texts stay in the language they are in; the next change tries again.
				() => {},
			)
		},
		[load],
	)
	const value = useMemo(() => ({ ...current, changeLanguage }), [current, changeLanguage])
	return <TranslationContext.Provider value={value}>{children}</TranslationContext.Provider>
}

/** Keeps the texts in the page's language (the root calls it with the language its loader chose). */
export function useChangeLanguage(language: Language) {
	const { language: shown, changeLanguage } = useContext(TranslationContext)
	useEffect(() => {
		if (language !== shown) changeLanguage(language)
	}, [language, shown, changeLanguage])
}

const translators = new WeakMap<Dictionaries, Map<string, TFunction>>()

/** `t` for these namespaces (then `common`) in the page's language; `language` is the one its texts are in. */
export function useTranslation(namespaces: Namespace | readonly Namespace[] = 'common') {
	const { language, dictionaries } = useContext(TranslationContext)
	const name = typeof namespaces === 'string' ? namespaces : namespaces.join()
	let byName = translators.get(dictionaries)
	if (!byName) translators.set(dictionaries, (byName = new Map()))
	let t = byName.get(name)
	if (!t) byName.set(name, (t = createTranslator(language, dictionaries, namespaces)))
	return { t, language }
}

const TAG = /<(\w+)>(.*?)<\/\1>/g

/**
 * A text with marked parts, each rendered by the element of its tag's name with the part as its
 * children: `'Accept the <terms>terms</terms>'` with `{ terms: <Link to="/terms" /> }`.
 */
export function RichText({ text, elements }: { text: string; elements: Record<string, ReactElement> }) {
	const parts: ReactNode[] = []
	let last = 0
	for (const match of text.matchAll(TAG)) {
		const [whole, tag, inner] = match as unknown as [string, string, string]
		parts.push(text.slice(last, match.index))
		const element = elements[tag]
		parts.push(element ? cloneElement(element, { key: parts.length }, inner) : inner)
		last = match.index! + whole.length
	}
	parts.push(text.slice(last))
	return <Fragment>{parts}</Fragment>
}
