import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { notifications, offers } from '~/db/schema'
import { getNotificationDetail, listNotifications } from '~/domain/messaging/notifications.server'
import { adminDashboard, workshopDashboard } from '~/domain/service-flow/dashboard.server'
import { completeJob } from '~/domain/service-flow/job-moves.server'
import { type WorkshopActor } from '~/utils/auth.server'
import { makeOffer, selectOffer } from '~/domain/service-flow/offer-moves.server'
import { offerAllowance } from '~/domain/service-flow/offers.server'
import { db } from '~/db/db.server'
import { tallinnMonthStart } from '~/utils/time'
import { customerWithVehicle, openRequest, workshopOffering } from '#tests/support/flow'

/**
 * Issue 14: money is stored in cents and shown in the reader's language, notifications included;
 * "this month" is an Estonian calendar month everywhere (the offer limit, the dashboards).
 */

const HOUR = 60 * 60 * 1000
const nbsp = '\u00a0'
const offer = (cents: number) => ({ price: cents, notes: '', description: 'Work as described' })

describe('a new offer’s notification', () => {
	test('stores the price in cents and shows it in the reader’s language', async () => {
		const { customer, vehicleId, refs } = await customerWithVehicle()
		const garage = await workshopOffering([refs.tyres])
		const requestId = await openRequest(customer.id, vehicleId, [refs.tyres])
		await makeOffer(garage, requestId, offer(18_550), null)

		const [stored] = await db.select().from(notifications).where(eq(notifications.userId, customer.id))
		// With the car and the request it is about (issue 32).
		expect(stored!.messageParams).toMatchObject({ workshop: garage.workshopName, priceCents: 18_550, car: expect.stringMatching(/^Toyota Corolla \(/) })
		const message = async (language: 'et' | 'en' | 'ru') => (await listNotifications(customer.id, language)).notifications[0]!.message
		expect(await message('en')).toMatch(new RegExp(`^${garage.workshopName} sent an offer: €185\\.50 — Toyota Corolla \\(\\w+\\), Tyre change and storage`))
		expect(await message('et')).toMatch(new RegExp(`^${garage.workshopName} saatis pakkumise: 185,50${nbsp}€ — Toyota Corolla`))
		expect(await message('ru')).toContain(`185,50${nbsp}€`)
		expect((await getNotificationDetail(customer.id, stored!.id, 'et')).message).toBe(await message('et'))
	})

	test('one stored before, with the price in euros, reads the same', async () => {
		const { customer } = await customerWithVehicle()
		const legacy = (price: string | number, minutesAgo: number) => ({
			userId: customer.id,
			type: 2,
			messageKey: 'notifications.newOffer',
			messageParams: { workshop: 'Kask Autoteenindus', price },
			receivedId: customer.id,
			createdAt: new Date(Date.now() - minutesAgo * 60_000),
		})
		// "185.00" as makeOffer wrote it, 185 as the demo data did.
		await db.insert(notifications).values([legacy('185.00', 1), legacy(185, 2)])
		for (const [language, amount] of [['en', '€185.00'], ['et', `185,00${nbsp}€`]] as const) {
			const { notifications: list } = await listNotifications(customer.id, language)
			expect(list.map((n) => n.message.endsWith(amount))).toEqual([true, true])
		}
	})
})

/** An offer the workshop made, dated to `at`. */
async function offerMadeAt(garage: WorkshopActor, customerId: string, vehicleId: string, serviceId: string, at: Date) {
	const requestId = await openRequest(customerId, vehicleId, [serviceId])
	const offerId = await makeOffer(garage, requestId, offer(30_000), null)
	await db.update(offers).set({ createdAt: at }).where(eq(offers.id, offerId))
	return { requestId, offerId }
}

describe('this month, in Estonian time', () => {
	// The first hour of the month in Tallinn is still the last month in UTC; the hour before it is last month in both.
	const monthStart = tallinnMonthStart()
	const justAfter = new Date(monthStart.getTime() + HOUR)
	const justBefore = new Date(monthStart.getTime() - HOUR)

	test('the monthly offer limit counts from midnight in Tallinn', async () => {
		const { customer, vehicleId, refs } = await customerWithVehicle()
		const garage = await workshopOffering([refs.tyres])
		await offerMadeAt(garage, customer.id, vehicleId, refs.tyres, justBefore)
		await offerMadeAt(garage, customer.id, vehicleId, refs.tyres, justAfter)
		expect(await offerAllowance(garage.workshopId)).toEqual({ used: 1, limit: 5 })
		for (let n = 0; n < 4; n++) await offerMadeAt(garage, customer.id, vehicleId, refs.tyres, new Date())
		expect(await offerAllowance(garage.workshopId)).toEqual({ used: 5, limit: 5 })
		// What the page shows is what makeOffer enforces.
		const sixth = await openRequest(customer.id, vehicleId, [refs.tyres])
		await expect(makeOffer(garage, sixth, offer(5_000), null)).rejects.toMatchObject({ key: 'workshop:offer.limitReached', params: { limit: 5 } })
	})

	test('the dashboards count this month’s jobs and offers from midnight in Tallinn', async () => {
		const { customer, vehicleId, refs } = await customerWithVehicle()
		const garage = await workshopOffering([refs.brakes])
		const offersBefore = (await adminDashboard()).offersThisMonth
		for (const [at, finalPrice] of [[justAfter, 12_000], [justBefore, 30_000]] as const) {
			const { requestId, offerId } = await offerMadeAt(garage, customer.id, vehicleId, refs.brakes, at)
			await selectOffer(customer.id, requestId, offerId)
			await completeJob(garage, offerId, finalPrice)
			await db.update(offers).set({ completedAt: at }).where(eq(offers.id, offerId))
		}
		const { summary } = await workshopDashboard(garage.workshopId, 'en')
		expect(summary).toMatchObject({ completedThisMonth: 1, earnedThisMonthCents: 12_000 })
		expect((await adminDashboard()).offersThisMonth).toBe(offersBefore + 1)
	})
})
