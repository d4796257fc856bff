import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { addDays, isoWeekday } from '~/domain/booking/calendar'
import { checkFreeStart } from '~/domain/booking/calendar.server'
import { makeOffer, selectOffer } from '~/domain/service-flow/offer-moves.server'
import { db } from '~/db/db.server'
import { bookings, offers, serviceRequests, workshops } from '~/db/schema'
import { type DomainError } from '~/utils/errors'
import { tallinnDay, tallinnToDate } from '~/utils/time'
import { customerWithVehicle, openRequest, workshopOffering } from '#tests/support/flow'

/**
 * An offer's time and its selection in one step (issue 33): the offer keeps its minutes in the bay
 * and its proposed starts, each checked against the calendar when saved; selecting books the
 * chosen one in the same transaction, or changes nothing.
 */

/** The next Tuesday to Thursday, two or more days ahead, at `time` in Tallinn. */
function weekdayAt(time: string, skip = 0) {
	let found = 0
	for (let days = 2; ; days++) {
		const day = addDays(tallinnDay(), days)
		const weekday = isoWeekday(day)
		if (weekday >= 2 && weekday <= 4 && found++ === skip) return tallinnToDate(`${day}T${time}`)
	}
}

/** The next Sunday: the profile below is closed on Sundays. */
function sundayAt(time: string) {
	for (let days = 2; ; days++) {
		const day = addDays(tallinnDay(), days)
		if (isoWeekday(day) === 7) return tallinnToDate(`${day}T${time}`)
	}
}

async function oneBayWorkshop() {
	const owner = await customerWithVehicle()
	const workshop = await workshopOffering([owner.refs.tyres])
	await db.update(workshops).set({ weekdayOpens: '08:00', weekdayCloses: '17:00' }).where(eq(workshops.id, workshop.workshopId))
	return { owner, workshop }
}

async function requestOf(owner: Awaited<ReturnType<typeof customerWithVehicle>>) {
	return openRequest(owner.customer.id, owner.vehicleId, [owner.refs.tyres])
}

const refusal = (promise: Promise<unknown>) => promise.then(() => null, (error: DomainError) => error)

