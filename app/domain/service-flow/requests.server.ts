import { sql, type SQL } from 'drizzle-orm'
import { type Language } from '~/i18n/config'
import { db, queryRows, type DbOrTx } from '~/db/db.server'
import { notFound } from '~/utils/errors'
import { decodeId } from '~/utils/public-id'
import { imageSourcesFor } from '~/uploads/access.server'
import { type ImageSource } from '~/uploads/upload-url'
import { customerName, finalPrice, localizedName, requestMatchesWorkshopId, serviceNames, valueList, vehicleLabel, verifiedPerson, workshopOwnerNotBlocked } from '~/db/sql'
import { type OfferForCustomer, type OfferStatus, type RequestDetail, type RequestEvent, type RequestFilter, type RequestListItem } from './requests'
import { waitingExtraWork } from './extra-work.server'
import { billWaiting } from './final-bill.server'
import { offerColumns } from './offers.server'
import { isRequestOpen, offerMoves, statusLists } from './status'

/**
 * What the request and offer pages show (the changes are in service-flow.server.ts). Every query
 * names who asks: a customer sees their own requests; a workshop sees open requests for its
 * services and the requests it has bid on. Anything else is "not found".
 */

const filterClause = (filter: RequestFilter | 'history'): SQL =>
	filter === 'all'
		? sql`true`
		: sql`r.status in ${valueList(filter === 'open' ? statusLists.activeRequests : filter === 'history' ? statusLists.finishedRequests : [filter])}`

/** The customer's requests, newest first, with offers, the chosen workshop and the bill. */
export async function listCustomerRequests(customerId: string, language: Language, filter: RequestFilter | 'history'): Promise<RequestListItem[]> {
	const where = filterClause(filter)
	return queryRows<RequestListItem>(
		db,
		sql`select r.id, r.status, r.created_at as "createdAt", r.preferred_at as "preferredAt", r.location,
		           ${vehicleLabel()} as vehicle, v.registration_number as "registrationNumber",
		           ${serviceNames(language)} as services,
		           (select count(*)::int from offers o where o.request_id = r.id and o.status in ${valueList(statusLists.countedOffers)}) as "offerCount",
		           (select min(o.price_cents)::int from offers o where o.request_id = r.id and o.status in ${valueList(statusLists.undecidedOffers)}) as "lowestPriceCents",
		           w.workshop_name as "workshopName", ${finalPrice('so')} as "finalPriceCents", rv.rating,
		           ${waitingExtraWork(sql`so.id`)} as "extraWorkWaiting", ${billWaiting(sql`so.id`)} as "billWaiting"
		    from service_requests r
		    join vehicles v on v.id = r.vehicle_id
		    join car_brands b on b.id = v.brand_id
		    left join offers so on so.id = r.selected_offer_id
		    left join workshops w on w.id = so.workshop_id
		    left join reviews rv on rv.request_id = r.id
		    where r.customer_id = ${customerId} and ${where}
		    order by r.created_at desc
		    limit 200`,
	)
}

/** A request's row: the vehicle's columns are named as its fields but for `vehicleId` and `vehicleName`. */
type DetailRow = Omit<RequestDetail, 'vehicle' | 'selectedOffer' | 'review' | 'events' | 'images'> &
	Omit<RequestDetail['vehicle'], 'id' | 'name'> & {
		vehicleId: string
		vehicleName: string
		selectedOfferId: string | null
		soWorkshopId: string | null
		soWorkshopName: string | null
		soWorkshopUserId: string | null
		soPriceCents: number | null
		soFinalPriceCents: number | null
		soApprovedExtraCents: number | null
		soBillReason: string | null
		soStatus: OfferStatus | null
		soSelectedAt: string | null
		soCompletedAt: string | null
		soWarrantyWorkKm: number | null
		soWarrantyPartsMonths: number | null
		reviewId: string | null
		rating: number | null
		reviewTitle: string | null
		reviewBody: string | null
		reply: string | null
		reviewCreatedAt: string | null
		repliedAt: string | null
		reviewHiddenReason: string | null
	}

