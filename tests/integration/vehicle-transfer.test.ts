import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { notifications, offers, serviceRecords, vehicles, vehicleTransfers } from '~/db/schema'
import { db } from '~/db/db.server'
import { completeJob } from '~/domain/service-flow/job-moves.server'
import { addServiceRecord, vehiclePassport } from '~/domain/service-flow/passport.server'
import { getCustomerRequest, listCustomerRequests } from '~/domain/service-flow/requests.server'
import { ClaimVehicleSchema } from '~/domain/service-flow/vehicle-transfer'
import { claimVehicle, createTransfer, openTransfer, revokeTransfer } from '~/domain/service-flow/vehicle-transfer.server'
import { createVehicle, getVehicle, listVehicles } from '~/domain/service-flow/vehicles.server'
import { listNotifications } from '~/domain/messaging/notifications.server'
import { findViewableUpload } from '~/uploads/access.server'
import { prepareUpload } from '~/uploads/storage.server'
import { tallinnDay } from '~/utils/time'
import { createCustomer } from '#tests/support/accounts'
import { customerWithVehicle, jobInProgress, openRequest } from '#tests/support/flow'
import { refused } from '#tests/support/refusals'

/**
 * Issue 32, item 6: a car changes owner. The seller makes a one-time code; the buyer claims the
 * vehicle with it; its history and warranties move, the seller's requests and invoices stay theirs.
 */

const DAY = 86_400_000
const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n')
const ownerOf = async (vehicleId: string) => (await db.select({ ownerId: vehicles.ownerId }).from(vehicles).where(eq(vehicles.id, vehicleId)))[0]!.ownerId
const viewer = (id: string) => ({ id, role: 'customer' as const, workshop: null }) as never

/** A seller whose car had a job done (with an invoice and a 20,000 km warranty) and a record of work elsewhere with its PDF. */
async function soldCar() {
	const job = await jobInProgress()
	// The offer carries its own warranty (decision 0126).
	await db.update(offers).set({ warrantyWorkKm: 20_000, warrantyPartsMonths: 12 }).where(eq(offers.id, job.offerId))
	const invoice = await prepareUpload({ bytes: pdf, purpose: 'job_invoice', originalName: 'arve.pdf' })
	await completeJob(job.workshop, job.offerId, 15000, { mileage: 61_000, invoice })
	const document = await prepareUpload({ bytes: pdf, purpose: 'service_document', originalName: 'receipt.pdf' })
	await addServiceRecord(job.customerId, job.owner.vehicleId, { performedOn: new Date(Date.now() - 30 * DAY).toISOString().slice(0, 10), mileage: 60_500, description: 'Oil elsewhere', workshopName: 'Other garage' }, document)
	return { ...job, sellerId: job.customerId, vehicleId: job.owner.vehicleId }
}

