import { and, count, eq, inArray, isNull, ne, sql } from 'drizzle-orm'
import {
	billDisputes,
	cities,
	extraWork,
	extraWorkImages,
	extraWorkLines,
	offerLines,
	offers,
	requestEvents,
	reviews,
	serviceRequestImages,
	serviceRequests,
	serviceRequestServices,
	services,
	users,
	vehicles,
	workshops,
} from '~/db/schema'
import { requestMatchesWorkshopId, valueList, vehicleLabel } from '~/db/sql'
import { db, isUniqueViolation, queryRows, type DbOrTx, transaction } from '~/utils/db.server'
import { forgetUploads, savePreparedUpload, type FormUpload } from '~/utils/storage.server'
import { tallinnDay } from '~/utils/time'
import { DomainError, FieldError, notFound } from '~/domain/errors'
import { NotificationType, notify, notifyAdmins, notifyMatchingWorkshops } from '~/domain/messaging/notifications.server'
import { writeAudit } from '~/domain/admin/audit.server'
import { bindingTotalCents, type ExtraWorkAnswer, MAX_EXTRA_WORK_IMAGES, MAX_EXTRA_WORK_REQUESTS } from './extra-work'
import { billNeedsConsent, type BillDecision } from './final-bill'
import { type ExtraWorkInput } from './extra-work-schema'
import { lineTotalCents, MAX_OFFER_TOTAL_CENTS, offerTotals, type OfferLineInput } from './offer-lines'
import { offerPriceCents, type OfferTerms } from './offers'
import { offerAllowance } from './offers.server'
import { workshopToAsk } from './requests.server'
import { restartServiceInterval } from './reminders.server'
import { refreshResponseTimes } from './response-time.server'
import { refreshWorkshopRatings } from './reviews.server'
import { MAX_REQUEST_IMAGES, MAX_REQUEST_SERVICES, type ReopenRequestInput, type ServiceRequestInput, type WidenRequestInput } from './requests'
import {
	canExtraWork,
	canOffer,
	canReopen,
	canRequest,
	EXPIRY_DAYS,
	extraWorkMoves,
	extraWorkStatusInfo,
	offerAfter,
	hasChosenWorkshop,
	initialStatus,
	offerMoves,
	requestAfter,
	requestMoves,
	statusLists,
	type RequestStatus,
} from './status'

/**
 * The service flow's status model (docs/decisions/0030-status-model.md), every transition one
 * function here, in one transaction, with the notifications it causes:
 *
 *   request  pending → offer (first offer) → in_progress (an offer selected) → completed (final price)
 *            in_progress: extra work asked for by the workshop, approved or declined by the customer;
 *            a final bill above the binding total confirmed by the customer, or disputed and settled by an administrator
 *            pending | offer → cancelled (by the customer)
 *            offer → expired (nothing chosen 14 days after the first offer) → pending (reopened, once)
 *   offer    pending → selected → job_completed;  pending → rejected | request_cancelled | request_expired;
 *            selected → bill_proposed (above the binding total) → job_completed (confirmed) | bill_disputed → job_completed (settled);
 *            a pending offer may be edited or deleted by its workshop.
 *   extra    waiting → approved | declined (by the customer) | withdrawn (by the workshop)
 *
 * Each function locks what it changes (SELECT … FOR UPDATE) and checks the status under the
 * lock, so two moves at the same moment cannot both succeed. Locks are always taken in one order
 * (vehicle, request, its offers, their extra work and bill disputes, workshop; docs/decisions/0070-lock-order.md), so two moves never
 * wait on each other in a circle; should PostgreSQL still abort one, `transaction()` runs it again. Any other move is refused with a
 * DomainError carrying a translated message key. Ownership is part of every query.
 */

type Tx = DbOrTx
export type WorkshopActor = { workshopId: string; userId: string; workshopName: string }

/**
 * A move's transaction: its own (`transaction()`, run again after a deadlock), or the caller's
 * when it passes one: the demo data tells its story with these moves, all in its one transaction.
 */
function inTransaction<T>(within: Tx | undefined, work: (tx: Tx) => Promise<T>): Promise<T> {
	return within ? work(within) : transaction(work)
}

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
 * tells every workshop it matches (`requestMatchesWorkshop`), the one it is addressed to included.
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
	await notifyWorkshops(tx, ended, ending.messageKey, {})
}