async function loadDetail(where: SQL, language: Language): Promise<RequestDetail> {
	const [row] = await queryRows<DetailRow>(
		db,
		sql`select r.id, r.customer_id as "customerId", ${customerName(language)} as "customerName", ${verifiedPerson(sql`r.customer_id`)} as "customerVerified",
		           u.mobile as "customerMobile", u.email as "customerEmail",
		           r.status, r.reopen_count as "reopenCount", r.created_at as "createdAt", r.preferred_at as "preferredAt", r.location,
		           ${localizedName('c', language)} as city, r.details, r.notes, r.share_history as "shareHistory",
		           v.id as "vehicleId", ${vehicleLabel('specification')} as "vehicleName",
		           v.registration_number as "registrationNumber", v.vehicle_year as year, v.mileage, v.odometer_unit as "odometerUnit", v.fuel_type as "fuelType",
		           v.transmission, v.vin,
		           ${serviceNames(language)} as services,
		           coalesce((select array_agg(rs.service_id::text) from service_request_services rs where rs.request_id = r.id), '{}') as "serviceIds",
		           (select count(*)::int from offers o where o.request_id = r.id and o.status not in ${endedWithRequest}) as "offerCount",
		           r.selected_offer_id as "selectedOfferId", so.workshop_id as "soWorkshopId", w.workshop_name as "soWorkshopName",
		           w.user_id as "soWorkshopUserId", so.price_cents as "soPriceCents", so.final_price_cents as "soFinalPriceCents",
		           so.approved_extra_cents as "soApprovedExtraCents", so.bill_reason as "soBillReason",
		           so.status as "soStatus", so.selected_at as "soSelectedAt", so.completed_at as "soCompletedAt",
		           so.warranty_work_km as "soWarrantyWorkKm", so.warranty_parts_months as "soWarrantyPartsMonths",
		           rv.id as "reviewId", rv.rating, rv.title as "reviewTitle", rv.body as "reviewBody", rv.reply,
		           rv.created_at as "reviewCreatedAt", rv.replied_at as "repliedAt", rv.hidden_reason as "reviewHiddenReason"
		    from service_requests r
		    join users u on u.id = r.customer_id
		    join vehicles v on v.id = r.vehicle_id
		    join car_brands b on b.id = v.brand_id
		    left join cities c on c.id = r.city_id
		    left join offers so on so.id = r.selected_offer_id
		    left join workshops w on w.id = so.workshop_id
		    left join reviews rv on rv.request_id = r.id
		    where ${where}`,
	)
	if (!row) throw notFound()
	const [images, events] = await Promise.all([
		queryRows<{ uploadId: string }>(db, sql`select upload_id as "uploadId" from service_request_images where request_id = ${row.id} order by position`),
		queryRows<RequestEvent>(db, sql`select status, created_at as at from request_events where request_id = ${row.id} order by created_at, id`),
	])
	const sources = await imageSourcesFor(images.map((image) => image.uploadId))
	// The request's own columns as they are; the vehicle's, the selected offer's and the review's nested.
	const {
		vehicleId, vehicleName, registrationNumber, year, mileage, odometerUnit, fuelType, transmission, vin,
		selectedOfferId, soWorkshopId, soWorkshopName, soWorkshopUserId, soPriceCents, soFinalPriceCents, soApprovedExtraCents, soBillReason, soStatus, soSelectedAt, soCompletedAt, soWarrantyWorkKm, soWarrantyPartsMonths,
		reviewId, rating, reviewTitle, reviewBody, reply, reviewCreatedAt, repliedAt, reviewHiddenReason,
		...request
	} = row
	return {
		...request,
		vehicle: { id: vehicleId, name: vehicleName, registrationNumber, year, mileage, odometerUnit, fuelType, transmission, vin },
		images: images.map((image) => ({ id: image.uploadId, source: sources.get(image.uploadId) ?? null })),
		events,
		selectedOffer:
			selectedOfferId && soWorkshopId
				? {
						id: selectedOfferId,
						workshopId: soWorkshopId,
						workshopName: soWorkshopName!,
						workshopUserId: soWorkshopUserId!,
						priceCents: soPriceCents!,
						finalPriceCents: soFinalPriceCents,
						approvedExtraCents: soApprovedExtraCents!,
						billReason: soBillReason,
						status: soStatus!,
						selectedAt: soSelectedAt,
						completedAt: soCompletedAt,
						warrantyWorkKm: soWarrantyWorkKm,
						warrantyPartsMonths: soWarrantyPartsMonths,
					}
				: null,
		review: reviewId
			? { id: reviewId, rating: rating!, title: reviewTitle ?? '', body: reviewBody ?? '', reply, createdAt: reviewCreatedAt!, repliedAt, hiddenReason: reviewHiddenReason }
			: null,
	}
}

/** One of the customer's requests, whole. */
export function getCustomerRequest(customerId: string, requestId: string, language: Language) {
	return loadDetail(sql`r.id = ${requestId} and r.customer_id = ${customerId}`, language)
}

/**
 * A request as a workshop sees it: an open one for one of its services, or one it has bid on.
 * The customer's phone and e-mail are for the workshop whose offer was selected only (privacy policy),
 * and so are the photos once the request is no longer open.
 */
