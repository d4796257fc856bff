/**
 * The usual price where a customer decides (issue 35, docs/decisions/0149): beside the services on
 * the request form, and the verdict beside each offer's total on the comparison. Reads the ranges
 * `recomputePriceRanges` left (price-ranges.server.ts); never makes one up.
 */
import { sql } from 'drizzle-orm'
import { db, queryRows } from '~/db/db.server'
import { localizedName } from '~/db/sql'
import { isCounty } from '~/domain/directory/counties'
import { bindingTotalCents } from '~/domain/service-flow/extra-work'
import { type VehicleClass } from '~/domain/service-flow/vehicle-kinds'
import { type Language } from '~/i18n/config'
import { DomainError, notFound } from '~/utils/errors'
import { formatMonthRange } from '~/utils/format'
import { formatMoneyRange, formatWholeMoney } from '~/utils/money'
import { type PriceRange, rangeVerdict } from './price-ranges'
import { priceRangesOf } from './price-ranges.server'
import { type OfferRange, type ShownRange, type UsualPrices } from './usual-prices'

/** A range in the reader's language: p25–p75 and the median in whole euros, the period by its months. */
export function shownRange(range: Pick<PriceRange, 'p25Cents' | 'p50Cents' | 'p75Cents' | 'jobs' | 'workshops' | 'periodFrom' | 'periodTo'>, language: Language): ShownRange {
	return {
		range: formatMoneyRange(range.p25Cents, range.p75Cents, language),
		median: formatWholeMoney(range.p50Cents, language),
		jobs: range.jobs,
		workshops: range.workshops,
		period: formatMonthRange(range.periodFrom, range.periodTo, language),
	}
}

/**
 * The usual price of each chosen service for the class of the customer's own vehicle, in the
 * county of the city the request names (where the customer wants the work done; the ranges count
 * jobs where they were done). Another's or a removed vehicle is not found; an unknown city or
 * service is a bad request. Without a city there is no county: every range is null and the form
 * asks for a city.
 */
export async function usualPrices(customerId: string, choice: { vehicleId: string; cityId?: string; serviceIds: string[] }, language: Language): Promise<UsualPrices> {
	const serviceIds = [...new Set(choice.serviceIds)]
	const [vehicle] = await queryRows<{ vehicleClass: VehicleClass }>(
		db,
		sql`select vehicle_class as "vehicleClass" from vehicles where id = ${choice.vehicleId} and owner_id = ${customerId} and deleted_at is null`,
	)
	if (!vehicle) throw notFound()
	let county: string | null = null
	if (choice.cityId) {
		const [city] = await queryRows<{ county: string | null }>(db, sql`select county from cities where id = ${choice.cityId}`)
		if (!city) throw new DomainError('common:validation.unknownChoice', 400)
		county = city.county
	}
	const services = serviceIds.length
		? await queryRows<{ id: string; name: string }>(
				db,
				sql`select s.id, ${localizedName('s', language)} as name from services s
				    where s.id in (${sql.join(serviceIds.map((id) => sql`${id}::uuid`), sql`, `)}) order by s.sort_order, s.id`,
			)
		: []
	if (services.length !== serviceIds.length) throw new DomainError('common:validation.unknownChoice', 400)
	const known = isCounty(county) ? county : null
	const ranges = known ? await priceRangesOf({ serviceIds, vehicleClass: vehicle.vehicleClass, county: known }) : new Map<string, PriceRange>()
	return {
		vehicleClass: vehicle.vehicleClass,
		county: known,
		cityChosen: Boolean(choice.cityId),
		services: services.map((service) => {
			const range = ranges.get(service.id)
			return { ...service, range: range ? shownRange(range, language) : null }
		}),
	}
}

/**
 * For a request of one service, the verdict on each of its offers that has a usual range: the
 * offer's binding total with VAT against the range of that service, for the vehicle's class, in
 * the county of the offering workshop's city (where the work would be done, as the ranges count
 * it). Offers without a range there, and every offer of a request for several services (no range
 * speaks of several services together), have none. Only the request's customer gets any.
 */
export async function offerRanges(customerId: string, requestId: string, language: Language): Promise<Map<string, OfferRange>> {
	const rows = await queryRows<{ id: string; priceCents: number; approvedExtraCents: number; p25Cents: number; p75Cents: number }>(
		db,
		sql`select o.id, o.price_cents as "priceCents", o.approved_extra_cents as "approvedExtraCents", pr.p25_cents as "p25Cents", pr.p75_cents as "p75Cents"
		    from offers o
		    join service_requests r on r.id = o.request_id
		    join vehicles v on v.id = r.vehicle_id
		    join workshops w on w.id = o.workshop_id
		    join cities c on c.id = w.city_id
		    join service_request_services s on s.request_id = r.id
		    join price_ranges pr on pr.service_id = s.service_id and pr.vehicle_class = v.vehicle_class and pr.county = c.county
		    where r.id = ${requestId} and r.customer_id = ${customerId}
		      and not exists (select 1 from service_request_services other where other.request_id = r.id and other.service_id <> s.service_id)`,
	)
	const ranges = new Map<string, OfferRange>()
	for (const row of rows) {
		const verdict = rangeVerdict(bindingTotalCents(row), row)
		if (verdict) ranges.set(row.id, { verdict, range: formatMoneyRange(row.p25Cents, row.p75Cents, language) })
	}
	return ranges
}