describe('the seller makes a code, the buyer claims the car', () => {
	test('the vehicle, its history and warranties move; the seller keeps requests and invoices; the buyer sees no papers of the seller; the seller is told', async () => {
		const car = await soldCar()
		const buyer = await createCustomer()
		const invoicePdf = (await db.select({ id: offers.invoiceUploadId }).from(offers).where(eq(offers.id, car.offerId)))[0]!.id!
		const [record] = await db.select().from(serviceRecords).where(eq(serviceRecords.vehicleId, car.vehicleId))

		const { code, expiresAt } = await createTransfer(car.sellerId, car.vehicleId)
		expect(code).toMatch(/^[A-Z2-9]{10}$/)
		expect(expiresAt.getTime()).toBeGreaterThan(Date.now() + 13 * DAY)
		expect(await openTransfer(car.sellerId, car.vehicleId)).toEqual({ expiresAt })
		// Only its hash is kept.
		const stored = await db.select().from(vehicleTransfers).where(eq(vehicleTransfers.vehicleId, car.vehicleId))
		expect(JSON.stringify(stored)).not.toContain(code)

		// As typed by the buyer, with a dash and in lower case.
		const parsed = ClaimVehicleSchema.safeParse({ code: `${code.slice(0, 5).toLowerCase()}-${code.slice(5)}` })
		expect(parsed.success && parsed.data.code).toBe(code)
		expect(await claimVehicle(buyer.id, code)).toBe(car.vehicleId)
		expect(await ownerOf(car.vehicleId)).toBe(buyer.id)
		expect((await listVehicles(buyer.id)).map((v) => v.id)).toEqual([car.vehicleId])
		expect(await listVehicles(car.sellerId)).toEqual([])
		await refused(getVehicle(car.sellerId, car.vehicleId), 'common:errors.notFoundTitle')

		// The buyer's passport: the job and the record with their mileage and the warranty, no request link, no papers.
		const passport = await vehiclePassport(await getVehicle(buyer.id, car.vehicleId), 'en')
		expect(passport.history.map((entry) => [entry.source, entry.mileage])).toEqual([
			['job', 61_000],
			['record', 60_500],
		])
		expect(passport.history.every((entry) => entry.requestId === null && entry.invoicePdf === null && entry.offerPdf === null && entry.documentPdf === null)).toBe(true)
		expect(passport.warranties).toMatchObject([{ workKm: 20_000, work: { untilKm: 81_000, state: 'valid' } }])
		expect(await findViewableUpload(invoicePdf, viewer(buyer.id))).toBeNull()
		expect(await findViewableUpload(record!.documentUploadId!, viewer(buyer.id))).toBeNull()
		// Nor the seller's request.
		await refused(getCustomerRequest(buyer.id, car.requestId, 'en'), 'common:errors.notFoundTitle')
		expect(await listCustomerRequests(buyer.id, 'en', 'history')).toEqual([])

		// The seller keeps their request, its invoice and their record's PDF.
		expect((await getCustomerRequest(car.sellerId, car.requestId, 'en')).id).toBe(car.requestId)
		expect((await listCustomerRequests(car.sellerId, 'en', 'history')).map((item) => item.id)).toContain(car.requestId)
		expect(await findViewableUpload(invoicePdf, viewer(car.sellerId))).not.toBeNull()
		expect(await findViewableUpload(record!.documentUploadId!, viewer(car.sellerId))).not.toBeNull()

		// The seller is told, in the reader's language.
		const told = await db.select().from(notifications).where(eq(notifications.userId, car.sellerId))
		expect(told.map((row) => row.messageKey)).toContain('notifications.vehicleTransferred')
		const [seller] = await db.select({ plate: vehicles.registrationNumber }).from(vehicles).where(eq(vehicles.id, car.vehicleId))
		const inEstonian = (await listNotifications(car.sellerId, 'et')).notifications.map((n) => n.message)
		expect(inEstonian).toContain(`Sõiduki ${seller!.plate} uus omanik võttis selle üle. Sinu päringud ja arved jäävad sulle.`)

		// The buyer goes on: a record of their own is theirs to see.
		await addServiceRecord(buyer.id, car.vehicleId, { performedOn: tallinnDay(), mileage: 61_500, description: 'Tyres', workshopName: '' }, null)
		expect((await vehiclePassport(await getVehicle(buyer.id, car.vehicleId), 'en')).history).toHaveLength(3)
	})

	test('two claims of one code at once: one winner, the other is told it was used', async () => {
		const { customer, vehicleId } = await customerWithVehicle()
		const [first, second] = [await createCustomer(), await createCustomer()]
		const { code } = await createTransfer(customer.id, vehicleId)
		const lost = (error: unknown) => error
		const outcomes = await Promise.all([claimVehicle(first.id, code).then(() => first.id, lost), claimVehicle(second.id, code).then(() => second.id, lost)])
		const winners = outcomes.filter((outcome) => typeof outcome === 'string')
		expect(winners).toHaveLength(1)
		expect(await ownerOf(vehicleId)).toBe(winners[0])
		const loser = outcomes.find((outcome) => typeof outcome !== 'string') as { key: string }
		expect(loser.key).toBe('customer:transfer.codeUsed')
		// Once used, it is used.
		await refused(claimVehicle((await createCustomer()).id, code), 'customer:transfer.codeUsed')
	})

	test('a wrong, expired, revoked or own code is refused and changes nothing', async () => {
		const { customer, vehicleId } = await customerWithVehicle()
		const buyer = await createCustomer()
		await refused(claimVehicle(buyer.id, 'ABCDEFGHJK'), 'customer:transfer.codeWrong')
		const old = await createTransfer(customer.id, vehicleId, new Date(Date.now() - 15 * DAY))
		await refused(claimVehicle(buyer.id, old.code), 'customer:transfer.codeExpired')
		// Revoked by a new one; the new one by "take it back".
		const current = await createTransfer(customer.id, vehicleId)
		await refused(claimVehicle(buyer.id, old.code), 'customer:transfer.codeWrong')
		await refused(claimVehicle(customer.id, current.code), 'customer:transfer.ownCode')
		await revokeTransfer(customer.id, vehicleId)
		expect(await openTransfer(customer.id, vehicleId)).toBeNull()
		await refused(claimVehicle(buyer.id, current.code), 'customer:transfer.codeWrong')
		expect(await ownerOf(vehicleId)).toBe(customer.id)
		const [{ claimed } = { claimed: 0 }] = await db.select({ claimed: vehicleTransfers.claimedAt }).from(vehicleTransfers).where(eq(vehicleTransfers.vehicleId, vehicleId)).then((rows) => [{ claimed: rows.filter((row) => row.claimed).length }])
		expect(claimed).toBe(0)
		// A code that is not one: the form's error.
		expect(ClaimVehicleSchema.safeParse({ code: 'abc' }).error?.issues[0]?.message).toBe('customer:transfer.codeFormat')
	})

	test('not while the car has an open request; only the owner makes or revokes a code', async () => {
		const { customer, vehicleId, refs } = await customerWithVehicle()
		const stranger = await createCustomer()
		await refused(createTransfer(stranger.id, vehicleId), 'common:errors.notFoundTitle')
		await refused(revokeTransfer(stranger.id, vehicleId), 'common:errors.notFoundTitle')
		const { code } = await createTransfer(customer.id, vehicleId)
		// A request opened after the code: the claim waits for it.
		await openRequest(customer.id, vehicleId, [refs.brakes])
		await refused(claimVehicle(stranger.id, code), 'customer:transfer.sellerHasOpenRequest')
		expect(await ownerOf(vehicleId)).toBe(customer.id)
		await refused(createTransfer(customer.id, vehicleId), 'customer:transfer.hasOpenRequest')
	})

	test('the buyer who adds the plate is told it is taken; after the claim the car is theirs', async () => {
		const { customer, vehicleId, refs } = await customerWithVehicle()
		const plate = (await db.select({ plate: vehicles.registrationNumber }).from(vehicles).where(eq(vehicles.id, vehicleId)))[0]!.plate
		const buyer = await createCustomer()
		const fields = { registrationNumber: plate, vehicleYear: 2018, brandId: refs.brandId, model: 'Corolla', modelSpecification: '1.8', transmission: 'automatic' as const, mileage: 70_000 }
		await refused(createVehicle(buyer.id, fields), 'customer:vehicle.registrationTaken')
		const { code } = await createTransfer(customer.id, vehicleId)
		await claimVehicle(buyer.id, code)
		expect(await ownerOf(vehicleId)).toBe(buyer.id)
	})
})
