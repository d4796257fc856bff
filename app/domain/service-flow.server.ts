import { and, eq, inArray, isNull, ne, sql } from 'drizzle-orm'
import {
	carBrands,
	cities,
	offers,
	packages,
	requestEvents,
	reviews,
	serviceRequestImages,
	serviceRequests,
	serviceRequestServices,
	services,
	subscriptions,
	users,
	vehicles,
	workshops,
} from '~/db/schema'
import { db, isUniqueViolation, queryRows, type DbOrTx } from '~/utils/db.server'
import { savePreparedUpload, type PreparedUpload } from '~/utils/storage.server'
import { DomainError, notFound } from './errors'
import { NotificationType, notify, notifyMatchingWorkshops } from './notifications.server'
import { type OfferInput } from './offers'
import { MAX_REQUEST_IMAGES, type ServiceRequestInput } from './requests'

/**
 * The service flow's status model (docs/decisions/0030-status-model.md), every transition one
 * function here, in one transaction, with the notifications it causes:
 *
 *   request  pending → offer (first offer) → in_progress (an offer selected) → completed (final price)
 *            pending | offer → cancelled (by the customer)
 *   offer    pending → selected → job_completed;  pending → rejected | request_cancelled;
 *            a pending offer may be edited or deleted by its workshop.
 *
 * Each function locks the row it changes (SELECT … FOR UPDATE) and checks the status under the
 * lock, so two moves at the same moment cannot both succeed. Any other move is refused with a
 * DomainError carrying a translated message key. Ownership is part of every query.
 */

type Tx = DbOrTx
export type WorkshopActor = { workshopId: string; userId: string; workshopName: string }

async function addEvent(tx: Tx, requestId: string, status: (typeof serviceRequests.$inferSelect)['status'], actorId: string | null) {
	await tx.insert(requestEvents).values({ requestId, status, actorId })
}

/** The customer's request, locked; another customer's request is "not found". */
async function lockCustomerRequest(tx: Tx, customerId: string, requestId: string) {
	const [request] = await tx
		.select()
		.from(serviceRequests)
		.where(and(eq(serviceRequests.id, requestId), eq(serviceRequests.customerId, customerId)))
		.for('update')
	if (!request) throw notFound()
	return request
}

// ------------------------------------------------------------------ step 1: the request

/**
 * Registers a request (status pending) with its services and up to three checked images, and
 * tells every workshop that offers one of the services.
 */
export async function createServiceRequest(customerId: string, input: ServiceRequestInput, images: PreparedUpload[]): Promise<string> {
	if (images.length > MAX_REQUEST_IMAGES) throw new DomainError('customer:request.tooManyImages', 422, { max: MAX_REQUEST_IMAGES })
	const serviceIds = [...new Set(input.serviceIds)]
	return db.transaction(async (tx) => {
		const [vehicle] = await tx
			.select({ id: vehicles.id, model: vehicles.model, brand: carBrands.nameEn })
			.from(vehicles)
			.innerJoin(carBrands, eq(carBrands.id, vehicles.brandId))
			.where(and(eq(vehicles.id, input.vehicleId), eq(vehicles.ownerId, customerId), isNull(vehicles.deletedAt)))
		if (!vehicle) throw new DomainError('customer:request.unknownVehicle', 422)
		const known = await tx.select({ id: services.id }).from(services).where(inArray(services.id, serviceIds))
		if (known.length !== serviceIds.length) throw new DomainError('common:validation.choose', 422)
		let cityName: string | null = null
		if (input.cityId) {
			const [city] = await tx.select({ name: cities.nameEt }).from(cities).where(eq(cities.id, input.cityId))
			if (!city) throw new DomainError('common:validation.required', 422)
			cityName = city.name
		}

		const [request] = await tx
			.insert(serviceRequests)
			.values({
				customerId,
				vehicleId: vehicle.id,
				preferredAt: input.preferredAt,
				location: input.location,
				cityId: input.cityId ?? null,
				details: input.details,
				notes: input.notes ?? '',
				status: 'pending',
			})
			.returning({ id: serviceRequests.id })
		const requestId = request!.id
		await tx.insert(serviceRequestServices).values(serviceIds.map((serviceId) => ({ requestId, serviceId })))
		for (const [position, image] of images.entries()) {
			const upload = await savePreparedUpload(tx, image, customerId)
			await tx.insert(serviceRequestImages).values({ requestId, uploadId: upload.id, position })
		}
		await addEvent(tx, requestId, 'pending', customerId)
		await notifyMatchingWorkshops(tx, {
			requestId,
			serviceIds,
			params: { vehicle: `${vehicle.brand} ${vehicle.model}`, city: cityName ?? input.location },
		})
		return requestId
	})
}

