import { eq, sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { workshops } from '~/db/schema'
import { getWorkshopProfile } from '~/domain/directory/workshops.server'
import { makeOffer } from '~/domain/service-flow/offer-moves.server'
import { refreshResponseTimes } from '~/domain/service-flow/response-time.server'
import { db } from '~/db/db.server'
import { customerWithVehicle, openRequest, workshopOffering } from '#tests/support/flow'

/** Issue 15: "usually answers within …", the median from request to offer over 90 days, from five offers on. */
const stored = async (workshopId: string) => (await db.select({ minutes: workshops.responseMinutes }).from(workshops).where(eq(workshops.id, workshopId)))[0]!.minutes

/** An offer made `hours` after its request, `daysAgo` days ago. */
async function answered(garage: Awaited<ReturnType<typeof workshopOffering>>, hours: number, daysAgo = 1) {
	const { customer, vehicleId, refs } = await customerWithVehicle()
	const requestId = await openRequest(customer.id, vehicleId, [refs.brakes])
	const offerId = await makeOffer(garage, requestId, { price: 10_000 }, null)
	await db.execute(sql`update service_requests set created_at = now() - make_interval(days => ${daysAgo}) where id = ${requestId}`)
	await db.execute(sql`update offers set created_at = now() - make_interval(days => ${daysAgo}) + make_interval(hours => ${hours}) where id = ${offerId}`)
}

describe('a workshop’s response time', () => {
	test('is the median of its last 90 days, shown from the fifth offer, and leaves out older ones', { timeout: 90_000 }, async () => {
		const { refs } = await customerWithVehicle()
		const garage = await workshopOffering([refs.brakes])
		for (const hours of [1, 2, 4, 50]) await answered(garage, hours)
		await refreshResponseTimes(db, [garage.workshopId])
		expect(await stored(garage.workshopId)).toBeNull()

		await answered(garage, 3)
		await refreshResponseTimes(db, [garage.workshopId])
		expect(await stored(garage.workshopId)).toBe(180)
		expect((await getWorkshopProfile(garage.workshopId, 'en'))!.responseMinutes).toBe(180)

		// An offer from 100 days ago does not count: four in the window again.
		await db.execute(sql`update offers set created_at = created_at - interval '100 days' where workshop_id = ${garage.workshopId} and created_at = (select max(created_at) from offers where workshop_id = ${garage.workshopId})`)
		await refreshResponseTimes(db)
		expect(await stored(garage.workshopId)).toBeNull()
	})

	test('is refreshed when the workshop makes an offer', async () => {
		const { customer, vehicleId, refs } = await customerWithVehicle()
		const garage = await workshopOffering([refs.brakes])
		for (const hours of [2, 2, 2, 2]) await answered(garage, hours)
		await refreshResponseTimes(db, [garage.workshopId])
		expect(await stored(garage.workshopId)).toBeNull()
		const requestId = await openRequest(customer.id, vehicleId, [refs.brakes])
		await makeOffer(garage, requestId, { price: 9_000 }, null)
		// Four at two hours and one at once: the median is two hours.
		expect(await stored(garage.workshopId)).toBe(120)
	})
})
