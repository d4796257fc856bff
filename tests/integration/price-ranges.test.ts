import { randomUUID } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import fc from 'fast-check'
import { beforeAll, describe, expect, test } from 'vitest'
import { cities, offers, priceRanges, serviceRequests, serviceRequestServices, services, vehicles, workshops } from '~/db/schema'
import { db, type DbOrTx, queryRows } from '~/db/db.server'
import { completeJob } from '~/domain/service-flow/job-moves.server'
import { makeOffer, selectOffer } from '~/domain/service-flow/offer-moves.server'
import { createServiceRequest } from '~/domain/service-flow/request-moves.server'
import { createVehicle } from '~/domain/service-flow/vehicles.server'
import { type OfferStatus } from '~/domain/service-flow/status'
import { type VehicleClass } from '~/domain/service-flow/vehicle-kinds'
import { percentileCont, rangeShown } from '~/domain/pricing/price-ranges'
import { rangePeriod, recomputePriceRanges } from '~/domain/pricing/price-ranges.server'
import { backgroundJobs } from '~/jobs/schedule.server'
import { loader as cityPricesLoader } from '~/routes/_public.prices.$service_.$city'
import { type WorkshopActor } from '~/utils/auth.server'
import { tallinnToDate } from '~/utils/time'
import { createCustomer } from '#tests/support/accounts'
import { inDays, referenceData, uniquePlate, workshopOffering } from '#tests/support/flow'

/**
 * Issue 35, the usual price (decision 0146, and 0148 for the job): what `recomputePriceRanges`
 * counts, as properties over generated sets of jobs (each set written in a transaction that is
 * rolled back), and a range moving when a job is completed by the real moves.
 */
const DAY = 24 * 60 * 60 * 1000
const WORKSHOPS = 5

type World = {
	serviceId: string
	otherServiceId: string
	/** Five workshops in a city of Põlva County, and one in a city with no county yet. */
	workshopIds: string[]
	countyless: string
	customerId: string
	vehicleOf: Record<'family' | 'small', string>
}
let world: World

class RolledBack extends Error {}

/** Runs `work` in a transaction that is always rolled back. */
async function rolledBack(work: (tx: DbOrTx) => Promise<void>) {
	await db
		.transaction(async (tx) => {
			await work(tx)
			throw new RolledBack()
		})
		.catch((error: unknown) => {
			if (!(error instanceof RolledBack)) throw error
		})
}

async function referenceRow(table: 'services' | 'cities', code: string, county: string | null = null) {
	const names = { code, nameEt: code, nameEn: code, nameRu: code }
	const [row] = table === 'services' ? await db.insert(services).values(names).returning() : await db.insert(cities).values({ ...names, county }).returning()
	return row!.id
}

beforeAll(async () => {
	const refs = await referenceData()
	const serviceId = await referenceRow('services', 'usual-price-check')
	const otherServiceId = await referenceRow('services', 'usual-price-other')
	const polva = await referenceRow('cities', 'usual-price-town', 'polva')
	const nowhere = await referenceRow('cities', 'usual-price-nowhere')
	const garages: string[] = []
	for (let i = 0; i <= WORKSHOPS; i++) {
		const garage = await workshopOffering([serviceId, otherServiceId])
		await db.update(workshops).set({ cityId: i < WORKSHOPS ? polva : nowhere }).where(eq(workshops.id, garage.workshopId))
		garages.push(garage.workshopId)
	}
	const customer = await createCustomer()
	const vehicle = async (vehicleClass: VehicleClass) => {
		const id = await createVehicle(customer.id, {
			registrationNumber: uniquePlate(),
			vehicleYear: 2018,
			brandId: refs.brandId,
			model: 'Corolla',
			modelSpecification: '1.8',
			transmission: 'automatic',
			mileage: 60_000,
		})
		await db.update(vehicles).set({ vehicleClass }).where(eq(vehicles.id, id))
		return id
	}
	world = {
		serviceId,
		otherServiceId,
		workshopIds: garages.slice(0, WORKSHOPS),
		countyless: garages[WORKSHOPS]!,
		customerId: customer.id,
		vehicleOf: { family: await vehicle('family'), small: await vehicle('small') },
	}
})

type GeneratedJob = { workshop: number; countyless: boolean; vehicleClass: 'family' | 'small'; priceCents: number; completedAt: Date; severalServices: boolean; status: OfferStatus }

const now = new Date()
const { periodFrom, periodTo } = rangePeriod(now)
const periodStart = tallinnToDate(`${periodFrom}T00:00`).getTime()
const periodEnd = tallinnToDate(`${new Date(Date.parse(`${periodTo}T12:00:00Z`) + DAY).toISOString().slice(0, 10)}T00:00`).getTime()

