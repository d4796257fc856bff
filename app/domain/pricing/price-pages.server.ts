/**
 * What the public price pages show (issue 35, docs/decisions/0148), read for anonymous visitors and
 * cached by HTTP like the directory (`SHARED_PAGES`): the usual prices of `price_ranges` (a key
 * lookup), the fixed prices of the city's listed workshops (`price_list_items` valid today, the
 * total with VAT), and the listed workshops doing the service without one. Only listed workshops
 * (`listedWorkshop`) are named, as in the directory.
 *
 * Which workshops do a service where, and who lists a price for it, are the pages' dearest reads (a
 * big city has tens of thousands of workshops): kept a minute per service and city, as the
 * directory keeps its counts, and forgotten in every process when the ranges are recomputed or a
 * price list changes (`forgetPricePages`); a profile saved or an owner blocked is at most a minute late.
 */
import { sql } from 'drizzle-orm'
import { forgetCaches } from '~/caching/cache-bus.server'
import { valueCache } from '~/caching/value-cache.server'
import { db, type DbOrTx, queryRows } from '~/db/db.server'
import { listedWorkshop, localizedName } from '~/db/sql'
import { isCounty, type County } from '~/domain/directory/counties'
import { MIN_RATED_REVIEWS } from '~/domain/directory/workshops'
import { vehicleClasses, type VehicleClass } from '~/domain/service-flow/vehicle-kinds'
import { type Language } from '~/i18n/config'
import { encodeId } from '~/utils/public-id'
import { tallinnDay } from '~/utils/time'
import { engineBands, type EngineBand } from './price-kinds'
import { cityPricesPath, LISTED_SHOWN, OFFERING_SHOWN, servicePricesPath, type CityPrices, type ListedWorkshop, type ServicePrices } from './price-pages'
import { type PriceRange } from './price-ranges'
import { priceRangesOfService } from './price-ranges.server'

const classOrder = (vehicleClass: VehicleClass) => vehicleClasses.indexOf(vehicleClass)
const byClass = (a: { vehicleClass: VehicleClass }, b: { vehicleClass: VehicleClass }) => classOrder(a.vehicleClass) - classOrder(b.vehicleClass)
const bandOrder = (band: EngineBand) => engineBands.indexOf(band)

type Found = { id: string; code: string; name: string }

/**
 * The directory's "best rated" order (workshops.server.ts), written as its index on a city's workshops
 * is (`workshops_city_rating_idx`, "nulls last" included), so the first twenty are read off it.
 */
const bestRated = sql.raw(`(w.review_count >= ${Number(MIN_RATED_REVIEWS)}) desc nulls last, w.rating_average desc nulls last, w.review_count desc nulls last, w.id`)

type ItemRow = { id: string; name: string; vehicle_class: VehicleClass; engine_band: EngineBand; price_cents: number }
type CityWorkshops = { items: ItemRow[]; doing: number }
const cityWorkshopsKept = valueCache<CityWorkshops>('price-pages', { ttlMs: 60_000, max: 2_000, maxBytes: 8 * 1024 * 1024 })
const serviceCitiesKept = valueCache<{ byCity: Array<[string, number]> }>('price-pages', { ttlMs: 60_000, max: 200 })

/** Forgets the kept workshops of the price pages in every process (the ranges recomputed, a price list saved; tests). */
export function forgetPricePages(tx?: DbOrTx) {
	return forgetCaches(tx, 'price-pages')
}

/** An active service by its code, named in `language`; null: no such service (the page is not found). */
async function activeService(code: string, language: Language): Promise<Found | null> {
	const [row] = await queryRows<Found>(db, sql`select s.id, s.code, ${localizedName('s', language)} as name from services s where s.code = ${code} and s.active`)
	return row ?? null
}

/** An active city by its code, named in `language`, with its county (null until an administrator says). */
async function activeCity(code: string, language: Language): Promise<(Found & { county: County | null }) | null> {
	const [row] = await queryRows<Found & { county: string | null }>(
		db,
		sql`select c.id, c.code, ${localizedName('c', language)} as name, c.county from cities c where c.code = ${code} and c.active`,
	)
	return row ? { ...row, county: isCounty(row.county) ? row.county : null } : null
}

/** `/prices/{service}`: the usual price in each county that has one, and the cities whose listed workshops do the service. */
export async function servicePrices(serviceCode: string, language: Language): Promise<ServicePrices | null> {
	const service = await activeService(serviceCode, language)
	if (!service) return null
	const [ranges, counts, cityNames] = await Promise.all([
		priceRangesOfService(service.id),
		serviceCitiesKept.get(service.id, async () => {
			const rows = await queryRows<{ city_id: string; workshops: number }>(
				db,
				sql`select w.city_id, count(*)::int as workshops
				    from workshop_services ws join workshops w on w.id = ws.workshop_id
				    where ws.service_id = ${service.id} and ${listedWorkshop}
				    group by w.city_id`,
			)
			return { byCity: rows.map((row): [string, number] => [row.city_id, Number(row.workshops)]) }
		}),
		queryRows<{ id: string; code: string; name: string }>(db, sql`select c.id, c.code, ${localizedName('c', language)} as name from cities c where c.active`),
	])
	const workshopsIn = new Map(counts.byCity)
	const cities = cityNames.filter((city) => workshopsIn.has(city.id)).map((city) => ({ code: city.code, name: city.name, workshops: workshopsIn.get(city.id)! }))
	const byCounty = new Map<County, PriceRange[]>()
	for (const range of ranges) {
		if (!isCounty(range.county)) continue
		byCounty.set(range.county, [...(byCounty.get(range.county) ?? []), range])
	}
	return {
		service: { code: service.code, name: service.name },
		counties: [...byCounty].map(([county, list]) => ({ county, ranges: list.sort(byClass) })),
		cities: cities.sort((a, b) => a.name.localeCompare(b.name, language)),
	}
}

