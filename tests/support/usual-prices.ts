import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { cities, workshops } from '~/db/schema'
import { db } from '~/db/db.server'
import { type County } from '~/domain/directory/counties'
import { recomputePriceRanges } from '~/domain/pricing/price-ranges.server'
import { makeOffer, selectOffer } from '~/domain/service-flow/offer-moves.server'
import { completeJob } from '~/domain/service-flow/job-moves.server'
import { type WorkshopActor } from '~/utils/auth.server'
import { customerWithVehicle, openRequest, workshopOffering } from './flow'

/**
 * A city of the test's own in `county` (null: not yet placed in one), so the usual prices a test
 * makes there are its own: no demo job is done in it.
 */
export async function cityIn(county: County | null) {
	const code = `test-${randomUUID().slice(0, 8)}`
	const [city] = await db.insert(cities).values({ code, nameEt: `Linn ${code}`, nameEn: `Town ${code}`, nameRu: `Город ${code}`, county }).returning({ id: cities.id })
	return city!.id
}

/** A workshop offering the services, its address in the city. */
export async function workshopIn(cityId: string, serviceIds: string[]): Promise<WorkshopActor> {
	const workshop = await workshopOffering(serviceIds)
	await db.update(workshops).set({ cityId }).where(eq(workshops.id, workshop.workshopId))
	return workshop
}

/**
 * Completed jobs of one service, each played by the moves (a one-service request, an offer, its
 * selection, the job completed at that price), the workshops taking turns; then the ranges are
 * recomputed, as the nightly job does.
 */
export async function completedJobs(serviceId: string, by: WorkshopActor[], paidCents: number[]) {
	const owner = await customerWithVehicle()
	for (const [index, paid] of paidCents.entries()) {
		const workshop = by[index % by.length]!
		const requestId = await openRequest(owner.customer.id, owner.vehicleId, [serviceId])
		const offerId = await makeOffer(workshop, requestId, { price: paid }, null)
		await selectOffer(owner.customer.id, requestId, offerId)
		await completeJob(workshop, offerId, paid)
	}
	return recomputePriceRanges()
}
