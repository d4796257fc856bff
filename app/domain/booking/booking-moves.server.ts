import { and, eq, inArray, sql } from 'drizzle-orm'
import { afterCommit, isUniqueViolation } from '~/db/db.server'
import { bookingChanges, bookings, offers, serviceRequests, workshops } from '~/db/schema'
import { type WorkshopActor } from '~/utils/auth.server'
import { DomainError, FieldError, notFound } from '~/utils/errors'
import { NotificationType, notify } from '~/domain/messaging/notifications.server'
import { inTransaction, type Tx } from '~/domain/service-flow/move-locks.server'
import { addEvent, customerName, requestNoticeParams } from '~/domain/service-flow/move-notices.server'
import { canOffer, canRequest, offerAfter, requestAfter } from '~/domain/service-flow/status'
import { TimeRefused, bookingSettings, chooseBay, isTimeTaken, refreshNextFree } from './calendar.server'
import { type BookingMove, type BookingStatus, bookingAfter, canBooking, holdingStatuses } from './status'

/**
 * A booked job's life (issue 33): the workshop's steps (car received, work started, ready for
 * pickup), a change of time proposed by one side and answered by the other, cancelling (free until
 * the site's notice before the start, later the customer's cancel is a proposal the workshop
 * answers), no-shows and "the workshop did not take the car". Each is one transaction under the lock
 * order of decision 0070: the request, its offer, then the booking (step 3), then the workshop row
 * (chooseBay, step 4). Every move tells the other side (bell and e-mail); every change of time or
 * cancellation raises the booking's SEQUENCE and refreshes the workshop's next free time.
 */

/** Who makes a move: the customer (their user id) or the workshop. */
export type BookingParty = { side: 'customer'; userId: string } | { side: 'workshop'; workshop: WorkshopActor }

type Locked = Awaited<ReturnType<typeof lockBooking>>

/**
 * The booking with its request and offer, locked in the one order (request, offer, booking).
 * Another's booking, or a tampered id, is "not found".
 */
async function lockBooking(tx: Tx, party: BookingParty, bookingId: string) {
	const [found] = await tx
		.select({ requestId: bookings.requestId, offerId: bookings.offerId, workshopId: bookings.workshopId, customerId: serviceRequests.customerId })
		.from(bookings)
		.innerJoin(serviceRequests, eq(serviceRequests.id, bookings.requestId))
		.where(eq(bookings.id, bookingId))
	if (!found) throw notFound()
	if (party.side === 'customer' ? found.customerId !== party.userId : found.workshopId !== party.workshop.workshopId) throw notFound()
	const [request] = await tx.select().from(serviceRequests).where(eq(serviceRequests.id, found.requestId)).for('update')
	const [offer] = await tx.select().from(offers).where(eq(offers.id, found.offerId)).for('update')
	const [booking] = await tx.select().from(bookings).where(eq(bookings.id, bookingId)).for('update')
	if (!request || !offer || !booking) throw notFound()
	return { request, offer, booking }
}

/** Refused unless `move` may be made now by this side (a 409 the pages show translated). */
function assertCan(move: BookingMove, status: BookingStatus, party: BookingParty) {
	if (!canBooking(move, status, party.side)) throw new DomainError('booking:job.errors.notNow', 409)
}

/** The waiting proposal of a booking, if any (under the booking's lock). */
async function waitingChange(tx: Tx, bookingId: string) {
	const [change] = await tx
		.select()
		.from(bookingChanges)
		.where(and(eq(bookingChanges.bookingId, bookingId), eq(bookingChanges.status, 'waiting')))
	return change ?? null
}

/**
 * Tells the other side of a move: the customer on their request (/work-progress), the workshop on
 * its offer (/workshop-bid-details). `key` is the customer's notice; the workshop's is `key` + "Workshop".
 */
