import { sql, type SQL } from 'drizzle-orm'
import { type Language } from '~/i18n/config'
import { db, type DbOrTx, queryRows } from '~/db/db.server'
import { notFound } from '~/utils/errors'
import { type BidFilter } from './offers'
import { type OfferFields, type OfferStatus, type RequestStatus } from './requests'
import { customerName, localizedName, localMonth, monthStart, requestMatchesWorkshopId, serviceNames, valueList, vehicleLabel } from '~/db/sql'
import { offerMoves, statusLists } from './status'

/**
 * The workshop's side of the flow, read-only: open requests for its services, its offers (bid
 * history), one offer with its request, completed jobs by month, and its reviews. Every query
 * names the workshop; another workshop's offer is "not found".
 */

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

/** Offers that ended with an expired request: on the reopened request their workshop may offer again. */
const renewable = valueList(offerMoves.renew.from)

/**
 * Open requests (pending or with offers) that reach the workshop (`requestMatchesWorkshop`), newest
 * first, a page at a time (the dashboard shows a shorter first page); `includeBidOn` also lists
 * the ones it has already made an offer on.
 */
export async function listOpenRequests(
	workshopId: string,
	language: Language,
	options: { page?: number; pageSize?: number; includeBidOn?: boolean } = {},
): Promise<{ items: OpenRequest[]; hasMore: boolean }> {
	const page = Math.max(1, options.page ?? 1)
	const pageSize = options.pageSize ?? OPEN_REQUESTS_PAGE
	const rows = await queryRows<OpenRequest>(
		db,
		sql`select r.id, r.created_at as "createdAt", r.preferred_at as "preferredAt", r.location,
		           ${localizedName('c', language)} as city, ${vehicleLabel()} as vehicle, v.vehicle_year as year,
		           ${serviceNames(language)} as services,
		           (select count(*)::int from offers o where o.request_id = r.id) as "offerCount",
		           (select count(*)::int from service_request_images i where i.request_id = r.id) as "imageCount",
		           (select o.id from offers o where o.request_id = r.id and o.workshop_id = ${workshopId} and o.status not in ${renewable}) as "myOfferId"
		    from service_requests r
		    join vehicles v on v.id = r.vehicle_id
		    join car_brands b on b.id = v.brand_id
		    left join cities c on c.id = r.city_id
		    where r.status in ${valueList(statusLists.openRequests)}
		      and ${requestMatchesWorkshopId(workshopId)}
		      ${options.includeBidOn ? sql`` : sql`and not exists (select 1 from offers o where o.request_id = r.id and o.workshop_id = ${workshopId} and o.status not in ${renewable})`}
		    order by r.created_at desc
		    limit ${pageSize + 1} offset ${(page - 1) * pageSize}`,
	)
	return { items: rows.slice(0, pageSize), hasMore: rows.length > pageSize }
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
	/** Sent from its price list the moment the request came (issue 35). */
	instant: boolean
}

