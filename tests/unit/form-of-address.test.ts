import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { namespaces } from '~/i18n/config'

/**
 * One form of address per language (docs/decisions/0131): Estonian says "sina" (Sisesta, sinu,
 * oled), Russian "вы" (Введите, ваш). A text in the other form, or an Estonian date placed where
 * the sentence wants a case the formatted date cannot carry ("kuni 1. oktoober"), fails here.
 */
const root = path.resolve(__dirname, '../..')
type Dictionary = { [key: string]: string | Dictionary }

function flatten(dictionary: Dictionary, prefix = ''): Array<[string, string]> {
	return Object.entries(dictionary).flatMap(([key, value]): Array<[string, string]> =>
		typeof value === 'string' ? [[prefix + key, value]] : flatten(value, `${prefix}${key}.`),
	)
}

const texts = (language: string) =>
	namespaces.flatMap((namespace) =>
		flatten(JSON.parse(fs.readFileSync(path.join(root, 'locales', language, `${namespace}.json`), 'utf8'))).map(
			([key, text]) => [`${namespace}:${key}`, text] as const,
		),
	)

/** The words as whole words (letters of any alphabet around them end a match, case ignored). */
const wordsPattern = (words: string[]) => new RegExp(`(?<![\\p{L}\\p{N}])(${words.join('|')})(?![\\p{L}\\p{N}])`, 'iu')

/** Estonian "teie" forms: the pronoun, the verbs' plural second person, the plural imperatives. */
const estonianTeie = [
	// the pronoun in its cases
	'teie',
	'teid',
	'teile',
	'teil',
	'teilt',
	'teiega',
	'teieni',
	'teiesse',
	// verbs, "you (plural/formal) are, can, want…"
	'olete',
	'soovite',
	'peate',
	'näete',
	'leiate',
	'kasutate',
	'vaidlustate',
	'tasute',
	'lisate',
	'valite',
	'saaksite',
	'võiksite',
	'peaksite',
	'olite',
	'leppisite',
	// imperatives
	'sisestage',
	'valige',
	'proovige',
	'laadige',
	'kinnitage',
	'vaidlustage',
	'põhjendage',
	'lugege',
	'lahendage',
	'vajutage',
	'klõpsake',
	'kirjutage',
	'lisage',
	'kontrollige',
	'looge',
	'logige',
	'minge',
	'vaadake',
	'tehke',
	'andke',
	'saatke',
	'kasutage',
	'märkige',
	'täitke',
	'oodake',
	'võtke',
	'registreeruge',
	'muutke',
	'kustutage',
	'salvestage',
	'avage',
	'sulgege',
	'jätkake',
	'tühistage',
	'uuendage',
	'eemaldage',
	'küsige',
	'vastake',
	'hinnake',
	'tellige',
	'makske',
	'sisenege',
	'unustage',
]

/** Russian "ты" forms: the pronoun, "твой", the verbs' singular second person, singular imperatives. */
const russianTy = [
	'ты',
	'тебя',
	'тебе',
	'тобой',
	'твой',
	'твоя',
	'твоё',
	'твое',
	'твои',
	'твоего',
	'твоей',
	'твоих',
	'твоим',
	'твоими',
	'твою',
	'твоему',
	'можешь',
	'хочешь',
	'сможешь',
	'получишь',
	'найдёшь',
	'найдешь',
	'видишь',
	'знаешь',
	'введи',
	'выбери',
	'нажми',
	'попробуй',
	'проверь',
	'добавь',
	'укажи',
	'загрузи',
	'подожди',
	'войди',
	'открой',
	'оставь',
	'сохрани',
	'отправь',
	'посмотри',
	'напиши',
	'свяжись',
	'сделай',
	'подтверди',
	'оспорь',
]

function offending(language: string, words: string[]) {
	const pattern = wordsPattern(words)
	return texts(language)
		.filter(([, text]) => pattern.test(text))
		.map(([key, text]) => `${key}: ${text.match(pattern)![0]} — ${text}`)
}

describe('one form of address per language', () => {
	test('Estonian speaks to the reader as "sina", never "teie"', () => {
		expect(offending('et', estonianTeie)).toEqual([])
	})

	test('Russian speaks to the reader as "вы", never "ты"', () => {
		expect(offending('ru', russianTy)).toEqual([])
	})

	test('the word lists find what they are for, as whole words only', () => {
		expect(wordsPattern(estonianTeie).test('Palun proovige uuesti.')).toBe(true)
		expect(wordsPattern(estonianTeie).test('Teie põhjendus')).toBe(true)
		expect(wordsPattern(estonianTeie).test('Palun proovi uuesti.')).toBe(false)
		// Inside another word it is not the pronoun.
		expect(wordsPattern(estonianTeie).test('kuulutteie')).toBe(false)
		expect(wordsPattern(russianTy).test('Попробуй ещё раз')).toBe(true)
		expect(wordsPattern(russianTy).test('Попробуйте ещё раз')).toBe(false)
		expect(wordsPattern(russianTy).test('Ваш автомобиль')).toBe(false)
	})
})

/**
 * A date formatted by Intl in Estonian is a nominative ("1. oktoober 2026"): it may stand only
 * where the nominative is right, after a colon, in brackets, after a comma, or as the whole text.
 * "kuni {{date}}", "lõpeb {{until}}", "alates {{date}}" would need "1. oktoobrini", "1. oktoobril",
 * "1. oktoobrist", which no formatter writes.
 */
const DATE_PLACEHOLDERS = ['date', 'until', 'due', 'autumn', 'spring', 'start', 'end']
const DATE_PLACE = new RegExp(`{{\\s*(${DATE_PLACEHOLDERS.join('|')})\\s*}}`, 'g')
/** What may stand before a date in Estonian: nothing, a colon, a bracket, a comma or a dash, or "tähtaeg oli". */
const NOMINATIVE_BEFORE = /(^|[:(,–—]\s*|\n|tähtaeg oli\s)$/i

describe('dates in Estonian sentences', () => {
	test('every date stands where the nominative is grammatical', () => {
		const wrong = texts('et').flatMap(([key, text]) =>
			[...text.matchAll(DATE_PLACE)].filter((match) => !NOMINATIVE_BEFORE.test(text.slice(0, match.index))).map(() => `${key}: ${text}`),
		)
		expect(wrong).toEqual([])
	})

	test('the check refuses a date after a word that wants a case', () => {
		for (const text of ['Kehtib kuni {{date}}.', 'Garantii lõpeb {{until}}', 'Alates {{date}}']) {
			const match = [...text.matchAll(DATE_PLACE)][0]!
			expect(NOMINATIVE_BEFORE.test(text.slice(0, match.index))).toBe(false)
		}
		expect(NOMINATIVE_BEFORE.test('Tähtaeg: ')).toBe(true)
	})
})
