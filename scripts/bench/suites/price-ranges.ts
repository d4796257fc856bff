import type pg from 'pg'
import { measure, type Measurement } from '../lib/measure'
import { printColumns } from '../lib/report'
import { languageCookie } from '../lib/server'
import { seedingSession } from '../lib/seed'
import { type BenchCase, type BenchSuite, type DriveContext } from '../types'
import { CUSTOMERS, WORKSHOPS } from './directory'

/**
 * The usual prices at scale (issue 35, docs/decisions/0148): 1,000,000 more jobs on the directory
 * suite's 100,000 workshops, of 4,000 cars of every class, over 30 months (a fifth of them before the
 * 24 months counted): most completed at a price around the service's own (the class and chance move
 * it), one in twenty for two services, one in twelve not completed; and price lists (a family and a
 * small car's price for every service of one workshop in twenty, some expired). Added once per bench
 * database, on top of a database seeded before this suite (`addedLater`).
 *
 * It times the nightly `recomputePriceRanges()` in this process (target < 60 s), then measures a
 * price page (/prices/{service}/{city}: the ranges, the fixed prices, the workshops doing it) beside
 * the same cities' directory pages (/workshop-list?city=…, the anonymous page it is most like) in the
 * same run, and a service's page (/prices/{service}) beside /cities.
 */
export const PRICE_JOBS = 1_000_000
const PRICE_VEHICLES = 4_000
export const RECOMPUTE_TARGET_MS = 60_000

/** Each service's usual price in cents, by its place in the list (the demo's reference list: app/db/seed/reference-data.ts). */
const BASE_PRICES = [14000, 8000, 6000, 20000, 5000, 25000, 7000, 90000, 45000, 120000, 9000, 10000, 60000, 50000, 15000, 30000, 8000, 15000, 7000]

