import { eq, sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { DEFAULT_BAY, TimeRefused, bookTime, freeTimes } from '~/domain/booking/calendar.server'
import { makeOffer } from '~/domain/service-flow/offer-moves.server'
import { db, queryRows, transaction } from '~/db/db.server'
import { bookings, offers, workshopBays, workshopCalendars, workshops } from '~/db/schema'
import { type DomainError } from '~/utils/errors'
import { tallinnToDate } from '~/utils/time'
import { customerWithVehicle, openRequest, workshopOffering } from '#tests/support/flow'

/**
 * A time can be taken once per bay (issue 33): the database holds it (the exclusion constraint of
 * migration 0036), so of many customers choosing the last free time at once exactly one books it
 * and the others are told "that time was just taken", never a database error.
 */

/** A weekday at 10:00 in Tallinn at least two days ahead (the default minimum notice is two hours). */
function nextWeekdayTen() {
	for (let days = 2; ; days++) {
		const day = new Date(Date.now() + days * 24 * 3600_000).toISOString().slice(0, 10)
		const weekday = new Date(`${day}T12:00:00Z`).getUTCDay()
		if (weekday >= 2 && weekday <= 4) return tallinnToDate(`${day}T10:00`)
	}
}

async function workshopWithOneBay() {
	const owner = await customerWithVehicle()
	const workshop = await workshopOffering([owner.refs.tyres])
	await db.update(workshops).set({ weekdayOpens: '08:00', weekdayCloses: '17:00' }).where(eq(workshops.id, workshop.workshopId))
	return { owner, workshop }
}

describe('booking a time', () => {
	test('twenty customers choosing the last free time at once: one booking, nineteen clear refusals', async () => {
		const { owner, workshop } = await workshopWithOneBay()
		const startsAt = nextWeekdayTen()
		const takers = await Promise.all(
			Array.from({ length: 20 }, async () => {
				const customer = await customerWithVehicle()
				const requestId = await openRequest(customer.customer.id, customer.vehicleId, [owner.refs.tyres])
				// Past the free package's monthly offers: the offers are rows, the race is the booking's.
				const [offer] = await db.insert(offers).values({ requestId, workshopId: workshop.workshopId, priceCents: 5000 }).returning({ id: offers.id })
				return { customerId: customer.customer.id, requestId, offerId: offer!.id }
			}),
		)
		const results = await Promise.allSettled(
			takers.map((taker) =>
				transaction((tx) => bookTime(tx, { workshopId: workshop.workshopId, ...taker, startsAt, durationMinutes: 60 })),
			),
		)
		const refused = results.filter((result) => result.status === 'rejected')
		expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1)
		expect(refused).toHaveLength(19)
		for (const result of refused) {
			const reason = (result as PromiseRejectedResult).reason
			expect(reason).toBeInstanceOf(TimeRefused)
			expect((reason as DomainError).key).toBe('booking:refusals.taken')
			expect((reason as DomainError).status).toBe(409)
		}
		const rows = await db.select().from(bookings).where(eq(bookings.workshopId, workshop.workshopId))
		expect(rows).toHaveLength(1)
		// The one bay was made at the first booking, and the next free time is after the booked hour.
		expect(await db.select().from(workshopBays).where(eq(workshopBays.workshopId, workshop.workshopId))).toHaveLength(1)
		const next = await freeTimes(workshop.workshopId, { durationMinutes: 60, limit: 50 })
		expect(next.some((free) => free.startsAt.getTime() === startsAt.getTime())).toBe(false)
		expect(next.some((free) => free.startsAt.getTime() === startsAt.getTime() + 3600_000)).toBe(true)
	})

	test('two bays: two customers at once both book the same time, a third is refused', async () => {
		const { owner, workshop } = await workshopWithOneBay()
		await db.insert(workshopBays).values([
			{ workshopId: workshop.workshopId, position: 1, name: 'Lift 1' },
			{ workshopId: workshop.workshopId, position: 2, name: 'Lift 2' },
		])
		const startsAt = nextWeekdayTen()
		const takers = await Promise.all(
			Array.from({ length: 3 }, async () => {
				const customer = await customerWithVehicle()
				const requestId = await openRequest(customer.customer.id, customer.vehicleId, [owner.refs.tyres])
				return { customerId: customer.customer.id, requestId, offerId: await makeOffer(workshop, requestId, { price: 5000 }, null) }
			}),
		)
		const results = await Promise.allSettled(
			takers.map((taker) => transaction((tx) => bookTime(tx, { workshopId: workshop.workshopId, ...taker, startsAt, durationMinutes: 90 }))),
		)
		expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(2)
		const rows = await db.select({ bayId: bookings.bayId }).from(bookings).where(eq(bookings.workshopId, workshop.workshopId))
		expect(new Set(rows.map((row) => row.bayId)).size).toBe(2)
	})

	test('the database itself refuses two holding bookings overlapping in one bay, and lets an ended one be overlapped', async () => {
		const { owner, workshop } = await workshopWithOneBay()
		const startsAt = nextWeekdayTen()
		const customer = await customerWithVehicle()
		const first = await openRequest(customer.customer.id, customer.vehicleId, [owner.refs.tyres])
		const second = await openRequest(customer.customer.id, customer.vehicleId, [owner.refs.tyres])
		const firstOffer = await makeOffer(workshop, first, { price: 5000 }, null)
		const secondOffer = await makeOffer(workshop, second, { price: 5000 }, null)
		await transaction((tx) => bookTime(tx, { workshopId: workshop.workshopId, customerId: customer.customer.id, requestId: first, offerId: firstOffer, startsAt, durationMinutes: 60 }))
		const [bay] = await db.select().from(workshopBays).where(eq(workshopBays.workshopId, workshop.workshopId))
		const overlapping = {
			workshopId: workshop.workshopId,
			bayId: bay!.id,
			offerId: secondOffer,
			requestId: second,
			customerId: customer.customer.id,
			startsAt: new Date(startsAt.getTime() + 30 * 60_000),
			endsAt: new Date(startsAt.getTime() + 90 * 60_000),
			blocksUntil: new Date(startsAt.getTime() + 90 * 60_000),
		}
		const error = await db
			.insert(bookings)
			.values(overlapping)
			.then(() => null, (caught: unknown) => caught)
		expect(JSON.stringify(error, Object.getOwnPropertyNames(error ?? {})) + String((error as Error)?.cause)).toMatch(/23P01|bookings_bay_time_excl/)
		await db.update(bookings).set({ status: 'cancelled' }).where(eq(bookings.offerId, firstOffer))
		await db.insert(bookings).values(overlapping)
		const counted = await queryRows<{ count: number }>(db, sql`select count(*)::int as count from bookings where workshop_id = ${workshop.workshopId}`)
		expect(counted[0]?.count).toBe(2)
	})

	test('a start outside the rules is refused with its reason, and nothing is booked', async () => {
		const { owner, workshop } = await workshopWithOneBay()
		await db.insert(workshopCalendars).values({ workshopId: workshop.workshopId, minNoticeMinutes: 60 * 24 * 3 })
		const customer = await customerWithVehicle()
		const requestId = await openRequest(customer.customer.id, customer.vehicleId, [owner.refs.tyres])
		const offerId = await makeOffer(workshop, requestId, { price: 5000 }, null)
		const book = (startsAt: Date) =>
			transaction((tx) => bookTime(tx, { workshopId: workshop.workshopId, customerId: customer.customer.id, requestId, offerId, startsAt, durationMinutes: 60 })).then(
				() => 'booked',
				(error: unknown) => (error instanceof TimeRefused ? error.reason : String(error)),
			)
		// Within the three days' notice.
		expect(await book(new Date(Date.now() + 24 * 3600_000))).toBe('minNotice')
		const far = nextWeekdayTen()
		const day = new Date(far.getTime() + 7 * 24 * 3600_000)
		const local = (time: string) => tallinnToDate(`${day.toISOString().slice(0, 10)}T${time}`)
		expect(await book(local('18:00'))).toMatch(/outsideHours|closedDay|holiday/)
		expect(await book(local('16:30'))).toMatch(/tooLong|closedDay|holiday/)
		expect(await db.select().from(bookings).where(eq(bookings.offerId, offerId))).toHaveLength(0)
		expect(DEFAULT_BAY).toBe('default')
	})
})
