import { sql, type SQL } from 'drizzle-orm'
import { type Language } from '~/i18n/config'
import { db, queryRows } from '~/utils/db.server'
import { notFound } from './errors'
import { type BidFilter } from './offers'
import { type OfferStatus, type RequestStatus } from './requests'

/**
 * The workshop's side of the flow, read-only: open requests for its services, its offers (bid
 * history), one offer with its request, completed jobs by month, and its reviews. Every query
 * names the workshop; another workshop's offer is "not found".
 */

const name = (alias: string, language: Language): SQL => sql.raw(`${alias}.name_${language}`)
const serviceNames = (language: Language) =>
	sql`coalesce((select array_agg(${name('s', language)} order by s.sort_order)
	              from service_request_services rs join services s on s.id = rs.service_id
	              where rs.request_id = r.id), '{}')`

export const OPEN_REQUESTS_PAGE = 20

export type OpenRequest = {
	id: string
	createdAt: string
	preferredAt: string
	location: string
	city: string | null
	vehicle: string
	year: number | null
	services: string[]
	offerCount: number
	imageCount: number
	myOfferId: string | null
}

/**
 * Open requests (pending or with offers) for at least one of the workshop's services, newest
 * first; `includeBidOn` also lists the ones it has already made an offer on.
 */
export async function listOpenRequests(
	workshopId: string,
	language: Language,
	options: { page?: number; includeBidOn?: boolean } = {},
): Promise<{ items: OpenRequest[]; hasMore: boolean }> {
	const page = Math.max(1, options.page ?? 1)
	const rows = await queryRows<OpenRequest>(
		db,
		sql`select r.id, r.created_at as "createdAt", r.preferred_at as "preferredAt", r.location,
		           ${name('c', language)} as city, b.name_en || ' ' || v.model as vehicle, v.vehicle_year as year,
		           ${serviceNames(language)} as services,
		           (select count(*)::int from offers o where o.request_id = r.id) as "offerCount",
		           (select count(*)::int from service_request_images i where i.request_id = r.id) as "imageCount",
		           (select o.id from offers o where o.request_id = r.id and o.workshop_id = ${workshopId}) as "myOfferId"
		    from service_requests r
		    join vehicles v on v.id = r.vehicle_id
		    join car_brands b on b.id = v.brand_id
		    left join cities c on c.id = r.city_id
		    where r.status in ('pending', 'offer')
		      and exists (select 1 from service_request_services rs
		                  join workshop_services ws on ws.service_id = rs.service_id and ws.workshop_id = ${workshopId}
		                  where rs.request_id = r.id)
		      ${options.includeBidOn ? sql`` : sql`and not exists (select 1 from offers o where o.request_id = r.id and o.workshop_id = ${workshopId})`}
		    order by r.created_at desc
		    limit ${OPEN_REQUESTS_PAGE + 1} offset ${(page - 1) * OPEN_REQUESTS_PAGE}`,
	)
	return { items: rows.slice(0, OPEN_REQUESTS_PAGE), hasMore: rows.length > OPEN_REQUESTS_PAGE }
}


export type Bid = {
	id: string
	status: OfferStatus
	requestId: string
	requestStatus: RequestStatus
	priceCents: number
	finalPriceCents: number | null
	createdAt: string
	preferredAt: string
	services: string[]
	vehicle: string
	customerFirstName: string
}

/** The workshop's offers, newest first, with the status of their requests. */
export async function listBids(workshopId: string, language: Language, filter: BidFilter): Promise<Bid[]> {
	return queryRows<Bid>(
		db,
		sql`select o.id, o.status, r.id as "requestId", r.status as "requestStatus", o.price_cents as "priceCents",
		           o.final_price_cents as "finalPriceCents", o.created_at as "createdAt", r.preferred_at as "preferredAt",
		           ${serviceNames(language)} as services, b.name_en || ' ' || v.model as vehicle, u.first_name as "customerFirstName"
		    from offers o
		    join service_requests r on r.id = o.request_id
		    join vehicles v on v.id = r.vehicle_id
		    join car_brands b on b.id = v.brand_id
		    join users u on u.id = r.customer_id
		    where o.workshop_id = ${workshopId} ${filter === 'all' ? sql`` : sql`and o.status = ${filter}`}
		    order by o.created_at desc
		    limit 500`,
	)
}

export type BidDetail = {
	id: string
	status: OfferStatus
	requestId: string
	priceCents: number
	finalPriceCents: number | null
	notes: string
	description: string
	attachmentUploadId: string | null
	createdAt: string
	selectedAt: string | null
	completedAt: string | null
}

/** The workshop's own offer on a request, or null (for the request page's offer form). */
export async function findOwnOffer(workshopId: string, requestId: string): Promise<BidDetail | null> {
	const [row] = await queryRows<BidDetail>(
		db,
		sql`select o.id, o.status, o.request_id as "requestId", o.price_cents as "priceCents", o.final_price_cents as "finalPriceCents",
		           o.notes, o.description, o.attachment_upload_id as "attachmentUploadId", o.created_at as "createdAt",
		           o.selected_at as "selectedAt", o.completed_at as "completedAt"
		    from offers o where o.request_id = ${requestId} and o.workshop_id = ${workshopId}`,
	)
	return row ?? null
}

