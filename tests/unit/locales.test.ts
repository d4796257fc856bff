import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { namespaces, supportedLanguages } from '~/i18n/config'

/**
 * Every text in three languages: each dictionary has the same keys, no empty texts,
 * the same {{placeholders}}, and every key the code asks for exists.
 */
const root = path.resolve(__dirname, '../..')
type Dictionary = { [key: string]: string | Dictionary }

function flatten(dictionary: Dictionary, prefix = ''): Record<string, string> {
	return Object.fromEntries(
		Object.entries(dictionary).flatMap(([key, value]) =>
			typeof value === 'string' ? [[prefix + key, value]] : Object.entries(flatten(value, `${prefix}${key}.`)),
		),
	)
}

const dictionaries = Object.fromEntries(
	supportedLanguages.map((language) => [
		language,
		Object.fromEntries(
			namespaces.map((namespace) => [
				namespace,
				flatten(JSON.parse(fs.readFileSync(path.join(root, 'locales', language, `${namespace}.json`), 'utf8'))),
			]),
		),
	]),
) as Record<string, Record<string, Record<string, string>>>

const placeholders = (text: string) => [...text.matchAll(/{{\s*(\w+)/g)].map((m) => m[1]).sort()

// Plural forms (i18next: key_one, key_few, …) differ by language: compare keys without them.
const PLURAL = /_(zero|one|two|few|many|other)$/
const baseKey = (key: string) => key.replace(PLURAL, '')
const hasKey = (dictionary: Record<string, string>, key: string) =>
	key in dictionary || ['zero', 'one', 'two', 'few', 'many', 'other'].some((form) => `${key}_${form}` in dictionary)

describe('the dictionaries', () => {
	test('exist for every language and namespace, and no other files are forgotten', () => {
		for (const language of supportedLanguages) {
			const files = fs.readdirSync(path.join(root, 'locales', language)).filter((f) => f.endsWith('.json'))
			expect(files.sort()).toEqual(namespaces.map((n) => `${n}.json`).sort())
		}
	})

	for (const namespace of namespaces) {
		// Exactly the same keys, plural forms included: a language that has no "few" or "many" form
		// carries them with its "other" text, so the dictionaries stay in step key for key.
		test(`"${namespace}" has the same keys in ${supportedLanguages.join(', ')}`, () => {
			const all = new Set(supportedLanguages.flatMap((l) => Object.keys(dictionaries[l]![namespace]!)))
			for (const language of supportedLanguages) {
				const missing = [...all].filter((key) => !(key in dictionaries[language]![namespace]!))
				expect(missing, `${language}/${namespace}.json lacks`).toEqual([])
			}
		})

		test(`"${namespace}" has every plural form each language needs`, () => {
			for (const language of supportedLanguages) {
				const dictionary = dictionaries[language]![namespace]!
				const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories
				const plurals = new Set(Object.keys(dictionary).filter((key) => PLURAL.test(key)).map(baseKey))
				for (const key of plurals) {
					const missing = categories.filter((form) => !(`${key}_${form}` in dictionary))
					expect(missing, `${language}/${namespace}.json ${key}`).toEqual([])
				}
			}
		})

		test(`"${namespace}" has no empty texts and the same placeholders in every language`, () => {
			const reference = dictionaries.en![namespace]!
			for (const language of supportedLanguages) {
				for (const [key, text] of Object.entries(dictionaries[language]![namespace]!)) {
					expect(text.trim(), `${language}:${key}`).not.toBe('')
					const counterpart = reference[key] ?? reference[`${baseKey(key)}_other`]
					if (counterpart !== undefined) {
						expect(placeholders(text), `${language}:${key}`).toEqual(placeholders(counterpart))
					}
				}
			}
		})
	}

	test('hold every key the code asks for', () => {
		// The widgets (widgets/src) name their keys `namespace:key` and use the same dictionaries.
		const files = [...walk(path.join(root, 'app')), ...walk(path.join(root, 'widgets/src'))].filter((f) => /\.(ts|tsx)$/.test(f))
		// A key is looked up in the namespaces its file uses: common, plus useTranslation('ns'),
		// getFixedT(language, 'ns') and `ns:key` prefixes.
		const used = new Map<string, Set<string>>()
		for (const file of files) {
			const source = fs.readFileSync(file, 'utf8')
			const fileNamespaces = new Set(['common'])
			for (const match of source.matchAll(/useTranslation\(\s*\[?\s*'(\w+)'/g)) fileNamespaces.add(match[1]!)
			for (const match of source.matchAll(/getFixedT\((?:[^;]*?),\s*'(\w+)'\s*\)/g)) fileNamespaces.add(match[1]!)
			const keys = [
				// t('key'), t("key"), t(`key`) without interpolation, <Trans i18nKey="key">
				...[...source.matchAll(/\bt\(\s*(['"`])([\w.:-]+)\1/g)].map((m) => m[2]!),
				...[...source.matchAll(/i18nKey="([\w.:-]+)"/g)].map((m) => m[1]!),
				// flashed toasts and notification messages
				...[...source.matchAll(/\b(?:messageKey|key):\s*'([\w-]+(?::[\w-]+)?(?:\.[\w-]+)+)'/g)].map((m) => m[1]!),
			]
			for (const key of keys) {
				const [explicit, name] = key.includes(':') ? key.split(':') : [null, key]
				const candidates = explicit ? [explicit] : [...fileNamespaces]
				used.set(`${path.relative(root, file)} ${key}`, new Set(candidates.map((ns) => `${ns}:${name}`)))
			}
		}
		expect(used.size).toBeGreaterThan(10)
		const missing = [...used].filter(([, candidates]) =>
			supportedLanguages.some((language) =>
				[...candidates].every((candidate) => {
					const [namespace, name] = candidate.split(':')
					return !hasKey(dictionaries[language]![namespace!] ?? {}, name!)
				}),
			),
		)
		expect(missing.map(([where]) => where)).toEqual([])
	})
})

function walk(directory: string): string[] {
	return fs.readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(directory, entry.name)
		return entry.isDirectory() ? walk(full) : [full]
	})
}
