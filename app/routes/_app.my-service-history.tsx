import { type LoaderFunctionArgs } from 'react-router'
import { useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { PageHeader } from '~/components/page-header'
import { RequestList } from '~/components/request-list'
import { listCustomerRequests } from '~/domain/service-flow/requests.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { requireUser } from '~/utils/auth.server'
import { routeMeta } from '~/utils/meta'

export async function loader({ request }: LoaderFunctionArgs) {
	const user = await requireUser(request, { role: 'customer' })
	const language = await getLanguage(request)
	const t = getFixedT(language, 'customer')
	return { meta: { title: t('history.title') }, requests: await listCustomerRequests(user.id, language, 'history') }
}

export const meta = routeMeta<typeof loader>()

export default function ServiceHistoryPage() {
	const { t } = useTranslation('customer')
	const { requests } = useLoaderData<typeof loader>()
	return (
		<>
			<PageHeader title={t('history.title')} subtitle={t('history.subtitle')} />
			<RequestList requests={requests} empty={t('common:empty.noData')} />
		</>
	)
}