const job: fc.Arbitrary<GeneratedJob> = fc.record({
	workshop: fc.nat(WORKSHOPS - 1),
	countyless: fc.oneof({ arbitrary: fc.constant(false), weight: 9 }, { arbitrary: fc.constant(true), weight: 1 }),
	vehicleClass: fc.constantFrom('family' as const, 'small' as const),
	priceCents: fc.integer({ min: 1_000, max: 100_000 }),
	// Most within two years, some long before, some within two days of the period's first moment.
	completedAt: fc.oneof(
		{ arbitrary: fc.integer({ min: 0, max: 700 * DAY }).map((ago) => new Date(now.getTime() - ago)), weight: 6 },
		{ arbitrary: fc.integer({ min: 740 * DAY, max: 900 * DAY }).map((ago) => new Date(now.getTime() - ago)), weight: 1 },
		{ arbitrary: fc.integer({ min: -2 * DAY, max: 2 * DAY }).map((offset) => new Date(periodStart + offset)), weight: 2 },
	),
	severalServices: fc.oneof({ arbitrary: fc.constant(false), weight: 4 }, { arbitrary: fc.constant(true), weight: 1 }),
	status: fc.oneof(
		{ arbitrary: fc.constant<OfferStatus>('job_completed'), weight: 5 },
		{ arbitrary: fc.constantFrom<OfferStatus>('selected', 'bill_proposed', 'bill_disputed', 'rejected', 'request_cancelled'), weight: 1 },
	),
})

/** The generated jobs as the rows the moves would have left. */
async function writeJobs(tx: DbOrTx, jobs: GeneratedJob[]) {
	for (const j of jobs) {
		const requestId = randomUUID()
		const workshopId = j.countyless ? world.countyless : world.workshopIds[j.workshop]!
		await tx.insert(serviceRequests).values({
			id: requestId,
			customerId: world.customerId,
			vehicleId: world.vehicleOf[j.vehicleClass],
			preferredAt: j.completedAt,
			location: 'Põlva',
			details: 'Generated',
			status: j.status === 'job_completed' ? 'completed' : 'in_progress',
		})
		await tx.insert(serviceRequestServices).values([
			{ requestId, serviceId: world.serviceId },
			...(j.severalServices ? [{ requestId, serviceId: world.otherServiceId }] : []),
		])
		await tx.insert(offers).values({ requestId, workshopId, priceCents: j.priceCents, finalPriceCents: j.priceCents, status: j.status, completedAt: j.completedAt })
	}
}

/** What the recomputation should make of them, by vehicle class. */
function expectedRanges(jobs: GeneratedJob[]) {
	const counted = jobs.filter(
		(j) => j.status === 'job_completed' && !j.severalServices && !j.countyless && j.completedAt.getTime() >= periodStart && j.completedAt.getTime() < periodEnd,
	)
	const result = new Map<string, { p25Cents: number; p50Cents: number; p75Cents: number; jobs: number; workshops: number }>()
	for (const vehicleClass of ['family', 'small'] as const) {
		const group = counted.filter((j) => j.vehicleClass === vehicleClass)
		const workshopCount = new Set(group.map((j) => j.workshop)).size
		if (!rangeShown(group.length, workshopCount)) continue
		const sorted = group.map((j) => j.priceCents).sort((a, b) => a - b)
		result.set(vehicleClass, {
			p25Cents: percentileCont(sorted, 0.25),
			p50Cents: percentileCont(sorted, 0.5),
			p75Cents: percentileCont(sorted, 0.75),
			jobs: group.length,
			workshops: workshopCount,
		})
	}
	return { result, counted }
}

/** Besides the generated sets, one that surely has a range: six counted jobs by three workshops, and one of each kind that never counts. */
const recently = (days: number) => new Date(now.getTime() - days * DAY)
const counted = (workshop: number, priceCents: number, days: number): GeneratedJob => ({
	workshop,
	countyless: false,
	vehicleClass: 'family',
	priceCents,
	completedAt: recently(days),
	severalServices: false,
	status: 'job_completed',
})
const enoughJobs: GeneratedJob[] = [
	counted(0, 10_000, 10),
	counted(0, 12_000, 40),
	counted(1, 14_000, 100),
	counted(1, 16_000, 300),
	counted(2, 18_000, 500),
	counted(2, 20_000, 700),
	{ ...counted(3, 90_000, 800) },
	{ ...counted(3, 90_000, 20), severalServices: true },
	{ ...counted(4, 90_000, 20), status: 'bill_disputed' },
	{ ...counted(4, 90_000, 20), countyless: true },
]

