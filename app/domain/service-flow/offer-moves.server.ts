import { and, eq, inArray, ne, sql } from 'drizzle-orm'
import { offerLines, offers, serviceRequests, workshops } from '~/db/schema'
import { requestMatchesWorkshopId } from '~/db/sql'
import { isUniqueViolation, queryRows, transaction } from '~/db/db.server'
import { forgetUploads, savePreparedUpload, type FormUpload } from '~/uploads/storage.server'
import { DomainError, FieldError, notFound } from '~/utils/errors'
import { bookTime, bookingSettings, checkFreeStart } from '~/domain/booking/calendar.server'
import { bookingMinutesOf, validityEnd } from '~/domain/booking/offer-times'
import { NotificationType, notify } from '~/domain/messaging/notifications.server'
import { inTransaction, lockCustomerRequest, lockWorkshop, lockWorkshopOffer, type Tx } from './move-locks.server'
import { type WorkshopActor } from '~/utils/auth.server'
import { addEvent, customerName, notifyWorkshops, requestNoticeParams } from './move-notices.server'
import { offerLineColumns, offerTotals } from './offer-lines'
import { offerPriceCents, type OfferTerms } from './offers'
import { offerAllowance } from './offers.server'
import { refreshResponseTimes } from './response-time.server'
import { canOffer, canRequest, hasChosenWorkshop, offerAfter, offerMoves, requestAfter, statusLists } from './status'

/**
 * Step 2 of the service flow (status.ts): a workshop's offer, made, edited and withdrawn, and the
 * customer's selection of one, each a move in one transaction under the lock order
 * (move-locks.server.ts), with the notifications it causes.
 *
 *   offer    pending → selected;  pending → rejected (another one selected);
 *            a pending offer may be edited or deleted by its workshop.
 */

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
			await lockWorkshop(tx, workshop.workshopId)
			await assertOfferAllowed(tx, workshop.workshopId)

			await checkProposedStarts(tx, workshop.workshopId, input)
			const upload = attachment ? await savePreparedUpload(tx, attachment, workshop.userId) : null
			const terms = {
				...offerTermColumns(input),
				...(await offerWarranty(tx, workshop.workshopId, input)),
				attachmentUploadId: upload?.id ?? null,
				// Drafted from the workshop's own price list (issue 35): an item of another workshop names nothing. Instant: pricing marks its own.
				priceListItemId: input.priceListItemId ? sql`(select id from price_list_items where id = ${input.priceListItemId} and workshop_id = ${workshop.workshopId})` : null,
				instant: false,
			}
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
				messageParams: { workshop: workshop.workshopName, priceCents: terms.priceCents, ...(await requestNoticeParams(tx, requestId)) },
				receivedId: requestId,
			})
			return offer!.id
		})
	} catch (error) {
		if (isUniqueViolation(error, 'offers_one_per_workshop_key')) throw new DomainError('workshop:offer.alreadyMade', 409)
		throw error
	}
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
		await checkProposedStarts(tx, workshop.workshopId, input, offer.proposedStarts)
		const upload = attachment && attachment !== 'remove' ? await savePreparedUpload(tx, attachment, workshop.userId) : null
		await tx
			.update(offers)
			.set({
				...offerTermColumns(input),
				// A change that leaves the warranty out keeps the offer's.
				...(input.warrantyWorkKm !== undefined || input.warrantyPartsMonths !== undefined
					? { warrantyWorkKm: input.warrantyWorkKm ?? null, warrantyPartsMonths: input.warrantyPartsMonths ?? null }
					: {}),
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
		...offerTimeColumns(input),
	}
}

/** The offer's time (issue 33): its minutes in the bay, and its proposed starts in order or any free time. */
function offerTimeColumns(input: OfferTerms) {
	const anyFreeTime = input.anyFreeTime ?? false
	const starts = anyFreeTime ? [] : (input.proposedStarts ?? []).filter((start): start is Date => start instanceof Date)
	return {
		bookingMinutes: bookingMinutesOf(input),
		proposedStarts: [...starts].sort((a, b) => a.getTime() - b.getTime()),
		anyFreeTime,
	}
}

/**
 * Each proposed start must be free in the workshop's calendar when the offer is saved: refused
 * next to its own field with the calendar's reason. A start the offer already had is not asked
 * again (an edit of the price keeps the times the customer may be reading).
 */
async function checkProposedStarts(tx: Tx, workshopId: string, input: OfferTerms, kept: Date[] = []) {
	if (input.anyFreeTime) return
	const minutes = bookingMinutesOf(input)
	const starts = input.proposedStarts ?? []
	for (const [index, start] of starts.entries()) {
		if (!start || minutes === null || kept.some((old) => old.getTime() === start.getTime())) continue
		const checked = await checkFreeStart(workshopId, start, minutes, {}, tx)
		if (!checked.ok) throw new FieldError(`proposedStarts[${index}]`, `booking:refusals.${checked.reason}`)
	}
}

