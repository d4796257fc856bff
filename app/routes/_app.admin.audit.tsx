import { type LoaderFunctionArgs } from 'react-router'
import { useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { PageHeader } from '~/components/page-header'
import { Pagination } from '~/components/pagination'
import { PageQuerySchema } from '~/domain/admin/admin'
import { listAudit } from '~/domain/admin/audit.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { useLanguage } from '~/i18n/use-language'
import { requireUser } from '~/utils/auth.server'
import { formatDateTime } from '~/utils/format'
import { routeMeta } from '~/utils/meta'

export async function loader({ request }: LoaderFunctionArgs) {
	await requireUser(request, { role: 'admin' })
	const t = getFixedT(await getLanguage(request), 'admin')
	const { page } = PageQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams))
	return { meta: { title: t('audit.title') }, ...(await listAudit(page)) }
}

export const meta = routeMeta<typeof loader>()

export default function AdminAuditPage() {
	const { t } = useTranslation('admin')
	const language = useLanguage()
	const { items, page, totalPages } = useLoaderData<typeof loader>()
	return (
		<>
			<PageHeader title={t('audit.title')} subtitle={t('audit.subtitle')} />
			{items.length ? (
				// Scrolls sideways on a phone: focusable, so a keyboard scrolls it too (axe: scrollable-region-focusable).
				// eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
				<div className="admin-table-wrap panel" tabIndex={0} role="region" aria-label={t('audit.title')}>
					<table className="table admin-audit">
						<thead>
							<tr>
								<th scope="col">{t('audit.when')}</th>
								<th scope="col">{t('audit.who')}</th>
								<th scope="col">{t('audit.what')}</th>
								<th scope="col">{t('audit.before')}</th>
								<th scope="col">{t('audit.after')}</th>
							</tr>
						</thead>
						<tbody>
							{items.map((entry) => (
								<tr key={entry.id}>
									<td>{formatDateTime(entry.createdAt, language)}</td>
									<td>{entry.actorName ? `${entry.actorName} (${entry.actorEmail ?? ''})` : t('audit.unknownActor')}</td>
									<td>
										<span className="admin-audit__action">{t(`audit.actions.${entry.action}`, { defaultValue: entry.action })}</span>
										<span className="admin-muted admin-audit__entity">
											{entry.entityType}
											{entry.entityId ? ` ${entry.entityId}` : ''}
										</span>
									</td>
									<td>
										<pre className="admin-json">{entry.before}</pre>
									</td>
									<td>
										<pre className="admin-json">{entry.after}</pre>
									</td>
								</tr>
							))}
						</tbody>
					</table>
				</div>
			) : (
				<p className="empty">{t('common:empty.noData')}</p>
			)}
			<Pagination page={page} totalPages={totalPages} href={(p) => `?page=${p}`} label={t('audit.pages')} />
		</>
	)
}