/** The workshop's offers, newest first, with the status of their requests. */
export async function listBids(workshopId: string, language: Language, filter: BidFilter): Promise<Bid[]> {
	return queryRows<Bid>(
		db,
		sql`select o.id, o.status, r.id as "requestId", r.status as "requestStatus", o.price_cents as "priceCents",
		           o.final_price_cents as "finalPriceCents", o.created_at as "createdAt", r.preferred_at as "preferredAt",
		           ${serviceNames(language)} as services, ${vehicleLabel()} as vehicle, u.first_name as "customerFirstName", o.instant
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

/** The columns of an offer's own fields (OfferFields), for an offer `o`. */
export const offerColumns = sql`o.id, o.status, o.price_cents as "priceCents", o.final_price_cents as "finalPriceCents", o.notes, o.description,
	o.attachment_upload_id as "attachmentUploadId", o.created_at as "createdAt",
	o.vat_mode as "vatMode", o.labour_cents as "labourCents", o.parts_cents as "partsCents", o.fees_cents as "feesCents",
	o.vat_cents as "vatCents", o.approved_extra_cents as "approvedExtraCents", o.bill_reason as "billReason", o.earliest_start::text as "earliestStart", o.duration_days as "durationDays", o.valid_until::text as "validUntil",
	o.warranty_work_km as "warrantyWorkKm", o.warranty_parts_months as "warrantyPartsMonths",
	o.booking_minutes as "bookingMinutes", o.any_free_time as "anyFreeTime", o.instant,
	coalesce((select json_agg(to_char(s at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') order by s) from unnest(o.proposed_starts) s), '[]'::json) as "proposedStarts",
	coalesce((select json_agg(json_build_object('kind', l.kind, 'description', l.description, 'reference', l.reference,
	                                            'quantity', l.quantity_hundredths, 'unitPriceCents', l.unit_price_cents, 'totalCents', l.total_cents,
	                                            'quality', l.quality, 'used', l.used)
	                          order by l.position)
	          from offer_lines l where l.offer_id = o.id), '[]'::json) as lines`

export type BidDetail = OfferFields & {
	requestId: string
	selectedAt: string | null
	completedAt: string | null
	/** The vehicle passport (issue 20): the mileage the workshop entered with the final price, its invoice PDF. */
	mileageAtJob: number | null
	invoiceUploadId: string | null
}

/** The workshop's own offer that `which` picks, or null. */
async function ownOffer(workshopId: string, which: SQL): Promise<BidDetail | null> {
	const [row] = await queryRows<BidDetail>(
		db,
		sql`select ${offerColumns}, o.request_id as "requestId", o.selected_at as "selectedAt", o.completed_at as "completedAt",
		           o.mileage_at_job as "mileageAtJob", o.invoice_upload_id as "invoiceUploadId"
		    from offers o where ${which} and o.workshop_id = ${workshopId}`,
	)
	return row ?? null
}

/** The workshop's own offer on a request, or null (for the request page's offer form). */
export function findOwnOffer(workshopId: string, requestId: string): Promise<BidDetail | null> {
	return ownOffer(workshopId, sql`o.request_id = ${requestId}`)
}

/** One of the workshop's offers by its id. */
export async function getOwnOffer(workshopId: string, offerId: string): Promise<BidDetail> {
	const offer = await ownOffer(workshopId, sql`o.id = ${offerId}`)
	if (!offer) throw notFound()
	return offer
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
		           ${localMonth(sql`o.completed_at`)} as month,
		           ${customerName(language)} as customer, ${vehicleLabel()} as vehicle,
		           v.registration_number as "registrationNumber", ${serviceNames(language)} as services,
		           o.price_cents as "priceCents", coalesce(o.final_price_cents, o.price_cents) as "finalPriceCents", rv.rating
		    from offers o
		    join service_requests r on r.id = o.request_id
		    join users u on u.id = r.customer_id
		    join vehicles v on v.id = r.vehicle_id
		    join car_brands b on b.id = v.brand_id
		    left join reviews rv on rv.request_id = r.id
		    where o.workshop_id = ${workshopId} and o.status = ${offerMoves.completeJob.to}
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
	/** Hidden by the administrators (issue 19), and why: shown to the workshop only, with that note. */
	hiddenReason: string | null
}

/** The workshop's reviews, newest first, with its average and count (as stored with the reviews). */
export async function listWorkshopReviews(workshopId: string, language: Language) {
	const [summary] = await queryRows<{ ratingAverage: number; reviewCount: number; unanswered: number }>(
		db,
		sql`select w.rating_average as "ratingAverage", w.review_count as "reviewCount",
		           (select count(*)::int from reviews where workshop_id = w.id and reply is null and hidden_at is null) as unanswered
		    from workshops w where w.id = ${workshopId}`,
	)
	const reviews = await queryRows<WorkshopReview>(
		db,
		sql`select rv.id, rv.rating, rv.title, rv.body, rv.reply, rv.created_at as "createdAt", rv.replied_at as "repliedAt",
		           rv.hidden_reason as "hiddenReason", ${customerName(language, 'u', { initial: true })} as customer, ${serviceNames(language)} as services
		    from reviews rv
		    join users u on u.id = rv.customer_id
		    join service_requests r on r.id = rv.request_id
		    where rv.workshop_id = ${workshopId}
		    order by rv.created_at desc`,
	)
	return { summary: summary ?? { ratingAverage: 0, reviewCount: 0, unanswered: 0 }, reviews }
}

/**
 * The monthly offer limit, computed here only: how many offers the workshop made this calendar
 * month (Estonian time) and what its active package allows, null meaning unlimited; a workshop
 * without an active package is held to the free package's limit. The pages show it, and
 * makeOffer enforces it in its own transaction (`assertOfferAllowed`, offer-moves.server.ts).
 */
export async function offerAllowance(workshopId: string, database: DbOrTx = db): Promise<{ used: number; limit: number | null }> {
	const [row] = await queryRows<{ used: number; limit: number | null }>(
		database,
		sql`select (select count(*)::int from offers where workshop_id = ${workshopId} and created_at >= ${monthStart}) as used,
		           coalesce((select p.offers_per_month from subscriptions s join packages p on p.id = s.package_id
		                     where s.workshop_id = ${workshopId} and s.status = 'active'),
		                    case when exists (select 1 from subscriptions s where s.workshop_id = ${workshopId} and s.status = 'active') then null
		                         else (select offers_per_month from packages where code = 'free') end) as "limit"`,
	)
	return { used: row?.used ?? 0, limit: row?.limit ?? null }
}

/** The workshop profile's warranty: a new offer's form starts from it (issue 32). */
export async function profileWarranty(workshopId: string): Promise<{ warrantyWorkKm: number | null; warrantyPartsMonths: number | null }> {
	const [row] = await queryRows<{ warrantyWorkKm: number | null; warrantyPartsMonths: number | null }>(
		db,
		sql`select warranty_work_km as "warrantyWorkKm", warranty_parts_months as "warrantyPartsMonths" from workshops where id = ${workshopId}`,
	)
	return row ?? { warrantyWorkKm: null, warrantyPartsMonths: null }
}
