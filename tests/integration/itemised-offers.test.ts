import { parseWithZod } from '@conform-to/zod/v4'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { offerLines, offers } from '~/db/schema'
import { makeOffer, updateOffer } from '~/domain/service-flow/offer-moves.server'
import { type OfferLineInput } from '~/domain/service-flow/offer-lines'
import { OfferSchema, type OfferInput } from '~/domain/service-flow/offers'
import { getOwnOffer } from '~/domain/service-flow/offers.server'
import { listOffersForCustomer } from '~/domain/service-flow/requests.server'
import { db } from '~/db/db.server'
import { customerWithVehicle, openRequest, workshopOffering } from '#tests/support/flow'

/** Issue 19, part 1: an offer of lines, its total computed by the server and never taken from the form. */

const form = (fields: Record<string, string>) => {
	const data = new FormData()
	for (const [name, value] of Object.entries(fields)) data.set(name, value)
	return data
}
const parsed = (fields: Record<string, string>): OfferInput => {
	const submission = parseWithZod(form(fields), { schema: OfferSchema })
	if (submission.status !== 'success') throw new Error(JSON.stringify(submission.error))
	return submission.value
}
const refused = (fields: Record<string, string>) => {
	const submission = parseWithZod(form(fields), { schema: OfferSchema })
	if (submission.status !== 'error') throw new Error(`accepted: ${JSON.stringify(fields)}`)
	return submission.error ?? {}
}

/** Labour 1.5 h at €60, two filters at €12.40 (OE number), a €5 disposal fee. */
const brakeJob = {
	'lines[0].kind': 'labour',
	'lines[0].description': 'Replace front pads',
	'lines[0].quantity': '1,5',
	'lines[0].unitPrice': '60',
	'lines[1].kind': 'part',
	'lines[1].description': 'Brake pads',
	'lines[1].reference': 'TRW GDB3425',
	'lines[1].quantity': '2',
	'lines[1].unitPrice': '12.40',
	'lines[1].quality': 'equivalent',
	'lines[2].kind': 'fee',
	'lines[2].description': 'Disposal',
	'lines[2].quantity': '1',
	'lines[2].unitPrice': '5',
}

async function openRequestWithWorkshop() {
	const owner = await customerWithVehicle()
	const workshop = await workshopOffering([owner.refs.brakes])
	const requestId = await openRequest(owner.customer.id, owner.vehicleId, [owner.refs.brakes])
	return { owner, workshop, requestId }
}

