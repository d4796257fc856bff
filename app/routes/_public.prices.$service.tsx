import { type LinksFunction, type LoaderFunctionArgs } from 'react-router'
import { Link, useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { Breadcrumbs } from '~/components/breadcrumbs'
import { JsonLd } from '~/components/json-ld'
import { PublicPage } from '~/components/page-header'
import { Panel } from '~/components/panel'
import { PriceRangeList } from '~/components/price-range-list'
import { cityPricesPath, itemLabel, servicePricesPath, shownRange } from '~/domain/pricing/price-pages'
import { servicePrices } from '~/domain/pricing/price-pages.server'
import { RANGE_MIN_JOBS, RANGE_MIN_WORKSHOPS } from '~/domain/pricing/price-ranges'
import { servicePricesSearchData } from '~/domain/pricing/price-search-data.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { routeMeta } from '~/utils/meta'
import { breadcrumbTrail, pageSeo } from '~/utils/seo.server'
import pricesStyles from '~/styles/prices.css?url'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: pricesStyles }]

/**
 * A service's prices (issue 35, decision 0148): the usual price per vehicle class in each county
 * that has one, and the cities whose workshops do it, each leading to its own price page.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
	const language = await getLanguage(request)
	const page = await servicePrices(params.service ?? '', language)
	if (!page) throw new Response('Not found', { status: 404 })
	const t = getFixedT(language, 'public')
	const county = (code: string) => t(`common:county.${code}`)
	const names = { service: page.service.name }
	return {
		names,
		counties: page.counties
			.map(({ county: code, ranges }) => ({ code, name: county(code), ranges: ranges.map((range) => shownRange(range, language)) }))
			.sort((a, b) => a.name.localeCompare(b.name, language)),
		cities: page.cities.map((city) => ({ ...city, path: cityPricesPath(page.service.code, city.code) })),
		searchData: servicePricesSearchData(page, {
			vehicleClass: (vehicleClass) => t(`common:vehicleClass.${vehicleClass}`),
			item: (vehicleClass, engineBand) => itemLabel(t, vehicleClass, engineBand),
			county,
		}),
		trail: breadcrumbTrail(request, language, [
			{ name: t('breadcrumbs.home'), path: '/' },
			{ name: t('pricePages.crumb', names), path: servicePricesPath(page.service.code) },
		]),
		meta: pageSeo(request, language, { title: t('pricePages.serviceMetaTitle', names), description: t('pricePages.serviceMetaDescription', names) }),
	}
}

export const meta = routeMeta<typeof loader>()

export default function ServicePricesPage() {
	const { names, counties, cities, searchData, trail } = useLoaderData<typeof loader>()
	const { t } = useTranslation('public')
	return (
		<PublicPage title={t('pricePages.serviceTitle', names)} lead={t('pricePages.serviceLead')} breadcrumbs={<Breadcrumbs trail={trail} />}>
			<JsonLd data={searchData} />
			<div className="price-page">
				<Panel id="counties-title" title={t('pricePages.countiesTitle')} className="card price-section" titleClassName="card__title">
					{counties.length ? (
						<div className="price-counties">
							{counties.map((county) => (
								<section key={county.code} className="price-county" aria-labelledby={`county-${county.code}`}>
									<h3 id={`county-${county.code}`} className="price-county__name">
										{county.name}
									</h3>
									<PriceRangeList ranges={county.ranges} label={county.name} />
								</section>
							))}
						</div>
					) : (
						<p className="price-section__empty">{t('pricePages.countiesNone', { jobs: RANGE_MIN_JOBS, workshops: RANGE_MIN_WORKSHOPS })}</p>
					)}
				</Panel>

				<Panel id="cities-title" title={t('pricePages.citiesTitle')} className="card price-section" titleClassName="card__title">
					{cities.length ? (
						<ul className="city-grid" aria-labelledby="cities-title">
							{cities.map((city) => (
								<li key={city.code}>
									<Link to={city.path} className="city-card card">
										<span className="city-card__name">{city.name}</span>
										<span className="city-card__count">{t('cities.workshops', { count: city.workshops, total: city.workshops })}</span>
									</Link>
								</li>
							))}
						</ul>
					) : (
						<p className="price-section__empty">{t('pricePages.citiesNone')}</p>
					)}
				</Panel>
			</div>
		</PublicPage>
	)
}
