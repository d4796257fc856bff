import { and, eq, inArray, isNull, ne, sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { bookTime } from '~/domain/booking/calendar.server'
import { freeWeekEnd, preferredStartParam, requestFormPath } from '~/domain/booking/free-times'
import { nextFreeTimes, refreshDueNextFree } from '~/domain/booking/next-free.server'
import { parseWorkshopListQuery } from '~/domain/directory/list-query'
import { getWorkshopProfile, searchWorkshops } from '~/domain/directory/workshops.server'
import { db, queryRows, transaction } from '~/db/db.server'
import { cities, offers, workshops } from '~/db/schema'
import { loader as apiListLoader } from '~/routes/admin.api.workshop-list'
import { loader as requestFormLoader } from '~/routes/_app.new-service-register'
import { encodeId } from '~/utils/public-id'
import { dateToTallinnInput, tallinnToDate } from '~/utils/time'
import { signedInRequest } from '#tests/support/accounts'
import { customerWithVehicle, openRequest, workshopOffering } from '#tests/support/flow'

/**
 * Next free times are real (issue 33, item 7): computed from the workshop's calendar for a typical
 * job, kept in workshops.next_free_at by the refresh job for the directory's cards and its "free
 * this week" filter, and each a link to the request form with the time filled in.
 */

/** A Monday at least a week ahead, as a Tallinn day. */
function mondayAhead() {
	for (let days = 7; ; days++) {
		const day = new Date(Date.now() + days * 24 * 3600_000).toISOString().slice(0, 10)
		if (new Date(`${day}T12:00:00Z`).getUTCDay() === 1) return day
	}
}
const at = (day: string, time: string) => tallinnToDate(`${day}T${time}`)
const plusDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 24 * 3600_000).toISOString().slice(0, 10)

/** A listed workshop (it has a city) named with `token`, open on weekdays 08:00–17:00 unless `closed`. */
async function listedWorkshop(token: string, options: { closed?: boolean } = {}) {
	const owner = await customerWithVehicle()
	const workshop = await workshopOffering([owner.refs.tyres])
	const [city] = await db.select({ id: cities.id }).from(cities).where(eq(cities.code, 'tallinn'))
	await db
		.update(workshops)
		.set({ workshopName: `${token} ${workshop.workshopName}`, cityId: city!.id, ...(options.closed ? {} : { weekdayOpens: '08:00', weekdayCloses: '17:00' }) })
		.where(eq(workshops.id, workshop.workshopId))
	return { owner, workshop }
}

describe('the next free times', () => {
	test('come from the calendar: a booked morning shows the next free time after it', async () => {
		const { owner, workshop } = await listedWorkshop('Morning')
		const monday = mondayAhead()
		const now = at(monday, '05:00')
		// Open from 08:00 with two hours' notice: the first free times are 08:00, 08:30, 09:00.
		expect((await nextFreeTimes(workshop.workshopId, { now })).map(dateToTallinnInput)).toEqual([`${monday}T08:00`, `${monday}T08:30`, `${monday}T09:00`])

		const requestId = await openRequest(owner.customer.id, owner.vehicleId, [owner.refs.tyres])
		const [offer] = await db.insert(offers).values({ requestId, workshopId: workshop.workshopId, priceCents: 5000 }).returning({ id: offers.id })
		await transaction((tx) =>
			bookTime(tx, { workshopId: workshop.workshopId, offerId: offer!.id, requestId, customerId: owner.customer.id, startsAt: at(monday, '08:00'), durationMinutes: 240, now }),
		)
		expect((await nextFreeTimes(workshop.workshopId, { now })).map(dateToTallinnInput)).toEqual([`${monday}T12:00`, `${monday}T12:30`, `${monday}T13:00`])
		// The public profile shows the same, as ISO instants.
		const profile = await getWorkshopProfile(workshop.workshopId, 'en', now)
		expect(profile!.nextFreeTimes).toEqual([at(monday, '12:00'), at(monday, '12:30'), at(monday, '13:00')].map((date) => date.toISOString()))
	})

	test('a closed workshop has none', async () => {
		const { workshop } = await listedWorkshop('Closed', { closed: true })
		expect(await nextFreeTimes(workshop.workshopId)).toEqual([])
		expect((await getWorkshopProfile(workshop.workshopId, 'en'))!.nextFreeTimes).toEqual([])
	})
})