describe('itemised offers', () => {
	test('the lines are stored in order with their amounts, and the price is their total with VAT included', async () => {
		const { owner, workshop, requestId } = await openRequestWithWorkshop()
		// A price typed beside the lines, and a total the form made up, change nothing.
		const input = parsed({ ...brakeJob, price: '1', total: '1', earliestStart: '2099-01-05', durationDays: '2' })
		const offerId = await makeOffer(workshop, requestId, input, null)

		const [offer] = await listOffersForCustomer(owner.customer.id, requestId, 'en', 'price')
		// 90.00 + 24.80 + 5.00 = 119.80, VAT 24 % of it included: 23.19.
		expect(offer).toMatchObject({ id: offerId, priceCents: 11980, vatMode: 'included', labourCents: 9000, partsCents: 2480, feesCents: 500, vatCents: 2319 })
		expect(offer).toMatchObject({ earliestStart: '2099-01-05', durationDays: 2, validUntil: null })
		expect(offer!.lines).toEqual([
			{ kind: 'labour', description: 'Replace front pads', reference: '', quantity: 150, unitPriceCents: 6000, totalCents: 9000, quality: null, used: false },
			{ kind: 'part', description: 'Brake pads', reference: 'TRW GDB3425', quantity: 200, unitPriceCents: 1240, totalCents: 2480, quality: 'equivalent', used: false },
			{ kind: 'fee', description: 'Disposal', reference: '', quantity: 100, unitPriceCents: 500, totalCents: 500, quality: null, used: false },
		])
	})

	test('with VAT added, the lines are the net and the price has the VAT on top', async () => {
		const { workshop, requestId } = await openRequestWithWorkshop()
		const offerId = await makeOffer(workshop, requestId, parsed({ ...brakeJob, vat: 'added' }), null)
		expect(await getOwnOffer(workshop.workshopId, offerId)).toMatchObject({ priceCents: 14855, vatCents: 2875, vatMode: 'added' })
	})

	test('an update replaces the lines; an offer changed to one price keeps no lines or sums', async () => {
		const { workshop, requestId } = await openRequestWithWorkshop()
		const offerId = await makeOffer(workshop, requestId, parsed(brakeJob), null)
		await updateOffer(workshop, offerId, parsed({ 'lines[0].kind': 'labour', 'lines[0].description': 'Diagnosis', 'lines[0].quantity': '1', 'lines[0].unitPrice': '45' }), null)
		expect(await getOwnOffer(workshop.workshopId, offerId)).toMatchObject({ priceCents: 4500, labourCents: 4500, partsCents: 0, lines: [expect.objectContaining({ description: 'Diagnosis' })] })
		await updateOffer(workshop, offerId, parsed({ price: '150' }), null)
		expect(await getOwnOffer(workshop.workshopId, offerId)).toMatchObject({ priceCents: 15000, labourCents: null, vatCents: null, lines: [] })
		expect(await db.select().from(offerLines).where(eq(offerLines.offerId, offerId))).toEqual([])
	})

	test('two updates at once leave one of the two sets of lines whole, never a mix', async () => {
		const { workshop, requestId } = await openRequestWithWorkshop()
		const offerId = await makeOffer(workshop, requestId, parsed(brakeJob), null)
		const set = (label: string, count: number) => {
			const fields: Record<string, string> = {}
			for (let i = 0; i < count; i++)
				Object.assign(fields, { [`lines[${i}].kind`]: 'part', [`lines[${i}].description`]: `${label} ${i}`, [`lines[${i}].quantity`]: '1', [`lines[${i}].unitPrice`]: '10', [`lines[${i}].quality`]: 'original' })
			return parsed(fields)
		}
		await Promise.all([updateOffer(workshop, offerId, set('A', 4), null), updateOffer(workshop, offerId, set('B', 6), null)])
		const { lines, priceCents } = await getOwnOffer(workshop.workshopId, offerId)
		const labels = new Set(lines.map((line) => line.description.split(' ')[0]))
		expect(labels.size).toBe(1)
		expect(lines).toHaveLength(labels.has('A') ? 4 : 6)
		expect(priceCents).toBe(lines.length * 1000)
	})

	test('bad lines are refused field by field, and a refused form changes nothing', async () => {
		const { workshop, requestId } = await openRequestWithWorkshop()
		const offerId = await makeOffer(workshop, requestId, parsed(brakeJob), null)
		const line = (fields: Partial<Record<keyof OfferLineInput, string>>) =>
			Object.fromEntries(Object.entries({ kind: 'part', description: 'Filter', quantity: '1', unitPrice: '10', ...fields }).map(([name, value]) => [`lines[0].${name}`, value]))
		expect(refused(line({ quantity: '0' }))['lines[0].quantity']).toEqual(['validation.quantity'])
		expect(refused(line({ quantity: '-2' }))['lines[0].quantity']).toEqual(['validation.quantity'])
		expect(refused(line({ quantity: '1000' }))['lines[0].quantity']).toEqual(['validation.quantity'])
		expect(refused(line({ unitPrice: '-5' }))['lines[0].unitPrice']).toEqual(['validation.money'])
		expect(refused(line({ unitPrice: '0' }))['lines[0].unitPrice']).toEqual(['validation.money'])
		expect(refused(line({ unitPrice: '100000.01' }))['lines[0].unitPrice']).toEqual(['validation.money'])
		expect(refused(line({ kind: 'discount' }))['lines[0].kind']).toEqual(['validation.unknownChoice'])
		expect(refused(line({ description: '' }))['lines[0].description']).toEqual(['validation.required'])
		const many: Record<string, string> = {}
		for (let i = 0; i < 31; i++) Object.assign(many, { [`lines[${i}].kind`]: 'fee', [`lines[${i}].description`]: 'Fee', [`lines[${i}].quantity`]: '1', [`lines[${i}].unitPrice`]: '1' })
		expect(refused(many)['lines']).toEqual(['workshop:offer.tooManyLines'])
		const huge: Record<string, string> = {}
		for (let i = 0; i < 11; i++) Object.assign(huge, { [`lines[${i}].kind`]: 'part', [`lines[${i}].description`]: 'Engine', [`lines[${i}].quantity`]: '999', [`lines[${i}].unitPrice`]: '100000' })
		expect(refused(huge)['lines']).toEqual(['workshop:offer.totalTooLarge'])
		expect(refused({ price: '100', earliestStart: '2020-01-01' })['earliestStart']).toEqual(['validation.pastDate'])
		expect(refused({ price: '100', validUntil: '2099-01-01' })['validUntil']).toEqual(['workshop:offer.validUntilRange'])
		expect(refused({ price: '100', earliestStart: '2099-02-30' })['earliestStart']).toEqual(['validation.realDate'])
		// Neither a price nor a line: the price is asked for. A row added and left empty is no line.
		expect(refused({ 'lines[0].kind': 'labour' })['price']).toEqual(['validation.required'])
		const [stored] = await db.select().from(offers).where(eq(offers.id, offerId))
		expect(stored!.priceCents).toBe(11980)
		expect(await db.select().from(offerLines).where(eq(offerLines.offerId, offerId))).toHaveLength(3)
	})
})