export async function getRequestForWorkshop(workshopId: string, requestId: string, language: Language) {
	const detail = await loadDetail(
		sql`r.id = ${requestId} and (
		      exists (select 1 from offers o where o.request_id = r.id and o.workshop_id = ${workshopId})
		      or (r.status in ${valueList(statusLists.openRequests)} and ${requestMatchesWorkshopId(workshopId)}))`,
		language,
	)
	const chosen = detail.selectedOffer?.workshopId === workshopId
	// The photos on the terms of findViewableUpload: while the request is open, then the chosen workshop only.
	const images = isRequestOpen(detail.status) || chosen ? detail.images : []
	return chosen ? detail : { ...detail, images, customerMobile: '', customerEmail: '', customerName: detail.customerName.split(' ')[0] ?? '' }
}

/** Offers that ended with their cancelled or expired request: not shown among the request's offers. */
const endedWithRequest = valueList([offerMoves.cancelWithRequest.to, offerMoves.expireWithRequest.to])

const offerOrder: Record<'price' | 'rating' | 'newest', SQL> = {
	price: sql`o.price_cents asc, w.rating_average desc`,
	rating: sql`w.rating_average desc, w.review_count desc, o.price_cents asc`,
	newest: sql`o.created_at desc`,
}

/** Step 2: the offers on the customer's request, with what the customer needs to compare them. */
export async function listOffersForCustomer(
	customerId: string,
	requestId: string,
	language: Language,
	sort: 'price' | 'rating' | 'newest',
): Promise<OfferForCustomer[]> {
	const offers = await queryRows<Omit<OfferForCustomer, 'logoImage'>>(
		db,
		sql`select ${offerColumns},
		           w.id as "workshopId", w.user_id as "workshopUserId", w.workshop_name as "workshopName", w.logo_upload_id as "logoUploadId",
		           ${localizedName('c', language)} as city, w.rating_average as "ratingAverage", w.review_count as "reviewCount",
		           w.response_minutes as "responseMinutes", w.package_rank > 0 as featured, w.warranty_info as "warrantyInfo",
		           ${verifiedPerson(sql`w.user_id`)} as "workshopVerified"
		    from offers o
		    join service_requests r on r.id = o.request_id
		    join workshops w on w.id = o.workshop_id
		    left join cities c on c.id = w.city_id
		    where o.request_id = ${requestId} and r.customer_id = ${customerId} and o.status not in ${endedWithRequest}
		    order by ${offerOrder[sort]}`,
	)
	const logos = await imageSourcesFor(offers.map((offer) => offer.logoUploadId))
	return offers.map((offer) => ({ ...offer, logoImage: (offer.logoUploadId && logos.get(offer.logoUploadId)) || null }))
}

export type WorkshopContact = {
	id: string
	workshopName: string
	phone: string
	email: string
	address: string
	logoUploadId: string | null
	logoImage: ImageSource | null
}

/** The chosen workshop's contacts, for the customer whose request it works on. */
export async function getWorkshopContact(workshopId: string, language: Language): Promise<WorkshopContact> {
	const [row] = await queryRows<Omit<WorkshopContact, 'logoImage'>>(
		db,
		sql`select w.id, w.workshop_name as "workshopName", w.phone, w.email, w.logo_upload_id as "logoUploadId",
		           concat_ws(', ', nullif(w.street_name, ''), nullif(concat_ws(' ', nullif(w.zip_code, ''), ${localizedName('c', language)}), '')) as address
		    from workshops w left join cities c on c.id = w.city_id
		    where w.id = ${workshopId}`,
	)
	if (!row) throw notFound()
	const logoImage = (row.logoUploadId && (await imageSourcesFor([row.logoUploadId])).get(row.logoUploadId)) || null
	return { ...row, logoImage }
}

/** The workshop a customer asks from its page ("Ask for an offer"), by its id: any whose owner is not blocked. */
export async function workshopToAsk(workshopId: string | null, database: DbOrTx = db): Promise<{ id: string; name: string } | null> {
	if (!workshopId) return null
	const [workshop] = await queryRows<{ id: string; name: string }>(
		database,
		sql`select w.id, w.workshop_name as name from workshops w where w.id = ${workshopId} and ${workshopOwnerNotBlocked}`,
	)
	return workshop ?? null
}

/**
 * The workshop a visitor is on their way to ask: their way back (`redirectTo`, already a safe path
 * of this site) leads to the request form addressed to it, as "Ask for an offer" on its page does.
 * The login and registration pages name it; any other way back, or a workshop that cannot be
 * asked, names none.
 */
export async function workshopOnTheWay(wayBack: string | null): Promise<{ id: string; name: string } | null> {
	if (!wayBack) return null
	const url = new URL(wayBack, 'http://portal.invalid')
	if (url.pathname !== '/new-service-register') return null
	return workshopToAsk(decodeId(url.searchParams.get('workshop')))
}
