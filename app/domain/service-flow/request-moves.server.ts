import { and, eq, inArray, isNull, sql } from 'drizzle-orm'
import { cities, offers, serviceRequestImages, serviceRequests, serviceRequestServices, services, vehicles } from '~/db/schema'
import { valueList, vehicleLabel } from '~/db/sql'
import { afterCommit, db, queryRows } from '~/db/db.server'
import { sendInstantOffers } from '~/domain/pricing/price-list-offers.server'
import { savePreparedUpload, type FormUpload } from '~/uploads/storage.server'
import { DomainError, FieldError } from '~/utils/errors'
import { NotificationType, notify, notifyMatchingWorkshops } from '~/domain/messaging/notifications.server'
import { inTransaction, lockCustomerRequest, type Tx } from './move-locks.server'
import { addEvent, notifyWorkshops, requestNoticeParams } from './move-notices.server'
import { workshopToAsk } from './requests.server'
import { MAX_REQUEST_IMAGES, MAX_REQUEST_SERVICES, type ReopenRequestInput, type ServiceRequestInput, type WidenRequestInput } from './requests'
import { canReopen, canRequest, EXPIRY_DAYS, initialStatus, offerMoves, requestAfter, requestMoves, type RequestStatus } from './status'

/**
 * Step 1 of the service flow (status.ts, docs/decisions/0030-status-model.md): the customer's
 * request, made, widened, cancelled, expired and reopened, each a move in one transaction under
 * the lock order (move-locks.server.ts), with the notifications it causes.
 *
 *   request  pending → offer (first offer) → …;  pending | offer → cancelled (by the customer);
 *            offer → expired (nothing chosen 14 days after the first offer) → pending (reopened, once)
 */

/**
 * Registers a request (status pending) with its services and up to three checked images, and
 * tells every workshop it matches (`requestMatchesWorkshop`), the one it is addressed to included.
 * After its commit the workshops' price lists send their instant offers (pricing, decision 0147).
 */
export async function createServiceRequest(customerId: string, input: ServiceRequestInput, images: FormUpload[], within?: Tx): Promise<string> {
	if (images.length > MAX_REQUEST_IMAGES) throw new DomainError('customer:request.tooManyImages', 422, { max: MAX_REQUEST_IMAGES })
	const serviceIds = [...new Set(input.serviceIds)]
	return inTransaction(within, async (tx) => {
		const [vehicle] = await tx
			.select({ id: vehicles.id })
			.from(vehicles)
			.where(and(eq(vehicles.id, input.vehicleId), eq(vehicles.ownerId, customerId), isNull(vehicles.deletedAt)))
			// Held until commit: the vehicle cannot be removed while its request is being made.
			.for('share', { of: vehicles })
		if (!vehicle) throw new FieldError('vehicleId', 'customer:request.unknownVehicle')
		const known = await tx.select({ id: services.id }).from(services).where(inArray(services.id, serviceIds))
		if (known.length !== serviceIds.length) throw new FieldError('serviceIds', 'common:validation.unknownChoice')
		if (input.cityId) {
			const [city] = await tx.select({ id: cities.id }).from(cities).where(eq(cities.id, input.cityId))
			if (!city) throw new FieldError('cityId', 'common:validation.unknownChoice')
		}
		const addressed = await workshopToAsk(input.workshopId ?? null, tx)
		if (input.workshopId && !addressed) throw new FieldError('workshopId', 'customer:request.unknownWorkshop')
		const addressedWorkshopId = addressed?.id ?? null

		const [request] = await tx
			.insert(serviceRequests)
			.values({
				customerId,
				vehicleId: vehicle.id,
				addressedWorkshopId,
				addressedOnly: addressedWorkshopId !== null && !input.alsoOthers,
				preferredAt: input.preferredAt,
				location: input.location,
				cityId: input.cityId ?? null,
				details: input.details,
				notes: input.notes ?? '',
				shareHistory: input.shareHistory === 'on',
				status: initialStatus.request,
			})
			.returning({ id: serviceRequests.id })
		const requestId = request!.id
		await tx.insert(serviceRequestServices).values(serviceIds.map((serviceId) => ({ requestId, serviceId })))
		for (const [position, image] of images.entries()) {
			const upload = await savePreparedUpload(tx, image, customerId)
			await tx.insert(serviceRequestImages).values({ requestId, uploadId: upload.id, position })
		}
		await addEvent(tx, requestId, initialStatus.request, customerId)
		await notifyMatchingWorkshops(tx, { requestId, params: await newRequestParams(tx, requestId) })
		// The workshops' instant offers (issue 35) once the request is there for them to see; a
		// caller's own transaction (the demo data) leaves them to the job `instant-offers`.
		if (!within) await afterCommit(tx, async () => void (await sendInstantOffers(requestId)))
		return requestId
	})
}

