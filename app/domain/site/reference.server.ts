import { sql } from 'drizzle-orm'
import { supportedLanguages, type Language } from '~/i18n/config'
import { forgetCaches } from '~/caching/cache-bus.server'
import { valueCache } from '~/caching/value-cache.server'
import { db, queryRows, type DbOrTx } from '~/db/db.server'

/**
 * The reference lists (services, car brands, spare parts, payment methods, cities), one copy in
 * memory for the forms' choices and the directory's filters: each list's active items, found by
 * code, and named in every language in the order they are shown. Kept a minute;
 * `forgetReferenceLists()` clears it in every process after an administrator's edit.
 */
export type { Choice } from './reference'
import { type Choice } from './reference'
export type ReferenceListName = 'services' | 'carBrands' | 'spareParts' | 'paymentMethods' | 'cities'
export type ReferenceItem = { id: string; code: string; name: string }
export type ReferenceList = { idByCode: Map<string, string>; items: Record<Language, ReferenceItem[]> }
type Row = { id: string; code: string; name_et: string; name_en: string; name_ru: string }

const tables: Record<ReferenceListName, string> = {
	services: 'services',
	carBrands: 'car_brands',
	spareParts: 'spare_parts',
	paymentMethods: 'payment_methods',
	cities: 'cities',
}
// Services keep their curated order; other lists read best alphabetically.
const curated: ReferenceListName[] = ['services', 'spareParts', 'paymentMethods']

const kept = valueCache<Record<ReferenceListName, ReferenceList>>('reference-lists', { ttlMs: 60_000 })

async function loadList(name: ReferenceListName): Promise<ReferenceList> {
	const rows = await queryRows<Row>(
		db,
		sql`select id, code, name_et, name_en, name_ru from ${sql.identifier(tables[name])} where active order by sort_order, code`,
	)
	const inLanguage = (language: Language) => {
		const items = rows.map((row) => ({ id: row.id, code: row.code, name: row[`name_${language}`] }))
		return curated.includes(name) ? items : items.sort((a, b) => a.name.localeCompare(b.name, language))
	}
	return {
		idByCode: new Map(rows.map((row) => [row.code, row.id])),
		items: Object.fromEntries(supportedLanguages.map((language) => [language, inLanguage(language)])) as ReferenceList['items'],
	}
}

/** Every reference list, from memory while it is fresh. */
export function referenceLists(): Promise<Record<ReferenceListName, ReferenceList>> {
	return kept.get('lists', loadLists)
}

async function loadLists(): Promise<Record<ReferenceListName, ReferenceList>> {
	const names = Object.keys(tables) as ReferenceListName[]
	const loaded = await Promise.all(names.map(loadList))
	return Object.fromEntries(names.map((name, index) => [name, loaded[index]!])) as Record<ReferenceListName, ReferenceList>
}

/** The lists as form choices ({ value: id, label }) in the reader's language. */
export async function getChoices<Names extends ReferenceListName>(
	language: Language,
	names: readonly Names[],
): Promise<Record<Names, Choice[]>> {
	const lists = await referenceLists()
	return Object.fromEntries(
		names.map((name) => [name, lists[name].items[language].map((item) => ({ value: item.id, label: item.name }))]),
	) as Record<Names, Choice[]>
}

/** Drops the cached lists in every process (after an administrator edits them, inside that transaction; tests). */
export function forgetReferenceLists(tx?: DbOrTx) {
	return forgetCaches(tx, 'reference-lists')
}
