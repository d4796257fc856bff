import { type JsonLdThing } from '~/utils/json-ld'
import { CURRENCY } from '~/utils/money'
import { pageUrl } from '~/utils/seo.server'
import { type VehicleClass } from '~/domain/service-flow/vehicle-kinds'
import { type County } from '~/domain/directory/counties'
import { type EngineBand } from './price-kinds'
import { cityPricesPath, servicePricesPath, type CityPrices, type ServicePrices } from './price-pages'
import { type PriceRange } from './price-ranges'

/**
 * What search engines read of a price page (issue 35): a schema.org `Service` whose offers are the
 * usual range of each vehicle class as an `AggregateOffer` (lowPrice and highPrice the 25th and 75th
 * percentile, offerCount the completed jobs behind it) and, on a city's page, each fixed price of
 * its workshops as an `Offer` offered by that `AutoRepair`. Only what the page shows; prices in
 * euros, with VAT. Addresses are absolute (APP_URL).
 */
export type SearchDataNames = {
	vehicleClass: (vehicleClass: VehicleClass) => string
	/** A fixed price's class and engine band, as the page names it. */
	item: (vehicleClass: VehicleClass, engineBand: EngineBand) => string
	county: (county: County) => string
}

const euros = (cents: number) => Math.round(cents) / 100

function aggregateOffer(range: PriceRange, name: string, areaServed?: JsonLdThing): JsonLdThing {
	return {
		'@type': 'AggregateOffer',
		name,
		lowPrice: euros(range.p25Cents),
		highPrice: euros(range.p75Cents),
		priceCurrency: CURRENCY,
		offerCount: range.jobs,
		areaServed,
	}
}

const administrativeArea = (name: string): JsonLdThing => ({ '@type': 'AdministrativeArea', name })
/** No offers is said by leaving them out (JSON.stringify drops undefined), not by an empty list. */
const someOrNone = (offers: JsonLdThing[]) => (offers.length ? offers : undefined)

export function cityPricesSearchData(page: CityPrices, names: SearchDataNames): JsonLdThing {
	const county = page.city.county ? administrativeArea(names.county(page.city.county)) : undefined
	return {
		'@type': 'Service',
		name: page.service.name,
		serviceType: page.service.name,
		url: pageUrl(cityPricesPath(page.service.code, page.city.code), '', null),
		areaServed: { '@type': 'City', name: page.city.name, containedInPlace: county },
		offers: someOrNone([
			...page.ranges.map((range) => aggregateOffer(range, names.vehicleClass(range.vehicleClass), county)),
			...page.listed.flatMap((workshop) =>
				workshop.prices.map((price) => ({
					'@type': 'Offer',
					name: names.item(price.vehicleClass, price.engineBand),
					price: euros(price.priceCents),
					priceCurrency: CURRENCY,
					priceSpecification: { '@type': 'PriceSpecification', price: euros(price.priceCents), priceCurrency: CURRENCY, valueAddedTaxIncluded: true },
					offeredBy: { '@type': 'AutoRepair', name: workshop.name, url: pageUrl(`/workshop-details/${workshop.id}`, '', null) },
				})),
			),
		]),
	}
}

export function servicePricesSearchData(page: ServicePrices, names: SearchDataNames): JsonLdThing {
	return {
		'@type': 'Service',
		name: page.service.name,
		serviceType: page.service.name,
		url: pageUrl(servicePricesPath(page.service.code), '', null),
		areaServed: { '@type': 'Country', name: 'Estonia' },
		offers: someOrNone(
			page.counties.flatMap(({ county, ranges }) =>
				ranges.map((range) => aggregateOffer(range, `${names.vehicleClass(range.vehicleClass)}, ${names.county(county)}`, administrativeArea(names.county(county)))),
			),
		),
	}
}