/**
 * `/prices/{service}/{city}`: the usual price in the city's county, the city's listed workshops
 * with a fixed price for the service today (cheapest first), and the others doing it (best rated
 * first, as the directory lists them). Null: no such service or city.
 */
export async function cityPrices(serviceCode: string, cityCode: string, language: Language, now = new Date()): Promise<CityPrices | null> {
	const [service, city] = await Promise.all([activeService(serviceCode, language), activeCity(cityCode, language)])
	if (!service || !city) return null
	const today = tallinnDay(now)
	const validToday = sql`p.valid_from <= ${today}::date and (p.valid_until is null or p.valid_until >= ${today}::date)`
	const [ranges, kept, offering] = await Promise.all([
		city.county ? priceRangesOfService(service.id).then((list) => list.filter((range) => range.county === city.county).sort(byClass)) : Promise.resolve([]),
		cityWorkshopsKept.get(`${service.id} ${city.id} ${today}`, async () => {
			const [items, [doing]] = await Promise.all([
				queryRows<ItemRow>(
					db,
					sql`select w.id, w.workshop_name as name, p.vehicle_class, p.engine_band, p.price_cents
					    from price_list_items p
					    join workshops w on w.id = p.workshop_id
					    where p.service_id = ${service.id} and w.city_id = ${city.id} and ${listedWorkshop} and ${validToday}`,
				),
				queryRows<{ total: number }>(
					db,
					sql`select count(*)::int as total from workshop_services ws join workshops w on w.id = ws.workshop_id
					    where ws.service_id = ${service.id} and w.city_id = ${city.id} and ${listedWorkshop}`,
				),
			])
			return { items, doing: Number(doing?.total ?? 0) }
		}),
		// The best rated twenty without a fixed price, off the city's rating index.
		queryRows<{ id: string; name: string; rating_average: number; review_count: number }>(
			db,
			sql`select w.id, w.workshop_name as name, w.rating_average, w.review_count
			    from workshops w
			    where w.city_id = ${city.id} and ${listedWorkshop}
			      and exists (select 1 from workshop_services ws where ws.workshop_id = w.id and ws.service_id = ${service.id})
			      and not exists (select 1 from price_list_items p where p.workshop_id = w.id and p.service_id = ${service.id} and ${validToday})
			    order by ${bestRated}
			    limit ${OFFERING_SHOWN}`,
		),
	])
	const listed = listedWorkshops(kept.items)
	return {
		service: { code: service.code, name: service.name },
		city: { code: city.code, name: city.name, county: city.county },
		ranges,
		listed: listed.slice(0, LISTED_SHOWN),
		listedMore: Math.max(0, listed.length - LISTED_SHOWN),
		offering: {
			items: offering.map((row) => ({ id: encodeId(row.id), name: row.name, ratingAverage: Number(row.rating_average), reviewCount: Number(row.review_count) })),
			// Those with a fixed price aside: what the directory's list of the city and service counts, less them.
			total: Math.max(offering.length, kept.doing - listed.length),
			inDirectory: kept.doing,
		},
	}
}

/** Each workshop once, its prices in the classes' and engine bands' order; the workshop with the lowest price first. */
function listedWorkshops(rows: Array<{ id: string; name: string; vehicle_class: VehicleClass; engine_band: EngineBand; price_cents: number }>): ListedWorkshop[] {
	const workshops = new Map<string, ListedWorkshop>()
	for (const row of rows) {
		const workshop = workshops.get(row.id) ?? { id: encodeId(row.id), name: row.name, prices: [] }
		workshop.prices.push({ vehicleClass: row.vehicle_class, engineBand: row.engine_band, priceCents: Number(row.price_cents) })
		workshops.set(row.id, workshop)
	}
	const lowest = (workshop: ListedWorkshop) => Math.min(...workshop.prices.map((price) => price.priceCents))
	for (const workshop of workshops.values()) workshop.prices.sort((a, b) => byClass(a, b) || bandOrder(a.engineBand) - bandOrder(b.engineBand))
	return [...workshops.values()].sort((a, b) => lowest(a) - lowest(b) || a.name.localeCompare(b.name))
}

/**
 * The price pages for the sitemap: every active service's page, and the page of every active
 * service in every active city where a listed workshop does it (a page naming nobody is not worth
 * a search engine's visit).
 */
export async function pricePagePaths(): Promise<string[]> {
	const [services, pairs] = await Promise.all([
		queryRows<{ code: string }>(db, sql`select code from services where active order by sort_order, code`),
		queryRows<{ service: string; city: string }>(
			db,
			sql`select s.code as service, c.code as city
			    from services s cross join cities c
			    where s.active and c.active
			      and exists (select 1 from workshop_services ws join workshops w on w.id = ws.workshop_id
			                  where ws.service_id = s.id and w.city_id = c.id and ${listedWorkshop})
			    order by s.sort_order, s.code, c.code`,
		),
	])
	return [...services.map((row) => servicePricesPath(row.code)), ...pairs.map((row) => cityPricesPath(row.service, row.city))]
}