async function tellOther(tx: Tx, locked: Locked, by: BookingParty['side'], key: string, params: Record<string, string | number> = {}) {
	const about = await requestNoticeParams(tx, locked.request.id)
	const startsAt = locked.booking.startsAt.toISOString()
	if (by === 'workshop') {
		const [workshop] = await tx.select({ name: workshops.workshopName }).from(workshops).where(eq(workshops.id, locked.booking.workshopId))
		await notify(tx, {
			userId: locked.request.customerId,
			type: NotificationType.jobCompleted,
			messageKey: `notifications.${key}`,
			messageParams: { workshop: workshop?.name ?? '', startsAt, ...params, ...about },
			receivedId: locked.request.id,
		})
	} else {
		const [owner] = await tx.select({ userId: workshops.userId }).from(workshops).where(eq(workshops.id, locked.booking.workshopId))
		if (!owner) return
		await notify(tx, {
			userId: owner.userId,
			type: NotificationType.offerChanged,
			messageKey: `notifications.${key}Workshop`,
			messageParams: { customer: await customerName(tx, locked.request.customerId), startsAt, ...params, ...about },
			receivedId: locked.offer.id,
		})
	}
}

const stepColumns = {
	receiveCar: (now: Date) => ({ carReceivedAt: now }),
	startWork: (now: Date) => ({ workStartedAt: now }),
	markReady: (now: Date) => ({ readyAt: now }),
} as const
const stepNotices = { receiveCar: 'bookingCarReceived', startWork: 'bookingInWork', markReady: 'bookingReady' } as const

/** A step of the job by its workshop (car received, work started, ready for pickup); the customer is told. */
async function workshopStep(move: 'receiveCar' | 'startWork' | 'markReady', workshop: WorkshopActor, bookingId: string, within?: Tx) {
	await inTransaction(within, async (tx) => {
		const party: BookingParty = { side: 'workshop', workshop }
		const locked = await lockBooking(tx, party, bookingId)
		assertCan(move, locked.booking.status, party)
		const now = new Date()
		await tx
			.update(bookings)
			.set({ status: bookingAfter(move, locked.booking.status), ...stepColumns[move](now), updatedAt: now })
			.where(eq(bookings.id, bookingId))
		await tellOther(tx, locked, 'workshop', stepNotices[move])
	})
}

export const receiveCar = (workshop: WorkshopActor, bookingId: string, within?: Tx) => workshopStep('receiveCar', workshop, bookingId, within)
export const startWork = (workshop: WorkshopActor, bookingId: string, within?: Tx) => workshopStep('startWork', workshop, bookingId, within)
export const markReady = (workshop: WorkshopActor, bookingId: string, within?: Tx) => workshopStep('markReady', workshop, bookingId, within)

/** A booking's length in minutes (what a new start must fit). */
const bookingMinutes = (booking: { startsAt: Date; endsAt: Date }) => Math.round((booking.endsAt.getTime() - booking.startsAt.getTime()) / 60_000)

/**
 * Either side proposes another start while the booking is 'booked'; the start must be free now
 * (checked as chooseBay does, the booking's own time left out). One waiting proposal at a time.
 */
export async function proposeChange(party: BookingParty, bookingId: string, startsAt: Date, within?: Tx, now = new Date()) {
	try {
		return await inTransaction(within, async (tx) => {
			const locked = await lockBooking(tx, party, bookingId)
			assertCan('proposeChange', locked.booking.status, party)
			if (await waitingChange(tx, bookingId)) throw new DomainError('booking:change.errors.alreadyWaiting', 409)
			if (startsAt.getTime() === locked.booking.startsAt.getTime()) throw new FieldError('startsAt', 'booking:change.errors.sameTime')
			await chooseBay(tx, locked.booking.workshopId, startsAt, bookingMinutes(locked.booking), now, { ignoreBookingId: bookingId })
			const [change] = await tx
				.insert(bookingChanges)
				.values({ bookingId, proposedBy: party.side, startsAt })
				.returning({ id: bookingChanges.id })
			await tellOther(tx, locked, party.side, 'bookingChangeProposed', { proposedAt: startsAt.toISOString() })
			return change!.id
		})
	} catch (error) {
		if (isUniqueViolation(error, 'booking_changes_one_waiting_key')) throw new DomainError('booking:change.errors.alreadyWaiting', 409)
		throw error
	}
}