async function seed(client: pg.Client, log: (message: string) => void) {
	const step = await seedingSession(client, log)
	const services = `(array(select id from services order by sort_order, code))`
	await step(
		`${PRICE_VEHICLES} cars of every class`,
		`insert into vehicles (id, owner_id, registration_number, brand_id, model, model_specification, transmission, mileage, vehicle_class)
		 select md5('price-vehicle' || k)::uuid, md5('customer' || (1 + k % ${CUSTOMERS}))::uuid, 'P' || lpad(k::text, 5, '0'),
		        (array(select id from car_brands order by sort_order))[1 + k % (select count(*) from car_brands)::int], 'Model', 'Spec', 'manual', 30000 + k * 11,
		        (array['small', 'family', 'family', 'family', 'family', 'family', 'suv_van', 'suv_van', 'electric', 'small'])[1 + k % 10]::vehicle_class
		 from generate_series(1, ${PRICE_VEHICLES}) k`,
	)
	// Which workshop (skewed as the directory's jobs), car, service and day each job had, and how it ended.
	await step(
		`${PRICE_JOBS} jobs planned`,
		`create temporary table price_jobs as
		 select m,
		        1 + least(${WORKSHOPS - 1}, floor(${WORKSHOPS} * power(abs(hashtext('pw' || m))::float8 / 2147483648, 1.3)))::int as w,
		        1 + abs(hashtext('pv' || m)) % ${PRICE_VEHICLES} as v,
		        1 + abs(hashtext('ps' || m)) % cardinality(${services}) as s,
		        now() - (abs(hashtext('pt' || m)) % 900) * interval '1 day' - (m % 86400) * interval '1 second' as ts,
		        m % 20 = 0 as several,
		        case when m % 24 = 1 then 'bill_disputed' when m % 24 = 2 then 'selected' else 'job_completed' end::offer_status as status,
		        (0.6 + (abs(hashtext('pp' || m)) % 900) / 1000.0) as chance
		 from generate_series(1, ${PRICE_JOBS}) m`,
	)
	await step(
		`${PRICE_JOBS} service requests`,
		`insert into service_requests (id, customer_id, vehicle_id, preferred_at, location, details, status, selected_offer_id, created_at, updated_at)
		 select md5('price-request' || m)::uuid, md5('customer' || (1 + v % ${CUSTOMERS}))::uuid, md5('price-vehicle' || v)::uuid, ts - interval '1 day',
		        'Tallinn', 'Palun pakkumist.', case when status = 'job_completed' then 'completed' else 'in_progress' end::request_status,
		        md5('price-offer' || m)::uuid, ts - interval '3 days', ts
		 from price_jobs`,
	)
	await step(
		'their services (one each, two for one in twenty)',
		`insert into service_request_services (request_id, service_id)
		 select md5('price-request' || m)::uuid, ${services}[s] from price_jobs
		 union all
		 select md5('price-request' || m)::uuid, ${services}[1 + s % cardinality(${services})] from price_jobs where several`,
	)
	await step(
		`${PRICE_JOBS} offers`,
		`insert into offers (id, request_id, workshop_id, price_cents, final_price_cents, status, selected_at, completed_at, created_at, updated_at)
		 select md5('price-offer' || m)::uuid, md5('price-request' || m)::uuid, md5('workshop' || w)::uuid, price, case when status = 'selected' then null else price end,
		        status, ts - interval '2 days', case when status = 'job_completed' then ts end, ts - interval '2 days 12 hours', ts
		 from (select j.*, greatest(100, round((array[${BASE_PRICES.join(', ')}])[1 + (s - 1) % ${BASE_PRICES.length}]
		              * (case v.vehicle_class when 'small' then 0.85 when 'suv_van' then 1.25 when 'electric' then 1.1 else 1 end) * chance))::int as price
		       from price_jobs j join vehicles v on v.id = md5('price-vehicle' || j.v)::uuid) priced`,
	)
	await client.query('drop table price_jobs')
	// One workshop in twenty lists a family and a small car's price for each of its services; one in forty had an older price, expired.
	await step(
		'price lists',
		`insert into price_list_items (workshop_id, service_id, vehicle_class, price_cents, duration_minutes, valid_from, valid_until)
		 select ws.workshop_id, ws.service_id, c.vehicle_class::vehicle_class,
		        greatest(100, round((array[${BASE_PRICES.join(', ')}])[1 + (sv.sort_order % ${BASE_PRICES.length})] * c.factor * (0.8 + (abs(hashtext(ws.workshop_id::text || ws.service_id::text)) % 400) / 1000.0)))::int,
		        60, p.valid_from, p.valid_until
		 from workshop_services ws
		 join services sv on sv.id = ws.service_id
		 cross join (values ('family', 1.0), ('small', 0.85)) c(vehicle_class, factor)
		 cross join lateral (select current_date - 30 as valid_from, null::date as valid_until
		                     union all select current_date - 400, current_date - 31 where abs(hashtext(ws.workshop_id::text)) % 2 = 0) p
		 where abs(hashtext(ws.workshop_id::text)) % 20 = 0`,
	)
	await client.query('set session_replication_role = origin')
	await step('analyze', 'analyze vehicles; analyze service_requests; analyze service_request_services; analyze offers; analyze price_list_items')
}

const CITIES = ['tallinn', 'tartu', 'narva', 'parnu', 'viljandi', 'rakvere', 'kuressaare', 'johvi']
const SERVICES = ['brakes', 'oil-change', 'diagnostics', 'tyres', 'maintenance', 'suspension', 'air-conditioning', 'engine']
export const RECOMPUTE = 'recompute the usual prices (recomputePriceRanges)'

async function cases(): Promise<BenchCase[]> {
	// Returning visitors (their language in the cookie), as the pages suite's.
	const page = (path: string) => ({ path, headers: { Cookie: languageCookie('en') } })
	const pairs = CITIES.map((city, i) => [SERVICES[i % SERVICES.length]!, city] as const)
	return [
		{ name: RECOMPUTE, requests: [] },
		{ name: 'price page, a service in a city', requests: pairs.map(([service, city]) => page(`/prices/${service}/${city}`)) },
		{ name: "city page (the directory's list of a city)", requests: pairs.map(([, city]) => page(`/workshop-list?city=${city}`)) },
		{ name: "price page, a service's counties and cities", requests: SERVICES.map((service) => page(`/prices/${service}`)) },
		{ name: 'cities page', requests: [page('/cities')] },
	]
}

