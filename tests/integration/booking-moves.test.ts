import { and, eq, inArray } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import {
	answerChange,
	cancelBooking,
	markNoShow,
	markNotTaken,
	markReady,
	proposeChange,
	receiveCar,
	startWork,
	withdrawChange,
} from '~/domain/booking/booking-moves.server'
import { TimeRefused, bookTime } from '~/domain/booking/calendar.server'
import { bookedJob as bookedJobView } from '~/domain/booking/booked-job.server'
import { completeJob } from '~/domain/service-flow/job-moves.server'
import { db, transaction } from '~/db/db.server'
import { bookingChanges, bookings, emailOutbox, notifications, offers, serviceRequests, workshops } from '~/db/schema'
import { DomainError } from '~/utils/errors'
import { tallinnToDate } from '~/utils/time'
import { customerWithVehicle, jobInProgress, openRequest, workshopOffering } from '#tests/support/flow'

/**
 * A booked job's life (issue 33): the workshop's steps, a change of time proposed and answered,
 * cancelling (free, then only by agreement), no-shows and "not taken"; each move by its side only,
 * from its statuses only, told to the other side by bell and e-mail.
 */

/** A Tuesday–Thursday at `time` in Tallinn, at least three days ahead (free to cancel, within the window). */
function weekdayAhead(time: string, from = 3) {
	for (let days = from; ; days++) {
		const day = new Date(Date.now() + days * 24 * 3600_000).toISOString().slice(0, 10)
		const weekday = new Date(`${day}T12:00:00Z`).getUTCDay()
		if (weekday >= 2 && weekday <= 4) return { day, at: tallinnToDate(`${day}T${time}`) }
	}
}

async function bookedJob() {
	const job = await jobInProgress()
	await db.update(workshops).set({ weekdayOpens: '08:00', weekdayCloses: '17:00' }).where(eq(workshops.id, job.workshop.workshopId))
	const { day, at } = weekdayAhead('10:00')
	const bookingId = await transaction((tx) =>
		bookTime(tx, { workshopId: job.workshop.workshopId, offerId: job.offerId, requestId: job.requestId, customerId: job.customerId, startsAt: at, durationMinutes: 60 }),
	)
	const customer = { side: 'customer' as const, userId: job.customerId }
	const workshop = { side: 'workshop' as const, workshop: job.workshop }
	return { ...job, bookingId, day, startsAt: at, customer, workshopParty: workshop }
}

async function booking(id: string) {
	const [row] = await db.select().from(bookings).where(eq(bookings.id, id))
	return row!
}

async function refusal(promise: Promise<unknown>) {
	const error = await promise.then(
		() => null,
		(caught: unknown) => caught,
	)
	expect(error).toBeInstanceOf(DomainError)
	return error as DomainError
}

async function notices(userId: string) {
	return db.select().from(notifications).where(eq(notifications.userId, userId))
}

/** Moves the booking's start into the past (as if the time had come), keeping its length. */
async function startedAgo(bookingId: string, minutes = 30) {
	const startsAt = new Date(Date.now() - minutes * 60_000)
	await db
		.update(bookings)
		.set({ startsAt, endsAt: new Date(startsAt.getTime() + 3600_000), blocksUntil: new Date(startsAt.getTime() + 3600_000) })
		.where(eq(bookings.id, bookingId))
}