describe('the refresh job', () => {
	test('moves on the never computed, the past and the soon, and leaves the rest', async () => {
		const now = new Date()
		const never = (await listedWorkshop('Never')).workshop.workshopId
		const past = (await listedWorkshop('Past')).workshop.workshopId
		const later = (await listedWorkshop('Later')).workshop.workshopId
		const closedRecently = (await listedWorkshop('ClosedRecently', { closed: true })).workshop.workshopId
		const closedLongAgo = (await listedWorkshop('ClosedLongAgo', { closed: true })).workshop.workshopId
		const hourAgo = new Date(now.getTime() - 61 * 60_000)
		const farAhead = new Date(now.getTime() + 5 * 24 * 3600_000)
		await db.update(workshops).set({ nextFreeAt: null, nextFreeCheckedAt: null }).where(eq(workshops.id, never))
		await db.update(workshops).set({ nextFreeAt: new Date(now.getTime() - 3600_000), nextFreeCheckedAt: hourAgo }).where(eq(workshops.id, past))
		await db.update(workshops).set({ nextFreeAt: farAhead, nextFreeCheckedAt: hourAgo }).where(eq(workshops.id, later))
		await db.update(workshops).set({ nextFreeAt: null, nextFreeCheckedAt: new Date(now.getTime() - 10 * 60_000) }).where(eq(workshops.id, closedRecently))
		await db.update(workshops).set({ nextFreeAt: null, nextFreeCheckedAt: hourAgo }).where(eq(workshops.id, closedLongAgo))

		// A batch of one takes a never computed workshop first (the others here, the demo's too, were looked at an hour ago).
		await db.update(workshops).set({ nextFreeCheckedAt: hourAgo }).where(and(isNull(workshops.nextFreeCheckedAt), ne(workshops.id, never)))
		expect(await refreshDueNextFree({ now, limit: 1 })).toEqual({ due: 1, refreshed: 1 })
		const rowOf = async (id: string) => (await db.select({ at: workshops.nextFreeAt, checked: workshops.nextFreeCheckedAt }).from(workshops).where(eq(workshops.id, id)))[0]!
		expect((await rowOf(never)).checked?.getTime()).toBe(now.getTime())
		expect((await rowOf(never)).at!.getTime()).toBeGreaterThan(now.getTime())

		await refreshDueNextFree({ now, limit: 10_000 })
		const rows = await db.select({ id: workshops.id, at: workshops.nextFreeAt, checked: workshops.nextFreeCheckedAt }).from(workshops).where(inArray(workshops.id, [past, later, closedRecently, closedLongAgo]))
		const byId = new Map(rows.map((row) => [row.id, row]))
		expect(byId.get(past)!.at!.getTime()).toBeGreaterThan(now.getTime())
		expect(byId.get(past)!.checked!.getTime()).toBe(now.getTime())
		// Far enough ahead: left as it was.
		expect(byId.get(later)!.at!.getTime()).toBe(farAhead.getTime())
		expect(byId.get(later)!.checked!.getTime()).toBe(hourAgo.getTime())
		// None free: looked at again once an hour, not every run.
		expect(byId.get(closedRecently)!.checked!.getTime()).toBe(now.getTime() - 10 * 60_000)
		expect(byId.get(closedLongAgo)!.checked!.getTime()).toBe(now.getTime())
		expect(byId.get(closedLongAgo)!.at).toBeNull()
	})

	test('a check stamped by SQL (microseconds, as the bench writes) is still moved on', async () => {
		const micro = (await listedWorkshop('Micro')).workshop.workshopId
		await queryRows(db, sql`update workshops set next_free_at = now() - interval '1 hour', next_free_checked_at = now() - interval '2 hours' - interval '1 microsecond' where id = ${micro}`)
		await refreshDueNextFree({ limit: 10_000 })
		const [row] = await db.select({ at: workshops.nextFreeAt }).from(workshops).where(eq(workshops.id, micro))
		expect(row!.at!.getTime()).toBeGreaterThan(Date.now())
	})
})