/** The customer cancels a request that has no selected offer yet; its offers end with it. */
export async function cancelRequest(customerId: string, requestId: string, within?: Tx) {
	await inTransaction(within, async (tx) => {
		const request = await lockCustomerRequest(tx, customerId, requestId)
		if (!canRequest('cancel', request.status)) throw new DomainError('customer:request.cannotCancel', 409)
		await endWithOffers(tx, requestId, request.status, 'cancel', customerId)
	})
}

/** How a request's pending offers end when it leaves the flow, and what their workshops are told. */
const offersEndingWith = {
	cancel: { move: offerMoves.cancelWithRequest, messageKey: 'notifications.requestCancelled' },
	expire: { move: offerMoves.expireWithRequest, messageKey: 'notifications.requestExpired' },
} as const

/** A request leaves the flow (cancelled, or expired): its pending offers end with it, their workshops are told. */
async function endWithOffers(tx: Tx, requestId: string, from: RequestStatus, move: keyof typeof offersEndingWith, actorId: string | null) {
	const status = requestAfter(move, from)
	await tx.update(serviceRequests).set({ status }).where(eq(serviceRequests.id, requestId))
	await addEvent(tx, requestId, status, actorId)
	const ending = offersEndingWith[move]
	const ended = await tx
		.update(offers)
		.set({ status: ending.move.to })
		.where(and(eq(offers.requestId, requestId), inArray(offers.status, ending.move.from)))
		.returning({ id: offers.id, workshopId: offers.workshopId })
	await notifyWorkshops(tx, ended, ending.messageKey, await requestNoticeParams(tx, requestId))
}

/**
 * What the "new request" notification names: the vehicle, the city (or the place written) and the
 * services, in each language (the text names the vehicle, so no `car` is added).
 */
async function newRequestParams(tx: Tx, requestId: string) {
	const [row] = await queryRows<Record<string, string>>(
		tx,
		sql`select ${vehicleLabel()} as vehicle, coalesce(c.name_et, r.location) as city_et,
		           coalesce(c.name_en, r.location) as city_en, coalesce(c.name_ru, r.location) as city_ru
		    from service_requests r join vehicles v on v.id = r.vehicle_id join car_brands b on b.id = v.brand_id
		    left join cities c on c.id = r.city_id
		    where r.id = ${requestId}`,
	)
	const { car: _named, ...services } = await requestNoticeParams(tx, requestId)
	return { ...row!, ...services }
}

/**
 * The customer widens a request nobody was chosen for, to reach more workshops: services added,
 * or its city dropped. The workshops it now reaches, and did not before, are told. Answers how many.
 */