describe('the usual price of a service (recomputePriceRanges)', () => {
	test('a range exists exactly for 5 or more counted jobs from 3 or more workshops; its quartiles are ordered and within the prices; a job outside the period, of several services, not completed or in no county never counts', async () => {
		await fc.assert(
			fc.asyncProperty(fc.array(job, { minLength: 0, maxLength: 24 }), async (jobs) => {
				await rolledBack(async (tx) => {
					await writeJobs(tx, jobs)
					await recomputePriceRanges(now, tx)
					const rows = await tx.select().from(priceRanges).where(eq(priceRanges.serviceId, world.serviceId))
					const { result, counted } = expectedRanges(jobs)
					expect(new Map(rows.map((row) => [row.vehicleClass, { p25Cents: row.p25Cents, p50Cents: row.p50Cents, p75Cents: row.p75Cents, jobs: row.jobs, workshops: row.workshops }]))).toEqual(result)
					for (const row of rows) {
						const prices = counted.filter((j) => j.vehicleClass === row.vehicleClass).map((j) => j.priceCents)
						expect(row.county).toBe('polva')
						expect(Math.min(...prices)).toBeLessThanOrEqual(row.p25Cents)
						expect(row.p25Cents).toBeLessThanOrEqual(row.p50Cents)
						expect(row.p50Cents).toBeLessThanOrEqual(row.p75Cents)
						expect(row.p75Cents).toBeLessThanOrEqual(Math.max(...prices))
						expect({ from: row.periodFrom, to: row.periodTo }).toEqual({ from: periodFrom, to: periodTo })
					}
					// The other service appears only in requests of two services: it never has a range.
					expect(await tx.select().from(priceRanges).where(eq(priceRanges.serviceId, world.otherServiceId))).toEqual([])
				})
			}),
			{ numRuns: 15, examples: [[enoughJobs]] },
		)
		// Nothing of the generated jobs stayed.
		const [left] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from offers o join service_request_services s on s.request_id = o.request_id where s.service_id = ${world.serviceId}`)
		expect(left!.n).toBe(0)
	})

	test('the job behind it: nightly at 03:15 Tallinn time, and at a start only while there are no ranges', async () => {
		const priceJob = backgroundJobs.find((j) => j.name === 'price-ranges')!
		expect(priceJob.dailyAt).toBe('03:15')
		expect(typeof priceJob.atStart).toBe('function')
		await db.delete(priceRanges)
		expect(await (priceJob.atStart as () => Promise<boolean>)()).toBe(true)
		await priceJob.run()
		// The demo's jobs give ranges: a start now leaves them to the night.
		expect((await db.select().from(priceRanges)).length).toBeGreaterThan(0)
		expect(await (priceJob.atStart as () => Promise<boolean>)()).toBe(false)
	})
})

describe('a range moving as jobs complete (the real moves)', () => {
	/** A job from the request to its completion at `euros`, by the moves a customer and the workshop make. */
	async function completedJob(workshop: WorkshopActor, euros: number, cityId: string) {
		const requestId = await createServiceRequest(
			world.customerId,
			{ vehicleId: world.vehicleOf.family, serviceIds: [world.serviceId], preferredAt: inDays(2), location: 'Põlva', cityId, details: 'Brakes squeak' },
			[],
		)
		const offerId = await makeOffer(workshop, requestId, { price: euros * 100 }, null)
		await selectOffer(world.customerId, requestId, offerId)
		expect(await completeJob(workshop, offerId, euros * 100)).toBe('completed')
	}

	test('a range appears with the fifth job from the third workshop, and a dearer sixth one raises its upper quartile', async () => {
		// Workshops of a county of their own (Hiiu), so the property's data and the demo's leave them alone.
		const island = await referenceRow('cities', 'usual-price-island', 'hiiu')
		const garages: WorkshopActor[] = []
		for (let i = 0; i < 3; i++) {
			const garage = await workshopOffering([world.serviceId])
			await db.update(workshops).set({ cityId: island }).where(eq(workshops.id, garage.workshopId))
			garages.push(garage)
		}
		const page = async () => {
			await recomputePriceRanges()
			const args = { request: new Request('http://localhost/prices/usual-price-check/usual-price-island?lng=en'), params: { service: 'usual-price-check', city: 'usual-price-island' }, context: {} }
			return cityPricesLoader(args as never)
		}

		for (const [garage, euros] of [[0, 100], [0, 120], [1, 140], [1, 160]] as const) await completedJob(garages[garage]!, euros, island)
		// Four jobs: not enough yet.
		expect((await page()).ranges).toEqual([])

		await completedJob(garages[2]!, 180, island)
		const five = await page()
		expect(five.ranges).toEqual([{ vehicleClass: 'family', usual: '€120 – €160', median: '€140', jobs: 5, workshops: 3, period: expect.stringMatching(/^\w+ \d{4} – \w+ \d{4}$/) }])
		const [before] = await db.select().from(priceRanges).where(eq(priceRanges.county, 'hiiu'))
		expect(before).toMatchObject({ p25Cents: 12_000, p50Cents: 14_000, p75Cents: 16_000 })

		await completedJob(garages[2]!, 400, island)
		const six = await page()
		expect(six.ranges[0]).toMatchObject({ usual: '€125 – €175', median: '€150', jobs: 6, workshops: 3 })
		const [after] = await db.select().from(priceRanges).where(eq(priceRanges.county, 'hiiu'))
		expect(after!.p75Cents).toBeGreaterThan(before!.p75Cents)
		expect(after).toMatchObject({ p25Cents: 12_500, p50Cents: 15_000, p75Cents: 17_500 })
	})
})
