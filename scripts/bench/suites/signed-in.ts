import { createHash } from 'node:crypto'
import type pg from 'pg'
import { encodeId } from '../../../app/utils/public-id'
import { signedInBrowser } from '../lib/browser'
import { seedingSession } from '../lib/seed'
import { type BenchCase, type BenchSuite } from '../types'
import { fromMemory } from './pages'

/**
 * Signed-in pages (issue 18, goal 2, second half): the pages people live in. 200 of the directory
 * suite's customers each have an open request with four offers; the workshops behind those offers
 * are signed in too. Each case cycles through 200 different people, so nothing is one person's
 * cache. The baseline sends each person's own answer from memory, as the pages suite does.
 */
export const PEOPLE = 200
const OFFERS = 4

export const token = (kind: string, n: number) => `bench-web-${kind}-${String(n).padStart(6, '0')}`
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')
/** The workshop that made offer `o` (1…OFFERS) on customer `k`'s open request. */
export const workshopOf = (k: number, o: number) => 1 + ((k * 37 + o * 7919) % 5000)

async function seed(client: pg.Client, log: (message: string) => void) {
	const step = await seedingSession(client, log)
	await step(
		`${PEOPLE} open requests`,
		`insert into service_requests (id, customer_id, vehicle_id, preferred_at, location, details, status, created_at, updated_at)
		 select md5('open-request' || k)::uuid, md5('customer' || k)::uuid, md5('vehicle' || k)::uuid, now() + interval '5 days',
		        'Tallinn', 'Vajan pidurite vahetust ja hooldust.', 'offer', now() - interval '2 days', now() - interval '1 day'
		 from generate_series(1, ${PEOPLE}) k`,
	)
	await step(
		'their services and timeline',
		`insert into service_request_services (request_id, service_id)
		 select md5('open-request' || k)::uuid, (select id from services order by sort_order limit 1) from generate_series(1, ${PEOPLE}) k;
		 insert into request_events (request_id, status, actor_id, created_at)
		 select md5('open-request' || k)::uuid, s.status::request_status, md5('customer' || k)::uuid, now() - interval '2 days' + s.n * interval '1 hour'
		 from generate_series(1, ${PEOPLE}) k, (values (0, 'pending'), (1, 'offer')) s(n, status)`,
	)
	const pairs = Array.from({ length: PEOPLE }, (_, i) => Array.from({ length: OFFERS }, (_, o) => [i + 1, o + 1, workshopOf(i + 1, o + 1)])).flat()
	await client.query(
		`insert into offers (id, request_id, workshop_id, price_cents, notes, description, status, created_at, updated_at)
		 select md5('open-offer' || k || '-' || o)::uuid, md5('open-request' || k)::uuid, md5('workshop' || w)::uuid, 8000 + o * 1500 + k % 7 * 100,
		        'Hind sisaldab käibemaksu.', 'Piduriklotsid ja -kettad ees, hooldus tehase järgi.', 'pending',
		        now() - interval '1 day' - o * interval '1 hour', now() - interval '1 day'
		 from unnest($1::int[], $2::int[], $3::int[]) as t(k, o, w)
		 on conflict (request_id, workshop_id) do nothing`,
		[pairs.map((p) => p[0]), pairs.map((p) => p[1]), pairs.map((p) => p[2])],
	)
	const customers = Array.from({ length: PEOPLE }, (_, i) => i + 1)
	const workshops = customers.map((k) => workshopOf(k, 1))
	await client.query(
		`insert into sessions (user_id, kind, token_hash, expires_at)
		 select md5('customer' || k)::uuid, 'web'::session_kind, h, now() + interval '10 years' from unnest($1::int[], $2::text[]) as t(k, h)
		 union all
		 select (select user_id from workshops where id = md5('workshop' || w)::uuid), 'web'::session_kind, h, now() + interval '10 years'
		 from unnest($3::int[], $4::text[]) as t(w, h)`,
		[customers, customers.map((k) => sha256(token('customer', k))), workshops, customers.map((k) => sha256(token('workshop', k)))],
	)
	await client.query('set session_replication_role = origin')
	await step('analyze', 'analyze service_requests; analyze offers; analyze sessions')
}

async function cases(): Promise<BenchCase[]> {
	// The portal's own cookies: a returning visitor's session, CSRF token and language.
	const cookieOf = async (value: string) => ({ Cookie: (await signedInBrowser(value)).cookie })
	const people = Array.from({ length: PEOPLE }, (_, i) => i + 1)
	const customer = await Promise.all(people.map((k) => cookieOf(token('customer', k))))
	const workshop = await Promise.all(people.map((k) => cookieOf(token('workshop', k))))
	const each = (path: (k: number) => string, cookies: Array<Record<string, string>>) => people.map((k) => ({ path: path(k), headers: cookies[k - 1]! }))
	const requestSlug = (k: number) => encodeId(md5Uuid(`open-request${k}`))
	return [
		{ name: `customer's dashboard (${PEOPLE} customers)`, requests: each(() => '/dashboard', customer) },
		{ name: 'compare offers (4 offers)', requests: each((k) => `/compaire-offers/${requestSlug(k)}`, customer) },
		{ name: "customer's requests", requests: each(() => '/my-requests', customer) },
		{ name: "workshop's dashboard", requests: each(() => '/dashboard', workshop) },
		{ name: "workshop's offer", requests: each((k) => `/workshop-bid-details/${encodeId(md5Uuid(`open-offer${k}-1`))}`, workshop) },
	]
}

/** PostgreSQL's md5(text)::uuid, for the ids the seed made. */
export function md5Uuid(text: string) {
	const hex = createHash('md5').update(text).digest('hex')
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

export const signedInSuite: BenchSuite = {
	name: 'signed-in',
	description: "signed-in pages (dashboards, compare offers, requests, a workshop's offer) against the same answers from memory",
	seedVersion: 1,
	seed,
	cases,
	baseline: { label: 'bare node:http, same answers from memory', start: fromMemory },
}