/** The customer cancels a request that has no selected offer yet; its offers end with it. */
export async function cancelRequest(customerId: string, requestId: string) {
	await db.transaction(async (tx) => {
		const request = await lockCustomerRequest(tx, customerId, requestId)
		if (request.status !== 'pending' && request.status !== 'offer') {
			throw new DomainError('customer:request.cannotCancel', 409)
		}
		await tx.update(serviceRequests).set({ status: 'cancelled' }).where(eq(serviceRequests.id, requestId))
		await addEvent(tx, requestId, 'cancelled', customerId)
		const ended = await tx
			.update(offers)
			.set({ status: 'request_cancelled' })
			.where(and(eq(offers.requestId, requestId), eq(offers.status, 'pending')))
			.returning({ id: offers.id, workshopId: offers.workshopId })
		await notifyWorkshops(tx, ended, 'notifications.requestCancelled', {})
	})
}

async function notifyWorkshops(
	tx: Tx,
	changed: Array<{ id: string; workshopId: string }>,
	messageKey: string,
	messageParams: Record<string, string | number>,
) {
	if (!changed.length) return
	const owners = await tx
		.select({ id: workshops.id, userId: workshops.userId })
		.from(workshops)
		.where(inArray(workshops.id, changed.map((offer) => offer.workshopId)))
	await notify(
		tx,
		changed.map((offer) => ({
			userId: owners.find((owner) => owner.id === offer.workshopId)!.userId,
			type: NotificationType.offerChanged,
			messageKey,
			messageParams,
			receivedId: offer.id,
		})),
	)
}

// ------------------------------------------------------------------ offers

/**
 * The one place that decides whether a workshop may make another offer this calendar month
 * (Estonian time): its active package's offersPerMonth, unlimited when that is null.
 * A workshop without a package is held to the free package's limit.
 */
export async function assertOfferAllowed(tx: Tx, workshopId: string) {
	const [active] = await tx
		.select({ limit: packages.offersPerMonth })
		.from(subscriptions)
		.innerJoin(packages, eq(packages.id, subscriptions.packageId))
		.where(and(eq(subscriptions.workshopId, workshopId), eq(subscriptions.status, 'active')))
	const limit = active ? active.limit : ((await tx.select({ limit: packages.offersPerMonth }).from(packages).where(eq(packages.code, 'free')))[0]?.limit ?? null)
	if (limit === null) return
	const [row] = await queryRows<{ n: number }>(
		tx,
		sql`select count(*)::int as n from offers
		    where workshop_id = ${workshopId}
		      and created_at >= (date_trunc('month', now() at time zone 'Europe/Tallinn') at time zone 'Europe/Tallinn')`,
	)
	if ((row?.n ?? 0) >= limit) throw new DomainError('workshop:offer.limitReached', 403, { limit })
}

/** Whether the workshop offers at least one of the request's services (it only sees those). */
async function requestMatchesWorkshop(tx: Tx, requestId: string, workshopId: string) {
	const [row] = await queryRows<{ ok: boolean }>(
		tx,
		sql`select exists (select 1 from service_request_services rs
		                   join workshop_services ws on ws.service_id = rs.service_id and ws.workshop_id = ${workshopId}
		                   where rs.request_id = ${requestId}) as ok`,
	)
	return Boolean(row?.ok)
}

/**
 * A workshop's offer on an open request: one per workshop and request, within the package's
 * monthly limit. The first offer moves the request to "offer"; the customer is told.
 */
export async function makeOffer(workshop: WorkshopActor, requestId: string, input: OfferInput, attachment: PreparedUpload | null): Promise<string> {
	try {
		return await db.transaction(async (tx) => {
			const [request] = await tx.select().from(serviceRequests).where(eq(serviceRequests.id, requestId)).for('update')
			if (!request || !(await requestMatchesWorkshop(tx, requestId, workshop.workshopId))) throw notFound()
			if (request.status !== 'pending' && request.status !== 'offer') throw new DomainError('workshop:offer.requestClosed', 409)
			const [existing] = await tx
				.select({ id: offers.id })
				.from(offers)
				.where(and(eq(offers.requestId, requestId), eq(offers.workshopId, workshop.workshopId)))
			if (existing) throw new DomainError('workshop:offer.alreadyMade', 409)
			// One workshop's offers are made one at a time, so the monthly count cannot be raced.
			await tx.select({ id: workshops.id }).from(workshops).where(eq(workshops.id, workshop.workshopId)).for('update')
			await assertOfferAllowed(tx, workshop.workshopId)

			const upload = attachment ? await savePreparedUpload(tx, attachment, workshop.userId) : null
			const [offer] = await tx
				.insert(offers)
				.values({
					requestId,
					workshopId: workshop.workshopId,
					priceCents: input.price,
					notes: input.notes ?? '',
					description: input.description ?? '',
					attachmentUploadId: upload?.id ?? null,
				})
				.returning({ id: offers.id })
			if (request.status === 'pending') {
				await tx.update(serviceRequests).set({ status: 'offer' }).where(eq(serviceRequests.id, requestId))
				await addEvent(tx, requestId, 'offer', workshop.userId)
			}
			await notify(tx, {
				userId: request.customerId,
				type: NotificationType.newOffer,
				messageKey: 'notifications.newOffer',
				messageParams: { workshop: workshop.workshopName, price: (input.price / 100).toFixed(2) },
				receivedId: requestId,
			})
			return offer!.id
		})
	} catch (error) {
		if (isUniqueViolation(error, 'offers_one_per_workshop_key')) throw new DomainError('workshop:offer.alreadyMade', 409)
		throw error
	}
}