/**
 * The warranty a new offer promises (issue 32): the one its terms give (null: none), or the
 * workshop profile's of today when they leave it out (a caller other than the form).
 */
async function offerWarranty(tx: Tx, workshopId: string, input: OfferTerms) {
	if (input.warrantyWorkKm !== undefined || input.warrantyPartsMonths !== undefined)
		return { warrantyWorkKm: input.warrantyWorkKm ?? null, warrantyPartsMonths: input.warrantyPartsMonths ?? null }
	const [profile] = await tx
		.select({ warrantyWorkKm: workshops.warrantyWorkKm, warrantyPartsMonths: workshops.warrantyPartsMonths })
		.from(workshops)
		.where(eq(workshops.id, workshopId))
	return { warrantyWorkKm: profile?.warrantyWorkKm ?? null, warrantyPartsMonths: profile?.warrantyPartsMonths ?? null }
}

/** The offer's lines become the terms' lines, in their order. */
async function replaceOfferLines(tx: Tx, offerId: string, input: OfferTerms) {
	await tx.delete(offerLines).where(eq(offerLines.offerId, offerId))
	const lines = input.lines ?? []
	if (!lines.length) return
	await tx.insert(offerLines).values(
		lines.map((line, position) => ({ offerId, ...offerLineColumns(line, position) })),
	)
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

/**
 * The customer selects one pending offer of a request with offers: it becomes selected, the
 * others rejected, the request in progress. Under the request's lock, only the first of two
 * simultaneous selections finds the request still open. An offer with times (issue 33) is
 * selected with one of them, `choice.startsAt`: one it proposed, or with any free time a free
 * start before its validity ends; that time is booked in the same transaction, and a time taken
 * meanwhile (`TimeRefused`) leaves everything as it was. An offer without times is selected
 * with no booked time, as before bookings.
 */
export async function selectOffer(customerId: string, requestId: string, offerId: string, choice: { startsAt?: Date } = {}, within?: Tx) {
	await inTransaction(within, async (tx) => {
		const request = await lockCustomerRequest(tx, customerId, requestId)
		if (hasChosenWorkshop(request.status) || request.selectedOfferId) throw new DomainError('customer:offers.alreadySelected', 409)
		if (!canRequest('selectOffer', request.status)) throw new DomainError('customer:offers.cannotSelect', 409)
		const [offer] = await tx
			.select()
			.from(offers)
			.where(and(eq(offers.id, offerId), eq(offers.requestId, requestId)))
			.for('update')
		// Withdrawn by its workshop a moment ago, or never one of this request's offers.
		if (!offer || !canOffer('select', offer.status)) throw new DomainError('customer:offers.cannotSelect', 409)
		const startsAt = chosenStart(offer, choice.startsAt)

		const now = new Date()
		if (startsAt) {
			const durationMinutes = offer.bookingMinutes ?? (await bookingSettings(tx)).typicalMinutes
			await bookTime(tx, { workshopId: offer.workshopId, offerId, requestId, customerId, startsAt, durationMinutes, now })
		}
		await tx.update(offers).set({ status: offerMoves.select.to, selectedAt: now }).where(eq(offers.id, offerId))
		const rejected = await tx
			.update(offers)
			.set({ status: offerMoves.reject.to })
			.where(and(eq(offers.requestId, requestId), inArray(offers.status, offerMoves.reject.from), ne(offers.id, offerId)))
			.returning({ id: offers.id, workshopId: offers.workshopId })
		const status = requestAfter('selectOffer', request.status)
		await tx.update(serviceRequests).set({ status, selectedOfferId: offerId }).where(eq(serviceRequests.id, requestId))
		await addEvent(tx, requestId, status, customerId)

		const about = await requestNoticeParams(tx, requestId)
		await notifyWorkshops(tx, [offer], 'notifications.offerSelected', { customer: await customerName(tx, customerId), priceCents: offer.priceCents, ...about })
		await notifyWorkshops(tx, rejected, 'notifications.offerRejected', about)
	})
}

/**
 * The start a selection books: required when the offer has times (400 without one), one of its
 * proposed starts, or with any free time one before its validity ends (else 400: not a time it
 * offered); none for an offer without times. Whether it is free is the booking's to say.
 */
function chosenStart(offer: { proposedStarts: Date[]; anyFreeTime: boolean; validUntil: string | null }, startsAt: Date | undefined): Date | null {
	const hasTimes = offer.anyFreeTime || offer.proposedStarts.length > 0
	if (!hasTimes) {
		if (startsAt) throw new DomainError('booking:select.timeNotOffered', 400)
		return null
	}
	if (!startsAt || Number.isNaN(startsAt.getTime())) throw new DomainError('booking:select.timeRequired', 400)
	const offered = offer.anyFreeTime
		? startsAt.getTime() < (validityEnd(offer.validUntil)?.getTime() ?? Infinity)
		: offer.proposedStarts.some((start) => start.getTime() === startsAt.getTime())
	if (!offered) throw new DomainError('booking:select.timeNotOffered', 400)
	return startsAt
}
