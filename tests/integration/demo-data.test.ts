import { and, eq, sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import * as t from '~/db/schema'
import { demoAccounts, loadDemoDataIfEmpty, DEMO_PASSWORD } from '~/db/seed/demo-data.server'
import { hasDemoData } from '~/db/seed/has-demo-data.server'
import { db, queryRows } from '~/db/db.server'
import { verifyPassword } from '~/utils/password.server'
import { checkFreeStart, freeTimes } from '~/domain/booking/calendar.server'
import { holdingStatuses } from '~/domain/booking/status'
import { tallinnDay } from '~/utils/time'

describe('the demo data', () => {
	test('loads into an empty database once, and never over existing data', async () => {
		expect(await hasDemoData(db)).toBe(false)
		expect(await loadDemoDataIfEmpty()).toBe(true)
		expect(await hasDemoData(db)).toBe(true)
		expect(await loadDemoDataIfEmpty()).toBe(false)
		const [row] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from site_settings`)
		const n = row?.n
		expect(n).toBe(1)
		// The demo plays its moves (issue 35 added the usual prices' 26 jobs): a loaded CI machine takes a minute.
	}, 180_000)

	test('has the three demo accounts with the documented password', async () => {
		for (const [role, email] of Object.entries(demoAccounts)) {
			const [user] = await db.select().from(t.users).where(eq(t.users.email, email))
			expect(user?.role).toBe(role)
			expect(await verifyPassword(DEMO_PASSWORD, user!.passwordHash)).toBe(true)
			expect(await verifyPassword('wrong-password', user!.passwordHash)).toBe(false)
		}
	})

	test('gives the demo customer a request in every status', async () => {
		const [customer] = await db.select().from(t.users).where(eq(t.users.email, demoAccounts.customer))
		const statuses = await db
			.selectDistinct({ status: t.serviceRequests.status })
			.from(t.serviceRequests)
			.where(eq(t.serviceRequests.customerId, customer!.id))
		expect(statuses.map((s) => s.status).sort()).toEqual([...t.requestStatuses].sort())
		const vehicles = await db.select().from(t.vehicles).where(eq(t.vehicles.ownerId, customer!.id))
		expect(vehicles.length).toBeGreaterThanOrEqual(2)
	})

	test('gives the demo workshop offers that are pending, selected, completed and reviewed', async () => {
		const [owner] = await db.select().from(t.users).where(eq(t.users.email, demoAccounts.workshop))
		const [workshop] = await db.select().from(t.workshops).where(eq(t.workshops.userId, owner!.id))
		const statuses = (
			await db.selectDistinct({ status: t.offers.status }).from(t.offers).where(eq(t.offers.workshopId, workshop!.id))
		).map((s) => s.status)
		expect(statuses).toEqual(expect.arrayContaining(['pending', 'selected', 'job_completed']))
		const reviews = await db.select().from(t.reviews).where(eq(t.reviews.workshopId, workshop!.id))
		expect(reviews.length).toBeGreaterThan(0)
		// The stored average is the average of its reviews.
		const average = reviews.reduce((sum, r) => sum + r.rating, 0) / reviews.length
		expect(workshop!.ratingAverage).toBeCloseTo(average, 5)
		expect(workshop!.reviewCount).toBe(reviews.length)
	})

	test('gives the demo workshop a paid month with its invoice, and the free package now; the demo customer a job with extra work', async () => {
		const [owner] = await db.select().from(t.users).where(eq(t.users.email, demoAccounts.workshop))
		const [workshop] = await db.select().from(t.workshops).where(eq(t.workshops.userId, owner!.id))
		const subscriptions = await db
			.select({ status: t.subscriptions.status, code: t.packages.code, periodEnd: t.subscriptions.periodEnd })
			.from(t.subscriptions)
			.innerJoin(t.packages, eq(t.packages.id, t.subscriptions.packageId))
			.where(eq(t.subscriptions.workshopId, workshop!.id))
		expect(subscriptions).toEqual(
			expect.arrayContaining([
				expect.objectContaining({ status: 'active', code: 'free' }),
				expect.objectContaining({ status: 'expired', code: 'pro' }),
			]),
		)
		const payments = await db.select().from(t.payments).where(and(eq(t.payments.workshopId, workshop!.id), eq(t.payments.status, 'paid')))
		expect(payments).toHaveLength(1)
		const invoices = await db.select().from(t.invoices).where(eq(t.invoices.workshopId, workshop!.id))
		expect(invoices).toHaveLength(1)
		expect(invoices[0]!.paymentId).toBe(payments[0]!.id)
		expect(invoices[0]!.pdfUploadId).not.toBeNull()
		expect(invoices[0]!.totalCents).toBe(payments[0]!.amountCents)

		const [customer] = await db.select().from(t.users).where(eq(t.users.email, demoAccounts.customer))
		const [extra] = await queryRows<{ n: number }>(
			db,
			sql`select count(*)::int as n from extra_work e join offers o on o.id = e.offer_id join service_requests r on r.selected_offer_id = o.id where r.customer_id = ${customer!.id}`,
		)
		expect(extra!.n).toBeGreaterThan(0)
	})

	test('has about twelve workshops with full profiles, photos and reviews', async () => {
		const workshops = await db.select().from(t.workshops)
		expect(workshops.length).toBeGreaterThanOrEqual(12)
		for (const workshop of workshops) {
			expect(workshop.logoUploadId, workshop.workshopName).not.toBeNull()
			expect(workshop.cityId).not.toBeNull()
			expect(workshop.marketingText.length).toBeGreaterThan(20)
			expect(workshop.reviewCount).toBeGreaterThan(0)
			const photos = await db.select().from(t.workshopPhotos).where(eq(t.workshopPhotos.workshopId, workshop.id))
			expect(photos.length).toBeGreaterThanOrEqual(2)
			const services = await db.select().from(t.workshopServices).where(eq(t.workshopServices.workshopId, workshop.id))
			expect(services.length).toBeGreaterThan(0)
		}
	})

	test('gives both demo accounts read and unread notifications and a chat with each other', async () => {
		const [customer] = await db.select().from(t.users).where(eq(t.users.email, demoAccounts.customer))
		const [owner] = await db.select().from(t.users).where(eq(t.users.email, demoAccounts.workshop))
		for (const user of [customer!, owner!]) {
			const read = await db.select().from(t.notifications).where(and(eq(t.notifications.userId, user.id), eq(t.notifications.isRead, true)))
			const unread = await db.select().from(t.notifications).where(and(eq(t.notifications.userId, user.id), eq(t.notifications.isRead, false)))
			expect(read.length, user.email).toBeGreaterThan(0)
			expect(unread.length, user.email).toBeGreaterThan(0)
		}
		const fromCustomer = await db.select().from(t.chatMessages).where(and(eq(t.chatMessages.senderId, customer!.id), eq(t.chatMessages.receiverId, owner!.id)))
		const fromWorkshop = await db.select().from(t.chatMessages).where(and(eq(t.chatMessages.senderId, owner!.id), eq(t.chatMessages.receiverId, customer!.id)))
		expect(fromCustomer.length).toBeGreaterThan(0)
		expect(fromWorkshop.length).toBeGreaterThan(0)
	})

	test('has site settings, the three content pages in three languages, ads, reference lists and packages', async () => {
		const [site] = await db.select().from(t.siteSettings)
		expect(site?.appname).toBeTruthy()
		expect(site?.logoUploadId).toBeTruthy()
		expect(site?.faviconUploadId).toBeTruthy()
		expect([site?.siteAddress, site?.siteAddressEstonian, site?.siteAddressRussian].every(Boolean)).toBe(true)
		const pages = await db.select().from(t.contentPages)
		expect(pages.map((p) => `${p.slug}/${p.language}`).sort()).toEqual(
			['about-us', 'privacy-policy', 'terms-and-conditions'].flatMap((slug) => ['en', 'et', 'ru'].map((l) => `${slug}/${l}`)).sort(),
		)
		const ads = await db.select().from(t.ads)
		// One header and one footer ad in each language (issue 32).
		expect(ads.map((a) => `${a.language} ${a.placement}`).sort()).toEqual(['en Footer', 'en Header', 'et Footer', 'et Header', 'ru Footer', 'ru Header'])
		for (const table of [t.services, t.carBrands, t.spareParts, t.paymentMethods, t.cities]) {
			expect((await db.select().from(table)).length).toBeGreaterThan(3)
		}
		const packages = await db.select().from(t.packages)
		expect(packages.find((p) => p.priceCents === 0)?.offersPerMonth).toBe(5)
		expect(packages.find((p) => p.priceCents > 0)?.offersPerMonth).toBeNull()
	})

	test("gives the demo workshop a calendar: two lifts, hours with a lunch break, a day off, this week's bookings and free times left", async () => {
		const [owner] = await db.select().from(t.users).where(eq(t.users.email, demoAccounts.workshop))
		const [workshop] = await db.select().from(t.workshops).where(eq(t.workshops.userId, owner!.id))
		const id = workshop!.id
		expect(await db.select().from(t.workshopBays).where(eq(t.workshopBays.workshopId, id))).toHaveLength(2)
		const monday = await db.select().from(t.workshopHours).where(and(eq(t.workshopHours.workshopId, id), eq(t.workshopHours.weekday, 1)))
		expect(monday.map((h) => `${h.opens}-${h.closes}`).sort()).toEqual(['08:00:00-12:00:00', '12:30:00-18:00:00'])
		const [dayOff] = await db.select().from(t.workshopDaysOff).where(eq(t.workshopDaysOff.workshopId, id))
		expect(dayOff!.day > tallinnDay()).toBe(true)
		const bookings = await db.select().from(t.bookings).where(eq(t.bookings.workshopId, id))
		expect(bookings.length).toBeGreaterThanOrEqual(3)
		expect(bookings.every((b) => (holdingStatuses as readonly string[]).includes(b.status))).toBe(true)
		// A car in the workshop or ready for pickup, and jobs ahead (the next one within two days, for the reminders).
		expect(bookings.some((b) => b.status === 'ready' || b.status === 'car_received')).toBe(true)
		const ahead = bookings.filter((b) => b.startsAt > new Date()).sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime())
		expect(ahead.length).toBeGreaterThanOrEqual(2)
		expect(ahead[0]!.startsAt.getTime() - Date.now()).toBeLessThan(4 * 24 * 3600_000)
		// Each booked offer says how long it takes, and its request is in progress.
		const offers = await db.select().from(t.offers).where(sql`${t.offers.id} in (select offer_id from bookings where workshop_id = ${id})`)
		expect(offers.every((o) => o.bookingMinutes !== null && o.status === 'selected')).toBe(true)
		// Free times are left this week, and the directory knows the next one.
		const free = await freeTimes(id, { durationMinutes: 60, until: new Date(Date.now() + 7 * 24 * 3600_000) })
		expect(free.length).toBeGreaterThan(10)
		const [refreshed] = await db.select({ nextFreeAt: t.workshops.nextFreeAt }).from(t.workshops).where(eq(t.workshops.id, id))
		expect(refreshed!.nextFreeAt).not.toBeNull()

		// The offer waiting on Mari's open request proposes three free times on three days, so the
		// demo's compare page offers a time to choose.
		const [pending] = await db.select().from(t.offers).where(and(eq(t.offers.workshopId, id), eq(t.offers.status, 'pending')))
		expect(pending!.proposedStarts).toHaveLength(3)
		expect(new Set(pending!.proposedStarts.map((start) => tallinnDay(start))).size).toBe(3)
		for (const start of pending!.proposedStarts) expect(await checkFreeStart(id, start, pending!.bookingMinutes!)).toMatchObject({ ok: true })
	})
})

describe('the usual prices of the demo (issue 35)', () => {
	test('every demo city is in its county, and the ranges recompute from its completed jobs', async () => {
		const cities = await db.select({ code: t.cities.code, county: t.cities.county }).from(t.cities)
		expect(cities.length).toBeGreaterThan(0)
		for (const city of cities) expect(city.county, city.code).toMatch(/^[a-z-]+$/)
		const { recomputePriceRanges } = await import('~/domain/pricing/price-ranges.server')
		const count = await recomputePriceRanges()
		const [row] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from price_ranges`)
		expect(row?.n).toBe(count)
	})

	test('a fresh demo shows a usual price for a family car in Tallinn and in Tartu, two services each, from its completed jobs', async () => {
		const { cityPrices } = await import('~/domain/pricing/price-pages.server')
		const expected = { tallinn: ['brakes', 'diagnostics'], tartu: ['oil-change', 'diagnostics'] }
		for (const [city, services] of Object.entries(expected)) {
			for (const service of services) {
				const page = await cityPrices(service, city, 'en')
				const family = page!.ranges.find((range) => range.vehicleClass === 'family')
				expect(family, `${service} in ${city}`).toBeDefined()
				expect(family!.jobs, `${service} in ${city}`).toBeGreaterThanOrEqual(5)
				expect(family!.workshops, `${service} in ${city}`).toBeGreaterThanOrEqual(3)
				expect(family!.p25Cents).toBeLessThanOrEqual(family!.p50Cents)
				expect(family!.p50Cents).toBeLessThanOrEqual(family!.p75Cents)
				// Each of those jobs was made by the moves: a request of that one service, completed at its final price.
				expect(page!.offering.total + page!.listed.length, `${service} in ${city}`).toBeGreaterThanOrEqual(3)
			}
		}
		// Tartu has the three workshops it needs, the demo's two new ones among them.
		const tartu = await cityPrices('oil-change', 'tartu', 'en')
		expect(tartu!.offering.items.map((workshop) => workshop.name).sort()).toEqual(['Emajõe Autohooldus', 'Raadi Autokeskus', 'Tartu Autoremont'])
	})
})