describe('the job steps', () => {
	test('car received → work started → ready, each told to the customer by bell and e-mail', async () => {
		const job = await bookedJob()
		await receiveCar(job.workshop, job.bookingId)
		let row = await booking(job.bookingId)
		expect(row.status).toBe('car_received')
		expect(row.carReceivedAt).not.toBeNull()
		await startWork(job.workshop, job.bookingId)
		row = await booking(job.bookingId)
		expect(row.status).toBe('in_work')
		// Kept with the booking: the bell's notices may go (read ones leave after a while), the step's time stays.
		expect(row.workStartedAt).not.toBeNull()
		expect((await notices(job.customerId)).map((notice) => notice.messageKey)).toEqual(expect.arrayContaining(['notifications.bookingCarReceived', 'notifications.bookingInWork']))
		await db.delete(notifications).where(eq(notifications.userId, job.customerId))
		expect((await bookedJobView(job.offerId))!.steps.find((step) => step.step === 'in_work')!.at).toBe(row.workStartedAt!.toISOString())
		await markReady(job.workshop, job.bookingId)
		row = await booking(job.bookingId)
		expect(row.status).toBe('ready')
		expect(row.readyAt).not.toBeNull()
		const keys = (await notices(job.customerId)).map((notice) => notice.messageKey)
		expect(keys).toEqual(expect.arrayContaining(['notifications.bookingReady']))
		const [ready] = (await notices(job.customerId)).filter((notice) => notice.messageKey === 'notifications.bookingReady')
		const [mail] = await db.select().from(emailOutbox).where(eq(emailOutbox.dedupeKey, `notification:${ready!.id}`))
		expect(mail?.subject).toContain('ready for pickup')
	})

	test('refused: another workshop (not found), the customer (not found), a step out of order (409)', async () => {
		const job = await bookedJob()
		const other = await workshopOffering([job.owner.refs.brakes])
		expect((await refusal(receiveCar(other, job.bookingId))).status).toBe(404)
		expect((await refusal(startWork(job.workshop, job.bookingId))).status).toBe(409)
		expect((await refusal(markReady(job.workshop, '00000000-0000-4000-8000-000000000000'))).status).toBe(404)
		expect((await refusal(cancelBooking({ side: 'customer', userId: (await customerWithVehicle()).customer.id }, job.bookingId))).status).toBe(404)
		await receiveCar(job.workshop, job.bookingId)
		const error = await refusal(receiveCar(job.workshop, job.bookingId))
		expect(error.status).toBe(409)
		expect(error.key).toBe('booking:job.errors.notNow')
		// Once the car is there, its time is not changed or cancelled any more.
		expect((await refusal(cancelBooking(job.customer, job.bookingId))).status).toBe(409)
		expect((await refusal(proposeChange(job.workshopParty, job.bookingId, weekdayAhead('13:00').at))).status).toBe(409)
	})

	test('completing the job finishes its booking', async () => {
		const job = await bookedJob()
		await receiveCar(job.workshop, job.bookingId)
		expect(await completeJob(job.workshop, job.offerId, 15000)).toBe('completed')
		const row = await booking(job.bookingId)
		expect(row.status).toBe('done')
		expect(row.endedAt).not.toBeNull()
	})
})

describe('changing the time', () => {
	test('the workshop proposes, the customer accepts: the booking moves and its sequence rises', async () => {
		const job = await bookedJob()
		const later = tallinnToDate(`${job.day}T13:00`)
		await proposeChange(job.workshopParty, job.bookingId, later)
		// One waiting proposal at a time; one's own is not answered by oneself.
		expect((await refusal(proposeChange(job.customer, job.bookingId, tallinnToDate(`${job.day}T14:00`)))).key).toBe('booking:change.errors.alreadyWaiting')
		expect((await refusal(answerChange(job.workshopParty, job.bookingId, true))).key).toBe('booking:change.errors.noneWaiting')
		expect((await notices(job.customerId)).map((notice) => notice.messageKey)).toContain('notifications.bookingChangeProposed')
		expect(await answerChange(job.customer, job.bookingId, true)).toBe('moved')
		const row = await booking(job.bookingId)
		expect(row.startsAt.getTime()).toBe(later.getTime())
		expect(row.endsAt.getTime()).toBe(later.getTime() + 3600_000)
		expect(row.sequence).toBe(1)
		const workshopNotices = await notices(job.workshop.userId)
		expect(workshopNotices.map((notice) => notice.messageKey)).toContain('notifications.bookingChangeAcceptedWorkshop')
	})

	test('declined and withdrawn proposals leave the time; a taken time is refused', async () => {
		const job = await bookedJob()
		await proposeChange(job.customer, job.bookingId, tallinnToDate(`${job.day}T13:00`))
		expect(await answerChange(job.workshopParty, job.bookingId, false)).toBe('declined')
		await proposeChange(job.customer, job.bookingId, tallinnToDate(`${job.day}T14:00`))
		await withdrawChange(job.customer, job.bookingId)
		expect((await refusal(withdrawChange(job.customer, job.bookingId))).status).toBe(409)
		const row = await booking(job.bookingId)
		expect(row.startsAt.getTime()).toBe(job.startsAt.getTime())
		expect(row.sequence).toBe(0)
		// Another customer takes 15:00; then a proposal of 15:00 is refused with its reason.
		const other = await customerWithVehicle()
		const requestId = await openRequest(other.customer.id, other.vehicleId, [job.owner.refs.brakes])
		const [offer] = await db.insert(offers).values({ requestId, workshopId: job.workshop.workshopId, priceCents: 5000 }).returning({ id: offers.id })
		const fifteen = tallinnToDate(`${job.day}T15:00`)
		await transaction((tx) => bookTime(tx, { workshopId: job.workshop.workshopId, offerId: offer!.id, requestId, customerId: other.customer.id, startsAt: fifteen, durationMinutes: 60 }))
		const taken = await refusal(proposeChange(job.workshopParty, job.bookingId, fifteen))
		expect(taken).toBeInstanceOf(TimeRefused)
		expect(taken.key).toBe('booking:refusals.taken')
	})
})