/** The pairs measured side by side: each price page and the anonymous page it is most like. */
const BESIDE: Array<[string, string]> = [
	['price page, a service in a city', "city page (the directory's list of a city)"],
	["price page, a service's counties and cities", 'cities page'],
]

async function timeRecompute(databaseUrl: string, log: (message: string) => void) {
	process.env.DATABASE_URL = databaseUrl
	process.env.LOG_LEVEL ??= 'warn'
	const { resetEnvCache } = await import('../../../app/utils/env.server')
	resetEnvCache()
	const { recomputePriceRanges } = await import('../../../app/domain/pricing/price-ranges.server')
	const { closeDatabase, db, queryRows } = await import('../../../app/db/db.server')
	const { sql } = await import('drizzle-orm')
	try {
		const [counted] = await queryRows<{ jobs: number }>(db, sql`select count(*)::int as jobs from offers where status = 'job_completed' and final_price_cents is not null`)
		log(`recomputing from ${counted!.jobs.toLocaleString('en')} completed jobs`)
		const started = performance.now()
		const ranges = await recomputePriceRanges()
		const ms = performance.now() - started
		return { ms, ranges }
	} finally {
		await closeDatabase()
	}
}

async function drive({ portalUrl, databaseUrl, cases: chosen, connections, duration, warmup, log }: DriveContext): Promise<{ failed: boolean }> {
	const reasons: string[] = []
	let recompute: { ms: number; ranges: number } | null = null
	if (chosen.some((c) => c.name === RECOMPUTE)) {
		recompute = await timeRecompute(databaseUrl, log)
		log(`recomputePriceRanges: ${(recompute.ms / 1000).toFixed(1)} s, ${recompute.ranges} ranges`)
		if (recompute.ms > RECOMPUTE_TARGET_MS) reasons.push(`the recomputation took ${(recompute.ms / 1000).toFixed(1)} s, over ${RECOMPUTE_TARGET_MS / 1000} s`)
	}
	const results = new Map<string, Measurement[]>()
	for (const benchCase of chosen.filter((c) => c.requests.length)) {
		const measured: Measurement[] = []
		for (const c of connections) measured.push(await measure(portalUrl, benchCase, { connections: c, duration, warmup }))
		results.set(benchCase.name, measured)
		log(`${benchCase.name}: ${measured.map((m) => `${m.connections}c p50 ${m.p50.toFixed(1)} ms, p99 ${m.p99.toFixed(1)} ms, ${m.rps.toFixed(0)} req/s`).join('; ')}`)
		if (measured.some((m) => m.errors > 0)) reasons.push(`${benchCase.name}: some requests failed (not 2xx)`)
	}
	console.log('')
	if (recompute) console.log(`recomputePriceRanges(): ${(recompute.ms / 1000).toFixed(1)} s for ${recompute.ranges} ranges (target < ${RECOMPUTE_TARGET_MS / 1000} s)\n`)
	const rows = [...results].flatMap(([name, measured]) =>
		measured.map((m) => [name, String(m.connections), m.p50.toFixed(1), m.p99.toFixed(1), m.rps.toFixed(0), String(m.errors)]),
	)
	if (rows.length) printColumns(['price-ranges', 'conn.', 'p50 ms', 'p99 ms', 'req/s', 'errors'], rows)
	for (const [pricePage, beside] of BESIDE) {
		const [a, b] = [results.get(pricePage), results.get(beside)]
		if (!a || !b) continue
		console.log(`${pricePage} / ${beside}: ${a.map((m, i) => `${m.connections}c p50 ×${(m.p50 / Math.max(b[i]!.p50, 0.01)).toFixed(2)}, req/s ×${(m.rps / Math.max(b[i]!.rps, 1)).toFixed(2)}`).join('; ')}`)
	}
	if (reasons.length) console.log(reasons.join('\n'))
	return { failed: reasons.length > 0 }
}

export const priceRangesSuite: BenchSuite = {
	name: 'price-ranges',
	description: `${PRICE_JOBS.toLocaleString('en')} more jobs: the nightly recomputation of the usual prices (target < ${RECOMPUTE_TARGET_MS / 1000} s), and the price pages beside the directory's city pages`,
	seedVersion: 1,
	addedLater: true,
	seed,
	cases,
	drive,
}
