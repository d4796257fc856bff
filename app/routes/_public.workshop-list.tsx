import { redirect, type LoaderFunctionArgs } from 'react-router'
import { Form, Link, useLoaderData, useLocation, useNavigation, useRouteLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { Breadcrumbs } from '~/components/breadcrumbs'
import { ButtonLink } from '~/components/button-link'
import { Field, SelectField } from '~/components/forms'
import { PublicPage } from '~/components/page-header'
import { Panel } from '~/components/panel'
import { Pagination } from '~/components/pagination'
import { PromotedWorkshops, WorkshopCard } from '~/components/workshop-card'
import { FilterSelects } from '~/components/workshop-filters'
import { parseWorkshopListQuery } from '~/domain/directory/list-query'
import { cityPricesPath, servicePricesPath } from '~/domain/pricing/price-pages'
import { cityPagePath, isCityPage, workshopListParams, workshopSorts } from '~/domain/directory/workshops'
import { getFilterOptions, promotedWorkshops, searchWorkshops } from '~/domain/directory/workshops.server'
import { fallbackLanguage } from '~/i18n/config'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { type RootLoaderData } from '~/root-data'
import { formatNumber } from '~/utils/format'
import { routeMeta } from '~/utils/meta'
import { breadcrumbTrail, pageSeo } from '~/utils/seo.server'
import { countRequestEvents } from '~/counting/daily-counts.server'
import { searchEvents } from '~/counting/events.server'

export async function loader({ request }: LoaderFunctionArgs) {
	const url = new URL(request.url)
	// A search form sends its empty fields too (?q=&city=): answer with the clean, shareable address.
	if ([...url.searchParams.values()].some((value) => value === '')) {
		const clean = new URLSearchParams([...url.searchParams].filter(([, value]) => value !== ''))
		throw redirect(`${url.pathname}${clean.size ? `?${clean}` : ''}`)
	}
	const language = await getLanguage(request)
	const query = parseWorkshopListQuery(url.searchParams)
	// The list in the order its sort names; the paid workshops apart, in a block labelled as an ad (decision 0128).
	const [result, promoted, options] = await Promise.all([searchWorkshops(query, language), promotedWorkshops(query, language), getFilterOptions(language)])
	// Each workshop shown is an appearance in a search (issue 37), counted in memory (decision 0152).
	countRequestEvents(request, searchEvents([...result.items, ...promoted].map((card) => card.id)))
	const t = getFixedT(language, 'public')
	const nameOf = (list: Array<{ code: string; name: string }>, code?: string) => list.find((item) => item.code === code)?.name
	const focus = [nameOf(options.services, query.service), nameOf(options.brands, query.brand), nameOf(options.cities, query.city)]
		.filter(Boolean)
		.join(', ')
	// A city's page (/cities links there) has a title and description of its own.
	const city = isCityPage(query) ? nameOf(options.cities, query.city) : undefined
	const cityTitle = city ? t('list.cityMetaTitle', { city }) : null
	const title = cityTitle ?? (focus ? t('list.metaTitleFiltered', { filters: focus }) : t('list.metaTitle'))
	// A service chosen: its price page (issue 35), the city's when one is chosen too.
	const service = nameOf(options.services, query.service)
	const cityName = nameOf(options.cities, query.city)
	const prices = service
		? cityName
			? { path: cityPricesPath(query.service!, query.city!), label: t('pricePages.seeCityPrices', { service, city: cityName }) }
			: { path: servicePricesPath(query.service!), label: t('pricePages.seePrices', { service }) }
		: null
	return {
		prices,
		query,
		result,
		promoted,
		options,
		heading: cityTitle ?? t('list.title'),
		trail: breadcrumbTrail(request, language, [
			{ name: t('breadcrumbs.home'), path: '/' },
			{ name: t('list.title'), path: '/workshop-list' },
			...(city ? [{ name: city, path: cityPagePath(query.city!) }] : []),
		]),
		meta: pageSeo(request, language, {
			title: query.page > 1 ? t('list.metaTitlePage', { title, page: query.page }) : title,
			description: city ? t('list.cityMetaDescription', { city }) : t('list.metaDescription'),
		}),
	}
}

export const meta = routeMeta<typeof loader>()

export default function WorkshopListPage() {
	const { query, result, promoted, options, heading, trail, prices } = useLoaderData<typeof loader>()
	const { t } = useTranslation('public')
	const language = useRouteLoaderData<RootLoaderData>('root')?.language ?? fallbackLanguage
	const location = useLocation()
	const navigation = useNavigation()
	const searching = navigation.state === 'loading' && navigation.location.pathname === '/workshop-list'
	const hrefFor = (page: number) => {
		const params = workshopListParams({ ...query, page })
		return `/workshop-list${params.size ? `?${params}` : ''}`
	}
	const filtered = Boolean(query.q || query.city || query.service || query.brand || query.free)

	return (
		<PublicPage title={heading} lead={t('list.intro')} breadcrumbs={<Breadcrumbs trail={trail} />}>
			<div className="directory">
				<Panel id="filters-title" title={t('list.filtersTitle')} className="directory__filters card" titleClassName="card__title">
					{/* A GET form: the filters become the address, so a list can be shared and works without JavaScript. */}
					<Form method="get" action="/workshop-list" role="search" aria-labelledby="filters-title" className="form filters" key={location.search}>
						<Field className="filters__query" label={t('search.name')} inputProps={{ name: 'q', type: 'search', defaultValue: query.q ?? '', maxLength: 100, autoComplete: 'off' }} />
						<FilterSelects query={query} options={options} />
						<SelectField
							label={t('list.sort')}
							options={workshopSorts.map((sort) => ({ value: sort, label: t(`list.sorts.${sort}`) }))}
							selectProps={{ name: 'sort', defaultValue: query.sort }}
						/>
						{/* Workshops with a free start time before Sunday 24:00 (next_free_at, issue 33); unticked, the form sends nothing. */}
						<label className="checkbox filters__free">
							<input type="checkbox" name="free" value="week" defaultChecked={query.free === 'week'} /> {t('booking:public.freeThisWeek')}
						</label>
						<div className="form-actions">
							<button type="submit" className="button button--primary">
								{t('search.submit')}
							</button>
							{filtered ? (
								<ButtonLink to="/workshop-list" kind="ghost">{t('list.clear')}</ButtonLink>
							) : null}
						</div>
					</Form>
					<p className="directory__cities">
						<Link to="/cities">{t('common:nav.cities')}</Link>
					</p>
					{prices ? (
						<p className="directory__cities">
							<Link to={prices.path}>{prices.label}</Link>
						</p>
					) : null}
				</Panel>

				<PromotedWorkshops workshops={promoted} sort={query.sort} />

				<section className="directory__results" aria-labelledby="results-title" aria-busy={searching || undefined}>
					<h2 id="results-title" className="visually-hidden">
						{t('list.resultsTitle')}
					</h2>
					<p className="results-count" role="status">
						{result.capped
							? t('list.foundMore', { total: formatNumber(result.total, language) })
							: result.total === 1
								? t('list.foundOne')
								: t('list.found', { total: formatNumber(result.total, language) })}
					</p>
					{result.items.length ? (
						<ul className="workshop-grid">
							{result.items.map((workshop) => (
								<li key={workshop.id}>
									<WorkshopCard workshop={workshop} />
								</li>
							))}
						</ul>
					) : (
						<div className="empty-state">
							<p className="empty-state__title">{t('list.empty')}</p>
							<p>{t('list.emptyHint')}</p>
							{filtered || query.page > 1 ? (
								<ButtonLink to="/workshop-list">{t('list.showAll')}</ButtonLink>
							) : null}
						</div>
					)}
					<Pagination page={result.page} totalPages={result.totalPages} href={hrefFor} label={t('list.pagination')} />
				</section>
			</div>
		</PublicPage>
	)
}