/** What the "new request" notification names: the vehicle and the city (or the place written). */
async function newRequestParams(tx: Tx, requestId: string) {
	const [row] = await queryRows<{ vehicle: string; city: string }>(
		tx,
		sql`select ${vehicleLabel()} as vehicle, coalesce(c.name_et, r.location) as city
		    from service_requests r join vehicles v on v.id = r.vehicle_id join car_brands b on b.id = v.brand_id
		    left join cities c on c.id = r.city_id
		    where r.id = ${requestId}`,
	)
	return row!
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
			messageParams: { days: EXPIRY_DAYS },
			receivedId: requestId,
		})
		return true
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

/** Refuses an offer over the workshop's monthly limit (offerAllowance, offers.server.ts, counts). */
export async function assertOfferAllowed(tx: Tx, workshopId: string) {
	const { used, limit } = await offerAllowance(workshopId, tx)
	if (limit !== null && used >= limit) throw new DomainError('workshop:offer.limitReached', 403, { limit })
}

/** Whether the request reaches the workshop (`requestMatchesWorkshop`): it sees and bids on only those. */
async function reachesWorkshop(tx: Tx, requestId: string, workshopId: string) {
	const [row] = await queryRows<{ ok: boolean }>(
		tx,
		sql`select exists (select 1 from service_requests r where r.id = ${requestId} and ${requestMatchesWorkshopId(workshopId)}) as ok`,
	)
	return Boolean(row?.ok)
}

/**
 * A workshop's offer on an open request: one per workshop and request, within the package's
 * monthly limit. The first offer moves the request to "offer"; the customer is told.
 */
export async function makeOffer(
	workshop: WorkshopActor,
	requestId: string,
	input: OfferTerms,
	attachment: FormUpload | null,
	within?: Tx,
): Promise<string> {
	try {
		return await inTransaction(within, async (tx) => {
			const [request] = await tx.select().from(serviceRequests).where(eq(serviceRequests.id, requestId)).for('update')
			if (!request || !(await reachesWorkshop(tx, requestId, workshop.workshopId))) throw notFound()
			if (!canRequest('receiveOffer', request.status)) throw new DomainError('workshop:offer.requestClosed', 409)
			// An offer that ended when the request expired is made again on the reopened request.
			const [existing] = await tx
				.select({ id: offers.id, status: offers.status, attachmentUploadId: offers.attachmentUploadId })
				.from(offers)
				.where(and(eq(offers.requestId, requestId), eq(offers.workshopId, workshop.workshopId)))
				.for('update')
			if (existing && !canOffer('renew', existing.status)) throw new DomainError('workshop:offer.alreadyMade', 409)
			// One workshop's offers are made one at a time, so the monthly count cannot be raced.
			await tx.select({ id: workshops.id }).from(workshops).where(eq(workshops.id, workshop.workshopId)).for('update')
			await assertOfferAllowed(tx, workshop.workshopId)

			const upload = attachment ? await savePreparedUpload(tx, attachment, workshop.userId) : null
			const terms = { ...offerTermColumns(input), attachmentUploadId: upload?.id ?? null }
			const [offer] = existing
				? await tx
						.update(offers)
						.set({ ...terms, status: offerAfter('renew', existing.status), createdAt: new Date() })
						.where(eq(offers.id, existing.id))
						.returning({ id: offers.id })
				: await tx
						.insert(offers)
						.values({ requestId, workshopId: workshop.workshopId, ...terms })
						.returning({ id: offers.id })
			if (existing) await forgetUploads(tx, [existing.attachmentUploadId])
			await replaceOfferLines(tx, offer!.id, input)
			const status = requestAfter('receiveOffer', request.status)
			if (status !== request.status) {
				await tx.update(serviceRequests).set({ status }).where(eq(serviceRequests.id, requestId))
				await addEvent(tx, requestId, status, workshop.userId)
			}
			await refreshResponseTimes(tx, [workshop.workshopId])
			await notify(tx, {
				userId: request.customerId,
				type: NotificationType.newOffer,
				messageKey: 'notifications.newOffer',
				messageParams: { workshop: workshop.workshopName, priceCents: terms.priceCents },
				receivedId: requestId,
			})
			return offer!.id
		})
	} catch (error) {
		if (isUniqueViolation(error, 'offers_one_per_workshop_key')) throw new DomainError('workshop:offer.alreadyMade', 409)
		throw error
	}
}

