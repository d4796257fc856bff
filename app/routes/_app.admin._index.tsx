import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { PageHeader } from '~/components/page-header'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { type RootLoaderData } from '~/root'
import { requireUser } from '~/utils/auth.server'
import { pageMeta } from '~/utils/meta'

export async function loader({ request }: LoaderFunctionArgs) {
	await requireUser(request, { role: 'admin' })
	const t = getFixedT(await getLanguage(request), 'admin')
	return { meta: { title: t('overview.title') } }
}

export const meta: MetaFunction<typeof loader, { root: RootLoaderData }> = ({ data, matches }) =>
	pageMeta(data?.meta, matches.find((m) => m.id === 'root')?.data?.site.appname)

export default function AdminOverviewPage() {
	const { t } = useTranslation('admin')
	return (
		<>
			<PageHeader title={t('overview.title')} subtitle={t('overview.subtitle')} />
			<p>
				<Link to="/admin/users">{t('nav.users')}</Link>
			</p>
		</>
	)
}
