/**
 * The demo workshop's calendar (issue 33, item 8), called by the demo loader after the story
 * (demo-data.server.ts): two lifts, its profile's hours with a lunch break, a day off next month,
 * and this week's jobs: one car ready for pickup, one in the workshop, Mari's Corolla booked for
 * the next working morning (the reminders' "tomorrow") and two more later in the week, with free
 * times left between them; the demo workshop's offer on Mari's open request proposes three of them.
 *
 * Made with the product's moves (request, offer, select, then bookTime in the seed's transaction),
 * each time chosen by the calendar's own engine, so the data keeps to the rules whatever day the
 * demo is loaded (a Sunday, Christmas): a time that does not fit is moved to the next free one.
 */
import { eq, sql } from 'drizzle-orm'
import * as t from '~/db/schema'
import { type DbOrTx } from '~/db/db.server'
import { addDays, freeStarts, isoWeekday, type FreeStart } from '~/domain/booking/calendar'
import { bookTime, busyTimes, calendarRules, refreshNextFree } from '~/domain/booking/calendar.server'
import { type WorkshopActor } from '~/utils/auth.server'
import { tallinnDay, tallinnToDate } from '~/utils/time'

const HOUR = 60 * 60 * 1000
const DAY = 24 * HOUR

/** The moves of the demo's storyteller this module plays (demo-data.server.ts passes its own). */
export type DemoStory = {
	request(customerId: string, r: { vehicle: string; services: string[]; details: string; location: string; city: string; preferredAt: Date }, at: Date): Promise<string>
	offer(workshop: WorkshopActor, requestId: string, o: { price: number; description?: string }, at: Date): Promise<string>
	select(customerId: string, requestId: string, offerId: string, at: Date): Promise<void>
}

export type DemoCalendarInput = {
	story: DemoStory
	/** workshop@example.com's workshop. */
	workshop: WorkshopActor
	/** Every demo workshop: their directory's "next free" is set once the calendar is in. */
	workshopIds: string[]
	/** The story's job in progress (Mari's Corolla, the demo workshop's offer selected): booked for the next working morning. */
	inProgress: { customerId: string; requestId: string; offerId: string; selectedAt: Date }
	/** The demo workshop's offer waiting on Mari's open request: it proposes the next three free times. */
	pendingOffer: { offerId: string; minutes: number }
	/** Customers of the other stories with a car the demo workshop serves. */
	customers: Array<{ id: string; vehicle: string }>
	now: Date
}

/** The profile's hours (Mon–Fri 08–18, Sat 10–15, demo-data.server.ts) with a lunch break on weekdays. */
const HOURS = [
	...[1, 2, 3, 4, 5].flatMap((weekday) => [
		{ weekday, opens: '08:00', closes: '12:00' },
		{ weekday, opens: '12:30', closes: '18:00' },
	]),
	{ weekday: 6, opens: '10:00', closes: '15:00' },
]

/**
 * A job of this week: for customer `who`, `minutes` long, at the first free start after `from`
 * (a job ahead), or the last one in [from, until) (a job already begun); then its step.
 */
type DemoJob = {
	who: number
	services: string[]
	details: string
	price: number
	minutes: number
	at: { from: Date; until?: Date }
	step?: 'car_received' | 'ready'
}