export async function widenRequest(customerId: string, requestId: string, input: WidenRequestInput, within?: Tx): Promise<number> {
	return inTransaction(within, async (tx) => {
		const request = await lockCustomerRequest(tx, customerId, requestId)
		if (!canRequest('widen', request.status)) throw new DomainError('customer:requestDetails.cannotWiden', 409)
		const added = [...new Set(input.serviceIds)]
		if (added.length) {
			const known = await tx.select({ id: services.id }).from(services).where(inArray(services.id, added))
			if (known.length !== added.length) throw new FieldError('serviceIds', 'common:validation.unknownChoice')
			const current = await tx.select({ id: serviceRequestServices.serviceId }).from(serviceRequestServices).where(eq(serviceRequestServices.requestId, requestId))
			if (new Set([...current.map((row) => row.id), ...added]).size > MAX_REQUEST_SERVICES) {
				throw new FieldError('serviceIds', 'customer:requestDetails.tooManyServices', 422, { max: MAX_REQUEST_SERVICES })
			}
			await tx
				.insert(serviceRequestServices)
				.values(added.map((serviceId) => ({ requestId, serviceId })))
				.onConflictDoNothing()
		}
		// Widening asks every matching workshop, also when the customer first asked only one.
		const widened = { ...(input.anyCity && request.cityId ? { cityId: null } : {}), ...(request.addressedOnly ? { addressedOnly: false } : {}) }
		if (Object.keys(widened).length) await tx.update(serviceRequests).set(widened).where(eq(serviceRequests.id, requestId))
		return notifyMatchingWorkshops(tx, { requestId, params: await newRequestParams(tx, requestId), onlyNew: true })
	})
}

/**
 * The customer asks again for an expired request (at most `REOPEN_LIMIT` times): it waits for
 * offers as a new one would, and the matching workshops are told again.
 */
export async function reopenRequest(customerId: string, requestId: string, input: ReopenRequestInput, within?: Tx) {
	await inTransaction(within, async (tx) => {
		const request = await lockCustomerRequest(tx, customerId, requestId)
		if (!canReopen(request.status, request.reopenCount)) throw new DomainError('customer:requestDetails.cannotReopen', 409)
		const status = requestAfter('reopen', request.status)
		await tx
			.update(serviceRequests)
			.set({ status, reopenCount: request.reopenCount + 1, preferredAt: input.preferredAt })
			.where(eq(serviceRequests.id, requestId))
		await addEvent(tx, requestId, status, customerId)
		await notifyMatchingWorkshops(tx, { requestId, params: await newRequestParams(tx, requestId) })
	})
}

/**
 * Requests whose customer has chosen nothing `EXPIRY_DAYS` after the first offer still standing
 * (made since the request was last opened) expire: their pending offers end with them, and the
 * workshops and the customer are told. Run by the background jobs; `now` is the tests' clock.
 * Answers how many expired.
 */
export async function expireStaleRequests(now = new Date()): Promise<number> {
	const due = await queryRows<{ id: string }>(
		db,
		sql`select r.id from service_requests r
		    where r.status in ${valueList(requestMoves.expire.from)}
		      and ${firstStandingOffer()} <= ${now}::timestamptz - make_interval(days => ${EXPIRY_DAYS})
		    order by r.created_at
		    limit 500`,
	)
	let expired = 0
	for (const { id } of due) if (await expireRequest(id, now)) expired += 1
	return expired
}

/** When the oldest offer still waiting for the customer on request r was made. */
const firstStandingOffer = () =>
	sql`(select min(o.created_at) from offers o where o.request_id = r.id and o.status in ${valueList(offerMoves.expireWithRequest.from)})`

/** One request's expiry, if it is still due at `now`; answers whether it expired. */
export async function expireRequest(requestId: string, now: Date, within?: Tx): Promise<boolean> {
	return inTransaction(within, async (tx) => {
		// The same lock order as every move: the request, then its offers. Under the lock the request
		// may have moved on (an offer chosen, the request cancelled, the first offer withdrawn).
		const [request] = await queryRows<{ customerId: string; status: RequestStatus; due: boolean }>(
			tx,
			sql`select r.customer_id as "customerId", r.status,
			           coalesce(${firstStandingOffer()} <= ${now}::timestamptz - make_interval(days => ${EXPIRY_DAYS}), false) as due
			    from service_requests r where r.id = ${requestId} for update of r`,
		)
		if (!request || !canRequest('expire', request.status) || !request.due) return false
		await endWithOffers(tx, requestId, request.status, 'expire', null)
		await notify(tx, {
			userId: request.customerId,
			type: NotificationType.dialog,
			messageKey: 'notifications.requestExpiredCustomer',
			messageParams: { days: EXPIRY_DAYS, ...(await requestNoticeParams(tx, requestId)) },
			receivedId: requestId,
		})
		return true
	})
}
