import { randomUUID } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import * as t from '~/db/schema'
import { db, queryRows } from '~/db/db.server'
import { countRequestsMatchingWorkshop, requestMatchesWorkshopId } from '~/db/sql'
import { demoAccounts } from '~/db/seed/demo-data.server'
import { demoPartners } from '~/db/seed/demo-partners.server'
import { completeJob } from '~/domain/service-flow/job-moves.server'
import { makeOffer, selectOffer } from '~/domain/service-flow/offer-moves.server'
import { createVehicle } from '~/domain/service-flow/vehicles.server'
import { addDays, monthsOf, periodDays, type Insights } from '~/domain/insights/insights'
import { workshopInsights } from '~/domain/insights/insights.server'
import { loader } from '~/routes/_app.workshop-insights'
import { rolesFor } from '~/utils/route-access'
import { tallinnDay, tallinnMonth, tallinnToDate } from '~/utils/time'
import { signedInRequest } from '#tests/support/accounts'
import { demoData } from '#tests/support/demo-data'
import { customerWithVehicle, openRequest, uniquePlate, userIdOf, workshopOffering } from '#tests/support/flow'
import { type WorkshopActor } from '~/utils/auth.server'

/**
 * The workshop's growth page (issue 37, decision 0155): every figure from rows the test knows, the
 * periods bounded by Tallinn days, another workshop's rows never counted, the page refused to others.
 */

const DAY = 24 * 60 * 60 * 1000
const today = tallinnDay()
const first30 = periodDays(today, 30).firstDay
const dayStart = (day: string) => tallinnToDate(`${day}T00:00`)

/** A service of the test's own: no other request in the database asks for it. */
async function ownService() {
	// The demo data first: loading it moves this file to a copy of the demo database.
	await demoData()
	const code = `insights-${randomUUID().slice(0, 8)}`
	const [row] = await db.insert(t.services).values({ code, nameEt: code, nameEn: code, nameRu: code }).returning({ id: t.services.id })
	return row!.id
}

const at = (table: 'service_requests' | 'offers', id: string, column: string, when: Date) =>
	db.execute(sql`update ${sql.raw(table)} set ${sql.raw(column)} = ${when} where id = ${id}`)

async function review(workshopId: string, requestId: string, customerId: string, rating: number, createdAt: Date, hidden = false) {
	await db.insert(t.reviews).values({
		workshopId,
		requestId,
		customerId,
		rating,
		body: 'Good work.',
		createdAt,
		hiddenAt: hidden ? new Date() : null,
		hiddenReason: hidden ? 'Not about the job.' : null,
	})
}

async function counts(rows: Array<{ day: string; kind: string; workshopId: string | null; partnerId?: string | null; count: number }>) {
	await db.insert(t.dailyCounts).values(rows.map((row) => ({ ...row, partnerId: row.partnerId ?? null })))
}

async function partner(name: string) {
	const [row] = await db.insert(t.partners).values({ name, keyPrefix: 'pk_test', keyHash: randomUUID() }).returning({ id: t.partners.id })
	return row!.id
}

/** A paid invoice of the Pro package for the period, as billing writes it (subscription, payment, invoice). */
async function invoice(workshopId: string, periodStart: Date, periodEnd: Date, totalCents: number) {
	const [pro] = await db.select().from(t.packages).where(eq(t.packages.code, 'pro'))
	const [subscription] = await db
		.insert(t.subscriptions)
		.values({ workshopId, packageId: pro!.id, status: 'expired', periodStart, periodEnd, provider: 'test' })
		.returning({ id: t.subscriptions.id })
	const [payment] = await db
		.insert(t.payments)
		.values({ workshopId, subscriptionId: subscription!.id, packageId: pro!.id, provider: 'test', providerReference: randomUUID(), amountCents: totalCents, status: 'paid', paidAt: periodStart })
		.returning({ id: t.payments.id })
	const party = { name: 'Test', address: 'Tallinn', email: 'billing@example.com' }
	await db.insert(t.invoices).values({
		// As billing numbers them: one more than the last.
		number: sql`(select coalesce(max(number), 999) + 1 from invoices)`,
		workshopId,
		paymentId: payment!.id,
		packageName: 'Pro',
		periodStart,
		periodEnd,
		netCents: totalCents,
		vatRateBasisPoints: 0,
		vatCents: 0,
		totalCents,
		seller: party,
		buyer: party,
	})
}

