import { and, eq, sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { notifications, offerLines, offers, serviceRequests, users } from '~/db/schema'
import { db, transaction } from '~/db/db.server'
import { INSTANT_CATCH_UP_HOURS, instantOffersFor, offerDraft, sendDueInstantOffers, sendInstantOffers } from '~/domain/pricing/price-list-offers.server'
import { addPriceItem } from '~/domain/pricing/price-lists.server'
import { makeOffer, selectOffer } from '~/domain/service-flow/offer-moves.server'
import { createServiceRequest } from '~/domain/service-flow/request-moves.server'
import { listOffersForCustomer } from '~/domain/service-flow/requests.server'
import { type VehicleClass } from '~/domain/service-flow/vehicle-kinds'
import { inDays, workshopOffering } from '#tests/support/flow'
import { customerWithCar, day, itemInput, nextCity, openWeekdays, placeIn, requestIn, serviceIdOf } from '#tests/support/price-lists'

/**
 * Issue 35, part 2: a new request that fits a workshop's instant items gets an offer made from them
 * at once, through makeOffer's rules; the job catches up what the moment after the commit missed.
 * Each test's workshops and requests are in a city of their own, so no other test's workshop
 * answers its requests.
 */

async function instantGarage(cityId: string, options: { vehicleClass?: VehicleClass; engineBand?: string; fields?: Record<string, string> } = {}) {
	const [oil, tyres] = await Promise.all([serviceIdOf('oil-change'), serviceIdOf('tyres')])
	const workshop = await workshopOffering([oil, tyres])
	await placeIn(workshop.workshopId, cityId)
	await openWeekdays(workshop.workshopId)
	const itemId = await addPriceItem(
		workshop.workshopId,
		itemInput(oil, { vehicleClass: options.vehicleClass ?? 'suv_van', engineBand: options.engineBand ?? '1600_2500', sendsInstant: 'on', ...options.fields }),
	)
	return { workshop, oil, tyres, itemId }
}

const offersOf = (requestId: string) => db.select().from(offers).where(eq(offers.requestId, requestId))
const checkedAt = async (requestId: string) => (await db.select().from(serviceRequests).where(eq(serviceRequests.id, requestId)))[0]!.instantCheckedAt

describe('an instant offer', () => {
	test("is made the moment a fitting request is made: the item's lines and price, marked instant, with three free times", async () => {
		const city = await nextCity()
		const { workshop, oil, itemId } = await instantGarage(city, { fields: { included: 'Oil up to 6 l, filter.', validUntil: day(20) } })
		const owner = await customerWithCar('suv_van', 1998)
		const requestId = await requestIn(owner.customer.id, owner.vehicleId, [oil], city)

		const [offer, ...more] = await offersOf(requestId)
		expect(more).toEqual([])
		expect(offer).toMatchObject({
			workshopId: workshop.workshopId,
			status: 'pending',
			instant: true,
			priceListItemId: itemId,
			priceCents: 13000,
			vatMode: 'included',
			vatCents: 2516,
			bookingMinutes: 75,
			description: 'Oil up to 6 l, filter.',
			validUntil: day(20),
		})
		expect(offer!.proposedStarts).toHaveLength(3)
		const lines = await db.select().from(offerLines).where(eq(offerLines.offerId, offer!.id))
		expect(lines.map((line) => [line.kind, line.totalCents])).toEqual([
			['labour', 7500],
			['part', 5000],
			['fee', 500],
		])
		// The request has an offer, is stamped checked, and its customer was told as of any offer.
		const [request] = await db.select().from(serviceRequests).where(eq(serviceRequests.id, requestId))
		expect(request).toMatchObject({ status: 'offer', instantCheckedAt: expect.any(Date) })
		const told = await db
			.select()
			.from(notifications)
			.where(and(eq(notifications.userId, owner.customer.id), eq(notifications.receivedId, requestId), eq(notifications.messageKey, 'notifications.newOffer')))
		expect(told).toHaveLength(1)
		// The customer's pages see it as instant; it is binding: chosen like any offer, with one of its times.
		expect(await listOffersForCustomer(owner.customer.id, requestId, 'en', 'price')).toEqual([expect.objectContaining({ id: offer!.id, instant: true })])
		expect(await instantOffersFor(owner.customer.id, requestId)).toEqual([{ id: offer!.id, workshopName: workshop.workshopName, priceCents: 13000 }])
		expect(await instantOffersFor(workshop.userId, requestId)).toEqual([])
		await selectOffer(owner.customer.id, requestId, offer!.id, { startsAt: offer!.proposedStarts[0]! })
		expect((await offersOf(requestId))[0]).toMatchObject({ status: 'selected' })
	})

	test('is not made for another class, another engine band, an unknown engine, another service, or an item not valid today', async () => {
		const city = await nextCity()
		const { oil, tyres } = await instantGarage(city)
		// Another workshop's items for the other bands: one yet to come, one over.
		const later = await instantGarage(city, { engineBand: 'over_2500', fields: { validFrom: day(5) } })
		await addPriceItem(later.workshop.workshopId, itemInput(oil, { vehicleClass: 'suv_van', engineBand: 'up_to_1600', sendsInstant: 'on', validFrom: day(-30), validUntil: day(-1) }))
		const requestFor = async (vehicleClass: VehicleClass, cc: number | null, services = [oil]) => {
			const owner = await customerWithCar(vehicleClass, cc)
			return requestIn(owner.customer.id, owner.vehicleId, services, city)
		}
		for (const requestId of [
			await requestFor('family', 1998),
			await requestFor('small', 1998),
			await requestFor('suv_van', 1200),
			await requestFor('suv_van', 3000),
			await requestFor('suv_van', null),
			await requestFor('suv_van', 1998, [tyres]),
		]) {
			expect(await offersOf(requestId)).toEqual([])
			// Checked all the same: the job does not try it again.
			expect(await checkedAt(requestId)).toBeInstanceOf(Date)
		}
	})

	test('is not made from an item that does not send instant offers, though the item drafts the offer', async () => {
		const city = await nextCity()
		const { workshop, oil } = await instantGarage(city, { fields: { sendsInstant: '' } })
		const owner = await customerWithCar('suv_van', 2000)
		const requestId = await requestIn(owner.customer.id, owner.vehicleId, [oil], city)
		expect(await offersOf(requestId)).toEqual([])
		expect(await offerDraft(workshop.workshopId, requestId, 'en')).not.toBeNull()
	})

	test('is not sent by a workshop over its monthly allowance, nor by a blocked one, and the customer gets no error', async () => {
		const city = await nextCity()
		const { workshop, oil, tyres } = await instantGarage(city)
		const blocked = await instantGarage(city)
		await db.update(users).set({ blocked: true }).where(eq(users.id, blocked.workshop.userId))
		// The free package's five offers of the month, made by hand on tyre requests.
		const other = await customerWithCar('family', null)
		for (let n = 0; n < 5; n++) await makeOffer(workshop, await requestIn(other.customer.id, other.vehicleId, [tyres], city), { price: 5000 }, null)
		const owner = await customerWithCar('suv_van', 2000)
		const requestId = await requestIn(owner.customer.id, owner.vehicleId, [oil], city)
		expect(await offersOf(requestId)).toEqual([])
		const [request] = await db.select().from(serviceRequests).where(eq(serviceRequests.id, requestId))
		expect(request).toMatchObject({ status: 'pending', instantCheckedAt: expect.any(Date) })
	})

	test('is not made for a request addressed only to another workshop, nor twice', async () => {
		const city = await nextCity()
		const { workshop, oil } = await instantGarage(city)
		const elsewhere = await workshopOffering([oil])
		const owner = await customerWithCar('suv_van', 2000)
		const addressed = await requestIn(owner.customer.id, owner.vehicleId, [oil], city, { workshopId: elsewhere.workshopId })
		expect(await offersOf(addressed)).toEqual([])
		const requestId = await requestIn(owner.customer.id, owner.vehicleId, [oil], city)
		expect((await offersOf(requestId)).map((offer) => offer.workshopId)).toEqual([workshop.workshopId])
		// Run again (the job after a crash, the stamp not written): still one offer per workshop.
		await db.update(serviceRequests).set({ instantCheckedAt: null }).where(eq(serviceRequests.id, requestId))
		expect(await sendInstantOffers(requestId)).toBe(0)
		expect(await offersOf(requestId)).toHaveLength(1)
	})

	test("for several services: made of the items' lines together when they cover every service, else none", async () => {
		const city = await nextCity()
		const { workshop, oil, tyres } = await instantGarage(city)
		const owner = await customerWithCar('suv_van', 2000)
		const uncovered = await requestIn(owner.customer.id, owner.vehicleId, [oil, tyres], city)
		expect(await offersOf(uncovered)).toEqual([])
		await addPriceItem(workshop.workshopId, itemInput(tyres, { vehicleClass: 'suv_van', sendsInstant: 'on', durationHours: '0', durationMinutes: '45', 'lines[0].unitPrice': '40' }))
		const covered = await requestIn(owner.customer.id, owner.vehicleId, [oil, tyres], city)
		const [offer, ...more] = await offersOf(covered)
		expect(more).toEqual([])
		// €130 + €115: the two items' totals; 75 + 45 minutes.
		expect(offer).toMatchObject({ instant: true, priceCents: 24500, bookingMinutes: 120 })
		expect(await db.select().from(offerLines).where(eq(offerLines.offerId, offer!.id))).toHaveLength(6)
	})
})

describe('the job instant-offers', () => {
	/** A request made inside a caller's transaction (as the demo data makes them): nothing runs after it, the job does. */
	const requestInTransaction = (customerId: string, vehicleId: string, serviceId: string, cityId: string) =>
		transaction((tx) => createServiceRequest(customerId, { vehicleId, serviceIds: [serviceId], preferredAt: inDays(3), location: 'Tallinn', cityId, details: 'Oil' }, [], tx))

	test('makes the offers of a request the moment after its commit missed, stamps it, and finds nothing the next time', async () => {
		const city = await nextCity()
		const { oil } = await instantGarage(city)
		const owner = await customerWithCar('suv_van', 2000)
		const requestId = await requestInTransaction(owner.customer.id, owner.vehicleId, oil, city)
		expect(await offersOf(requestId)).toEqual([])
		expect(await checkedAt(requestId)).toBeNull()
		expect(await sendDueInstantOffers()).toBeGreaterThanOrEqual(1)
		expect(await offersOf(requestId)).toEqual([expect.objectContaining({ instant: true })])
		expect(await checkedAt(requestId)).toBeInstanceOf(Date)
		expect(await sendDueInstantOffers()).toBe(0)
	})

	test('leaves alone the requests older than its window', async () => {
		const city = await nextCity()
		const { oil } = await instantGarage(city)
		const owner = await customerWithCar('suv_van', 2000)
		const requestId = await requestInTransaction(owner.customer.id, owner.vehicleId, oil, city)
		await db
			.update(serviceRequests)
			.set({ createdAt: sql`now() - make_interval(hours => ${INSTANT_CATCH_UP_HOURS + 1})` })
			.where(eq(serviceRequests.id, requestId))
		await sendDueInstantOffers()
		expect(await offersOf(requestId)).toEqual([])
		expect(await checkedAt(requestId)).toBeNull()
	})
})
