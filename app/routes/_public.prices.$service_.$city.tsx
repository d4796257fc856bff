import { type LinksFunction, type LoaderFunctionArgs } from 'react-router'
import { Link, useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { Breadcrumbs } from '~/components/breadcrumbs'
import { JsonLd } from '~/components/json-ld'
import { PublicPage } from '~/components/page-header'
import { Panel } from '~/components/panel'
import { PriceRangeList } from '~/components/price-range-list'
import { Stars } from '~/components/stars'
import { vehicleClasses } from '~/domain/service-flow/vehicle-kinds'
import { cityPricesPath, directoryPath, itemLabel, servicePricesPath, shownRange } from '~/domain/pricing/price-pages'
import { cityPrices } from '~/domain/pricing/price-pages.server'
import { RANGE_MIN_JOBS, RANGE_MIN_WORKSHOPS } from '~/domain/pricing/price-ranges'
import { cityPricesSearchData } from '~/domain/pricing/price-search-data.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { formatMoney } from '~/utils/format'
import { routeMeta } from '~/utils/meta'
import { breadcrumbTrail, pageSeo } from '~/utils/seo.server'
import pricesStyles from '~/styles/prices.css?url'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: pricesStyles }]

/**
 * A service's prices in a city (issue 35, decision 0148): the usual price in the city's county per
 * vehicle class, the fixed prices of the city's workshops, and the others doing the service. Shared
 * by every anonymous reader (app/utils/http-cache.ts); an unknown service or city is not found.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
	const language = await getLanguage(request)
	const page = await cityPrices(params.service ?? '', params.city ?? '', language)
	if (!page) throw new Response('Not found', { status: 404 })
	const t = getFixedT(language, 'public')
	const { service, city } = page
	const area = city.county ? t(`common:county.${city.county}`) : city.name
	const names = { service: service.name, city: city.name, area }
	return {
		names,
		ranges: page.ranges.map((range) => shownRange(range, language)),
		otherClasses: page.ranges.length > 0 && page.ranges.length < vehicleClasses.length,
		listed: page.listed.map((workshop) => ({
			name: workshop.name,
			path: `/workshop-details/${workshop.id}`,
			prices: workshop.prices.map((price) => ({
				key: `${price.vehicleClass}-${price.engineBand}`,
				label: itemLabel(t, price.vehicleClass, price.engineBand),
				price: t('pricePages.withVat', { price: formatMoney(price.priceCents, language) }),
			})),
		})),
		listedMore: page.listedMore,
		offering: { ...page.offering, items: page.offering.items.map((workshop) => ({ ...workshop, path: `/workshop-details/${workshop.id}` })) },
		directory: directoryPath(service.code, city.code),
		searchData: cityPricesSearchData(page, {
			vehicleClass: (vehicleClass) => t(`common:vehicleClass.${vehicleClass}`),
			item: (vehicleClass, engineBand) => itemLabel(t, vehicleClass, engineBand),
			county: (county) => t(`common:county.${county}`),
		}),
		trail: breadcrumbTrail(request, language, [
			{ name: t('breadcrumbs.home'), path: '/' },
			{ name: t('pricePages.crumb', { service: service.name }), path: servicePricesPath(service.code) },
			{ name: city.name, path: cityPricesPath(service.code, city.code) },
		]),
		meta: pageSeo(request, language, { title: t('pricePages.cityMetaTitle', names), description: t('pricePages.cityMetaDescription', names) }),
	}
}

export const meta = routeMeta<typeof loader>()

export default function CityPricesPage() {
	const { names, ranges, otherClasses, listed, listedMore, offering, directory, searchData, trail } = useLoaderData<typeof loader>()
	const { t } = useTranslation('public')
	const usualTitle = t('pricePages.usualTitle', { area: names.area })
	return (
		<PublicPage title={t('pricePages.cityTitle', names)} lead={t('pricePages.cityLead', names)} breadcrumbs={<Breadcrumbs trail={trail} />}>
			<JsonLd data={searchData} />
			<div className="price-page price-page--split">
				<Panel id="usual-title" title={usualTitle} className="card price-section" titleClassName="card__title">
					{ranges.length ? (
						<>
							<PriceRangeList ranges={ranges} label={usualTitle} />
							{otherClasses ? <p className="price-section__note">{t('pricePages.otherClasses')}</p> : null}
						</>
					) : (
						<p className="price-section__empty">{t('pricePages.notEnough', { jobs: RANGE_MIN_JOBS, workshops: RANGE_MIN_WORKSHOPS, area: names.area })}</p>
					)}
				</Panel>

				<Panel id="listed-title" title={t('pricePages.listedTitle', names)} className="card price-section" titleClassName="card__title">
					{listed.length ? (
						<>
							<p className="price-section__note">{t('pricePages.listedLead')}</p>
							<ul className="price-workshops">
								{listed.map((workshop) => (
									<li key={workshop.path} className="price-workshop">
										<Link to={workshop.path} className="price-workshop__name">
											{workshop.name}
										</Link>
										<dl className="price-workshop__prices">
											{workshop.prices.map((price) => (
												<div key={price.key}>
													<dt>{price.label}</dt>
													<dd>{price.price}</dd>
												</div>
											))}
										</dl>
									</li>
								))}
							</ul>
							{listedMore ? (
								<p className="price-section__more">
									<Link to={directory}>{t('pricePages.listedMore', { count: listedMore, total: listedMore })}</Link>
								</p>
							) : null}
						</>
					) : (
						<p className="price-section__empty">{t('pricePages.listedNone', names)}</p>
					)}
				</Panel>

				<Panel id="offering-title" title={t(listed.length ? 'pricePages.offeringTitle' : 'pricePages.offeringTitleAll', names)} className="card price-section" titleClassName="card__title">
					{offering.items.length ? (
						<>
							<p className="price-section__note">{t('pricePages.offeringLead')}</p>
							<ul className="price-offering">
								{offering.items.map((workshop) => (
									<li key={workshop.id} className="price-offering__item">
										<Link to={workshop.path}>{workshop.name}</Link>
										<span className="price-offering__rating">
											{workshop.reviewCount ? <Stars rating={workshop.ratingAverage} size="small" /> : null}
											<span>{workshop.reviewCount === 0 ? t('rating.noReviews') : workshop.reviewCount === 1 ? t('rating.reviewsOne') : t('rating.reviews', { total: workshop.reviewCount })}</span>
										</span>
									</li>
								))}
							</ul>
							<p className="price-section__more">
								<Link to={directory}>{t('pricePages.offeringAll', { total: offering.inDirectory })}</Link>
							</p>
						</>
					) : (
						<p className="price-section__empty">{t('pricePages.offeringNone', names)}</p>
					)}
				</Panel>
			</div>
		</PublicPage>
	)
}
