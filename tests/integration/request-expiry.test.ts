import { and, eq, isNotNull } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { emailOutbox, notifications, offers, serviceRequests, users } from '~/db/schema'
import { makeOffer, selectOffer } from '~/domain/service-flow/offer-moves.server'
import { expireStaleRequests, reopenRequest } from '~/domain/service-flow/request-moves.server'
import { listOpenRequests } from '~/domain/service-flow/offers.server'
import { getCustomerRequest } from '~/domain/service-flow/requests.server'
import { EXPIRY_DAYS } from '~/domain/service-flow/status'
import { db } from '~/db/db.server'
import { encodeId } from '~/utils/public-id'
import { createCustomer } from '../support/accounts'
import { customerWithVehicle, inDays, openRequest, workshopOffering } from '../support/flow'

/**
 * Issue 15: a request whose customer chooses nothing two weeks after the first offer expires,
 * its offers end, everyone concerned is told; the customer may reopen it once.
 */

const DAY = 24 * 60 * 60 * 1000
const inDaysFromNow = (days: number) => new Date(Date.now() + days * DAY)
const statusOf = async (requestId: string) => (await db.select().from(serviceRequests).where(eq(serviceRequests.id, requestId)))[0]!
const offerStatuses = async (requestId: string) => (await db.select({ status: offers.status }).from(offers).where(eq(offers.requestId, requestId))).map((row) => row.status)
const toldOf = async (userId: string, messageKey: string) =>
	(await db.select().from(notifications).where(and(eq(notifications.userId, userId), eq(notifications.messageKey, messageKey)))).length
const emailsTo = async (userId: string) => {
	const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId))
	return db.select().from(emailOutbox).where(and(eq(emailOutbox.to, user!.email), isNotNull(emailOutbox.dedupeKey)))
}

describe('requests that do not go stale', () => {
	test(`nothing chosen ${EXPIRY_DAYS} days after the first offer: the request expires, its offers end, both sides are told`, async () => {
		const { customer, vehicleId, refs } = await customerWithVehicle()
		const [first, second] = [await workshopOffering([refs.brakes]), await workshopOffering([refs.brakes])]
		const requestId = await openRequest(customer.id, vehicleId, [refs.brakes])
		const firstOffer = await makeOffer(first, requestId, { price: 10_000 }, null)
		await makeOffer(second, requestId, { price: 12_000 }, null)
		// The first offer came ten days ago, the second today: the clock runs from the first.
		await db.update(offers).set({ createdAt: inDaysFromNow(-10) }).where(eq(offers.id, firstOffer))

		await expireStaleRequests(inDaysFromNow(EXPIRY_DAYS - 11))
		expect((await statusOf(requestId)).status).toBe('offer')

		await expireStaleRequests(inDaysFromNow(EXPIRY_DAYS - 9))
		expect((await statusOf(requestId)).status).toBe('expired')
		expect(await offerStatuses(requestId)).toEqual(['request_expired', 'request_expired'])
		for (const workshop of [first, second]) {
			expect(await toldOf(workshop.userId, 'notifications.requestExpired')).toBe(1)
			expect((await emailsTo(workshop.userId)).map((mail) => mail.subject)).toContainEqual(expect.stringMatching(/^The request expired without a choice — Toyota Corolla \(\w+\)/))
		}
		expect(await toldOf(customer.id, 'notifications.requestExpiredCustomer')).toBe(1)
		const [customerMail] = (await emailsTo(customer.id)).filter((mail) => mail.subject.startsWith('Your request expired'))
		expect(customerMail!.html).toContain(`/request-details/${encodeId(requestId)}`)
		// The customer's page: no offers standing, the way to ask again.
		const detail = await getCustomerRequest(customer.id, requestId, 'en')
		expect([detail.status, detail.offerCount, detail.reopenCount]).toEqual(['expired', 0, 0])

		// A second run changes nothing and tells nobody again.
		await expireStaleRequests(inDaysFromNow(EXPIRY_DAYS + 2))
		expect(await toldOf(customer.id, 'notifications.requestExpiredCustomer')).toBe(1)
		for (const workshop of [first, second]) expect(await toldOf(workshop.userId, 'notifications.requestExpired')).toBe(1)
	})

	test('a request with a chosen offer, or with no offer, does not expire', async () => {
		const { customer, vehicleId, refs } = await customerWithVehicle()
		const garage = await workshopOffering([refs.tyres])
		const chosen = await openRequest(customer.id, vehicleId, [refs.tyres])
		const offerId = await makeOffer(garage, chosen, { price: 8_000 }, null)
		await selectOffer(customer.id, chosen, offerId)
		const waiting = await openRequest(customer.id, vehicleId, [refs.tyres])
		await expireStaleRequests(inDaysFromNow(EXPIRY_DAYS * 3))
		expect([(await statusOf(chosen)).status, (await statusOf(waiting)).status]).toEqual(['in_progress', 'pending'])
	})

	test('the customer reopens an expired request once; the matching workshops are told again', async () => {
		const { customer, vehicleId, refs } = await customerWithVehicle()
		const garage = await workshopOffering([refs.bodywork])
		const requestId = await openRequest(customer.id, vehicleId, [refs.bodywork])
		await makeOffer(garage, requestId, { price: 30_000 }, null)
		await expireStaleRequests(inDaysFromNow(EXPIRY_DAYS + 1))

		// Not another customer's to reopen: "not found".
		const stranger = await createCustomer()
		await expect(reopenRequest(stranger.id, requestId, { preferredAt: inDays(5) })).rejects.toMatchObject({ status: 404 })

		await reopenRequest(customer.id, requestId, { preferredAt: inDays(5) })
		expect(await statusOf(requestId)).toMatchObject({ status: 'pending', reopenCount: 1, preferredAt: inDays(5) })
		expect(await toldOf(garage.userId, 'notifications.newRequest')).toBe(2)
		// The ended offer does not count; the workshop sees the request again and offers anew. It was
		// made long ago: renewing it starts the clock again.
		await db.update(offers).set({ createdAt: inDaysFromNow(-30) }).where(eq(offers.requestId, requestId))
		expect((await getCustomerRequest(customer.id, requestId, 'en')).offerCount).toBe(0)
		const { items } = await listOpenRequests(garage.workshopId, 'en')
		expect(items.find((item) => item.id === requestId)?.myOfferId).toBeNull()
		const renewed = await makeOffer(garage, requestId, { price: 28_000 }, null)
		expect(await db.select({ status: offers.status, priceCents: offers.priceCents }).from(offers).where(eq(offers.id, renewed))).toEqual([
			{ status: 'pending', priceCents: 28_000 },
		])
		expect(await statusOf(requestId)).toMatchObject({ status: 'offer' })
		await expect(makeOffer(garage, requestId, { price: 27_000 }, null)).rejects.toMatchObject({ status: 409 })

		// The clock starts again at the new offer; reopened once, a second expiry is final.
		await expireStaleRequests(inDaysFromNow(EXPIRY_DAYS - 1))
		expect((await statusOf(requestId)).status).toBe('offer')
		await expireStaleRequests(inDaysFromNow(EXPIRY_DAYS + 1))
		expect((await statusOf(requestId)).status).toBe('expired')
		await expect(reopenRequest(customer.id, requestId, { preferredAt: inDays(6) })).rejects.toMatchObject({ status: 409 })
		expect((await statusOf(requestId)).reopenCount).toBe(1)
	})
})