describe('an offer with times, selected with one of them', () => {
	test('the offer keeps its minutes and proposed starts, in order', async () => {
		const { owner, workshop } = await oneBayWorkshop()
		const requestId = await requestOf(owner)
		const [ten, eleven] = [weekdayAt('10:00'), weekdayAt('11:00')]
		const offerId = await makeOffer(workshop, requestId, { price: 5000, bayHours: 1, bayMinutes: 30, proposedStarts: [eleven, undefined, ten] }, null)
		const [row] = await db.select().from(offers).where(eq(offers.id, offerId))
		expect(row!.bookingMinutes).toBe(90)
		expect(row!.proposedStarts.map((start) => start.getTime())).toEqual([ten.getTime(), eleven.getTime()])
		expect(row!.anyFreeTime).toBe(false)
	})

	test('the labour lines give the minutes when none are typed', async () => {
		const { owner, workshop } = await oneBayWorkshop()
		const requestId = await requestOf(owner)
		const offerId = await makeOffer(
			workshop,
			requestId,
			{ lines: [{ kind: 'labour', description: 'Tyres', reference: '', quantity: 125, unitPrice: 4000 }], proposedStarts: [weekdayAt('10:00')] },
			null,
		)
		const [row] = await db.select({ bookingMinutes: offers.bookingMinutes }).from(offers).where(eq(offers.id, offerId))
		expect(row!.bookingMinutes).toBe(75)
	})

	test('a proposed start on a closed day is refused next to its field with the reason, and nothing is made', async () => {
		const { owner, workshop } = await oneBayWorkshop()
		const requestId = await requestOf(owner)
		const error = await refusal(makeOffer(workshop, requestId, { price: 5000, bayHours: 1, proposedStarts: [weekdayAt('10:00'), sundayAt('10:00')] }, null))
		expect(error).toMatchObject({ key: 'booking:refusals.outsideHours', field: 'proposedStarts[1]', status: 422 })
		expect(await db.select().from(offers).where(eq(offers.requestId, requestId))).toHaveLength(0)
		const late = await refusal(makeOffer(workshop, requestId, { price: 5000, bayHours: 2, proposedStarts: [weekdayAt('16:00')] }, null))
		expect(late).toMatchObject({ key: 'booking:refusals.tooLong', field: 'proposedStarts[0]' })
	})

	test('selecting with a proposed time books it; the request is in progress', async () => {
		const { owner, workshop } = await oneBayWorkshop()
		const requestId = await requestOf(owner)
		const [ten, eleven] = [weekdayAt('10:00'), weekdayAt('11:00')]
		const offerId = await makeOffer(workshop, requestId, { price: 5000, bayHours: 1, proposedStarts: [ten, eleven] }, null)
		await selectOffer(owner.customer.id, requestId, offerId, { startsAt: eleven })
		const [booking] = await db.select().from(bookings).where(eq(bookings.offerId, offerId))
		expect(booking).toMatchObject({ requestId, customerId: owner.customer.id, workshopId: workshop.workshopId, status: 'booked' })
		expect(booking!.startsAt.getTime()).toBe(eleven.getTime())
		expect(booking!.endsAt.getTime()).toBe(eleven.getTime() + 3600_000)
		const [request] = await db.select().from(serviceRequests).where(eq(serviceRequests.id, requestId))
		expect(request).toMatchObject({ status: 'in_progress', selectedOfferId: offerId })
		expect((await checkFreeStart(workshop.workshopId, eleven, 60)).ok).toBe(false)
	})

	test('a time not proposed, or none, is a 400 and changes nothing', async () => {
		const { owner, workshop } = await oneBayWorkshop()
		const requestId = await requestOf(owner)
		const offerId = await makeOffer(workshop, requestId, { price: 5000, bayHours: 1, proposedStarts: [weekdayAt('10:00')] }, null)
		expect(await refusal(selectOffer(owner.customer.id, requestId, offerId, { startsAt: weekdayAt('12:00') }))).toMatchObject({ key: 'booking:select.timeNotOffered', status: 400 })
		expect(await refusal(selectOffer(owner.customer.id, requestId, offerId))).toMatchObject({ key: 'booking:select.timeRequired', status: 400 })
		expect(await refusal(selectOffer(owner.customer.id, requestId, offerId, { startsAt: new Date('nonsense') }))).toMatchObject({ status: 400 })
		const [request] = await db.select().from(serviceRequests).where(eq(serviceRequests.id, requestId))
		expect(request!.status).toBe('offer')
		expect(await db.select().from(bookings).where(eq(bookings.requestId, requestId))).toHaveLength(0)
	})

	test('any free time: a free start before the validity ends; one after it is a 400', async () => {
		const { owner, workshop } = await oneBayWorkshop()
		const requestId = await requestOf(owner)
		const start = weekdayAt('09:00')
		const validUntil = tallinnDay(start)
		const offerId = await makeOffer(workshop, requestId, { price: 5000, bayHours: 1, anyFreeTime: true, validUntil }, null)
		expect(await refusal(selectOffer(owner.customer.id, requestId, offerId, { startsAt: new Date(start.getTime() + 24 * 3600_000) }))).toMatchObject({
			key: 'booking:select.timeNotOffered',
			status: 400,
		})
		await selectOffer(owner.customer.id, requestId, offerId, { startsAt: start })
		expect(await db.select().from(bookings).where(eq(bookings.offerId, offerId))).toHaveLength(1)
	})

	test('a time taken meanwhile: TimeRefused, nothing changed, the request still open', async () => {
		const { owner, workshop } = await oneBayWorkshop()
		const other = await customerWithVehicle()
		const ten = weekdayAt('10:00')
		const first = await requestOf(owner)
		const second = await openRequest(other.customer.id, other.vehicleId, [owner.refs.tyres])
		const firstOffer = await makeOffer(workshop, first, { price: 5000, bayHours: 1, proposedStarts: [ten] }, null)
		const secondOffer = await makeOffer(workshop, second, { price: 5000, bayHours: 1, proposedStarts: [ten, weekdayAt('13:00')] }, null)
		await selectOffer(owner.customer.id, first, firstOffer, { startsAt: ten })
		const error = await refusal(selectOffer(other.customer.id, second, secondOffer, { startsAt: ten }))
		expect(error).toMatchObject({ key: 'booking:refusals.taken', status: 409, reason: 'taken' })
		const [request] = await db.select().from(serviceRequests).where(eq(serviceRequests.id, second))
		expect(request).toMatchObject({ status: 'offer', selectedOfferId: null })
		const [offer] = await db.select({ status: offers.status }).from(offers).where(eq(offers.id, secondOffer))
		expect(offer!.status).toBe('pending')
		expect(await db.select().from(bookings).where(eq(bookings.requestId, second))).toHaveLength(0)
	})

	test('two tabs of one customer choosing two times at once leave one booking', async () => {
		const { owner, workshop } = await oneBayWorkshop()
		const requestId = await requestOf(owner)
		const [ten, eleven] = [weekdayAt('10:00'), weekdayAt('11:00')]
		const offerId = await makeOffer(workshop, requestId, { price: 5000, bayHours: 1, proposedStarts: [ten, eleven] }, null)
		const results = await Promise.allSettled([
			selectOffer(owner.customer.id, requestId, offerId, { startsAt: ten }),
			selectOffer(owner.customer.id, requestId, offerId, { startsAt: eleven }),
		])
		expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1)
		const loser = results.find((result) => result.status === 'rejected') as PromiseRejectedResult
		expect(loser.reason).toMatchObject({ key: 'customer:offers.alreadySelected', status: 409 })
		expect(await db.select().from(bookings).where(eq(bookings.requestId, requestId))).toHaveLength(1)
	})

	test('an offer without times is selected with no booking, as before', async () => {
		const { owner, workshop } = await oneBayWorkshop()
		const requestId = await requestOf(owner)
		const offerId = await makeOffer(workshop, requestId, { price: 5000 }, null)
		const [row] = await db.select().from(offers).where(eq(offers.id, offerId))
		expect(row).toMatchObject({ bookingMinutes: null, proposedStarts: [], anyFreeTime: false })
		await selectOffer(owner.customer.id, requestId, offerId)
		expect(await db.select().from(bookings).where(eq(bookings.requestId, requestId))).toHaveLength(0)
		const [request] = await db.select().from(serviceRequests).where(eq(serviceRequests.id, requestId))
		expect(request!.status).toBe('in_progress')
	})
})
