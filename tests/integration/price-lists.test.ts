import { eq, isNull, sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { priceListItems, priceListLines, serviceRequests, workshops } from '~/db/schema'
import { db, queryRows } from '~/db/db.server'
import { getFixedT } from '~/i18n/i18n.server'
import { itemName } from '~/domain/pricing/price-items'
import { offerDraft } from '~/domain/pricing/price-list-offers.server'
import { addPriceItem, currentPriceList, deletePriceItem, getPriceItem, listPriceItems, priceListOffers, updatePriceItem } from '~/domain/pricing/price-lists.server'
import { DomainError, FieldError } from '~/utils/errors'
import { rejection, refused } from '#tests/support/refusals'
import { openRequest, referenceData, workshopOffering } from '#tests/support/flow'
import { customerWithCar, day, itemErrors, itemFields, itemInput, oilChangeLines, serviceIdOf } from '#tests/support/price-lists'

/** Issue 35, part 1: a workshop's price list, its refusals, and the offers it drafts. */

async function garage() {
	const [oil, tyres, brakes] = await Promise.all([serviceIdOf('oil-change'), serviceIdOf('tyres'), serviceIdOf('brakes')])
	const workshop = await workshopOffering([oil, tyres])
	return { workshop, oil, tyres, brakes }
}

/** Everything the workshop's price list holds, lines included: "nothing changed" compares this. */
async function snapshot(workshopId: string) {
	return queryRows(
		db,
		sql`select i.*, (select json_agg(l order by l.position) from price_list_lines l where l.item_id = i.id) as lines
		    from price_list_items i where i.workshop_id = ${workshopId} order by i.created_at`,
	)
}

describe('a price list item', () => {
	test('is stored with the sums computed from its lines, and listed with them', async () => {
		const { workshop, oil } = await garage()
		// A total typed beside the lines changes nothing.
		const id = await addPriceItem(workshop.workshopId, itemInput(oil, { total: '1', validUntil: day(30), sendsInstant: 'on' }))
		const [item] = await listPriceItems(workshop.workshopId, 'en')
		// 75.00 + 50.00 + 5.00 = 130.00 with VAT included: 24 % of it is 25.16.
		expect(item).toMatchObject({
			id,
			service: 'Oil change',
			vehicleClass: 'family',
			engineBand: 'any',
			vatMode: 'included',
			priceCents: 13000,
			vatCents: 2516,
			labourCents: 7500,
			partsCents: 5000,
			feesCents: 500,
			durationMinutes: 75,
			included: 'Oil up to 5 l, filter, disposal.',
			validFrom: day(0),
			validUntil: day(30),
			sendsInstant: true,
		})
		expect(item!.lines).toEqual([
			{ kind: 'labour', description: 'Oil change', reference: '', quantity: 150, unitPriceCents: 5000, totalCents: 7500, quality: null, used: false },
			{ kind: 'part', description: 'Engine oil 5W-30', reference: 'Castrol', quantity: 500, unitPriceCents: 1000, totalCents: 5000, quality: 'equivalent', used: false },
			{ kind: 'fee', description: 'Disposal', reference: '', quantity: 100, unitPriceCents: 500, totalCents: 500, quality: null, used: false },
		])
	})

	test('with VAT added, its lines are the net and its price has the VAT on top', async () => {
		const { workshop, oil } = await garage()
		const id = await addPriceItem(workshop.workshopId, itemInput(oil, { vat: 'added' }))
		expect(await getPriceItem(workshop.workshopId, id, 'en')).toMatchObject({ vatMode: 'added', priceCents: 16120, vatCents: 3120 })
	})

	test('the public list shows the items valid today, as schema.org offers with VAT', async () => {
		const { workshop, oil, tyres } = await garage()
		await addPriceItem(workshop.workshopId, itemInput(oil))
		// A season that ended, and one yet to come, are not shown.
		await addPriceItem(workshop.workshopId, itemInput(tyres, { validFrom: day(-60), validUntil: day(-1) }))
		await addPriceItem(workshop.workshopId, itemInput(tyres, { validFrom: day(10), validUntil: day(40) }))
		const current = await currentPriceList(workshop.workshopId, 'et')
		expect(current.map((item) => item.service)).toEqual(['Õlivahetus'])
		expect(priceListOffers(current, 'et')).toEqual([
			expect.objectContaining({
				'@type': 'Offer',
				name: 'Õlivahetus · Pereauto',
				price: '130.00',
				priceCurrency: 'EUR',
				priceSpecification: expect.objectContaining({ valueAddedTaxIncluded: true }),
				validFrom: day(0),
			}),
		])
		expect(await listPriceItems(workshop.workshopId, 'en')).toHaveLength(3)
	})
})

describe('bad input is refused with its reason, and nothing changes', () => {
	test('the form refuses a negative or absurd price, an unknown class, a duration over 30 days, days in the wrong order', async () => {
		const oil = await serviceIdOf('oil-change')
		const fields = (extra: Record<string, string>) => itemFields(oil, extra)
		expect(itemErrors(fields({ 'lines[0].unitPrice': '-50' }))['lines[0].unitPrice']).toEqual(['validation.money'])
		// 999 h at €101: over €100,000 of labour.
		expect(itemErrors(fields({ 'lines[0].quantity': '999', 'lines[0].unitPrice': '101' })).lines).toEqual(['workshop:priceList.totalTooLarge'])
		expect(itemErrors(fields({ vehicleClass: 'truck' })).vehicleClass).toEqual(['validation.unknownChoice'])
		expect(itemErrors(fields({ engineBand: 'v12' })).engineBand).toEqual(['validation.unknownChoice'])
		expect(itemErrors(fields({ vehicleClass: 'electric', engineBand: 'up_to_1600' })).engineBand).toEqual(['workshop:priceList.electricAnyEngine'])
		expect(itemErrors(fields({ durationHours: '720', durationMinutes: '1' })).durationHours).toEqual(['workshop:priceList.durationTooLong'])
		expect(itemErrors(fields({ durationHours: '0', durationMinutes: '5' })).durationHours).toEqual(['workshop:priceList.durationTooShort'])
		expect(itemErrors(fields({ durationHours: '', durationMinutes: '' })).durationHours).toEqual(['validation.required'])
		expect(itemErrors(fields({ validFrom: day(5), validUntil: day(4) })).validUntil).toEqual(['workshop:priceList.untilBeforeFrom'])
		expect(itemErrors(fields({ validFrom: '2026-02-30' })).validFrom).toEqual(['validation.realDate'])
		expect(itemErrors(fields({ serviceId: 'oil' })).serviceId).toEqual(['validation.required'])
		expect(itemErrors(fields({ 'lines[1].quality': '' }))['lines[1].quality']).toEqual(['workshop:offer.qualityRequired'])
		const noLines = Object.fromEntries(Object.entries(fields({})).filter(([name]) => !name.startsWith('lines')))
		expect(itemErrors(noLines).lines).toEqual(['workshop:priceList.linesNeeded'])
		// Exactly 30 days is allowed.
		expect(itemInput(oil, { durationHours: '720', durationMinutes: '0' })).toMatchObject({ durationHours: 720 })
	})

	test("a service the workshop does not offer, or another workshop's item, is refused and changes nothing", async () => {
		const { workshop, oil, brakes } = await garage()
		const other = await workshopOffering([oil])
		const id = await addPriceItem(workshop.workshopId, itemInput(oil))
		const before = await snapshot(workshop.workshopId)

		const unknown = await rejection(addPriceItem(workshop.workshopId, itemInput(brakes)))
		expect(unknown).toBeInstanceOf(FieldError)
		expect(unknown).toMatchObject({ field: 'serviceId', key: 'common:validation.unknownChoice' })
		await refused(updatePriceItem(workshop.workshopId, id, itemInput(brakes)), 'common:validation.unknownChoice')
		// Another workshop's item is not found, to read, change or remove.
		await refused(getPriceItem(other.workshopId, id, 'en'), 'common:errors.notFoundTitle')
		await refused(updatePriceItem(other.workshopId, id, itemInput(oil, { 'lines[0].unitPrice': '1' })), 'common:errors.notFoundTitle')
		await refused(deletePriceItem(other.workshopId, id), 'common:errors.notFoundTitle')
		expect(await snapshot(workshop.workshopId)).toEqual(before)
		expect(await listPriceItems(other.workshopId, 'en')).toEqual([])
	})
})

describe('overlapping validity', () => {
	test('is refused for the same service, class and band, and for any engine beside a specific band', async () => {
		const { workshop, oil } = await garage()
		await addPriceItem(workshop.workshopId, itemInput(oil, { engineBand: 'up_to_1600', validFrom: day(0), validUntil: day(30) }))
		const before = await snapshot(workshop.workshopId)
		const overlap = 'workshop:priceList.overlap'
		// The same band on a day of it (the last one counts).
		await refused(addPriceItem(workshop.workshopId, itemInput(oil, { engineBand: 'up_to_1600', validFrom: day(30) })), overlap)
		// Any engine beside it, open-ended.
		await refused(addPriceItem(workshop.workshopId, itemInput(oil, { engineBand: 'any', validFrom: day(-10) })), overlap)
		expect(await snapshot(workshop.workshopId)).toEqual(before)

		// Another band, another class, the days after: all fine.
		await addPriceItem(workshop.workshopId, itemInput(oil, { engineBand: '1600_2500', validFrom: day(0), validUntil: day(30) }))
		await addPriceItem(workshop.workshopId, itemInput(oil, { vehicleClass: 'suv_van', engineBand: 'up_to_1600', validFrom: day(0) }))
		await addPriceItem(workshop.workshopId, itemInput(oil, { engineBand: 'up_to_1600', validFrom: day(31), validUntil: day(60) }))
		// …and a specific band beside an `any` item of the same days is refused the other way round.
		await addPriceItem(workshop.workshopId, itemInput(oil, { vehicleClass: 'small', engineBand: 'any', validFrom: day(0) }))
		await refused(addPriceItem(workshop.workshopId, itemInput(oil, { vehicleClass: 'small', engineBand: 'over_2500', validFrom: day(100) })), overlap)
		expect(await listPriceItems(workshop.workshopId, 'en')).toHaveLength(5)
	})

	test('a change into another item\'s days is refused and leaves the item as it was; a change of its own days is fine', async () => {
		const { workshop, tyres } = await garage()
		const autumn = await addPriceItem(workshop.workshopId, itemInput(tyres, { validFrom: day(0), validUntil: day(30) }))
		const spring = await addPriceItem(workshop.workshopId, itemInput(tyres, { validFrom: day(100), validUntil: day(130) }))
		const before = await snapshot(workshop.workshopId)
		await refused(updatePriceItem(workshop.workshopId, spring, itemInput(tyres, { validFrom: day(20), validUntil: day(130) })), 'workshop:priceList.overlap')
		expect(await snapshot(workshop.workshopId)).toEqual(before)
		await updatePriceItem(workshop.workshopId, autumn, itemInput(tyres, { validFrom: day(0), validUntil: day(99), ...oilChangeLines, 'lines[0].unitPrice': '60' }))
		expect(await getPriceItem(workshop.workshopId, autumn, 'en')).toMatchObject({ validUntil: day(99), priceCents: 14500 })
	})

	test('the database refuses two items of the same band on one day whatever the domain says (exclusion constraint)', async () => {
		const { workshop, oil } = await garage()
		const row = { workshopId: workshop.workshopId, serviceId: oil, vehicleClass: 'family' as const, engineBand: 'any' as const, priceCents: 100, durationMinutes: 30, validFrom: day(0) }
		await db.insert(priceListItems).values(row)
		const error = await rejection(db.insert(priceListItems).values({ ...row, validFrom: day(5), validUntil: day(6) }))
		expect(error).toBeTruthy()
		expect(error).not.toBeInstanceOf(DomainError)
	})
})

test('removing an item removes its lines', async () => {
	const { workshop, oil } = await garage()
	const id = await addPriceItem(workshop.workshopId, itemInput(oil))
	await deletePriceItem(workshop.workshopId, id)
	expect(await listPriceItems(workshop.workshopId, 'en')).toEqual([])
	expect(await db.select().from(priceListLines).where(eq(priceListLines.itemId, id))).toEqual([])
})

describe('a drafted offer', () => {
	test("is the workshop's items for the request's services, vehicle class and engine band together", async () => {
		const { workshop, oil, tyres } = await garage()
		await addPriceItem(workshop.workshopId, itemInput(oil, { vehicleClass: 'suv_van', engineBand: '1600_2500', included: 'Oil up to 6 l.' }))
		await addPriceItem(workshop.workshopId, itemInput(tyres, { vehicleClass: 'suv_van', validUntil: day(20), durationHours: '0', durationMinutes: '45', included: 'Four wheels.' }))
		const owner = await customerWithCar('suv_van', 1998)

		const one = await openRequest(owner.customer.id, owner.vehicleId, [oil])
		expect(await offerDraft(workshop.workshopId, one, 'en')).toMatchObject({
			items: [{ service: 'Oil change', vehicleClass: 'suv_van', engineBand: '1600_2500' }],
			vat: 'included',
			minutes: 75,
			description: 'Oil up to 6 l.',
			validUntil: null,
			lines: [
				{ kind: 'labour', description: 'Oil change', quantity: 150, unitPrice: 5000 },
				{ kind: 'part', description: 'Engine oil 5W-30', reference: 'Castrol', quantity: 500, unitPrice: 1000, quality: 'equivalent' },
				{ kind: 'fee', description: 'Disposal', quantity: 100, unitPrice: 500 },
			],
		})
		const both = await openRequest(owner.customer.id, owner.vehicleId, [oil, tyres])
		const draft = await offerDraft(workshop.workshopId, both, 'en')
		expect(draft).toMatchObject({ minutes: 120, description: 'Oil up to 6 l.\n\nFour wheels.', validUntil: day(20) })
		expect(draft!.lines).toHaveLength(6)
	})

	test('is none for another class, another engine band, a car of unknown engine, or a service without an item', async () => {
		const { workshop, oil, tyres } = await garage()
		await addPriceItem(workshop.workshopId, itemInput(oil, { vehicleClass: 'suv_van', engineBand: '1600_2500' }))
		const draftFor = async (vehicleClass: 'suv_van' | 'small', cc: number | null, services: string[]) => {
			const owner = await customerWithCar(vehicleClass, cc)
			return offerDraft(workshop.workshopId, await openRequest(owner.customer.id, owner.vehicleId, services), 'en')
		}
		expect(await draftFor('small', 1998, [oil])).toBeNull()
		expect(await draftFor('suv_van', 3000, [oil])).toBeNull()
		expect(await draftFor('suv_van', null, [oil])).toBeNull()
		expect(await draftFor('suv_van', 1998, [oil, tyres])).toBeNull()
		expect(await draftFor('suv_van', 1998, [oil])).not.toBeNull()
	})
})

test('the demo workshop shows a price list: an oil change per engine band, a seasonal tyre change, one item sending instant offers', async () => {
	await referenceData()
	const [kask] = await db.select().from(workshops).where(eq(workshops.workshopName, 'Kask Autoteenindus'))
	const items = await currentPriceList(kask!.id, 'en')
	const t = getFixedT('en', 'common')
	expect(items.map((item) => [itemName(t, item), item.sendsInstant])).toEqual([
		['Oil change · Family car · Engine up to 1.6 l', false],
		['Oil change · Family car · Engine 1.6–2.5 l', true],
		['Oil change · Family car · Engine over 2.5 l', false],
		['Tyre change and storage · Family car', false],
		['Tyre change and storage · SUV or van', false],
	])
	expect(items.filter((item) => item.validUntil !== null).map((item) => item.service)).toEqual(['Tyre change and storage', 'Tyre change and storage'])
	// The story's requests were made in the loader's transaction: stamped, so the job sends them no instant offers.
	expect(await db.select({ id: serviceRequests.id }).from(serviceRequests).where(isNull(serviceRequests.instantCheckedAt))).toEqual([])
})