/** The waiting proposal made by the other side (answering one's own is refused). */
async function otherSidesChange(tx: Tx, bookingId: string, party: BookingParty) {
	const change = await waitingChange(tx, bookingId)
	if (!change || change.proposedBy === party.side) throw new DomainError('booking:change.errors.noneWaiting', 409)
	return change
}

/**
 * The other side answers a waiting proposal. Accepted, a new time moves the booking (its bay may
 * change; a time taken meanwhile is refused, `TimeRefused`), its SEQUENCE rises and its reminders
 * are due again; an accepted cancel ends the booking. Declined, the time stays.
 */
export async function answerChange(party: BookingParty, bookingId: string, accept: boolean, within?: Tx, now = new Date()): Promise<'moved' | 'cancelled' | 'declined'> {
	return inTransaction(within, async (tx) => {
		const locked = await lockBooking(tx, party, bookingId)
		const change = await otherSidesChange(tx, bookingId, party)
		if (!canBooking(change.cancel ? 'cancel' : 'proposeChange', locked.booking.status)) throw new DomainError('booking:job.errors.notNow', 409)
		await tx
			.update(bookingChanges)
			.set({ status: accept ? 'accepted' : 'declined', answeredAt: now })
			.where(eq(bookingChanges.id, change.id))
		if (!accept) {
			await tellOther(tx, locked, party.side, 'bookingChangeDeclined', { proposedAt: change.startsAt.toISOString() })
			return 'declined'
		}
		if (change.cancel) {
			await endBooking(tx, locked, 'cancelled', party, now)
			return 'cancelled'
		}
		const held = await chooseBay(tx, locked.booking.workshopId, change.startsAt, bookingMinutes(locked.booking), now, { ignoreBookingId: bookingId })
		try {
			await tx
				.update(bookings)
				.set({ ...held, sequence: sql`${bookings.sequence} + 1`, firstReminderAt: null, secondReminderAt: null, updatedAt: now })
				.where(eq(bookings.id, bookingId))
		} catch (error) {
			if (isTimeTaken(error)) throw new TimeRefused('taken')
			throw error
		}
		await tellOther(tx, locked, party.side, 'bookingChangeAccepted', { proposedAt: change.startsAt.toISOString() })
		await afterCommit(tx, () => refreshNextFree(locked.booking.workshopId))
		return 'moved'
	})
}

/** The side that made a waiting proposal takes it back. */
export async function withdrawChange(party: BookingParty, bookingId: string, within?: Tx) {
	await inTransaction(within, async (tx) => {
		const locked = await lockBooking(tx, party, bookingId)
		const change = await waitingChange(tx, bookingId)
		if (!change || change.proposedBy !== party.side) throw new DomainError('booking:change.errors.noneWaiting', 409)
		await tx.update(bookingChanges).set({ status: 'withdrawn', answeredAt: new Date() }).where(eq(bookingChanges.id, change.id))
		await tellOther(tx, locked, party.side, 'bookingChangeWithdrawn')
	})
}

/** Until when a booking starting at `startsAt` may be cancelled freely (the site's notice before it). */
export async function freeCancelUntil(startsAt: Date, database?: Tx) {
	const { freeChangeHours } = await bookingSettings(database)
	return new Date(startsAt.getTime() - freeChangeHours * 3600_000)
}

/**
 * Cancels a booked time. Free until the site's notice before the start, for either side; later the
 * workshop still may (it is the one whose agreement is needed), and the customer's cancel becomes a
 * proposal (`cancel: true`) the workshop accepts or declines.
 */