async function workshopWithBrand(serviceId: string, brandId: string | null): Promise<WorkshopActor> {
	const workshop = await workshopOffering([serviceId])
	if (brandId) await db.insert(t.workshopCarBrands).values({ workshopId: workshop.workshopId, itemId: brandId })
	return workshop
}

describe('the workshop’s growth page', () => {
	test('counts each figure from known rows, by Tallinn days, and nothing of another workshop', { timeout: 180_000 }, async () => {
		const svc = await ownService()
		const owner = await customerWithVehicle()
		const { customer, vehicleId: toyota, refs } = owner
		const [bmw] = await db.select().from(t.carBrands).where(eq(t.carBrands.code, 'bmw'))
		const otherCar = await createVehicle(customer.id, {
			registrationNumber: uniquePlate(),
			vehicleYear: 2016,
			brandId: bmw!.id,
			model: '320d',
			modelSpecification: '',
			transmission: 'manual',
			mileage: 90000,
		})
		// A serves Toyotas only; B every brand. Both do the test's own service.
		const a = await workshopWithBrand(svc, refs.brandId)
		const b = await workshopWithBrand(svc, null)
		const now = Date.now()

		// Requests: three for A's service and brand now, one for another brand, one addressed to A for a
		// service it does not do, one asked of B only, and two 40 days ago.
		const [r1, r2, r3] = [await openRequest(customer.id, toyota, [svc]), await openRequest(customer.id, toyota, [svc]), await openRequest(customer.id, toyota, [svc])]
		await openRequest(customer.id, otherCar, [svc])
		const r5 = await openRequest(customer.id, toyota, [refs.bodywork])
		await db.update(t.serviceRequests).set({ addressedWorkshopId: a.workshopId }).where(eq(t.serviceRequests.id, r5))
		const r6 = await openRequest(customer.id, toyota, [svc])
		await db.update(t.serviceRequests).set({ addressedWorkshopId: b.workshopId, addressedOnly: true }).where(eq(t.serviceRequests.id, r6))

		// Offers: A's on r1 chosen and completed, on r2 lost to B, on r3 waiting; 1, 2 and 6 hours after
		// their requests (made ten hours ago).
		const made = new Date(now - 10 * 60 * 60 * 1000)
		const o1 = await makeOffer(a, r1, { price: 15000 }, null)
		const o2 = await makeOffer(a, r2, { price: 14000 }, null)
		const o3 = await makeOffer(a, r3, { price: 13000 }, null)
		const ob2 = await makeOffer(b, r2, { price: 12000 }, null)
		await selectOffer(customer.id, r1, o1)
		await selectOffer(customer.id, r2, ob2)
		await completeJob(a, o1, 15000)
		// Extra work the customer approved is part of the binding total: €170 in all.
		await db.update(t.offers).set({ approvedExtraCents: 2000 }).where(eq(t.offers.id, o1))
		for (const [request, offer, hours] of [[r1, o1, 1], [r2, o2, 2], [r3, o3, 6]] as const) {
			await at('service_requests', request, 'created_at', made)
			await at('offers', offer, 'created_at', new Date(made.getTime() + hours * 60 * 60 * 1000))
		}

		// 40 days ago: a request A answered after an hour and still waits for, and a job A won and completed (3 hours).
		const old = new Date(now - 40 * DAY)
		const r7 = await openRequest(customer.id, toyota, [svc])
		const o7 = await makeOffer(a, r7, { price: 11000 }, null)
		await at('service_requests', r7, 'created_at', old)
		await at('offers', o7, 'created_at', new Date(old.getTime() + 60 * 60 * 1000))
		const r8 = await openRequest(customer.id, toyota, [svc])
		const o8 = await makeOffer(a, r8, { price: 15000 }, null)
		await selectOffer(customer.id, r8, o8)
		await completeJob(a, o8, 15000)
		await at('service_requests', r8, 'created_at', old)
		await at('offers', o8, 'created_at', new Date(old.getTime() + 3 * 60 * 60 * 1000))
		await at('offers', o8, 'selected_at', new Date(old.getTime() + 5 * 60 * 60 * 1000))
		await at('offers', o8, 'completed_at', new Date(old.getTime() + 2 * DAY))

		// Reviews: 4 stars now, 3 stars 40 days ago, a hidden one now; B's one now.
		await review(a.workshopId, r1, customer.id, 4, new Date(now - 60_000))
		await review(a.workshopId, r8, customer.id, 3, old)
		await review(a.workshopId, r2, customer.id, 1, new Date(now - 60_000), true)
		await review(b.workshopId, r6, customer.id, 1, new Date(now - 60_000))

		// Daily counts, through two partner sites; B's and kinds the page does not read are left out.
		const [p1, p2] = [await partner(`Insights partner A ${randomUUID().slice(0, 4)}`), await partner(`Insights partner B ${randomUUID().slice(0, 4)}`)]
		await counts([
			{ day: today, kind: 'profile-view', workshopId: a.workshopId, count: 3 },
			{ day: today, kind: 'widget-profile-view', workshopId: a.workshopId, count: 2 },
			{ day: today, kind: 'widget-profile-view', workshopId: a.workshopId, partnerId: p1, count: 4 },
			{ day: today, kind: 'widget-profile-view', workshopId: a.workshopId, partnerId: p2, count: 2 },
			{ day: today, kind: 'search-appearance', workshopId: a.workshopId, count: 20 },
			{ day: today, kind: 'search-appearance', workshopId: a.workshopId, partnerId: p1, count: 10 },
			{ day: today, kind: 'widget-request', workshopId: a.workshopId, partnerId: p1, count: 1 },
			{ day: today, kind: 'contact-message', workshopId: a.workshopId, partnerId: p1, count: 5 },
			{ day: first30, kind: 'profile-view', workshopId: a.workshopId, count: 5 },
			{ day: addDays(first30, -1), kind: 'profile-view', workshopId: a.workshopId, count: 7 },
			{ day: addDays(first30, -1), kind: 'search-appearance', workshopId: a.workshopId, partnerId: p2, count: 6 },
			{ day: addDays(today, -365), kind: 'profile-view', workshopId: a.workshopId, count: 100 },
			{ day: today, kind: 'profile-view', workshopId: b.workshopId, count: 50 },
			{ day: today, kind: 'widget-profile-view', workshopId: b.workshopId, partnerId: p1, count: 9 },
		])

		// Invoices: one whose month is two thirds inside the 30 days, one 200 days ago, one before the year; B's.
		const from30 = dayStart(first30)
		await invoice(a.workshopId, new Date(from30.getTime() - 10 * DAY), new Date(from30.getTime() + 20 * DAY), 3000)
		await invoice(a.workshopId, new Date(now - 200 * DAY), new Date(now - 170 * DAY), 2900)
		await invoice(a.workshopId, new Date(now - 420 * DAY), new Date(now - 390 * DAY), 2900)
		await invoice(b.workshopId, new Date(now - 20 * DAY), new Date(now + 10 * DAY), 2900)

		const month = tallinnMonth()
		const oldMonth = tallinnMonth(old)
		const monthly = (f: Insights) => Object.fromEntries(f.rating.months.filter((m) => m.reviews).map((m) => [m.month, [m.reviews, m.average]]))

		const f30 = await workshopInsights(a.workshopId, 30, 'en')
		expect(f30).toMatchObject({
			period: 30,
			firstDay: first30,
			lastDay: today,
			profileViews: { portal: 8, widgets: 8, total: 16 },
			searchAppearances: 30,
			requestsMatched: 4,
			offersMade: 3,
			offersWon: 1,
			offersWaiting: 1,
			winRate: 0.5,
			jobsCompleted: 1,
			revenueCents: 17000,
			empty: false,
		})
		expect(f30.responseMinutes).toBeCloseTo(180, 5)
		expect(f30.rating).toMatchObject({ reviews: 1, average: 4 })
		expect(monthly(f30)).toEqual({ [month]: [1, 4] })
		expect(f30.rating.months.map((m) => m.month)).toEqual(monthsOf(first30, today))
		expect(f30.partners).toEqual([
			{ partnerId: p1, name: expect.stringMatching(/^Insights partner A/), profileViews: 4, searchAppearances: 10, requests: 1 },
			{ partnerId: p2, name: expect.stringMatching(/^Insights partner B/), profileViews: 2, searchAppearances: 0, requests: 0 },
		])
		expect(f30.cost).toEqual({ costCents: 2000, packages: ['Pro'], current: { name: 'Free', free: true } })

		const f365 = await workshopInsights(a.workshopId, 365, 'et')
		expect(f365).toMatchObject({
			period: 365,
			firstDay: addDays(today, -364),
			profileViews: { portal: 15, widgets: 8, total: 23 },
			searchAppearances: 36,
			requestsMatched: 6,
			offersMade: 5,
			offersWon: 2,
			offersWaiting: 2,
			jobsCompleted: 2,
			revenueCents: 32000,
		})
		expect(f365.winRate).toBeCloseTo(2 / 3, 10)
		expect(f365.responseMinutes).toBeCloseTo(156, 5)
		expect(f365.rating).toMatchObject({ reviews: 2, average: 3.5 })
		expect(monthly(f365)).toEqual({ [month]: [1, 4], [oldMonth]: [1, 3] })
		expect(f365.rating.months).toHaveLength(monthsOf(addDays(today, -364), today).length)
		expect(f365.partners.map((p) => [p.partnerId, p.profileViews, p.searchAppearances, p.requests])).toEqual([
			[p1, 4, 10, 1],
			[p2, 2, 6, 0],
		])
		expect(f365.cost).toEqual({ costCents: 5900, packages: ['Pro'], current: { name: 'Tasuta', free: true } })

		// B sees its own: its count, its won offer, its review, its invoice's share, nothing of A's.
		const fb = await workshopInsights(b.workshopId, 30, 'en')
		expect(fb).toMatchObject({ profileViews: { portal: 50, widgets: 9, total: 59 }, searchAppearances: 0, offersMade: 1, offersWon: 1, revenueCents: 0 })
		expect(fb.requestsMatched).toBe(5) // r1, r2, r3, the other brand's, r6 asked of B only; not r5
		expect(fb.rating).toMatchObject({ reviews: 1, average: 1 })
		expect(fb.cost.costCents).toBeGreaterThan(0)
	})

	test('an empty period shows zeros and says so, never an error', async () => {
		const svc = await ownService()
		const fresh = await workshopOffering([svc])
		const f = await workshopInsights(fresh.workshopId, 30, 'ru')
		expect(f).toMatchObject({
			profileViews: { portal: 0, widgets: 0, total: 0 },
			searchAppearances: 0,
			requestsMatched: 0,
			offersMade: 0,
			offersWon: 0,
			winRate: null,
			revenueCents: 0,
			responseMinutes: null,
			rating: { reviews: 0, average: null },
			partners: [],
			cost: { costCents: 0, packages: [], current: { name: 'Бесплатный', free: true } },
			empty: true,
		})
		expect(f.rating.months.every((m) => m.reviews === 0 && m.average === null)).toBe(true)
	})

	test('a period starts at midnight in Tallinn on its first day', async () => {
		const svc = await ownService()
		const { customer, vehicleId } = await customerWithVehicle()
		const d = await workshopOffering([svc])
		const midnight = dayStart(first30)
		const [inside, before] = [await openRequest(customer.id, vehicleId, [svc]), await openRequest(customer.id, vehicleId, [svc])]
		await at('service_requests', inside, 'created_at', midnight)
		await at('service_requests', before, 'created_at', new Date(midnight.getTime() - 60_000))
		await review(d.workshopId, inside, customer.id, 5, midnight)
		await review(d.workshopId, before, customer.id, 1, new Date(midnight.getTime() - 60_000))
		await counts([
			{ day: first30, kind: 'search-appearance', workshopId: d.workshopId, count: 2 },
			{ day: addDays(first30, -1), kind: 'search-appearance', workshopId: d.workshopId, count: 40 },
		])
		const f = await workshopInsights(d.workshopId, 30, 'en')
		expect(f.requestsMatched).toBe(1)
		expect(f.rating).toMatchObject({ reviews: 1, average: 5 })
		expect(f.searchAppearances).toBe(2)
	})

	test('counts the requests of the matching rule itself, for every workshop', async () => {
		const workshops = await db.select({ id: t.workshops.id }).from(t.workshops)
		expect(workshops.length).toBeGreaterThan(3)
		for (const { id } of workshops) {
			const [fast] = await queryRows<{ n: number }>(db, countRequestsMatchingWorkshop(id, sql`true`))
			const [rule] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from service_requests r where ${requestMatchesWorkshopId(id)}`)
			expect(fast!.n, id).toBe(rule!.n)
		}
	})

	test('is the workshop’s: a customer is sent to the dashboard, a visitor to log in; ?period= picks the days', async () => {
		expect(rolesFor('/workshop-insights')).toEqual(['workshop'])
		const load = async (userId: string | null, query = '') => {
			const url = `http://localhost/workshop-insights${query}`
			const request = userId ? (await signedInRequest(userId, url)).request : new Request(url)
			return loader({ request, params: {}, context: {} } as never)
		}
		const { customer } = await customerWithVehicle()
		const refused = await load(customer.id).then(
			() => null,
			(thrown: unknown) => thrown,
		)
		expect(refused).toBeInstanceOf(Response)
		expect((refused as Response).status).toBe(302)
		expect((refused as Response).headers.get('Location')).toBe('/dashboard')
		const visitor = (await load(null).catch((thrown: unknown) => thrown)) as Response
		expect(visitor.status).toBe(302)
		expect(visitor.headers.get('Location')).toMatch(/^\/(\?|login)/)

		const workshopUser = await userIdOf(demoAccounts.workshop)
		expect((await load(workshopUser)).insights.period).toBe(30)
		expect((await load(workshopUser, '?period=365')).insights.period).toBe(365)
		// A made-up period is the default view, not an error.
		expect((await load(workshopUser, '?period=7')).insights.period).toBe(30)
		expect((await load(workshopUser, `?period=${'9'.repeat(500)}`)).insights.period).toBe(30)
	})

	test('the demo workshop shows real figures, the demo partner site among them', async () => {
		const ownerId = await userIdOf(demoAccounts.workshop)
		const [workshop] = await db.select({ id: t.workshops.id }).from(t.workshops).where(eq(t.workshops.userId, ownerId))
		const year = await workshopInsights(workshop!.id, 365, 'en')
		expect(year.profileViews.portal).toBeGreaterThan(1000)
		expect(year.profileViews.widgets).toBeGreaterThan(100)
		expect(year.searchAppearances).toBeGreaterThan(year.profileViews.total)
		expect(year.partners.map((p) => p.name)).toContain(demoPartners[0].name)
		expect(year.offersMade).toBeGreaterThan(5)
		expect(year.requestsMatched).toBeGreaterThan(0)
		expect(year.revenueCents).toBeGreaterThan(0)
		expect(year.rating.reviews).toBeGreaterThan(0)
		// The paid month four months ago, whole, and the free package since.
		expect(year.cost).toEqual({ costCents: 2900, packages: ['Pro'], current: { name: 'Free', free: true } })
		const month = await workshopInsights(workshop!.id, 30, 'en')
		expect(month.cost.costCents).toBe(0)
		expect(month.profileViews.total).toBeGreaterThan(0)
		expect(month.empty).toBe(false)
		// One demo partner site names both its own figures and the workshop's (one key, not two).
		const [partners] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from partners where name = ${demoPartners[0].name}`)
		expect(partners!.n).toBe(1)
	})
})