describe('cancelling', () => {
	test('free before the notice: the booking, the request and the offer end; the workshop is told', async () => {
		const job = await bookedJob()
		expect(await cancelBooking(job.customer, job.bookingId)).toBe('cancelled')
		const row = await booking(job.bookingId)
		expect(row.status).toBe('cancelled')
		expect(row.endedAt).not.toBeNull()
		expect(row.sequence).toBe(1)
		const [request] = await db.select().from(serviceRequests).where(eq(serviceRequests.id, job.requestId))
		expect(request!.status).toBe('cancelled')
		const [offer] = await db.select().from(offers).where(eq(offers.id, job.offerId))
		expect(offer!.status).toBe('request_cancelled')
		expect((await notices(job.workshop.userId)).map((notice) => notice.messageKey)).toContain('notifications.bookingCancelledWorkshop')
	})

	test('after the notice the customer’s cancel is a proposal the workshop accepts', async () => {
		const job = await bookedJob()
		// An hour from now: within the free notice (24 h by default).
		const soon = new Date(Date.now() + 3600_000)
		await db.update(bookings).set({ startsAt: soon, endsAt: new Date(soon.getTime() + 3600_000), blocksUntil: new Date(soon.getTime() + 3600_000) }).where(eq(bookings.id, job.bookingId))
		expect(await cancelBooking(job.customer, job.bookingId)).toBe('proposed')
		expect((await booking(job.bookingId)).status).toBe('booked')
		const [change] = await db.select().from(bookingChanges).where(and(eq(bookingChanges.bookingId, job.bookingId), eq(bookingChanges.status, 'waiting')))
		expect(change?.cancel).toBe(true)
		expect((await notices(job.workshop.userId)).map((notice) => notice.messageKey)).toContain('notifications.bookingCancelProposedWorkshop')
		expect(await answerChange(job.workshopParty, job.bookingId, true)).toBe('cancelled')
		expect((await booking(job.bookingId)).status).toBe('cancelled')
	})

	test('a race: the customer cancels while the workshop marks the car received; one wins, the other a translated 409', async () => {
		for (let round = 0; round < 4; round++) {
			const job = await bookedJob()
			const results = await Promise.allSettled([cancelBooking(job.customer, job.bookingId), receiveCar(job.workshop, job.bookingId)])
			const won = results.filter((result) => result.status === 'fulfilled')
			expect(won).toHaveLength(1)
			const lost = results.find((result) => result.status === 'rejected') as PromiseRejectedResult
			expect(lost.reason).toBeInstanceOf(DomainError)
			expect((lost.reason as DomainError).status).toBe(409)
			expect((lost.reason as DomainError).key).toBe('booking:job.errors.notNow')
			expect(['cancelled', 'car_received']).toContain((await booking(job.bookingId)).status)
		}
	})
})

describe('no-shows', () => {
	test('the workshop marks a no-show only after the start; the customer marks "not taken" only after it', async () => {
		const job = await bookedJob()
		expect((await refusal(markNoShow(job.workshop, job.bookingId))).key).toBe('booking:job.errors.beforeStart')
		expect((await refusal(markNotTaken(job.customerId, job.bookingId))).key).toBe('booking:job.errors.beforeStart')
		expect((await refusal(markNotTaken(job.workshop.userId, job.bookingId))).status).toBe(404)
		await startedAgo(job.bookingId)
		await markNoShow(job.workshop, job.bookingId)
		const row = await booking(job.bookingId)
		expect(row.status).toBe('no_show')
		const [request] = await db.select().from(serviceRequests).where(eq(serviceRequests.id, job.requestId))
		expect(request!.status).toBe('cancelled')
		expect((await notices(job.customerId)).map((notice) => notice.messageKey)).toContain('notifications.bookingNoShow')

		const second = await bookedJob()
		await startedAgo(second.bookingId)
		await markNotTaken(second.customerId, second.bookingId)
		expect((await booking(second.bookingId)).status).toBe('not_taken')
		const told = await db
			.select()
			.from(notifications)
			.where(and(eq(notifications.userId, second.workshop.userId), inArray(notifications.messageKey, ['notifications.bookingNotTakenWorkshop'])))
		expect(told).toHaveLength(1)
	})
})