export async function cancelBooking(party: BookingParty, bookingId: string, within?: Tx, now = new Date()): Promise<'cancelled' | 'proposed'> {
	try {
		return await inTransaction(within, async (tx) => {
			const locked = await lockBooking(tx, party, bookingId)
			assertCan('cancel', locked.booking.status, party)
			const free = now < (await freeCancelUntil(locked.booking.startsAt, tx))
			if (free || party.side === 'workshop') {
				await endBooking(tx, locked, 'cancelled', party, now)
				return 'cancelled'
			}
			if (await waitingChange(tx, bookingId)) throw new DomainError('booking:change.errors.alreadyWaiting', 409)
			await tx.insert(bookingChanges).values({ bookingId, proposedBy: 'customer', startsAt: locked.booking.startsAt, cancel: true })
			await tellOther(tx, locked, 'customer', 'bookingCancelProposed')
			return 'proposed'
		})
	} catch (error) {
		if (isUniqueViolation(error, 'booking_changes_one_waiting_key')) throw new DomainError('booking:change.errors.alreadyWaiting', 409)
		throw error
	}
}

/** After the start, the workshop says the customer did not come: the booking and the request end. */
export async function markNoShow(workshop: WorkshopActor, bookingId: string, within?: Tx, now = new Date()) {
	await afterStartEnd('markNoShow', { side: 'workshop', workshop }, bookingId, within, now)
}

/** After the start, the customer says the workshop did not take the car: the booking and the request end. */
export async function markNotTaken(customerId: string, bookingId: string, within?: Tx, now = new Date()) {
	await afterStartEnd('markNotTaken', { side: 'customer', userId: customerId }, bookingId, within, now)
}

async function afterStartEnd(move: 'markNoShow' | 'markNotTaken', party: BookingParty, bookingId: string, within: Tx | undefined, now: Date) {
	await inTransaction(within, async (tx) => {
		const locked = await lockBooking(tx, party, bookingId)
		assertCan(move, locked.booking.status, party)
		if (now < locked.booking.startsAt) throw new DomainError('booking:job.errors.beforeStart', 409)
		await endBooking(tx, locked, bookingAfter(move, locked.booking.status), party, now)
	})
}

const endNotices: Partial<Record<BookingStatus, string>> = { cancelled: 'bookingCancelled', no_show: 'bookingNoShow', not_taken: 'bookingNotTaken' }

/**
 * Ends a booking before its job was done (cancelled, no-show, not taken): its time is free again,
 * a waiting proposal is withdrawn, the request and its offer end (`endBooking`, `endWithBooking`)
 * with the request's event, the other side is told.
 */
async function endBooking(tx: Tx, locked: Locked, status: BookingStatus, party: BookingParty, now: Date) {
	const { request, offer, booking } = locked
	await tx
		.update(bookings)
		.set({ status, endedAt: now, sequence: sql`${bookings.sequence} + 1`, updatedAt: now })
		.where(eq(bookings.id, booking.id))
	await tx
		.update(bookingChanges)
		.set({ status: 'withdrawn', answeredAt: now })
		.where(and(eq(bookingChanges.bookingId, booking.id), eq(bookingChanges.status, 'waiting')))
	if (canOffer('endWithBooking', offer.status)) await tx.update(offers).set({ status: offerAfter('endWithBooking', offer.status) }).where(eq(offers.id, offer.id))
	if (canRequest('endBooking', request.status)) {
		const next = requestAfter('endBooking', request.status)
		await tx.update(serviceRequests).set({ status: next }).where(eq(serviceRequests.id, request.id))
		await addEvent(tx, request.id, next, party.side === 'customer' ? party.userId : party.workshop.userId)
	}
	await tellOther(tx, locked, party.side, endNotices[status]!)
	await afterCommit(tx, () => refreshNextFree(booking.workshopId))
}

/**
 * The offer's job was completed (completeJob, confirmBill, settleBill): its booking, if any, is
 * done, in the caller's transaction (the request and the offer are locked before it).
 */
export async function finishBooking(tx: Tx, offerId: string, now = new Date()) {
	const done = await tx
		.update(bookings)
		.set({ status: 'done', endedAt: now, updatedAt: now })
		.where(and(eq(bookings.offerId, offerId), inArray(bookings.status, holdingStatuses)))
		.returning({ workshopId: bookings.workshopId })
	for (const row of done) await afterCommit(tx, () => refreshNextFree(row.workshopId))
}