describe('the directory', () => {
	test('"free this week" keeps the workshops with a free time before Sunday 24:00, on the page and in the JSON API', async () => {
		const token = `Weekly${Date.now().toString(36)}`
		const monday = mondayAhead()
		const wednesday = at(plusDays(monday, 2), '12:00')
		const [soon, nextWeek, none, past] = await Promise.all([
			listedWorkshop(`${token} Soon`),
			listedWorkshop(`${token} NextWeek`),
			listedWorkshop(`${token} None`),
			listedWorkshop(`${token} Past`),
		])
		const set = (id: string, nextFreeAt: Date | null) => db.update(workshops).set({ nextFreeAt, nextFreeCheckedAt: wednesday }).where(eq(workshops.id, id))
		await set(soon.workshop.workshopId, at(plusDays(monday, 6), '10:00'))
		await set(nextWeek.workshop.workshopId, at(plusDays(monday, 7), '08:00'))
		await set(none.workshop.workshopId, null)
		await set(past.workshop.workshopId, at(plusDays(monday, 1), '10:00'))
		expect(freeWeekEnd(wednesday)).toEqual(at(plusDays(monday, 7), '00:00'))

		const all = await searchWorkshops(parseWorkshopListQuery(new URLSearchParams({ q: token })), 'en', 9, wednesday)
		expect(all.total).toBe(4)
		const cardOf = (name: string) => all.items.find((card) => card.name.includes(`${token} ${name}`))!
		expect(cardOf('Soon').nextFreeAt).toBe(at(plusDays(monday, 6), '10:00').toISOString())
		// A next free time already past is not shown until the job moves it on.
		expect(cardOf('Past').nextFreeAt).toBeNull()
		expect(cardOf('None').nextFreeAt).toBeNull()

		const free = await searchWorkshops(parseWorkshopListQuery(new URLSearchParams({ q: token, free: 'week' })), 'en', 9, wednesday)
		expect(free.items.map((card) => card.id)).toEqual([encodeId(soon.workshop.workshopId)])
		expect(free.total).toBe(1)

		// The JSON API shares the query: ?free=week filters there too (now: its real clock, so only the query is checked).
		const response = (await apiListLoader({ request: new Request(`http://localhost/admin/api/workshop-list?q=${token}&free=week&lng=en`), params: {}, context: {} } as never)) as Response
		const body = (await response.json()) as { data: { query: { free?: string } } }
		expect(body.data.query.free).toBe('week')
	})

	test('an unknown "free" value is dropped, as any filter it cannot use', () => {
		expect(parseWorkshopListQuery(new URLSearchParams({ free: 'week' })).free).toBe('week')
		expect(parseWorkshopListQuery(new URLSearchParams({ free: 'year' })).free).toBeUndefined()
		expect(parseWorkshopListQuery(new URLSearchParams({ free: '' })).free).toBeUndefined()
	})
})

describe('the request form’s ?at=', () => {
	test('fills in the preferred time; a past or garbled one is ignored, never a 500', async () => {
		const { owner, workshop } = await listedWorkshop('Prefill')
		const id = encodeId(workshop.workshopId)
		const ahead = at(mondayAhead(), '10:00')
		expect(requestFormPath(id, ahead)).toBe(`/new-service-register?workshop=${id}&at=${dateToTallinnInput(ahead)}`)
		const load = async (query: string) => {
			const { request } = await signedInRequest(owner.customer.id, `http://localhost/new-service-register?${query}`)
			return requestFormLoader({ request, params: {}, context: {} } as never)
		}
		const valid = await load(`workshop=${id}&at=${dateToTallinnInput(ahead)}`)
		expect(valid.preferredAt).toBe(dateToTallinnInput(ahead))
		expect(valid.workshop?.id).toBe(workshop.workshopId)
		for (const bad of ['2001-01-01T10:00', dateToTallinnInput(new Date(Date.now() - 3600_000)), 'garbage', '2030-02-30T10:00', '2030-01-01T25:00', '2030-01-01', '%00', 'x'.repeat(5000)]) {
			const data = await load(`workshop=${id}&at=${encodeURIComponent(bad)}`)
			expect(data.preferredAt, bad).toBeNull()
			expect(data.workshop?.id).toBe(workshop.workshopId)
		}
		expect(preferredStartParam(null)).toBeNull()
	})
})
