import { sql } from 'drizzle-orm'
import { type Language } from '~/i18n/config'
import { db, queryRows } from '~/utils/db.server'

/**
 * The reference lists as form choices ({ value: id, label }) in the reader's language: services,
 * car brands, spare parts, payment methods and cities. Kept a minute in memory;
 * `forgetReferenceLists()` (workshops.server.ts) clears it after an administrator's edit.
 */
export type { Choice } from './reference'
import { type Choice } from './reference'
export type ReferenceListName = 'services' | 'carBrands' | 'spareParts' | 'paymentMethods' | 'cities'
type Row = { id: string; name_et: string; name_en: string; name_ru: string }

const tables: Record<ReferenceListName, string> = {
	services: 'services',
	carBrands: 'car_brands',
	spareParts: 'spare_parts',
	paymentMethods: 'payment_methods',
	cities: 'cities',
}
// Services keep their curated order; other lists read best alphabetically.
const curated: ReferenceListName[] = ['services', 'spareParts', 'paymentMethods']

const TTL_MS = 60_000
let cache: { rows: Record<ReferenceListName, Row[]>; until: number } | undefined

async function load() {
	if (cache && cache.until > Date.now()) return cache.rows
	const entries = await Promise.all(
		(Object.keys(tables) as ReferenceListName[]).map(async (name) => {
			const rows = await queryRows<Row>(
				db,
				sql`select id, name_et, name_en, name_ru from ${sql.identifier(tables[name])} where active order by sort_order, code`,
			)
			return [name, rows] as const
		}),
	)
	const rows = Object.fromEntries(entries) as Record<ReferenceListName, Row[]>
	cache = { rows, until: Date.now() + TTL_MS }
	return rows
}

export async function getChoices<Names extends ReferenceListName>(
	language: Language,
	names: readonly Names[],
): Promise<Record<Names, Choice[]>> {
	const rows = await load()
	return Object.fromEntries(
		names.map((name) => {
			const choices = rows[name].map((row) => ({ value: row.id, label: row[`name_${language}`] }))
			if (!curated.includes(name)) choices.sort((a, b) => a.label.localeCompare(b.label, language))
			return [name, choices]
		}),
	) as Record<Names, Choice[]>
}

export function forgetReferenceChoices() {
	cache = undefined
}