/** The workshop's own offer, locked; another workshop's offer is "not found". */
async function lockWorkshopOffer(tx: Tx, workshopId: string, offerId: string) {
	const [offer] = await tx
		.select()
		.from(offers)
		.where(and(eq(offers.id, offerId), eq(offers.workshopId, workshopId)))
		.for('update')
	if (!offer) throw notFound()
	return offer
}

/** Changes a pending offer; `attachment` null keeps the current PDF, 'remove' drops it. */
export async function updateOffer(
	workshop: WorkshopActor,
	offerId: string,
	input: OfferInput,
	attachment: PreparedUpload | null | 'remove',
) {
	await db.transaction(async (tx) => {
		const offer = await lockWorkshopOffer(tx, workshop.workshopId, offerId)
		if (offer.status !== 'pending') throw new DomainError('workshop:offer.notEditable', 409)
		const upload = attachment && attachment !== 'remove' ? await savePreparedUpload(tx, attachment, workshop.userId) : null
		await tx
			.update(offers)
			.set({
				priceCents: input.price,
				notes: input.notes ?? '',
				description: input.description ?? '',
				...(attachment === 'remove' ? { attachmentUploadId: null } : upload ? { attachmentUploadId: upload.id } : {}),
			})
			.where(eq(offers.id, offerId))
	})
}

/** Withdraws a pending offer; a request left without offers is pending again. */
export async function deleteOffer(workshop: WorkshopActor, offerId: string) {
	await db.transaction(async (tx) => {
		const offer = await lockWorkshopOffer(tx, workshop.workshopId, offerId)
		if (offer.status !== 'pending') throw new DomainError('workshop:offer.notDeletable', 409)
		const [request] = await tx.select().from(serviceRequests).where(eq(serviceRequests.id, offer.requestId)).for('update')
		await tx.delete(offers).where(eq(offers.id, offerId))
		const [remaining] = await tx
			.select({ id: offers.id })
			.from(offers)
			.where(and(eq(offers.requestId, offer.requestId), eq(offers.status, 'pending')))
			.limit(1)
		if (request?.status === 'offer' && !remaining) {
			await tx.update(serviceRequests).set({ status: 'pending' }).where(eq(serviceRequests.id, offer.requestId))
			await addEvent(tx, offer.requestId, 'pending', workshop.userId)
		}
	})
}

// ------------------------------------------------------------------ step 2: selecting an offer

/**
 * The customer selects one pending offer of a request with offers: it becomes selected, the
 * others rejected, the request in progress. Under the request's lock, only the first of two
 * simultaneous selections finds the request still open.
 */
export async function selectOffer(customerId: string, requestId: string, offerId: string) {
	await db.transaction(async (tx) => {
		const request = await lockCustomerRequest(tx, customerId, requestId)
		if (request.status === 'in_progress' || request.selectedOfferId) throw new DomainError('customer:offers.alreadySelected', 409)
		if (request.status !== 'offer') throw new DomainError('customer:offers.cannotSelect', 409)
		const [offer] = await tx
			.select()
			.from(offers)
			.where(and(eq(offers.id, offerId), eq(offers.requestId, requestId)))
		if (!offer) throw notFound()
		if (offer.status !== 'pending') throw new DomainError('customer:offers.cannotSelect', 409)

		const now = new Date()
		await tx.update(offers).set({ status: 'selected', selectedAt: now }).where(eq(offers.id, offerId))
		const rejected = await tx
			.update(offers)
			.set({ status: 'rejected' })
			.where(and(eq(offers.requestId, requestId), eq(offers.status, 'pending'), ne(offers.id, offerId)))
			.returning({ id: offers.id, workshopId: offers.workshopId })
		await tx.update(serviceRequests).set({ status: 'in_progress', selectedOfferId: offerId }).where(eq(serviceRequests.id, requestId))
		await addEvent(tx, requestId, 'in_progress', customerId)

		const [customer] = await tx.select({ firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.id, customerId))
		await notifyWorkshops(tx, [{ id: offer.id, workshopId: offer.workshopId }], 'notifications.offerSelected', {
			customer: `${customer!.firstName} ${customer!.lastName}`,
		})
		await notifyWorkshops(tx, rejected, 'notifications.offerRejected', {})
	})
}

