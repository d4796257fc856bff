import { type LoaderFunctionArgs } from 'react-router'
import { useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { ButtonLink } from '~/components/button-link'
import { FilterTabs } from '~/components/item-list'
import { PageHeader } from '~/components/page-header'
import { RequestList } from '~/components/request-list'
import { requestFilters, type RequestFilter } from '~/domain/service-flow/requests'
import { listCustomerRequests } from '~/domain/service-flow/requests.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { requireUser } from '~/utils/auth.server'
import { routeMeta } from '~/utils/meta'

export async function loader({ request }: LoaderFunctionArgs) {
	const user = await requireUser(request, { role: 'customer' })
	const language = await getLanguage(request)
	const t = getFixedT(language, 'customer')
	const asked = new URL(request.url).searchParams.get('status')
	const filter: RequestFilter = (requestFilters as readonly string[]).includes(asked ?? '') ? (asked as RequestFilter) : 'open'
	return { meta: { title: t('requests.title') }, filter, requests: await listCustomerRequests(user.id, language, filter) }
}

export const meta = routeMeta<typeof loader>()

export default function MyRequestsPage() {
	const { t } = useTranslation('customer')
	const { filter, requests } = useLoaderData<typeof loader>()
	return (
		<>
			<PageHeader
				title={t('requests.title')}
				actions={
					<ButtonLink to="/new-service-register" icon="plus">{t('requests.new')}</ButtonLink>
				}
			/>
			<FilterTabs
				label={t('requests.filterLabel')}
				tabs={requestFilters.map((option) => ({ to: `?status=${option}`, label: t(`requests.filters.${option}`), current: option === filter }))}
			/>
			<RequestList requests={requests} empty={t('common:empty.noData')} />
		</>
	)
}
