/**
 * The usual price of each service (issue 35, docs/decisions/0146): recomputed from completed jobs
 * into `price_ranges` (nightly, job `price-ranges`), read by the request form, the comparison and
 * the price pages.
 */
import { sql } from 'drizzle-orm'
import { db, type DbOrTx, queryRows, transaction } from '~/db/db.server'
import { type VehicleClass } from '~/domain/service-flow/vehicle-kinds'
import { tallinnDay } from '~/utils/time'
import { type PriceRange, RANGE_MIN_JOBS, RANGE_MIN_WORKSHOPS, RANGE_PERIOD_MONTHS } from './price-ranges'

/** The period the recomputation at `now` counts: the RANGE_PERIOD_MONTHS months up to and including today (Tallinn's day). */
export function rangePeriod(now = new Date()) {
	const periodTo = tallinnDay(now)
	const [year, month, day] = periodTo.split('-').map(Number) as [number, number, number]
	const from = new Date(Date.UTC(year, month - 1 - RANGE_PERIOD_MONTHS, day))
	// 29 February less two years is 1 March: the same day of the month, or the month's last.
	if (from.getUTCDate() !== day) from.setUTCDate(0)
	return { periodFrom: from.toISOString().slice(0, 10), periodTo }
}

/**
 * Replaces every range with what the completed jobs of the period say, in one statement's
 * transaction (readers see the old ranges until it commits). A job counts with its paid total
 * with VAT (the final price), its vehicle's class, and the county of the workshop that did it;
 * only a request for one service says what that service costs. Groups below the thresholds get
 * no row: "not enough jobs yet". Returns the number of ranges.
 */
export async function recomputePriceRanges(now = new Date(), database: DbOrTx = db): Promise<number> {
	const { periodFrom, periodTo } = rangePeriod(now)
	const run = async (tx: DbOrTx) => {
		await tx.execute(sql`delete from price_ranges`)
		const rows = await queryRows<{ count: number }>(
			tx,
			sql`with inserted as (
				insert into price_ranges (service_id, vehicle_class, county, p25_cents, p50_cents, p75_cents, jobs, workshops, period_from, period_to, computed_at)
				select s.service_id, v.vehicle_class, c.county,
				       round(percentile_cont(0.25) within group (order by o.final_price_cents)::numeric)::int,
				       round(percentile_cont(0.5) within group (order by o.final_price_cents)::numeric)::int,
				       round(percentile_cont(0.75) within group (order by o.final_price_cents)::numeric)::int,
				       count(*)::int, count(distinct o.workshop_id)::int, ${periodFrom}::date, ${periodTo}::date, ${now.toISOString()}::timestamptz
				from offers o
				join service_requests r on r.id = o.request_id
				join service_request_services s on s.request_id = r.id
				join vehicles v on v.id = r.vehicle_id
				join workshops w on w.id = o.workshop_id
				join cities c on c.id = w.city_id
				where o.status = 'job_completed' and o.final_price_cents is not null
				  and o.completed_at >= (${periodFrom}::date::timestamp at time zone 'Europe/Tallinn')
				  and o.completed_at < ((${periodTo}::date + 1)::timestamp at time zone 'Europe/Tallinn')
				  and c.county is not null
				  and not exists (select 1 from service_request_services other where other.request_id = r.id and other.service_id <> s.service_id)
				group by s.service_id, v.vehicle_class, c.county
				having count(*) >= ${RANGE_MIN_JOBS} and count(distinct o.workshop_id) >= ${RANGE_MIN_WORKSHOPS}
				returning 1
			) select count(*)::int as count from inserted`,
		)
		return rows[0]?.count ?? 0
	}
	return database === db ? transaction(run) : run(database)
}

const rangeColumns = sql`service_id as "serviceId", vehicle_class as "vehicleClass", county, p25_cents as "p25Cents", p50_cents as "p50Cents",
	p75_cents as "p75Cents", jobs, workshops, period_from::text as "periodFrom", period_to::text as "periodTo"`

/** The usual price of a service for a class of vehicle in a county; null: not enough jobs yet. */
export async function priceRange(where: { serviceId: string; vehicleClass: VehicleClass; county: string }, database: DbOrTx = db): Promise<PriceRange | null> {
	const rows = await queryRows<PriceRange>(
		database,
		sql`select ${rangeColumns} from price_ranges
			where service_id = ${where.serviceId}::uuid and vehicle_class = ${where.vehicleClass} and county = ${where.county}`,
	)
	return rows[0] ?? null
}

/** The usual prices of several services for one class and county, by service id (a service without one is missing). */
export async function priceRangesOf(where: { serviceIds: string[]; vehicleClass: VehicleClass; county: string }, database: DbOrTx = db): Promise<Map<string, PriceRange>> {
	if (!where.serviceIds.length) return new Map()
	const rows = await queryRows<PriceRange>(
		database,
		sql`select ${rangeColumns} from price_ranges
			where service_id in (${sql.join(where.serviceIds.map((id) => sql`${id}::uuid`), sql`, `)})
			  and vehicle_class = ${where.vehicleClass} and county = ${where.county}`,
	)
	return new Map(rows.map((row) => [row.serviceId, row]))
}

/** Every range of a service (each class and county that has one), for its price pages. */
export async function priceRangesOfService(serviceId: string, database: DbOrTx = db): Promise<PriceRange[]> {
	return queryRows<PriceRange>(database, sql`select ${rangeColumns} from price_ranges where service_id = ${serviceId}::uuid order by county, vehicle_class`)
}