/**
 * The workshop's own offer and its request, both locked in the one order every status move uses:
 * the request first, then its offers (docs/decisions/0070-lock-order.md). Another workshop's
 * offer, or one withdrawn meanwhile, is "not found".
 */
async function lockWorkshopOffer(tx: Tx, workshopId: string, offerId: string) {
	const [owned] = await tx
		.select({ requestId: offers.requestId })
		.from(offers)
		.where(and(eq(offers.id, offerId), eq(offers.workshopId, workshopId)))
	if (!owned) throw notFound()
	const [request] = await tx.select().from(serviceRequests).where(eq(serviceRequests.id, owned.requestId)).for('update')
	const [offer] = await tx
		.select()
		.from(offers)
		.where(and(eq(offers.id, offerId), eq(offers.workshopId, workshopId)))
		.for('update')
	if (!request || !offer) throw notFound()
	return { request, offer }
}

/** Changes a pending offer; `attachment` null keeps the current PDF, 'remove' drops it. */
export async function updateOffer(
	workshop: WorkshopActor,
	offerId: string,
	input: OfferTerms,
	attachment: FormUpload | null | 'remove',
) {
	await transaction(async (tx) => {
		const { offer } = await lockWorkshopOffer(tx, workshop.workshopId, offerId)
		if (!canOffer('edit', offer.status)) throw new DomainError('workshop:offer.notEditable', 409)
		const upload = attachment && attachment !== 'remove' ? await savePreparedUpload(tx, attachment, workshop.userId) : null
		await tx
			.update(offers)
			.set({
				...offerTermColumns(input),
				...(attachment === 'remove' ? { attachmentUploadId: null } : upload ? { attachmentUploadId: upload.id } : {}),
			})
			.where(eq(offers.id, offerId))
		if (attachment === 'remove' || upload) await forgetUploads(tx, [offer.attachmentUploadId])
		await replaceOfferLines(tx, offerId, input)
	})
}

/**
 * An offer's columns from its terms: the price and the sums computed here from its lines (issue
 * 19; the form's own totals are never read), or the one price typed with no sums.
 */
function offerTermColumns(input: OfferTerms) {
	const lines = input.lines ?? []
	// One price is a price with VAT: a VAT mode only means something for lines (extra work is priced in it).
	const vatMode = lines.length ? (input.vat ?? 'included') : 'included'
	const sums = lines.length ? offerTotals(lines, vatMode) : null
	return {
		priceCents: offerPriceCents(input),
		vatMode,
		labourCents: sums?.labourCents ?? null,
		partsCents: sums?.partsCents ?? null,
		feesCents: sums?.feesCents ?? null,
		vatCents: sums?.vatCents ?? null,
		earliestStart: input.earliestStart ?? null,
		durationDays: input.durationDays ?? null,
		validUntil: input.validUntil ?? null,
		notes: input.notes ?? '',
		description: input.description ?? '',
	}
}

/** The offer's lines become the terms' lines, in their order. */
async function replaceOfferLines(tx: Tx, offerId: string, input: OfferTerms) {
	await tx.delete(offerLines).where(eq(offerLines.offerId, offerId))
	const lines = input.lines ?? []
	if (!lines.length) return
	await tx.insert(offerLines).values(
		lines.map((line, position) => ({ offerId, ...lineColumns(line, position) })),
	)
}

/** A priced line's columns, as offer_lines and extra_work_lines both store them. */
function lineColumns(line: OfferLineInput, position: number) {
	return {
		position,
		kind: line.kind,
		description: line.description,
		reference: line.reference ?? '',
		quantityHundredths: line.quantity,
		unitPriceCents: line.unitPrice,
		totalCents: lineTotalCents(line),
	}
}

