import { and, eq, sql, type SQL } from 'drizzle-orm'
import { forgetCaches } from '~/caching/cache-bus.server'
import { priceListItems, priceListLines, workshopServices } from '~/db/schema'
import { localizedName } from '~/db/sql'
import { type DbOrTx, db, errorCauses, queryRows, transaction } from '~/db/db.server'
import { type Language } from '~/i18n/config'
import { getFixedT } from '~/i18n/i18n.server'
import { type JsonLdThing } from '~/utils/json-ld'
import { CURRENCY } from '~/utils/money'
import { DomainError, FieldError, notFound } from '~/utils/errors'
import { tallinnDay } from '~/utils/time'
import { lockWorkshop, type Tx } from '~/domain/service-flow/move-locks.server'
import { offerLineColumns, offerTotals } from '~/domain/service-flow/offer-lines'
import { itemName, type PriceItem } from './price-items'
import { type PriceItemInput, itemMinutesOf } from './price-lists'

/**
 * A workshop's price list (issue 35, docs/decisions/0147): its items read, added, changed and
 * removed by the workshop, each change in one transaction under the workshop's row lock (the lock
 * `makeOffer` takes too, decision 0070), the workshop named in every query. What the public page
 * shows of it is `currentPriceList`.
 */

/** An item's columns and its lines as JSON, in order (as offerColumns has an offer's). */
const itemColumns = (language: Language) => sql`i.id, i.service_id as "serviceId", ${localizedName('s', language)} as service,
	i.vehicle_class as "vehicleClass", i.engine_band as "engineBand", i.vat_mode as "vatMode", i.price_cents as "priceCents",
	i.vat_cents as "vatCents", i.labour_cents as "labourCents", i.parts_cents as "partsCents", i.fees_cents as "feesCents", i.duration_minutes as "durationMinutes", i.included, i.valid_from::text as "validFrom",
	i.valid_until::text as "validUntil", i.sends_instant as "sendsInstant",
	coalesce((select json_agg(json_build_object('kind', l.kind, 'description', l.description, 'reference', l.reference,
	                                            'quantity', l.quantity_hundredths, 'unitPriceCents', l.unit_price_cents, 'totalCents', l.total_cents,
	                                            'quality', l.quality, 'used', l.used)
	                          order by l.position)
	          from price_list_lines l where l.item_id = i.id), '[]'::json) as lines`

/** Items of the workshop that `where` picks, in the catalogue's order of services, then class, band and days. */
async function itemsWhere(database: DbOrTx, language: Language, workshopId: string, where: SQL = sql`true`): Promise<PriceItem[]> {
	return queryRows<PriceItem>(
		database,
		sql`select ${itemColumns(language)}
		    from price_list_items i join services s on s.id = i.service_id
		    where i.workshop_id = ${workshopId} and ${where}
		    order by s.sort_order, s.name_en, i.vehicle_class, i.engine_band, i.valid_from`,
	)
}

/** Every item of the workshop's price list, past and future ones too (its own page). */
export function listPriceItems(workshopId: string, language: Language): Promise<PriceItem[]> {
	return itemsWhere(db, language, workshopId)
}

/** One of the workshop's items; another workshop's is "not found". */
export async function getPriceItem(workshopId: string, itemId: string, language: Language): Promise<PriceItem> {
	const [item] = await itemsWhere(db, language, workshopId, sql`i.id = ${itemId}`)
	if (!item) throw notFound()
	return item
}

/** Valid on `day` (Tallinn's): from its first day to its last, both included. */
export const validOn = (day: string, alias = 'i'): SQL =>
	sql`${sql.raw(alias)}.valid_from <= ${day}::date and (${sql.raw(alias)}.valid_until is null or ${sql.raw(alias)}.valid_until >= ${day}::date)`

/** The items valid today: the price list a workshop's public page shows. */
export function currentPriceList(workshopId: string, language: Language, day = tallinnDay()): Promise<PriceItem[]> {
	return itemsWhere(db, language, workshopId, validOn(day))
}

/**
 * The items as schema.org offers of the workshop (its page's `AutoRepair`, `makesOffer`): each a
 * service at a price with VAT, valid from its first day until its last.
 */
export function priceListOffers(items: PriceItem[], language: Language): JsonLdThing[] {
	const t = getFixedT(language, 'common')
	return items.map((item) => {
		const name = itemName(t, item)
		const price = (item.priceCents / 100).toFixed(2)
		return {
			'@type': 'Offer',
			name,
			itemOffered: { '@type': 'Service', name },
			description: item.included || undefined,
			price,
			priceCurrency: CURRENCY,
			priceSpecification: { '@type': 'PriceSpecification', price, priceCurrency: CURRENCY, valueAddedTaxIncluded: true },
			validFrom: item.validFrom,
			priceValidUntil: item.validUntil ?? undefined,
		}
	})
}

/** The services the workshop offers (its profile's list): an item may be for one of these only. */
export async function workshopServiceIds(workshopId: string, database: DbOrTx = db): Promise<string[]> {
	const rows = await database.select({ id: workshopServices.itemId }).from(workshopServices).where(eq(workshopServices.workshopId, workshopId))
	return rows.map((row) => row.id)
}

