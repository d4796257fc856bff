import fs from 'node:fs'
import path from 'node:path'
import { parseWithZod } from '@conform-to/zod/v4'
import { eq, sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { offerLines, offers, workshops } from '~/db/schema'
import { offerAllowanceNotice } from '~/domain/billing/subscription-page.server'
import { allowanceReached } from '~/domain/billing/allowance'
import { bestInRows, partQualityCounts } from '~/domain/service-flow/offer-comparison'
import { completeJob } from '~/domain/service-flow/job-moves.server'
import { makeOffer, selectOffer, updateOffer } from '~/domain/service-flow/offer-moves.server'
import { newOfferDefaults, OfferSchema, type OfferInput } from '~/domain/service-flow/offers'
import { getOwnOffer, profileWarranty } from '~/domain/service-flow/offers.server'
import { vehiclePassport } from '~/domain/service-flow/passport.server'
import { getCustomerRequest, listOffersForCustomer } from '~/domain/service-flow/requests.server'
import { getVehicle } from '~/domain/service-flow/vehicles.server'
import { db } from '~/db/db.server'
import { DomainError } from '~/utils/errors'
import { customerWithVehicle, openRequest, workshopOffering } from '#tests/support/flow'

/**
 * Issue 32, items 4 and 7: the month's offer allowance, told before any work and enforced in the
 * move; each offer's own warranty and each part's quality, compared like for like.
 */

const form = (fields: Record<string, string>) => {
	const data = new FormData()
	for (const [name, value] of Object.entries(fields)) data.set(name, value)
	return data
}
const parse = (fields: Record<string, string>) => parseWithZod(form(fields), { schema: OfferSchema })
const errors = (fields: Record<string, string>) => {
	const submission = parse(fields)
	if (submission.status !== 'error') throw new Error(`accepted: ${JSON.stringify(fields)}`)
	return submission.error ?? {}
}
const parsed = (fields: Record<string, string>): OfferInput => {
	const submission = parse(fields)
	if (submission.status !== 'success') throw new Error(JSON.stringify(submission.error))
	return submission.value
}

async function setting() {
	const owner = await customerWithVehicle()
	const workshop = await workshopOffering([owner.refs.brakes])
	// The profile promises 10,000 km on the work and 12 months on parts.
	await db.update(workshops).set({ warrantyWorkKm: 10_000, warrantyPartsMonths: 12 }).where(eq(workshops.id, workshop.workshopId))
	const requestId = await openRequest(owner.customer.id, owner.vehicleId, [owner.refs.brakes])
	return { owner, workshop, requestId }
}

describe("the month's offer allowance", () => {
	test('counts up to the limit, is reached at it, and the move refuses one more', async () => {
		const { owner, workshop } = await setting()
		expect(await offerAllowanceNotice(workshop.workshopId, 'en')).toMatchObject({ used: 0, limit: 5, upgradeTo: expect.any(String) })
		for (let n = 0; n < 3; n++) await makeOffer(workshop, await openRequest(owner.customer.id, owner.vehicleId, [owner.refs.brakes]), { price: 5000 }, null)
		const three = await offerAllowanceNotice(workshop.workshopId, 'en')
		expect(three).toMatchObject({ used: 3, limit: 5 })
		expect(allowanceReached(three)).toBe(false)
		for (let n = 0; n < 2; n++) await makeOffer(workshop, await openRequest(owner.customer.id, owner.vehicleId, [owner.refs.brakes]), { price: 5000 }, null)
		const five = await offerAllowanceNotice(workshop.workshopId, 'en')
		expect(allowanceReached(five)).toBe(true)
		const sixth = await openRequest(owner.customer.id, owner.vehicleId, [owner.refs.brakes])
		await expect(makeOffer(workshop, sixth, { price: 5000 }, null)).rejects.toMatchObject({ key: 'workshop:offer.limitReached', status: 403 })
		// An unlimited package has no allowance to show.
		expect(allowanceReached({ used: 99, limit: null })).toBe(false)
	})

	test('at 4 of 5, three offers sent at once end with exactly one made', async () => {
		const { owner, workshop } = await setting()
		for (let n = 0; n < 4; n++) await makeOffer(workshop, await openRequest(owner.customer.id, owner.vehicleId, [owner.refs.brakes]), { price: 5000 }, null)
		const requests = [await openRequest(owner.customer.id, owner.vehicleId, [owner.refs.brakes]), await openRequest(owner.customer.id, owner.vehicleId, [owner.refs.brakes]), await openRequest(owner.customer.id, owner.vehicleId, [owner.refs.brakes])]
		const attempts = await Promise.allSettled(requests.map((requestId) => makeOffer(workshop, requestId, { price: 6000 }, null)))
		expect(attempts.filter((attempt) => attempt.status === 'fulfilled')).toHaveLength(1)
		for (const attempt of attempts.filter((a) => a.status === 'rejected')) {
			expect((attempt as PromiseRejectedResult).reason).toBeInstanceOf(DomainError)
			expect((attempt as PromiseRejectedResult).reason).toMatchObject({ key: 'workshop:offer.limitReached' })
		}
		expect(await offerAllowanceNotice(workshop.workshopId, 'en')).toMatchObject({ used: 5, limit: 5 })
	})
})

describe("an offer's own warranty", () => {
	test("a new offer's form starts from the profile's; the offer keeps what it promised, not the profile's", async () => {
		const { owner, workshop, requestId } = await setting()
		expect(newOfferDefaults(await profileWarranty(workshop.workshopId))).toMatchObject({ warrantyWorkKm: '10000', warrantyPartsMonths: '12' })
		// The offer promises two years on parts.
		const offerId = await makeOffer(workshop, requestId, parsed({ price: '200', warrantyWorkKm: '20000', warrantyPartsMonths: '24' }), null)
		await db.update(workshops).set({ warrantyWorkKm: 5000, warrantyPartsMonths: 3 }).where(eq(workshops.id, workshop.workshopId))
		const [offer] = await listOffersForCustomer(owner.customer.id, requestId, 'en', 'price')
		expect(offer).toMatchObject({ id: offerId, warrantyWorkKm: 20_000, warrantyPartsMonths: 24 })
		expect(await getOwnOffer(workshop.workshopId, offerId)).toMatchObject({ warrantyWorkKm: 20_000, warrantyPartsMonths: 24 })

		// The job keeps it: its page, and the passport once it is done.
		await selectOffer(owner.customer.id, requestId, offerId)
		expect((await getCustomerRequest(owner.customer.id, requestId, 'en')).selectedOffer).toMatchObject({ warrantyWorkKm: 20_000, warrantyPartsMonths: 24 })
		await completeJob(workshop, offerId, 20000, { mileage: 60_500 })
		const passport = await vehiclePassport(await getVehicle(owner.customer.id, owner.vehicleId), 'en')
		expect(passport.warranties[0]).toMatchObject({ workKm: 20_000, partsMonths: 24 })
	})

	test('a field left empty promises none; an update changes it; a caller that leaves it out gets the profile of today', async () => {
		const { workshop, requestId, owner } = await setting()
		const offerId = await makeOffer(workshop, requestId, parsed({ price: '200', warrantyWorkKm: '', warrantyPartsMonths: '6' }), null)
		expect(await getOwnOffer(workshop.workshopId, offerId)).toMatchObject({ warrantyWorkKm: null, warrantyPartsMonths: 6 })
		await updateOffer(workshop, offerId, parsed({ price: '210', warrantyWorkKm: '15000', warrantyPartsMonths: '' }), null)
		expect(await getOwnOffer(workshop.workshopId, offerId)).toMatchObject({ priceCents: 21000, warrantyWorkKm: 15_000, warrantyPartsMonths: null })
		const other = await openRequest(owner.customer.id, owner.vehicleId, [owner.refs.brakes])
		const plain = await makeOffer(workshop, other, { price: 9000 }, null)
		expect(await getOwnOffer(workshop.workshopId, plain)).toMatchObject({ warrantyWorkKm: 10_000, warrantyPartsMonths: 12 })
	})

	test('a warranty out of range is refused at its field', () => {
		const refused = errors({ price: '100', warrantyWorkKm: '-1', warrantyPartsMonths: '241' })
		expect(refused.warrantyWorkKm).toEqual(['validation.number'])
		expect(refused.warrantyPartsMonths).toEqual(['validation.number'])
	})

	test('the migration gives an offer not yet completed its profile warranty and leaves a completed job its own', async () => {
		const { owner, workshop, requestId } = await setting()
		const pending = await makeOffer(workshop, requestId, { price: 9000 }, null)
		const other = await openRequest(owner.customer.id, owner.vehicleId, [owner.refs.brakes])
		const done = await makeOffer(workshop, other, { price: 9000 }, null)
		// As before the migration: no warranty on the offer, the job's copied at completion.
		await db.update(offers).set({ warrantyWorkKm: null, warrantyPartsMonths: null }).where(eq(offers.id, pending))
		await db.update(offers).set({ warrantyWorkKm: 3000, warrantyPartsMonths: 3, completedAt: new Date() }).where(eq(offers.id, done))
		const file = fs.readFileSync(path.resolve(__dirname, '../../app/db/migrations/0033_offer_warranty_part_quality.sql'), 'utf8')
		const update = file.split('--> statement-breakpoint').find((statement) => statement.includes('UPDATE'))!
		await db.execute(sql.raw(update))
		expect(await getOwnOffer(workshop.workshopId, pending)).toMatchObject({ warrantyWorkKm: 10_000, warrantyPartsMonths: 12 })
		expect(await getOwnOffer(workshop.workshopId, done)).toMatchObject({ warrantyWorkKm: 3000, warrantyPartsMonths: 3 })
	})
})

describe("a part's quality", () => {
	const lines = {
		'lines[0].kind': 'labour',
		'lines[0].description': 'Fitting',
		'lines[0].quantity': '1',
		'lines[0].unitPrice': '50',
		'lines[1].kind': 'part',
		'lines[1].description': 'Brake discs',
		'lines[1].reference': 'VAG 1K0615301AA',
		'lines[1].quantity': '2',
		'lines[1].unitPrice': '42',
		'lines[1].quality': 'original',
		'lines[2].kind': 'part',
		'lines[2].description': 'Caliper',
		'lines[2].quantity': '1',
		'lines[2].unitPrice': '60',
		'lines[2].quality': 'aftermarket',
		'lines[2].used': 'on',
	}

	test('each part line says it, stored with the line; labour has none', async () => {
		const { owner, workshop, requestId } = await setting()
		const offerId = await makeOffer(workshop, requestId, parsed(lines), null)
		const [offer] = await listOffersForCustomer(owner.customer.id, requestId, 'en', 'price')
		expect(offer!.id).toBe(offerId)
		expect(offer!.lines.map(({ kind, quality, used }) => ({ kind, quality, used }))).toEqual([
			{ kind: 'labour', quality: null, used: false },
			{ kind: 'part', quality: 'original', used: false },
			{ kind: 'part', quality: 'aftermarket', used: true },
		])
		expect(partQualityCounts(offer!.lines)).toEqual({ qualities: [{ quality: 'original', count: 1 }, { quality: 'aftermarket', count: 1 }], used: 1 })
	})

	test('a part line without it is refused next to the field; an unknown one too', () => {
		const { 'lines[1].quality': _, ...without } = lines
		expect(errors(without)['lines[1].quality']).toEqual(['workshop:offer.qualityRequired'])
		expect(errors({ ...lines, 'lines[1].quality': 'counterfeit' })['lines[1].quality']).toEqual(['validation.unknownChoice'])
	})

	test('lines stored before it was asked are "not stated"', async () => {
		const { workshop, requestId } = await setting()
		const offerId = await makeOffer(workshop, requestId, parsed(lines), null)
		await db.update(offerLines).set({ quality: null }).where(eq(offerLines.offerId, offerId))
		const offer = await getOwnOffer(workshop.workshopId, offerId)
		expect(partQualityCounts(offer.lines).qualities).toEqual([{ quality: 'notStated', count: 2 }])
	})

	test('compared like for like: a lump sum is never best on labour, parts or their quality', async () => {
		const { owner, workshop, requestId } = await setting()
		const itemised = await makeOffer(workshop, requestId, parsed(lines), null)
		const cheap = await workshopOffering([owner.refs.brakes])
		const lumpSum = await makeOffer(cheap, requestId, { price: 10000 }, null)
		const offers = await listOffersForCustomer(owner.customer.id, requestId, 'en', 'price')
		const best = bestInRows(offers)
		expect(best.total).toEqual([lumpSum])
		expect(best.labour).toEqual([])
		expect(best.parts).toEqual([])
		expect(best.partQuality).toEqual([])
		expect(offers.find((offer) => offer.id === itemised)!.partsCents).toBe(14400)
	})
})
