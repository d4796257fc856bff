/**
 * The demo workshop's price list (issue 35), called by the demo loader after the story
 * (demo-data.server.ts): an oil change for a family car in each engine band, a seasonal tyre
 * change around the day the demo is loaded (a family car and an SUV or van), and one item that
 * sends instant offers (the oil change of a 1.6–2.5 l engine), so a visitor sees a price list on
 * Kask Autoteenindus's page and an instant offer arrives for a request that fits it.
 *
 * The items' sums are computed as the domain computes them (`offerTotals`). The story's requests
 * were made inside the loader's transaction, which leaves instant offers to the job: they are
 * stamped checked here, so the demo's open requests do not get offers of their own later.
 */
import { isNull } from 'drizzle-orm'
import * as t from '~/db/schema'
import { type DbOrTx } from '~/db/db.server'
import { addDays } from '~/domain/booking/calendar'
import { type EngineBand } from '~/domain/pricing/price-kinds'
import { type OfferLineInput, offerLineColumns, offerTotals } from '~/domain/service-flow/offer-lines'
import { type VehicleClass } from '~/domain/service-flow/vehicle-kinds'
import { tallinnDay } from '~/utils/time'

type DemoItem = {
	service: string
	vehicleClass: VehicleClass
	engineBand: EngineBand
	minutes: number
	included: string
	lines: OfferLineInput[]
	/** Days from the loading day; until null: open-ended. */
	from: number
	until: number | null
	instant?: boolean
}

const labour = (description: string, hours: number, rate: number): OfferLineInput => ({ kind: 'labour', description, quantity: Math.round(hours * 100), unitPrice: rate * 100 })
const part = (description: string, reference: string, pieces: number, cents: number): OfferLineInput => ({
	kind: 'part',
	description,
	reference,
	quantity: pieces * 100,
	unitPrice: cents,
	quality: 'equivalent',
	used: false,
})
const fee = (description: string, cents: number): OfferLineInput => ({ kind: 'fee', description, quantity: 100, unitPrice: cents })

/** An oil change: the oil's litres and the filter grow with the engine. */
const oilChange = (engineBand: EngineBand, litres: number, filterCents: number, hours: number, instant = false): DemoItem => ({
	service: 'oil-change',
	vehicleClass: 'family',
	engineBand,
	minutes: Math.round(hours * 60) + 15,
	included: `Sünteetiline mootoriõli kuni ${litres} l, uus õlifilter, vana õli utiliseerimine, hooldusintervalli nullimine.`,
	lines: [labour('Õlivahetus', hours, 48), part('Mootoriõli 5W-30', 'Castrol Edge', litres, 950), part('Õlifilter', 'MANN', 1, filterCents), fee('Vana õli utiliseerimine', 300)],
	from: -60,
	until: null,
	instant,
})

/** The tyre season around the loading day: two weeks in, two months to go. */
const tyreChange = (vehicleClass: VehicleClass, hours: number): DemoItem => ({
	service: 'tyres',
	vehicleClass,
	engineBand: 'any',
	minutes: Math.round(hours * 60),
	included: 'Nelja ratta vahetus, tasakaalustamine, rehvirõhu kontroll. Rehvihotell eraldi.',
	lines: [labour('Rehvivahetus ja tasakaalustamine', hours, 45), fee('Tasakaalustusraskused', 600)],
	from: -14,
	until: 60,
})

export const demoPriceItems: DemoItem[] = [
	oilChange('up_to_1600', 4, 1200, 0.5),
	oilChange('1600_2500', 5, 1400, 0.75, true),
	oilChange('over_2500', 7, 1600, 1),
	tyreChange('family', 0.75),
	tyreChange('suv_van', 1),
]

export async function insertDemoPriceList(tx: DbOrTx, input: { workshopId: string; serviceIds: Map<string, string>; now: Date }) {
	const today = tallinnDay(input.now)
	for (const item of demoPriceItems) {
		const totals = offerTotals(item.lines, 'included')
		const [row] = await tx
			.insert(t.priceListItems)
			.values({
				workshopId: input.workshopId,
				serviceId: input.serviceIds.get(item.service)!,
				vehicleClass: item.vehicleClass,
				engineBand: item.engineBand,
				vatMode: 'included',
				labourCents: totals.labourCents,
				partsCents: totals.partsCents,
				feesCents: totals.feesCents,
				vatCents: totals.vatCents,
				priceCents: totals.totalCents,
				durationMinutes: item.minutes,
				included: item.included,
				validFrom: addDays(today, item.from),
				validUntil: item.until === null ? null : addDays(today, item.until),
				sendsInstant: item.instant ?? false,
			})
			.returning({ id: t.priceListItems.id })
		await tx.insert(t.priceListLines).values(item.lines.map((line, position) => ({ itemId: row!.id, ...offerLineColumns(line, position) })))
	}
	// The story's requests are old news to the instant offers' job.
	await tx.update(t.serviceRequests).set({ instantCheckedAt: input.now }).where(isNull(t.serviceRequests.instantCheckedAt))
}