/** Adds an item to the workshop's price list; answers its id. */
export function addPriceItem(workshopId: string, input: PriceItemInput): Promise<string> {
	return savePriceItem(workshopId, null, input)
}

/** Changes one of the workshop's items (its lines replaced by the form's). */
export async function updatePriceItem(workshopId: string, itemId: string, input: PriceItemInput): Promise<void> {
	await savePriceItem(workshopId, itemId, input)
}

/** Removes one of the workshop's items; offers made from it keep their terms (their link is emptied). */
export async function deletePriceItem(workshopId: string, itemId: string): Promise<void> {
	await transaction(async (tx) => {
		await lockWorkshop(tx, workshopId)
		const removed = await tx
			.delete(priceListItems)
			.where(and(eq(priceListItems.id, itemId), eq(priceListItems.workshopId, workshopId)))
			.returning({ id: priceListItems.id })
		if (!removed.length) throw notFound()
		// The price pages keep the city's listed prices a minute: they hear of it at once.
		await forgetCaches(tx, 'price-pages')
	})
}

async function savePriceItem(workshopId: string, itemId: string | null, input: PriceItemInput): Promise<string> {
	try {
		return await transaction(async (tx) => {
			// One workshop's items change one at a time, so two overlapping ones cannot both pass the check.
			await lockWorkshop(tx, workshopId)
			if (itemId) {
				const [own] = await tx
					.select({ id: priceListItems.id })
					.from(priceListItems)
					.where(and(eq(priceListItems.id, itemId), eq(priceListItems.workshopId, workshopId)))
				if (!own) throw notFound()
			}
			if (!(await workshopServiceIds(workshopId, tx)).includes(input.serviceId)) throw new FieldError('serviceId', 'common:validation.unknownChoice')
			if (await overlaps(tx, workshopId, itemId, input)) throw new DomainError('workshop:priceList.overlap', 409)
			const columns = itemColumnsOf(input)
			const [item] = itemId
				? await tx
						.update(priceListItems)
						.set({ ...columns, updatedAt: new Date() })
						.where(and(eq(priceListItems.id, itemId), eq(priceListItems.workshopId, workshopId)))
						.returning({ id: priceListItems.id })
				: await tx
						.insert(priceListItems)
						.values({ workshopId, ...columns })
						.returning({ id: priceListItems.id })
			await replaceLines(tx, item!.id, input)
			await forgetCaches(tx, 'price-pages')
			return item!.id
		})
	} catch (error) {
		// The exclusion constraint: the same band's overlap, raced past the check (it cannot be under the lock, but the database is the guarantee).
		if (isOverlap(error)) throw new DomainError('workshop:priceList.overlap', 409)
		throw error
	}
}

/**
 * Whether another of the workshop's items for the same service and class is valid on any of the
 * input's days with the same engine band, or with `any` beside a specific band (or the other way
 * round): a vehicle would then have two prices for one job.
 */
async function overlaps(tx: Tx, workshopId: string, itemId: string | null, input: PriceItemInput): Promise<boolean> {
	const [row] = await queryRows<{ clash: boolean }>(
		tx,
		sql`select exists (
		      select 1 from price_list_items i
		      where i.workshop_id = ${workshopId} and i.service_id = ${input.serviceId} and i.vehicle_class = ${input.vehicleClass}
		        and (i.engine_band = ${input.engineBand} or i.engine_band = 'any' or ${input.engineBand} = 'any')
		        and daterange(i.valid_from, i.valid_until, '[]') && daterange(${input.validFrom}::date, ${input.validUntil ?? null}::date, '[]')
		        and i.id is distinct from ${itemId}::uuid
		    ) as clash`,
	)
	return Boolean(row?.clash)
}

function isOverlap(error: unknown): boolean {
	for (const { code, constraint } of errorCauses(error)) if (code === '23P01') return constraint === 'price_list_items_no_overlap'
	return false
}

/** The item's columns: its sums computed here from its lines, never taken from the form. */
function itemColumnsOf(input: PriceItemInput) {
	const totals = offerTotals(input.lines, input.vat)
	return {
		serviceId: input.serviceId,
		vehicleClass: input.vehicleClass,
		// An electric car's item is for any engine (the schema refuses another band; the database too).
		engineBand: input.vehicleClass === 'electric' ? ('any' as const) : input.engineBand,
		vatMode: input.vat,
		labourCents: totals.labourCents,
		partsCents: totals.partsCents,
		feesCents: totals.feesCents,
		vatCents: totals.vatCents,
		priceCents: totals.totalCents,
		durationMinutes: itemMinutesOf(input) ?? 0,
		included: input.included ?? '',
		validFrom: input.validFrom,
		validUntil: input.validUntil ?? null,
		sendsInstant: input.sendsInstant,
	}
}

async function replaceLines(tx: Tx, itemId: string, input: PriceItemInput) {
	await tx.delete(priceListLines).where(eq(priceListLines.itemId, itemId))
	if (!input.lines.length) return
	await tx.insert(priceListLines).values(input.lines.map((line, position) => ({ itemId, ...offerLineColumns(line, position) })))
}
