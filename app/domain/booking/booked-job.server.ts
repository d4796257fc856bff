import { data } from 'react-router'
import { and, asc, eq } from 'drizzle-orm'
import { db, type DbOrTx } from '~/db/db.server'
import { bookingChanges, bookings } from '~/db/schema'
import { DomainError, FieldError, notFound } from '~/utils/errors'
import { type WorkshopActor } from '~/utils/auth.server'
import { handleDomainError } from '~/utils/route-helpers.server'
import { redirectWithToast } from '~/utils/toast.server'
import {
	type BookingParty,
	answerChange,
	cancelBooking,
	freeCancelUntil,
	markNoShow,
	markNotTaken,
	markReady,
	proposeChange,
	receiveCar,
	startWork,
	withdrawChange,
} from './booking-moves.server'
import { type BookingFormReply, type BookingIntent, type WorkshopStep, workshopSteps } from './booking-moves'
import { freeTimes } from './calendar.server'
import { canBooking } from './status'

/**
 * A booked job as its two pages show it (the customer's /work-progress, the workshop's
 * /workshop-bid-details): its time, its steps with their times, the waiting proposal, until when it
 * may be cancelled freely, the next free starts to propose instead; and the pages' booking forms
 * turned into moves and their answers.
 */

/** The booking of an offer (null: the request was selected without a time), with what its pages show. */
export async function bookedJob(offerId: string, options: { now?: Date; freeStarts?: boolean } = {}, database: DbOrTx = db) {
	const now = options.now ?? new Date()
	const [booking] = await database.select().from(bookings).where(eq(bookings.offerId, offerId))
	if (!booking) return null
	const [[change], cancelFreeUntil] = await Promise.all([
		database
			.select({ proposedBy: bookingChanges.proposedBy, startsAt: bookingChanges.startsAt, cancel: bookingChanges.cancel })
			.from(bookingChanges)
			.where(and(eq(bookingChanges.bookingId, booking.id), eq(bookingChanges.status, 'waiting')))
			.orderBy(asc(bookingChanges.createdAt)),
		freeCancelUntil(booking.startsAt),
	])
	const minutes = Math.round((booking.endsAt.getTime() - booking.startsAt.getTime()) / 60_000)
	const offered =
		options.freeStarts && canBooking('proposeChange', booking.status) && !change
			? await freeTimes(booking.workshopId, { durationMinutes: minutes, now, limit: 8 }, database)
			: []
	const steps = [
		{ step: 'booked', at: booking.createdAt },
		{ step: 'car_received', at: booking.carReceivedAt },
		{ step: 'in_work', at: booking.workStartedAt },
		{ step: 'ready', at: booking.readyAt },
		{ step: 'done', at: booking.status === 'done' ? booking.endedAt : null },
	] as const
	return {
		id: booking.id,
		status: booking.status,
		startsAt: booking.startsAt.toISOString(),
		endsAt: booking.endsAt.toISOString(),
		endedAt: booking.endedAt?.toISOString() ?? null,
		started: now >= booking.startsAt,
		cancelFreeUntil: cancelFreeUntil.toISOString(),
		cancelFree: now < cancelFreeUntil,
		change: change ? { proposedBy: change.proposedBy, startsAt: change.startsAt.toISOString(), cancel: change.cancel } : null,
		freeStarts: offered.map((free) => free.startsAt.toISOString()),
		steps: steps.map((row) => ({ step: row.step, at: row.at ? new Date(row.at).toISOString() : null })),
	}
}
export type BookedJob = NonNullable<Awaited<ReturnType<typeof bookedJob>>>

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The booking id the form posted; a tampered one is "not found" (the moves check whose it is). */
function postedBooking(formData: FormData) {
	const id = String(formData.get('bookingId') ?? '')
	if (!UUID.test(id)) throw notFound()
	return id
}

/**
 * A page's answer to one of its booking forms: back to the booking with the move's message, a
 * time refused next to the choice (the choice kept), any other refusal as a message (the page as
 * it now is).
 */
export async function bookingFormAnswer(party: BookingParty, intent: BookingIntent, formData: FormData, page: string, request: Request) {
	try {
		const done = await bookingFormMove(party, intent, formData)
		return redirectWithToast(`${page}#booking`, { type: 'success', key: done }, { request })
	} catch (error) {
		if (error instanceof FieldError && error.field === 'startsAt') {
			const reply: BookingFormReply = { intent, startsAt: String(formData.get('startsAt') ?? ''), startsAtErrors: [error.key] }
			return data(reply, { status: error.status })
		}
		return handleDomainError(error, { as: 'toast', redirectTo: `${page}#booking`, request })
	}
}

/**
 * One of the booking forms (`intent`) by `party` on the booking `bookingId` of the page: the move's
 * success message key, or a refusal (DomainError; a time refused is a FieldError on `startsAt`).
 */
export async function bookingFormMove(party: BookingParty, intent: BookingIntent, formData: FormData): Promise<string> {
	const id = postedBooking(formData)
	switch (intent) {
		case 'bookingStep': {
			if (party.side !== 'workshop') throw notFound()
			const step = formData.get('step') as WorkshopStep
			if (!workshopSteps.includes(step)) throw new DomainError('common:errors.badRequest', 400)
			await stepMoves[step](party.workshop, id)
			return `booking:job.done.${step}`
		}
		case 'proposeTime': {
			const raw = String(formData.get('startsAt') ?? '')
			const startsAt = new Date(raw)
			if (!raw || Number.isNaN(startsAt.getTime())) throw new FieldError('startsAt', 'booking:change.errors.chooseTime')
			try {
				await proposeChange(party, id, startsAt)
			} catch (error) {
				// A time refused by the calendar is told next to the choice, with the free times as they now are.
				if (error instanceof DomainError && !(error instanceof FieldError) && error.key.startsWith('booking:refusals.'))
					throw new FieldError('startsAt', error.key, 409)
				throw error
			}
			return 'booking:change.done.proposed'
		}
		case 'answerChange': {
			const answer = formData.get('answer')
			if (answer !== 'accept' && answer !== 'decline') throw new DomainError('common:errors.badRequest', 400)
			const outcome = await answerChange(party, id, answer === 'accept')
			return `booking:change.done.${outcome}`
		}
		case 'withdrawChange':
			await withdrawChange(party, id)
			return 'booking:change.done.withdrawn'
		case 'cancelBooking':
			return (await cancelBooking(party, id)) === 'cancelled' ? 'booking:change.done.cancelled' : 'booking:change.done.cancelProposed'
		case 'noShow':
			if (party.side !== 'workshop') throw notFound()
			await markNoShow(party.workshop, id)
			return 'booking:job.done.noShow'
		case 'notTaken':
			if (party.side !== 'customer') throw notFound()
			await markNotTaken(party.userId, id)
			return 'booking:job.done.notTaken'
	}
}

const stepMoves: Record<WorkshopStep, (workshop: WorkshopActor, bookingId: string) => Promise<void>> = { receiveCar, startWork, markReady }