/** Withdraws a pending offer; a request left without offers is pending again. */
export async function deleteOffer(workshop: WorkshopActor, offerId: string, within?: Tx) {
	await inTransaction(within, async (tx) => {
		const { offer, request } = await lockWorkshopOffer(tx, workshop.workshopId, offerId)
		if (!canOffer('withdraw', offer.status)) throw new DomainError('workshop:offer.notDeletable', 409)
		await tx.delete(offers).where(eq(offers.id, offerId))
		await forgetUploads(tx, [offer.attachmentUploadId])
		const [remaining] = await tx
			.select({ id: offers.id })
			.from(offers)
			.where(and(eq(offers.requestId, offer.requestId), inArray(offers.status, statusLists.undecidedOffers)))
			.limit(1)
		if (!remaining && canRequest('loseLastOffer', request.status)) {
			const status = requestAfter('loseLastOffer', request.status)
			await tx.update(serviceRequests).set({ status }).where(eq(serviceRequests.id, offer.requestId))
			await addEvent(tx, offer.requestId, status, workshop.userId)
		}
	})
}

// ------------------------------------------------------------------ step 2: selecting an offer

/**
 * The customer selects one pending offer of a request with offers: it becomes selected, the
 * others rejected, the request in progress. Under the request's lock, only the first of two
 * simultaneous selections finds the request still open.
 */
export async function selectOffer(customerId: string, requestId: string, offerId: string, within?: Tx) {
	await inTransaction(within, async (tx) => {
		const request = await lockCustomerRequest(tx, customerId, requestId)
		if (hasChosenWorkshop(request.status) || request.selectedOfferId) throw new DomainError('customer:offers.alreadySelected', 409)
		if (!canRequest('selectOffer', request.status)) throw new DomainError('customer:offers.cannotSelect', 409)
		const [offer] = await tx
			.select()
			.from(offers)
			.where(and(eq(offers.id, offerId), eq(offers.requestId, requestId)))
		// Withdrawn by its workshop a moment ago, or never one of this request's offers.
		if (!offer || !canOffer('select', offer.status)) throw new DomainError('customer:offers.cannotSelect', 409)

		const now = new Date()
		await tx.update(offers).set({ status: offerMoves.select.to, selectedAt: now }).where(eq(offers.id, offerId))
		const rejected = await tx
			.update(offers)
			.set({ status: offerMoves.reject.to })
			.where(and(eq(offers.requestId, requestId), inArray(offers.status, offerMoves.reject.from), ne(offers.id, offerId)))
			.returning({ id: offers.id, workshopId: offers.workshopId })
		const status = requestAfter('selectOffer', request.status)
		await tx.update(serviceRequests).set({ status, selectedOfferId: offerId }).where(eq(serviceRequests.id, requestId))
		await addEvent(tx, requestId, status, customerId)

		await notifyWorkshops(tx, [offer], 'notifications.offerSelected', { customer: await customerName(tx, customerId) })
		await notifyWorkshops(tx, rejected, 'notifications.offerRejected', {})
	})
}

// ------------------------------------------------------------------ step 3: the work

/**
 * The workshop enters the final price (actual bill amount). At or below the binding total (the
 * offer and the approved extra work), the job and the request are completed. Above it, the
 * workshop must say why, and the bill waits for the customer's yes (`confirmBill`) or dispute
 * (`disputeBill`, issue 19). Not while extra work waits for the customer's answer: the workshop
 * withdraws it, or waits.
 */
