import fc from 'fast-check'
import { createInstance, type i18n as I18n } from 'i18next'
import { beforeAll, describe, expect, test } from 'vitest'
import { defaultNamespace, fallbackLanguage, namespaces, supportedLanguages, type Language, type Namespace } from '~/i18n/config'
import { getResources } from '~/i18n/resources.server'
import { createTranslator, type Dictionary } from '~/i18n/translator'

/**
 * The portal's translator replaced i18next (docs/decisions/0108). These tests hold it to what i18next
 * 23, configured as the portal configured it, gives for every text of every dictionary: plain,
 * with each placeholder filled, and each plural family for counts that pick every form.
 */
const resources = getResources()
const reference = new Map<Language, I18n>()

beforeAll(async () => {
	for (const language of supportedLanguages) {
		const instance = createInstance()
		await instance.init({
			lng: language,
			fallbackLng: fallbackLanguage,
			supportedLngs: [...supportedLanguages],
			ns: [...namespaces],
			defaultNS: defaultNamespace,
			fallbackNS: defaultNamespace,
			interpolation: { escapeValue: false },
			returnNull: false,
			resources,
			initImmediate: false,
		})
		reference.set(language, instance)
	}
})

/** Every text's key, with plural families once under their base key. */
function keysOf(dictionary: Dictionary, prefix = ''): Array<{ key: string; text: string; plural: boolean }> {
	return Object.entries(dictionary).flatMap(([name, value]) => {
		const key = `${prefix}${name}`
		if (typeof value !== 'string') return keysOf(value, `${key}.`)
		const plural = /_(zero|one|two|few|many|other)$/.exec(key)
		return [{ key: plural ? key.slice(0, plural.index) : key, text: value, plural: Boolean(plural) }]
	})
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*([\w.-]+)/g)].map((match) => match[1]!)
const COUNTS = [0, 1, 2, 3, 5, 11, 21, 22, 25, 101, 1.5]

describe('the translator gives what i18next gave', () => {
	for (const language of supportedLanguages) {
		test(`every text in ${language}, with its placeholders and plural forms`, () => {
			const i18n = reference.get(language)!
			let compared = 0
			for (const namespace of namespaces) {
				const t = createTranslator(language, resources[language], namespace)
				const theirs = i18n.getFixedT(language, namespace)
				const seen = new Set<string>()
				for (const { key, text, plural } of keysOf(resources[language][namespace]!)) {
					if (seen.has(key)) continue
					seen.add(key)
					const values = Object.fromEntries(placeholders(text).map((name, index) => [name, name === 'count' ? 3 : index % 2 ? 12345.5 : `«${name}»`]))
					if (!placeholders(text).length) expect(t(key), `${namespace}:${key}`).toBe(theirs(key))
					expect(t(key, values), `${namespace}:${key} with values`).toBe(theirs(key, values))
					expect(t(`${namespace}:${key}`, values)).toBe(theirs(`${namespace}:${key}`, values))
					if (plural) for (const count of COUNTS) expect(t(key, { ...values, count }), `${namespace}:${key} count ${count}`).toBe(theirs(key, { ...values, count }))
					compared++
				}
			}
			expect(compared).toBeGreaterThan(1000)
		})
	}

	test('a key not in the namespace is looked up in common; one found nowhere comes back as it was asked', () => {
		for (const language of supportedLanguages) {
			const theirs = reference.get(language)!.getFixedT(language, 'workshop')
			const t = createTranslator(language, resources[language], 'workshop')
			expect(t('actions.cancel')).toBe(theirs('actions.cancel'))
			expect(t('actions.cancel')).not.toBe('actions.cancel')
			expect(t('no.such.key')).toBe(theirs('no.such.key'))
			expect(t('customer:no.such.key')).toBe(theirs('customer:no.such.key'))
		}
	})

	test('several namespaces are looked up in their order', () => {
		const both: Namespace[] = ['workshop', 'common']
		const t = createTranslator('en', resources.en, both)
		const theirs = reference.get('en')!.getFixedT('en', both)
		for (const key of ['actions.cancel', 'offer.title', 'missing.one']) expect(t(key)).toBe(theirs(key))
	})

	test('placeholders: null is empty, any other value as i18next wrote it, numbers formatted in the language', () => {
		fc.assert(
			fc.property(
				fc.constantFrom(...supportedLanguages),
				fc.oneof(fc.integer({ min: -1e9, max: 1e9 }), fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.constant(null), fc.string(), fc.boolean()),
				(language, value) => {
					const dictionaries = { common: { a: 'x {{value}} y', b: '{{value, number}} km', c: '{{ value }}' } }
					const instance = createInstance()
					void instance.init({ lng: language, defaultNS: 'common', resources: { [language]: dictionaries }, interpolation: { escapeValue: false }, initImmediate: false })
					const t = createTranslator(language, dictionaries)
					for (const key of ['a', 'c']) expect(t(key, { value })).toBe(instance.t(key, { value }))
					if (typeof value === 'number') expect(t('b', { value })).toBe(instance.t('b', { value }))
				},
			),
		)
	})

	test('a placeholder without its value stays as it is written, so the mistake shows', () => {
		const t = createTranslator('en', { common: { a: 'x {{value}} y', b: '{{ value, number }} km' } })
		expect(t('a')).toBe('x {{value}} y')
		expect(t('a', { other: 1 })).toBe('x {{value}} y')
		expect(t('b', {})).toBe('{{ value, number }} km')
	})

	test('plural forms for any count, in every language', () => {
		fc.assert(
			fc.property(fc.constantFrom(...supportedLanguages), fc.oneof(fc.nat(10_000), fc.double({ min: 0, max: 1000, noNaN: true })), (language, count) => {
				const dictionaries = { common: { n_zero: 'zero {{count}}', n_one: 'one {{count}}', n_few: 'few {{count}}', n_many: 'many {{count}}', n_other: 'other {{count}}', m: 'plain {{count}}' } }
				const instance = createInstance()
				void instance.init({ lng: language, defaultNS: 'common', resources: { [language]: dictionaries }, interpolation: { escapeValue: false }, initImmediate: false })
				const t = createTranslator(language, dictionaries)
				expect(t('n', { count })).toBe(instance.t('n', { count }))
				expect(t('m', { count })).toBe(instance.t('m', { count }))
			}),
		)
	})
})