/** One of the workshop's offers by its id. */
export async function getOwnOffer(workshopId: string, offerId: string): Promise<BidDetail> {
	const [row] = await queryRows<BidDetail>(
		db,
		sql`select o.id, o.status, o.request_id as "requestId", o.price_cents as "priceCents", o.final_price_cents as "finalPriceCents",
		           o.notes, o.description, o.attachment_upload_id as "attachmentUploadId", o.created_at as "createdAt",
		           o.selected_at as "selectedAt", o.completed_at as "completedAt"
		    from offers o where o.id = ${offerId} and o.workshop_id = ${workshopId}`,
	)
	if (!row) throw notFound()
	return row
}

export type CompletedJob = {
	offerId: string
	completedAt: string
	month: string
	customer: string
	vehicle: string
	registrationNumber: string
	services: string[]
	priceCents: number
	finalPriceCents: number
	rating: number | null
}

/** Completed jobs, newest first, with totals per month (Estonian calendar months). */
export async function workshopServiceHistory(workshopId: string, language: Language) {
	const jobs = await queryRows<CompletedJob>(
		db,
		sql`select o.id as "offerId", o.completed_at as "completedAt",
		           to_char(o.completed_at at time zone 'Europe/Tallinn', 'YYYY-MM') as month,
		           u.first_name || ' ' || u.last_name as customer, b.name_en || ' ' || v.model as vehicle,
		           v.registration_number as "registrationNumber", ${serviceNames(language)} as services,
		           o.price_cents as "priceCents", coalesce(o.final_price_cents, o.price_cents) as "finalPriceCents", rv.rating
		    from offers o
		    join service_requests r on r.id = o.request_id
		    join users u on u.id = r.customer_id
		    join vehicles v on v.id = r.vehicle_id
		    join car_brands b on b.id = v.brand_id
		    left join reviews rv on rv.request_id = r.id
		    where o.workshop_id = ${workshopId} and o.status = 'job_completed'
		    order by o.completed_at desc`,
	)
	const months = new Map<string, { month: string; jobs: number; totalCents: number }>()
	for (const job of jobs) {
		const entry = months.get(job.month) ?? { month: job.month, jobs: 0, totalCents: 0 }
		entry.jobs += 1
		entry.totalCents += job.finalPriceCents
		months.set(job.month, entry)
	}
	return { jobs, months: [...months.values()] }
}

export type WorkshopReview = {
	id: string
	rating: number
	title: string
	body: string
	reply: string | null
	createdAt: string
	repliedAt: string | null
	customer: string
	services: string[]
}

/** The workshop's reviews, newest first, with its average and count (as stored with the reviews). */
export async function listWorkshopReviews(workshopId: string, language: Language) {
	const [summary] = await queryRows<{ ratingAverage: number; reviewCount: number; unanswered: number }>(
		db,
		sql`select w.rating_average as "ratingAverage", w.review_count as "reviewCount",
		           (select count(*)::int from reviews where workshop_id = w.id and reply is null) as unanswered
		    from workshops w where w.id = ${workshopId}`,
	)
	const reviews = await queryRows<WorkshopReview>(
		db,
		sql`select rv.id, rv.rating, rv.title, rv.body, rv.reply, rv.created_at as "createdAt", rv.replied_at as "repliedAt",
		           u.first_name || ' ' || left(u.last_name, 1) || '.' as customer, ${serviceNames(language)} as services
		    from reviews rv
		    join users u on u.id = rv.customer_id
		    join service_requests r on r.id = rv.request_id
		    where rv.workshop_id = ${workshopId}
		    order by rv.created_at desc`,
	)
	return { summary: summary ?? { ratingAverage: 0, reviewCount: 0, unanswered: 0 }, reviews }
}

/**
 * How many offers the workshop made this calendar month and what its package allows (null:
 * unlimited), for display. The limit itself is enforced in service-flow.server.ts only.
 */
export async function offerAllowance(workshopId: string): Promise<{ used: number; limit: number | null }> {
	const [row] = await queryRows<{ used: number; limit: number | null; hasPackage: boolean }>(
		db,
		sql`select (select count(*)::int from offers where workshop_id = ${workshopId}
		              and created_at >= (date_trunc('month', now() at time zone 'Europe/Tallinn') at time zone 'Europe/Tallinn')) as used,
		           coalesce((select p.offers_per_month from subscriptions s join packages p on p.id = s.package_id
		                     where s.workshop_id = ${workshopId} and s.status = 'active'),
		                    case when exists (select 1 from subscriptions s where s.workshop_id = ${workshopId} and s.status = 'active') then null
		                         else (select offers_per_month from packages where code = 'free') end) as "limit"`,
	)
	return { used: row?.used ?? 0, limit: row?.limit ?? null }
}
