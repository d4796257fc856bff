import { type Language } from '~/i18n/config'
import { lineFormValues, type OfferLineKind, type PartQuality, type ShownLine, type VatMode } from '~/domain/service-flow/offer-kinds'
import { type VehicleClass } from '~/domain/service-flow/vehicle-kinds'
import { type EngineBand } from './price-kinds'

/**
 * A price list's item (issue 35, docs/decisions/0147) as pages show it and its form is filled, and
 * its name in words. No zod here: the public workshop page shows items (the form's schema is
 * price-lists.ts).
 */

/** A price list's item as pages show it: the sums as the server computed them, its lines in order. */
export type PriceItem = {
	id: string
	serviceId: string
	service: string
	vehicleClass: VehicleClass
	engineBand: EngineBand
	vatMode: VatMode
	/** The total with VAT, the VAT in it, and the kinds' sums as the lines are priced. */
	priceCents: number
	vatCents: number
	labourCents: number
	partsCents: number
	feesCents: number
	durationMinutes: number
	included: string
	/** Days ("2026-10-01"); until null: open-ended. */
	validFrom: string
	validUntil: string | null
	sendsInstant: boolean
	lines: Array<ShownLine & { quality: PartQuality | null; used: boolean }>
}

/** "Oil change · Family car · Engine up to 1.6 l": the band only where it is not any engine. */
export function itemName(t: (key: string) => string, item: Pick<PriceItem, 'service' | 'vehicleClass' | 'engineBand'>): string {
	return [item.service, t(`common:vehicleClass.${item.vehicleClass}`), item.engineBand === 'any' ? null : t(`common:engineBand.${item.engineBand}`)]
		.filter(Boolean)
		.join(' · ')
}

/** Whether an item is valid on `day`, or yet to come, or over. */
export function itemPhase(item: Pick<PriceItem, 'validFrom' | 'validUntil'>, day: string): 'current' | 'upcoming' | 'ended' {
	if (item.validFrom > day) return 'upcoming'
	if (item.validUntil !== null && item.validUntil < day) return 'ended'
	return 'current'
}

/** The item form's values, as the workshop typed them (amounts in its language's way). */
export type PriceItemFormValues = {
	serviceId: string
	vehicleClass: VehicleClass
	engineBand: EngineBand
	vat: VatMode
	lines: Array<{ kind: OfferLineKind; description: string; reference: string; quantity: string; unitPrice: string; quality: PartQuality | ''; used: 'on' | '' }>
	durationHours: string
	durationMinutes: string
	included: string
	validFrom: string
	validUntil: string
	sendsInstant: 'on' | ''
}

/** The form filled with an item, to change it. */
export function priceItemFormValues(item: PriceItem, language: Language): PriceItemFormValues {
	return {
		serviceId: item.serviceId,
		vehicleClass: item.vehicleClass,
		engineBand: item.engineBand,
		vat: item.vatMode,
		lines: item.lines.map((line) => lineFormValues(line, language)),
		durationHours: String(Math.floor(item.durationMinutes / 60)),
		durationMinutes: String(item.durationMinutes % 60),
		included: item.included,
		validFrom: item.validFrom,
		validUntil: item.validUntil ?? '',
		sendsInstant: item.sendsInstant ? 'on' : '',
	}
}

/** A new item's form: a family car, any engine, VAT included, valid from today. */
export function newPriceItemValues(today: string): Partial<PriceItemFormValues> {
	return { vehicleClass: 'family', engineBand: 'any', vat: 'included', lines: [], validFrom: today, validUntil: '', sendsInstant: '' }
}