export async function completeJob(
	workshop: WorkshopActor,
	offerId: string,
	finalPriceCents: number,
	{ reason, mileage, invoice, within }: { reason?: string; mileage?: number; invoice?: FormUpload | null; within?: Tx } = {},
): Promise<'completed' | 'proposed'> {
	return inTransaction(within, async (tx) => {
		const { offer, request } = await lockWorkshopOffer(tx, workshop.workshopId, offerId)
		const bindingCents = bindingTotalCents(offer)
		const move = billNeedsConsent(finalPriceCents, bindingCents) ? 'proposeBill' : 'completeJob'
		if (!canOffer(move, offer.status, 'workshop') || !canRequest('complete', request.status)) throw new DomainError('workshop:job.cannotComplete', 409)
		// Under the request's lock: the customer's answer, made under it too, cannot slip in between.
		const [waiting] = await tx
			.select({ id: extraWork.id })
			.from(extraWork)
			.where(and(eq(extraWork.offerId, offerId), inArray(extraWork.status, statusLists.openExtraWork)))
			.limit(1)
		if (waiting) throw new DomainError('workshop:job.extraWorkWaiting', 409)
		if (move === 'proposeBill' && !reason) throw new FieldError('reason', 'workshop:job.reasonRequired')
		// The vehicle passport (issue 20): the mileage at the job is not below the last one recorded.
		if (mileage !== undefined) {
			const [vehicle] = await tx.select({ mileage: vehicles.mileage }).from(vehicles).where(eq(vehicles.id, request.vehicleId))
			if (vehicle && mileage < vehicle.mileage) throw new FieldError('mileage', 'workshop:job.mileageBelow', 422, { mileage: vehicle.mileage })
		}
		const invoiceUpload = invoice ? await savePreparedUpload(tx, invoice, workshop.userId) : null
		await tx
			.update(offers)
			.set({ mileageAtJob: mileage ?? null, ...(invoiceUpload ? { invoiceUploadId: invoiceUpload.id } : {}) })
			.where(eq(offers.id, offerId))
		if (move === 'proposeBill') {
			await tx
				.update(offers)
				.set({ status: offerMoves.proposeBill.to, finalPriceCents, billReason: reason })
				.where(eq(offers.id, offerId))
			await notify(tx, {
				userId: request.customerId,
				type: NotificationType.dialog,
				messageKey: 'notifications.billProposed',
				messageParams: { workshop: workshop.workshopName, priceCents: finalPriceCents, bindingCents },
				receivedId: request.id,
			})
			return 'proposed'
		}
		await finishJob(tx, request, offer.id, finalPriceCents, workshop.userId)
		await notify(tx, {
			userId: request.customerId,
			type: NotificationType.jobCompleted,
			messageKey: 'notifications.jobCompleted',
			messageParams: { workshop: workshop.workshopName, priceCents: finalPriceCents },
			receivedId: request.id,
		})
		return 'completed'
	})
}

/**
 * The job is done at `finalPriceCents`: the offer and its request completed, the request's timeline
 * told by whom. The vehicle passport (issue 20): the workshop's warranty of today is copied to the
 * job, and the vehicle's mileage follows the mileage at the job.
 */
async function finishJob(
	tx: Tx,
	request: { id: string; status: RequestStatus; vehicleId: string },
	offerId: string,
	finalPriceCents: number,
	actorId: string,
) {
	const [done] = await tx
		.update(offers)
		.set({
			status: offerMoves.completeJob.to,
			finalPriceCents,
			completedAt: new Date(),
			warrantyWorkKm: sql`(select w.warranty_work_km from workshops w where w.id = ${offers.workshopId})`,
			warrantyPartsMonths: sql`(select w.warranty_parts_months from workshops w where w.id = ${offers.workshopId})`,
		})
		.where(eq(offers.id, offerId))
		.returning({ mileageAtJob: offers.mileageAtJob })
	if (done?.mileageAtJob !== null && done?.mileageAtJob !== undefined)
		await tx
			.update(vehicles)
			.set({ mileage: sql`greatest(${vehicles.mileage}, ${done.mileageAtJob})` })
			.where(eq(vehicles.id, request.vehicleId))
	// Maintenance or an oil change starts the vehicle's service interval again (issue 20).
	await restartServiceInterval(tx, request.id, request.vehicleId, tallinnDay(), done?.mileageAtJob ?? null)
	const status = requestAfter('complete', request.status)
	await tx.update(serviceRequests).set({ status }).where(eq(serviceRequests.id, request.id))
	await addEvent(tx, request.id, status, actorId)
}

/**
 * The customer's request and its chosen offer, locked (request first), for an answer to the final
 * bill: `move` must be allowed on the offer, or the answer is a 409. Another customer's is "not found".
 */
async function lockBill(tx: Tx, customerId: string, requestId: string, move: 'confirmBill' | 'disputeBill') {
	const request = await lockCustomerRequest(tx, customerId, requestId)
	if (!request.selectedOfferId) throw notFound()
	const [offer] = await tx.select().from(offers).where(eq(offers.id, request.selectedOfferId)).for('update')
	if (!offer) throw notFound()
	if (!canOffer(move, offer.status, 'customer') || offer.finalPriceCents === null) throw new DomainError('customer:bill.notWaiting', 409)
	return { request, offer, billedCents: offer.finalPriceCents }
}