export async function insertDemoCalendar(tx: DbOrTx, input: DemoCalendarInput) {
	const { story, workshop, now } = input
	const workshopId = workshop.workshopId
	await tx.insert(t.workshopCalendars).values({ workshopId, ownHours: true, bufferMinutes: 15, minNoticeMinutes: 120, horizonDays: 42, stepMinutes: 30 })
	await tx.insert(t.workshopBays).values([
		{ workshopId, position: 1, name: 'Tõstuk 1' },
		{ workshopId, position: 2, name: 'Tõstuk 2' },
	])
	await tx.insert(t.workshopHours).values(HOURS.map((hours) => ({ workshopId, ...hours })))
	await tx.insert(t.workshopDaysOff).values({ workshopId, day: firstFridayOfNextMonth(now), note: 'Koolituspäev' })

	const at = (days: number, hour: number) => tallinnToDate(`${addDays(tallinnDay(now), days)}T${String(hour).padStart(2, '0')}:00`)
	// Each booking's time is chosen as it is booked, by the calendar it will be checked against.
	const book = async (job: { customerId: string; requestId: string; offerId: string; minutes: number; bookedAt: Date; at: DemoJob['at'] }) => {
		const start = await chooseStart(tx, workshopId, job.minutes, job.bookedAt, job.at)
		if (!start) return null
		await tx.update(t.offers).set({ bookingMinutes: job.minutes }).where(eq(t.offers.id, job.offerId))
		const id = await bookTime(tx, { workshopId, offerId: job.offerId, requestId: job.requestId, customerId: job.customerId, startsAt: start.startsAt, durationMinutes: job.minutes, now: job.bookedAt })
		return { id, startsAt: start.startsAt }
	}

	// Mari's service, talked over in the chat: the next working morning from 08:00.
	const { inProgress } = input
	await book({ ...inProgress, minutes: 120, bookedAt: inProgress.selectedAt, at: { from: at(1, 8) } })

	// The others asked before this month began: the demo workshop's free package keeps this month's
	// offers for the story (its allowance counts offers made since the 1st).
	const monthStart = tallinnToDate(`${tallinnDay(now).slice(0, 7)}-01T00:00`)
	const jobs: DemoJob[] = [
		{ who: 0, services: ['brakes'], details: 'Esipidurite klotsid ja kettad, pidurdades vibreerib.', price: 190, minutes: 150, at: { from: new Date(now.getTime() - 5 * DAY), until: new Date(now.getTime() - 1 * DAY) }, step: 'ready' },
		{ who: 1, services: ['maintenance', 'oil-change'], details: 'Hooldus 90 000 km, õli ja filtrid.', price: 165, minutes: 180, at: { from: new Date(now.getTime() - 2 * DAY), until: new Date(now.getTime() - HOUR) }, step: 'car_received' },
		{ who: 2, services: ['air-conditioning'], details: 'Kliimaseadme täitmine ja lekkekontroll.', price: 79, minutes: 90, at: { from: at(2, 13) } },
		{ who: 3, services: ['tyres'], details: 'Talverehvid alla, suverehvid rehvihotelli.', price: 45, minutes: 60, at: { from: at(3, 10) } },
	]
	for (const [n, job] of jobs.entries()) {
		const customer = input.customers[job.who]!
		const asked = new Date(monthStart.getTime() - (4 - n * 0.25) * DAY)
		const requestId = await story.request(
			customer.id,
			{ vehicle: customer.vehicle, services: job.services, details: job.details, location: 'Tallinn', city: 'tallinn', preferredAt: job.at.from },
			asked,
		)
		const offerId = await story.offer(workshop, requestId, { price: job.price }, new Date(asked.getTime() + 3 * HOUR))
		const selectedAt = new Date(asked.getTime() + DAY)
		await story.select(customer.id, requestId, offerId, selectedAt)
		const booked = await book({ customerId: customer.id, requestId, offerId, minutes: job.minutes, bookedAt: selectedAt, at: job.at })
		if (booked && job.step) {
			const ended = new Date(booked.startsAt.getTime() + job.minutes * 60_000)
			await tx
				.update(t.bookings)
				.set({ status: job.step, carReceivedAt: booked.startsAt, readyAt: job.step === 'ready' ? ended : null })
				.where(eq(t.bookings.id, booked.id))
		}
	}

	// The offer Mari compares proposes three times from what is left free (after the jobs above).
	const { pendingOffer } = input
	const rules = await calendarRules(tx, workshopId)
	const busy = await busyTimes(tx, workshopId, now, new Date(now.getTime() + 15 * DAY))
	const free = freeStarts(rules, busy, { now, durationMinutes: pendingOffer.minutes, from: at(2, 8), until: new Date(now.getTime() + 14 * DAY) })
	// One a day, the first of each of three days.
	const proposed = free.filter((start, n) => n === 0 || tallinnDay(start.startsAt) !== tallinnDay(free[n - 1]!.startsAt)).slice(0, 3)
	await tx
		.update(t.offers)
		.set({ bookingMinutes: pendingOffer.minutes, proposedStarts: proposed.map((start) => start.startsAt) })
		.where(eq(t.offers.id, pendingOffer.offerId))

	// The moves told everyone (stamped with this transaction's now()); the story's bells are its own.
	await tx.delete(t.notifications).where(sql`${t.notifications.createdAt} = now()`)
	for (const id of input.workshopIds) await refreshNextFree(id, now, tx)
}

/** The first free start from `at.from`, or (with `until`) the last one before it; none: null. */
async function chooseStart(tx: DbOrTx, workshopId: string, minutes: number, bookedAt: Date, at: DemoJob['at']): Promise<FreeStart | null> {
	const rules = await calendarRules(tx, workshopId)
	const until = at.until ?? new Date(at.from.getTime() + 14 * DAY)
	const busy = await busyTimes(tx, workshopId, new Date(at.from.getTime() - DAY), new Date(until.getTime() + DAY))
	const starts = freeStarts(rules, busy, { now: bookedAt, durationMinutes: minutes, from: at.from, until, limit: at.until ? Infinity : 1 })
	return (at.until ? starts.at(-1) : starts[0]) ?? null
}

/** The workshop's day off: the first Friday of next month (Tallinn). */
function firstFridayOfNextMonth(now: Date) {
	const [year, month] = tallinnDay(now).split('-').map(Number) as [number, number]
	let day = month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, '0')}-01`
	while (isoWeekday(day) !== 5) day = addDays(day, 1)
	return day
}