// ------------------------------------------------------------------ step 3: the work

/** The workshop enters the final price (actual bill amount): the job and the request are completed. */
export async function completeJob(workshop: WorkshopActor, offerId: string, finalPriceCents: number) {
	await db.transaction(async (tx) => {
		const offer = await lockWorkshopOffer(tx, workshop.workshopId, offerId)
		const [request] = await tx.select().from(serviceRequests).where(eq(serviceRequests.id, offer.requestId)).for('update')
		if (offer.status !== 'selected' || request?.status !== 'in_progress') throw new DomainError('workshop:job.cannotComplete', 409)
		await tx
			.update(offers)
			.set({ status: 'job_completed', finalPriceCents, completedAt: new Date() })
			.where(eq(offers.id, offerId))
		await tx.update(serviceRequests).set({ status: 'completed' }).where(eq(serviceRequests.id, request.id))
		await addEvent(tx, request.id, 'completed', workshop.userId)
		await notify(tx, {
			userId: request.customerId,
			type: NotificationType.jobCompleted,
			messageKey: 'notifications.jobCompleted',
			messageParams: { workshop: workshop.workshopName },
			receivedId: request.id,
		})
	})
}

// ------------------------------------------------------------------ step 4: feedback

/** Keeps a workshop's stored average and count equal to its reviews (the directory sorts on them). */
async function refreshWorkshopRating(tx: Tx, workshopId: string) {
	await tx.execute(sql`
		update workshops set
			rating_average = coalesce((select avg(rating)::float8 from reviews where workshop_id = ${workshopId}), 0),
			review_count = (select count(*)::int from reviews where workshop_id = ${workshopId})
		where id = ${workshopId}`)
}

/** One review per completed request; it counts in the workshop's rating at once. */
export async function addReview(customerId: string, requestId: string, input: { rating: number; title?: string; body: string }) {
	try {
		return await db.transaction(async (tx) => {
			const request = await lockCustomerRequest(tx, customerId, requestId)
			if (request.status !== 'completed' || !request.selectedOfferId) throw new DomainError('customer:review.notCompleted', 409)
			const [existing] = await tx.select({ id: reviews.id }).from(reviews).where(eq(reviews.requestId, requestId))
			if (existing) throw new DomainError('customer:review.alreadyGiven', 409)
			const [offer] = await tx.select({ workshopId: offers.workshopId }).from(offers).where(eq(offers.id, request.selectedOfferId))
			const [review] = await tx
				.insert(reviews)
				.values({ requestId, workshopId: offer!.workshopId, customerId, rating: input.rating, title: input.title ?? '', body: input.body })
				.returning({ id: reviews.id })
			await refreshWorkshopRating(tx, offer!.workshopId)
			const [customer] = await tx.select({ firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.id, customerId))
			const [owner] = await tx.select({ userId: workshops.userId }).from(workshops).where(eq(workshops.id, offer!.workshopId))
			await notify(tx, {
				userId: owner!.userId,
				type: NotificationType.newReview,
				messageKey: 'notifications.newReview',
				messageParams: { customer: `${customer!.firstName} ${customer!.lastName}`, rating: input.rating },
				receivedId: review!.id,
			})
			return review!.id
		})
	} catch (error) {
		if (isUniqueViolation(error)) throw new DomainError('customer:review.alreadyGiven', 409)
		throw error
	}
}

/** The workshop answers a review of its own, once; the customer is told. */
export async function replyToReview(workshop: WorkshopActor, reviewId: string, reply: string) {
	await db.transaction(async (tx) => {
		const [review] = await tx
			.select()
			.from(reviews)
			.where(and(eq(reviews.id, reviewId), eq(reviews.workshopId, workshop.workshopId)))
			.for('update')
		if (!review) throw notFound()
		if (review.reply) throw new DomainError('workshop:review.alreadyReplied', 409)
		await tx.update(reviews).set({ reply, repliedAt: new Date() }).where(eq(reviews.id, reviewId))
		await notify(tx, {
			userId: review.customerId,
			type: NotificationType.dialog,
			messageKey: 'notifications.reviewReply',
			messageParams: { workshop: workshop.workshopName },
			receivedId: reviewId,
		})
	})
}