/** The customer accepts a final bill above the binding total: the job is complete at that price; the workshop is told. */
export async function confirmBill(customerId: string, requestId: string, within?: Tx) {
	await inTransaction(within, async (tx) => {
		const { request, offer, billedCents } = await lockBill(tx, customerId, requestId, 'confirmBill')
		await finishJob(tx, request, offer.id, billedCents, customerId)
		await notifyWorkshops(tx, [offer], 'notifications.billConfirmed', { customer: await customerName(tx, customerId), priceCents: billedCents })
	})
}

/**
 * The customer disputes a final bill above the binding total, saying why: the job stays open
 * until an administrator settles it (`settleBill`). The workshop and the administrators are told.
 */
export async function disputeBill(customerId: string, requestId: string, reason: string, within?: Tx): Promise<string> {
	return inTransaction(within, async (tx) => {
		const { offer, billedCents } = await lockBill(tx, customerId, requestId, 'disputeBill')
		await tx.update(offers).set({ status: offerMoves.disputeBill.to }).where(eq(offers.id, offer.id))
		const [dispute] = await tx
			.insert(billDisputes)
			.values({ offerId: offer.id, reason, billedCents, bindingCents: bindingTotalCents(offer) })
			.returning({ id: billDisputes.id })
		const customer = await customerName(tx, customerId)
		await notifyWorkshops(tx, [offer], 'notifications.billDisputed', { customer, priceCents: billedCents })
		await notifyAdmins(tx, { messageKey: 'notifications.billDisputeOpened', messageParams: { customer, priceCents: billedCents }, receivedId: dispute!.id })
		return dispute!.id
	})
}

/**
 * An administrator settles a disputed bill: the workshop's bill stands, or the binding total is
 * what the customer pays. The job is complete at that price; the audit log keeps the decision and
 * why; the customer and the workshop are told. Locks in the one order: request, offer, dispute.
 */
export async function settleBill(adminId: string, disputeId: string, input: { decision: BillDecision; note: string }, within?: Tx) {
	await inTransaction(within, async (tx) => {
		const [found] = await tx
			.select({ requestId: offers.requestId })
			.from(billDisputes)
			.innerJoin(offers, eq(offers.id, billDisputes.offerId))
			.where(eq(billDisputes.id, disputeId))
		if (!found) throw notFound()
		const [request] = await tx.select().from(serviceRequests).where(eq(serviceRequests.id, found.requestId)).for('update')
		if (!request?.selectedOfferId) throw notFound()
		const [offer] = await tx.select().from(offers).where(eq(offers.id, request.selectedOfferId)).for('update')
		const [dispute] = await tx.select().from(billDisputes).where(eq(billDisputes.id, disputeId)).for('update')
		if (!offer || !dispute || dispute.offerId !== offer.id) throw notFound()
		if (dispute.resolvedAt || !canOffer('settleBill', offer.status, 'admin')) throw new DomainError('admin:disputes.alreadySettled', 409)
		const priceCents = input.decision === 'billed' ? dispute.billedCents : dispute.bindingCents
		await finishJob(tx, request, offer.id, priceCents, adminId)
		const resolvedAt = new Date()
		await tx.update(billDisputes).set({ decision: input.decision, note: input.note, resolvedBy: adminId, resolvedAt }).where(eq(billDisputes.id, disputeId))
		await writeAudit(tx, adminId, {
			action: 'bill.settle',
			entityType: 'bill_dispute',
			entityId: disputeId,
			before: { status: offer.status, billedCents: dispute.billedCents, bindingCents: dispute.bindingCents },
			after: { status: offerMoves.settleBill.to, decision: input.decision, finalPriceCents: priceCents, note: input.note },
		})
		const [workshop] = await tx.select({ name: workshops.workshopName }).from(workshops).where(eq(workshops.id, offer.workshopId))
		await notify(tx, {
			userId: request.customerId,
			type: NotificationType.jobCompleted,
			messageKey: 'notifications.billSettled',
			messageParams: { workshop: workshop!.name, priceCents },
			receivedId: request.id,
		})
		await notifyWorkshops(tx, [offer], 'notifications.billSettledWorkshop', { customer: await customerName(tx, request.customerId), priceCents })
	})
}

