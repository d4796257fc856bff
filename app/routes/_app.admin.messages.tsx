import { type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { Form, Link, useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { FormSecurity } from '~/components/forms'
import { PageHeader } from '~/components/page-header'
import { Pagination } from '~/components/pagination'
import { MessageQuerySchema } from '~/domain/admin/admin'
import { listContactMessages, markMessageHandled } from '~/domain/admin/stats.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { useLanguage } from '~/i18n/use-language'
import { requireUser } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { formatDateTime } from '~/utils/format'
import { routeMeta } from '~/utils/meta'
import { readForm } from '~/uploads/multipart.server'
import { decodeId, encodeId } from '~/utils/public-id'
import { or404 } from '~/utils/route-helpers.server'
import { safeRedirect } from '~/utils/safe-redirect'
import { redirectWithToast } from '~/utils/toast.server'

export async function loader({ request }: LoaderFunctionArgs) {
	await requireUser(request, { role: 'admin' })
	const t = getFixedT(await getLanguage(request), 'admin')
	const query = MessageQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams))
	const result = await listContactMessages(query)
	return { meta: { title: t('messages.title') }, query, ...result, items: result.items.map((m) => ({ ...m, slug: encodeId(m.id) })) }
}

export async function action({ request }: ActionFunctionArgs) {
	const admin = await requireUser(request, { role: 'admin' })
	const formData = await readForm(request)
	await validateCsrf(request, formData)
	const messageId = decodeId(String(formData.get('message') ?? ''))
	if (!messageId) throw new Response('Not found', { status: 404 })
	await or404(markMessageHandled(admin.id, messageId))
	const back = safeRedirect(String(formData.get('returnTo') ?? ''), '/admin/messages')
	return redirectWithToast(back, { type: 'success', key: 'admin:messages.handledToast' }, { request })
}

export const meta = routeMeta<typeof loader>()

export default function AdminMessagesPage() {
	const { t } = useTranslation('admin')
	const language = useLanguage()
	const { query, items, page, totalPages, total } = useLoaderData<typeof loader>()
	const returnTo = `/admin/messages?show=${query.show}&page=${page}`
	return (
		<>
			<PageHeader title={t('messages.title')} subtitle={t('messages.count', { count: total })} />
			<nav className="filter-tabs" aria-label={t('messages.filterLabel')}>
				<ul>
					{(['open', 'all'] as const).map((show) => (
						<li key={show}>
							<Link to={`?show=${show}`} className={show === query.show ? 'active' : undefined} aria-current={show === query.show ? 'page' : undefined}>
								{t(`messages.show.${show}`)}
							</Link>
						</li>
					))}
				</ul>
			</nav>
			{items.length ? (
				<ul className="admin-list">
					{items.map((message) => (
						<li key={message.id} className="admin-list-item">
							<p className="admin-audit__action">
								{message.name} · <a href={`mailto:${message.email}`}>{message.email}</a>
							</p>
							<p className="admin-muted">
								{formatDateTime(message.createdAt, language)} · {t(`common:language.${message.language}`)}
							</p>
							<p className="admin-message">{message.message}</p>
							{message.handledAt ? (
								<p className="admin-muted">{t('messages.handledOn', { date: formatDateTime(message.handledAt, language) })}</p>
							) : (
								<Form method="post">
									<FormSecurity />
									<input type="hidden" name="message" value={message.slug} />
									<input type="hidden" name="returnTo" value={returnTo} />
									<button type="submit" className="button button--ghost button--small">
										{t('messages.markHandled')}
									</button>
								</Form>
							)}
						</li>
					))}
				</ul>
			) : (
				<p className="empty">{t('common:empty.noData')}</p>
			)}
			<Pagination page={page} totalPages={totalPages} href={(p) => `?show=${query.show}&page=${p}`} label={t('messages.pages')} />
		</>
	)
}
