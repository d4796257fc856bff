import { sql } from 'drizzle-orm'
import { listedWorkshop } from '~/db/sql'
import { type Language } from '~/i18n/config'
import { referenceLists } from '~/domain/site/reference.server'
import { valueCache } from '~/caching/value-cache.server'
import { db, queryRows } from '~/db/db.server'

/**
 * The directory by city (issue 16, /cities): every city of the reference list, named in the
 * reader's language, with how many workshops the directory lists there. Each city's page is the
 * list filtered on it, `/workshop-list?city={code}`.
 */
export type CityCount = { code: string; name: string; workshops: number }

// One grouped count over every listed workshop (a scan with 100,000 of them): kept half a minute, like the list's counts.
// Emptied with the list's counts: whatever changes one (a profile saved, an owner blocked) changes both.
const kept = valueCache<Map<string, number>>('directory-counts', { ttlMs: 30_000 })

function countsByCityId(): Promise<Map<string, number>> {
	return kept.get('by-city', loadCountsByCityId)
}

async function loadCountsByCityId(): Promise<Map<string, number>> {
	const rows = await queryRows<{ city_id: string; total: number }>(
		db,
		sql`select w.city_id, count(*)::int as total from workshops w where ${listedWorkshop} group by w.city_id`,
	)
	return new Map(rows.map((row) => [row.city_id, Number(row.total)]))
}

/** Every active city in the reference list's order for `language`, with its listed workshops. */
export async function getCityCounts(language: Language): Promise<CityCount[]> {
	const [lists, byCityId] = await Promise.all([referenceLists(), countsByCityId()])
	return lists.cities.items[language].map((city) => ({ code: city.code, name: city.name, workshops: byCityId.get(city.id) ?? 0 }))
}

/** The codes of the cities that have listed workshops: the city pages worth a search engine's visit (the sitemap). */
export async function listedCityCodes(): Promise<string[]> {
	const [lists, byCityId] = await Promise.all([referenceLists(), countsByCityId()])
	return [...lists.cities.idByCode].filter(([, id]) => (byCityId.get(id) ?? 0) > 0).map(([code]) => code)
}