/** A customer's name as the workshop's notifications show it. */
async function customerName(tx: Tx, customerId: string) {
	const [customer] = await tx.select({ firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.id, customerId))
	return `${customer!.firstName} ${customer!.lastName}`
}

// ------------------------------------------------------------------ step 3: extra work (issue 19)

/**
 * The chosen workshop asks for extra work while the job is under way: a reason, lines priced with
 * the offer's VAT mode (their total computed here) and up to three photos. The customer is told
 * (bell and e-mail); nothing is added to the price until they approve.
 */
export async function askForExtraWork(workshop: WorkshopActor, offerId: string, input: ExtraWorkInput, images: FormUpload[], within?: Tx): Promise<string> {
	if (images.length > MAX_EXTRA_WORK_IMAGES) throw new DomainError('workshop:extraWork.tooManyImages', 422, { max: MAX_EXTRA_WORK_IMAGES })
	return inTransaction(within, async (tx) => {
		const { offer, request } = await lockWorkshopOffer(tx, workshop.workshopId, offerId)
		if (!canOffer('askExtraWork', offer.status, 'workshop') || request.selectedOfferId !== offer.id) throw new DomainError('workshop:extraWork.notInProgress', 409)
		const sums = offerTotals(input.lines, offer.vatMode)
		// A job's requests are few, and its price with every approved or waiting one stays within an offer's cap.
		const [asked] = await tx
			.select({ n: count(), waitingCents: sql<number>`coalesce(sum(${extraWork.priceCents}) filter (where ${inArray(extraWork.status, statusLists.openExtraWork)}), 0)::int` })
			.from(extraWork)
			.where(eq(extraWork.offerId, offerId))
		if (asked!.n >= MAX_EXTRA_WORK_REQUESTS) throw new DomainError('workshop:extraWork.tooManyRequests', 409, { max: MAX_EXTRA_WORK_REQUESTS })
		if (offer.priceCents + offer.approvedExtraCents + asked!.waitingCents + sums.totalCents > MAX_OFFER_TOTAL_CENTS)
			throw new FieldError('lines', 'workshop:offer.totalTooLarge')
		const [row] = await tx
			.insert(extraWork)
			.values({
				offerId,
				reason: input.reason,
				status: initialStatus.extraWork,
				vatMode: offer.vatMode,
				priceCents: sums.totalCents,
				labourCents: sums.labourCents,
				partsCents: sums.partsCents,
				feesCents: sums.feesCents,
				vatCents: sums.vatCents,
			})
			.returning({ id: extraWork.id })
		const extraWorkId = row!.id
		await tx.insert(extraWorkLines).values(
			input.lines.map((line, position) => ({ extraWorkId, ...lineColumns(line, position) })),
		)
		for (const [position, image] of images.entries()) {
			const upload = await savePreparedUpload(tx, image, workshop.userId)
			await tx.insert(extraWorkImages).values({ extraWorkId, uploadId: upload.id, position })
		}
		await notify(tx, {
			userId: request.customerId,
			type: NotificationType.dialog,
			messageKey: 'notifications.extraWorkRequested',
			messageParams: { workshop: workshop.workshopName, priceCents: sums.totalCents },
			receivedId: request.id,
		})
		return extraWorkId
	})
}

/**
 * The customer approves or declines extra work on their job in progress, once: an approved one's
 * price joins the binding total (offers.approved_extra_cents). The workshop is told. Another
 * customer's, or one of another request, is "not found"; one already answered or withdrawn, a 409.
 */
