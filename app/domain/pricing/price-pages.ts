/**
 * The public price pages (issue 35, docs/decisions/0148): `/prices/{service}` (the usual price in
 * every county that has one, and the service's cities) and `/prices/{service}/{city}` (the usual
 * price in the city's county, the workshops there with a fixed price, and those doing it without
 * one). Browser-safe: their addresses, the shapes the loaders hand the pages, and how a range reads.
 */
import { type Language } from '~/i18n/config'
import { type TFunction } from '~/i18n/translator'
import { type County } from '~/domain/directory/counties'
import { type VehicleClass } from '~/domain/service-flow/vehicle-kinds'
import { numberFormat } from '~/utils/intl'
import { formatMonth } from '~/utils/format'
import { CURRENCY } from '~/utils/money'
import { type EngineBand } from './price-kinds'
import { type PriceRange } from './price-ranges'

export const servicePricesPath = (service: string) => `/prices/${encodeURIComponent(service)}`
export const cityPricesPath = (service: string, city: string) => `/prices/${encodeURIComponent(service)}/${encodeURIComponent(city)}`

/** How many workshops doing the service without a fixed price a city's page names (the rest: the directory, linked). */
export const OFFERING_SHOWN = 20
/** How many workshops with a fixed price a city's page names at most, cheapest first. */
export const LISTED_SHOWN = 50

export type NamedItem = { code: string; name: string }

/** A workshop with its fixed prices for the service, each the total with VAT. */
export type ListedWorkshop = {
	/** Its public id (/workshop-details/{id}). */
	id: string
	name: string
	prices: Array<{ vehicleClass: VehicleClass; engineBand: EngineBand; priceCents: number }>
}

export type OfferingWorkshop = { id: string; name: string; ratingAverage: number; reviewCount: number }

export type ServicePrices = {
	service: NamedItem
	/** Each county with a range, the ranges in the classes' order. */
	counties: Array<{ county: County; ranges: PriceRange[] }>
	/** The cities where a listed workshop does the service, each with how many. */
	cities: Array<NamedItem & { workshops: number }>
}

export type CityPrices = {
	service: NamedItem
	city: NamedItem & { county: County | null }
	/** The ranges of the city's county, in the classes' order (none: not enough jobs yet). */
	ranges: PriceRange[]
	listed: ListedWorkshop[]
	/** Listed workshops past LISTED_SHOWN. */
	listedMore: number
	/** The best rated others without a fixed price, how many there are, and how many the directory lists for the city and service. */
	offering: { items: OfferingWorkshop[]; total: number; inDirectory: number }
}

/** An amount in whole euros, the way a usual price reads ("€175", "175 €"). */
export function formatEuros(cents: number, language: Language) {
	return numberFormat(language, { style: 'currency', currency: CURRENCY, maximumFractionDigits: 0 }).format(cents / 100)
}

/** A range in whole euros, as the language writes one: "€140 – €210", "140‒210 €". */
export function formatEuroRange(lowCents: number, highCents: number, language: Language) {
	const format = numberFormat(language, { style: 'currency', currency: CURRENCY, maximumFractionDigits: 0 })
	const [low, high] = [Math.round(lowCents / 100), Math.round(highCents / 100)]
	return low === high ? format.format(low) : format.formatRange(low, high)
}

/** The period of a range by its months: "November 2024 – November 2026". */
export function formatPeriod(range: Pick<PriceRange, 'periodFrom' | 'periodTo'>, language: Language) {
	return `${formatMonth(range.periodFrom.slice(0, 7), language)} – ${formatMonth(range.periodTo.slice(0, 7), language)}`
}

/** A range as a page shows it: its texts formatted on the server, in the reader's language. */
export type ShownRange = {
	vehicleClass: VehicleClass
	usual: string
	median: string
	jobs: number
	workshops: number
	period: string
}

export function shownRange(range: PriceRange, language: Language): ShownRange {
	return {
		vehicleClass: range.vehicleClass,
		usual: formatEuroRange(range.p25Cents, range.p75Cents, language),
		median: formatEuros(range.p50Cents, language),
		jobs: range.jobs,
		workshops: range.workshops,
		period: formatPeriod(range, language),
	}
}

/** A fixed price's vehicle class, and its engine band where the price depends on it: "Family car · Engine up to 1.6 l". */
export function itemLabel(t: TFunction, vehicleClass: VehicleClass, engineBand: EngineBand) {
	const name = t(`common:vehicleClass.${vehicleClass}`)
	return engineBand === 'any' ? name : `${name} · ${t(`common:engineBand.${engineBand}`)}`
}

/** The directory's list of the city's workshops doing the service (all of them, paged). */
export const directoryPath = (service: string, city: string) => `/workshop-list?${new URLSearchParams({ city, service })}`
