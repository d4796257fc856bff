import { type LoaderFunctionArgs } from 'react-router'
import { Link, useLoaderData, useRouteLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { Breadcrumbs } from '~/components/breadcrumbs'
import { PublicPage } from '~/components/page-header'
import { getCityCounts } from '~/domain/directory/cities.server'
import { cityPagePath } from '~/domain/directory/workshops'
import { fallbackLanguage } from '~/i18n/config'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { type RootLoaderData } from '~/root-data'
import { formatNumber } from '~/utils/format'
import { routeMeta } from '~/utils/meta'
import { breadcrumbTrail, pageSeo } from '~/utils/seo.server'

/** The directory by city (issue 16): every city with its listed workshops, each leading to its page of the list. */
export async function loader({ request }: LoaderFunctionArgs) {
	const language = await getLanguage(request)
	const t = getFixedT(language, 'public')
	const cities = await getCityCounts(language)
	return {
		cities: cities.map((city) => ({ ...city, href: cityPagePath(city.code) })),
		trail: breadcrumbTrail(request, language, [
			{ name: t('breadcrumbs.home'), path: '/' },
			{ name: t('list.title'), path: '/workshop-list' },
			{ name: t('cities.crumb'), path: '/cities' },
		]),
		meta: pageSeo(request, language, { title: t('cities.metaTitle'), description: t('cities.metaDescription') }),
	}
}

export const meta = routeMeta<typeof loader>()

export default function CitiesPage() {
	const { cities, trail } = useLoaderData<typeof loader>()
	const { t } = useTranslation('public')
	const language = useRouteLoaderData<RootLoaderData>('root')?.language ?? fallbackLanguage
	return (
		<PublicPage title={t('cities.title')} lead={t('cities.intro')} breadcrumbs={<Breadcrumbs trail={trail} />}>
			<ul className="city-grid" aria-label={t('cities.crumb')}>
				{cities.map((city) => (
					<li key={city.code}>
						<Link to={city.href} className={`city-card card${city.workshops ? '' : ' city-card--empty'}`}>
							<span className="city-card__name">{city.name}</span>
							<span className="city-card__count">{city.workshops ? t('cities.workshops', { count: city.workshops, total: formatNumber(city.workshops, language) }) : t('cities.none')}</span>
						</Link>
					</li>
				))}
			</ul>
		</PublicPage>
	)
}