export async function answerExtraWork(customerId: string, requestId: string, extraWorkId: string, answer: ExtraWorkAnswer, within?: Tx) {
	await inTransaction(within, async (tx) => {
		const request = await lockCustomerRequest(tx, customerId, requestId)
		if (!request.selectedOfferId) throw notFound()
		const [offer] = await tx.select().from(offers).where(eq(offers.id, request.selectedOfferId)).for('update')
		const [extra] = await tx
			.select()
			.from(extraWork)
			.where(and(eq(extraWork.id, extraWorkId), eq(extraWork.offerId, request.selectedOfferId)))
			.for('update')
		if (!offer || !extra) throw notFound()
		if (!canExtraWork(answer, extra.status, 'customer')) throw new DomainError('customer:extraWork.alreadyAnswered', 409)
		if (!canRequest('answerExtraWork', request.status, 'customer')) throw new DomainError('customer:extraWork.notInProgress', 409)
		const status = extraWorkMoves[answer].to
		await tx.update(extraWork).set({ status, answeredAt: new Date() }).where(eq(extraWork.id, extraWorkId))
		if (extraWorkStatusInfo[status].binding) {
			await tx
				.update(offers)
				.set({ approvedExtraCents: sql`${offers.approvedExtraCents} + ${extra.priceCents}` })
				.where(eq(offers.id, offer.id))
		}
		await notifyWorkshops(tx, [offer], answer === 'approve' ? 'notifications.extraWorkApproved' : 'notifications.extraWorkDeclined', {
			customer: await customerName(tx, customerId),
			priceCents: extra.priceCents,
		})
	})
}

/** The workshop takes back extra work the customer has not answered yet; the customer is told (bell). */
export async function withdrawExtraWork(workshop: WorkshopActor, offerId: string, extraWorkId: string, within?: Tx) {
	await inTransaction(within, async (tx) => {
		const { request } = await lockWorkshopOffer(tx, workshop.workshopId, offerId)
		const [extra] = await tx
			.select()
			.from(extraWork)
			.where(and(eq(extraWork.id, extraWorkId), eq(extraWork.offerId, offerId)))
			.for('update')
		if (!extra) throw notFound()
		if (!canExtraWork('withdraw', extra.status, 'workshop')) throw new DomainError('workshop:extraWork.alreadyAnswered', 409)
		await tx.update(extraWork).set({ status: extraWorkMoves.withdraw.to, answeredAt: new Date() }).where(eq(extraWork.id, extraWorkId))
		await notify(tx, {
			userId: request.customerId,
			type: NotificationType.dialog,
			messageKey: 'notifications.extraWorkWithdrawn',
			messageParams: { workshop: workshop.workshopName },
			receivedId: request.id,
		})
	})
}

// ------------------------------------------------------------------ step 4: feedback

/** One review per completed request; it counts in the workshop's rating at once. */
export async function addReview(customerId: string, requestId: string, input: { rating: number; title?: string; body: string }, within?: Tx) {
	try {
		return await inTransaction(within, async (tx) => {
			const request = await lockCustomerRequest(tx, customerId, requestId)
			if (!canRequest('review', request.status) || !request.selectedOfferId) throw new DomainError('customer:review.notCompleted', 409)
			const [existing] = await tx.select({ id: reviews.id }).from(reviews).where(eq(reviews.requestId, requestId))
			if (existing) throw new DomainError('customer:review.alreadyGiven', 409)
			const [offer] = await tx.select({ workshopId: offers.workshopId }).from(offers).where(eq(offers.id, request.selectedOfferId))
			const [review] = await tx
				.insert(reviews)
				.values({ requestId, workshopId: offer!.workshopId, customerId, rating: input.rating, title: input.title ?? '', body: input.body })
				.returning({ id: reviews.id })
			await refreshWorkshopRatings(tx, [offer!.workshopId])
			const [owner] = await tx.select({ userId: workshops.userId }).from(workshops).where(eq(workshops.id, offer!.workshopId))
			await notify(tx, {
				userId: owner!.userId,
				type: NotificationType.newReview,
				messageKey: 'notifications.newReview',
				messageParams: { customer: await customerName(tx, customerId), rating: input.rating },
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
export async function replyToReview(workshop: WorkshopActor, reviewId: string, reply: string, within?: Tx) {
	await inTransaction(within, async (tx) => {
		const [review] = await tx
			.select()
			.from(reviews)
			// A review the administrators hid is answered no more (it is not shown).
			.where(and(eq(reviews.id, reviewId), eq(reviews.workshopId, workshop.workshopId), isNull(reviews.hiddenAt)))
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
