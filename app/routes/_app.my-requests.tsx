import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, NavLink, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { Icon } from '~/components/icon'
import { PageHeader } from '~/components/page-header'
import { RequestList } from '~/components/request-list'
import { requestFilters, type RequestFilter } from '~/domain/requests'
import { listCustomerRequests } from '~/domain/requests.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { type RootLoaderData } from '~/root'
import { requireUser } from '~/utils/auth.server'
import { pageMeta } from '~/utils/meta'

export async function loader({ request }: LoaderFunctionArgs) {
	const user = await requireUser(request, { role: 'customer' })
	const language = await getLanguage(request)
	const t = getFixedT(language, 'customer')
	const asked = new URL(request.url).searchParams.get('status')
	const filter: RequestFilter = (requestFilters as readonly string[]).includes(asked ?? '') ? (asked as RequestFilter) : 'open'
	return { meta: { title: t('requests.title') }, filter, requests: await listCustomerRequests(user.id, language, filter) }
}

export const meta: MetaFunction<typeof loader, { root: RootLoaderData }> = ({ data, matches }) =>
	pageMeta(data?.meta, matches.find((m) => m.id === 'root')?.data?.site.appname)

export default function MyRequestsPage() {
	const { t } = useTranslation('customer')
	const { filter, requests } = useLoaderData<typeof loader>()
	return (
		<>
			<PageHeader
				title={t('requests.title')}
				actions={
					<Link to="/new-service-register" className="button button--primary">
						<Icon name="plus" />
						{t('requests.new')}
					</Link>
				}
			/>
			<nav className="filter-tabs" aria-label={t('requests.filterLabel')}>
				<ul>
					{requestFilters.map((option) => (
						<li key={option}>
							<NavLink to={`?status=${option}`} aria-current={option === filter ? 'page' : undefined} className={option === filter ? 'active' : undefined} end>
								{t(`requests.filters.${option}`)}
							</NavLink>
						</li>
					))}
				</ul>
			</nav>
			{requests.length ? <RequestList requests={requests} /> : <p className="empty">{t('common:empty.noData')}</p>}
		</>
	)
}
