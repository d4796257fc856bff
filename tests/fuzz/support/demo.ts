/**
 * Real ids from the demo data (app/db/seed/demo-data.server.ts), read from the database the
 * server uses: the demo people's own items, someone else's, and the reference lists. Slugs are
 * the portal's public ids (app/utils/public-id.ts).
 */
import { sql, type SQL } from 'drizzle-orm'
import { requestMatchesWorkshopId, valueList } from '~/db/sql'
import { statusLists } from '~/domain/service-flow/status'
import { db, queryRows } from '~/db/db.server'
import { encodeId } from '~/utils/public-id'

async function one(query: SQL, what: string): Promise<string> {
	const [row] = await queryRows<{ id: string }>(db, query)
	if (!row) throw new Error(`the demo data has no ${what}`)
	return String(row.id)
}

async function ids(query: SQL): Promise<string[]> {
	return (await queryRows<{ id: string }>(db, query)).map((row) => String(row.id))
}

export const DEMO_PASSWORD = 'demo12345'
export const DEMO = { customer: 'customer@example.com', workshop: 'workshop@example.com', admin: 'admin@example.com', other: 'kadri.saar@example.com' }

export type Demo = Awaited<ReturnType<typeof loadDemo>>

export async function loadDemo() {
	const user = (email: string) => one(sql`select id from users where email = ${email}`, `user ${email}`)
	const customerId = await user(DEMO.customer)
	const workshopUserId = await user(DEMO.workshop)
	const adminId = await user(DEMO.admin)
	const otherCustomerId = await user(DEMO.other)
	const workshopId = await one(sql`select id from workshops where user_id = ${workshopUserId}`, 'demo workshop')
	const otherWorkshopId = await one(sql`select id from workshops where user_id <> ${workshopUserId} order by workshop_name limit 1`, 'other workshop')
	const otherWorkshopUserId = await one(sql`select user_id as id from workshops where id = ${otherWorkshopId}`, 'other workshop owner')

	const vehicle = await one(sql`select id from vehicles where owner_id = ${customerId} order by created_at limit 1`, 'customer vehicle')
	const otherVehicle = await one(sql`select id from vehicles where owner_id <> ${customerId} limit 1`, "another customer's vehicle")

	const requestIn = (status: string) =>
		one(sql`select id from service_requests where customer_id = ${customerId} and status = ${status} order by created_at limit 1`, `customer request ${status}`)
	const pendingRequest = await requestIn('pending')
	const offerRequest = await requestIn('offer')
	const inProgressRequest = await requestIn('in_progress')
	const cancelledRequest = await requestIn('cancelled')
	const expiredRequest = await requestIn('expired')
	const unreviewedRequest = await one(
		sql`select r.id from service_requests r where r.customer_id = ${customerId} and r.status = 'completed'
		    and not exists (select 1 from reviews v where v.request_id = r.id) order by r.created_at limit 1`,
		'completed request waiting for feedback',
	)
	const otherRequest = await one(sql`select id from service_requests where customer_id <> ${customerId} order by created_at limit 1`, "another customer's request")
	// An offer on the customer's "offer" request (to select), and one on someone else's request.
	const offerToSelect = await one(sql`select id from offers where request_id = ${offerRequest} and status = 'pending' limit 1`, 'offer to select')
	// Someone else's offer on someone else's request: neither the customer's nor the demo workshop's.
	const foreignOffer = await one(
		sql`select id from offers where workshop_id <> ${workshopId}
		    and request_id in (select id from service_requests where customer_id <> ${customerId}) limit 1`,
		"another workshop's offer on another customer's request",
	)

	// The workshop's side: an open request it has not bid on, one it has, its selected offer, someone else's offer.
	const openRequestWithoutBid = await one(
		sql`select r.id from service_requests r where r.status in ('pending', 'offer') and ${requestMatchesWorkshopId(workshopId)}
		    and not exists (select 1 from offers o where o.request_id = r.id and o.workshop_id = ${workshopId}) order by r.created_at desc limit 1`,
		'open request without a bid of the workshop',
	)
	const openRequestWithBid = await one(
		sql`select o.request_id as id from offers o join service_requests r on r.id = o.request_id
		    where o.workshop_id = ${workshopId} and o.status = 'pending' and r.status in ('pending', 'offer') limit 1`,
		'open request with a pending bid of the workshop',
	)
	// A request the workshop has no offer on and never can (it is no longer open): not its to update or delete.
	const closedRequestWithoutBid = await one(
		sql`select r.id from service_requests r where r.status in ('in_progress', 'completed', 'cancelled')
		    and not exists (select 1 from offers o where o.request_id = r.id and o.workshop_id = ${workshopId}) order by r.created_at limit 1`,
		'closed request without a bid of the workshop',
	)
	const selectedOffer = await one(sql`select id from offers where workshop_id = ${workshopId} and status = 'selected' limit 1`, 'selected offer of the workshop')
	// Another workshop's job under way (the demo's has a disputed bill: issue 19).
	const otherWorkshopOffer = await one(
		sql`select id from offers where workshop_id <> ${workshopId} and status in ${valueList(statusLists.jobsUnderWay)} limit 1`,
		"another workshop's job under way",
	)
	const reviewToAnswer = await one(sql`select id from reviews where workshop_id = ${workshopId} and reply is null limit 1`, 'review to answer')
	const otherWorkshopReview = await one(sql`select id from reviews where workshop_id <> ${workshopId} limit 1`, "another workshop's review")

	// A workshop owner who shares no request with the customer: not a chat partner.
	const nonPartnerWorkshopUserId = await one(
		sql`select w.user_id as id from workshops w where not exists (
		      select 1 from offers o join service_requests r on r.id = o.request_id where o.workshop_id = w.id and r.customer_id = ${customerId})
		    order by w.workshop_name limit 1`,
		'a workshop that shares no request with the customer',
	)
	const customerNotification = await one(sql`select id from notifications where user_id = ${customerId} order by created_at limit 1`, 'customer notification')
	const workshopNotification = await one(sql`select id from notifications where user_id = ${workshopUserId} order by created_at limit 1`, 'workshop notification')

	const packages = await queryRows<{ id: string; code: string }>(db, sql`select id, code from packages order by price_cents`)
	const otherPayment = await one(sql`select id from payments where workshop_id <> ${workshopId} limit 1`, "another workshop's payment")
	const ad = await one(sql`select id from ads order by sort_order limit 1`, 'ad')
	const contactMessage = await one(sql`select id from contact_messages limit 1`, 'contact message')

	const reference = {
		services: await ids(sql`select id from services where active order by sort_order limit 3`),
		carBrands: await ids(sql`select id from car_brands where active order by sort_order limit 3`),
		spareParts: await ids(sql`select id from spare_parts where active order by sort_order limit 2`),
		paymentMethods: await ids(sql`select id from payment_methods where active order by sort_order limit 2`),
		cities: await ids(sql`select id from cities where active order by sort_order limit 2`),
	}
	const service = await one(sql`select id from services where active order by sort_order limit 1`, 'service')

	return {
		customerId,
		workshopUserId,
		adminId,
		otherCustomerId,
		workshopId,
		otherWorkshopId,
		otherWorkshopUserId,
		vehicle,
		otherVehicle,
		pendingRequest,
		offerRequest,
		inProgressRequest,
		cancelledRequest,
		expiredRequest,
		unreviewedRequest,
		otherRequest,
		offerToSelect,
		foreignOffer,
		openRequestWithoutBid,
		openRequestWithBid,
		closedRequestWithoutBid,
		nonPartnerWorkshopUserId,
		selectedOffer,
		otherWorkshopOffer,
		reviewToAnswer,
		otherWorkshopReview,
		customerNotification,
		workshopNotification,
		freePackage: packages.find((p) => p.code === 'free')?.id ?? packages[0]!.id,
		paidPackage: packages.find((p) => p.code !== 'free')?.id ?? packages[0]!.id,
		otherPayment,
		ad,
		contactMessage,
		reference,
		service,
	}
}

export const slug = (id: string) => encodeId(id)
