import { type LoaderFunctionArgs } from 'react-router'
import { Form, Link, useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { PageHeader } from '~/components/page-header'
import { Pagination } from '~/components/pagination'
import { adminRoles, UserSearchSchema } from '~/domain/admin/admin'
import { searchUsers } from '~/domain/admin/users.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { useLanguage } from '~/i18n/use-language'
import { requireUser } from '~/utils/auth.server'
import { formatDate } from '~/utils/format'
import { routeMeta } from '~/utils/meta'
import { encodeId } from '~/utils/public-id'

export async function loader({ request }: LoaderFunctionArgs) {
	await requireUser(request, { role: 'admin' })
	const language = await getLanguage(request)
	const t = getFixedT(language, 'admin')
	const query = UserSearchSchema.parse(Object.fromEntries(new URL(request.url).searchParams))
	const result = await searchUsers(query)
	return {
		meta: { title: t('users.title') },
		query,
		...result,
		items: result.items.map((user) => ({ ...user, slug: encodeId(user.id) })),
	}
}

export const meta = routeMeta<typeof loader>()

export default function AdminUsersPage() {
	const { t } = useTranslation('admin')
	const language = useLanguage()
	const { query, items, page, totalPages, total } = useLoaderData<typeof loader>()
	const href = (p: number) => {
		const params = new URLSearchParams()
		if (query.q) params.set('q', query.q)
		if (query.role) params.set('role', query.role)
		params.set('page', String(p))
		return `?${params.toString()}`
	}
	return (
		<>
			<PageHeader title={t('users.title')} subtitle={t('users.found', { count: total })} />
			<Form method="get" className="admin-search" role="search">
				<div className="field">
					<label htmlFor="user-q" className="field__label">
						{t('users.search')}
					</label>
					<input id="user-q" name="q" type="search" className="field__input" defaultValue={query.q ?? ''} />
				</div>
				<div className="field">
					<label htmlFor="user-role" className="field__label">
						{t('users.role')}
					</label>
					<select id="user-role" name="role" className="field__input" defaultValue={query.role ?? ''}>
						<option value="">{t('users.anyRole')}</option>
						{adminRoles.map((role) => (
							<option key={role} value={role}>
								{t(`auth:roles.${role}`)}
							</option>
						))}
					</select>
				</div>
				<button type="submit" className="button button--primary">
					{t('users.searchSubmit')}
				</button>
			</Form>
			{items.length ? (
				// Scrolls sideways on a phone: focusable, so a keyboard scrolls it too (axe: scrollable-region-focusable).
				// eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
				<div className="admin-table-wrap panel" tabIndex={0} role="region" aria-label={t('users.title')}>
					<table className="table">
						<thead>
							<tr>
								<th scope="col">{t('users.name')}</th>
								<th scope="col">{t('users.email')}</th>
								<th scope="col">{t('users.role')}</th>
								<th scope="col">{t('users.state')}</th>
								<th scope="col">{t('users.created')}</th>
							</tr>
						</thead>
						<tbody>
							{items.map((user) => (
								<tr key={user.id}>
									<td>
										<Link to={`/admin/users/${user.slug}`}>{user.workshopName ?? (user.deleted ? t('users.deletedName') : user.name)}</Link>
										{user.workshopName && !user.deleted ? <span className="admin-muted"> · {user.name}</span> : null}
									</td>
									<td>{user.email}</td>
									<td>
										<span className={`badge badge--role badge--role-${user.role}`}>{t(`auth:roles.${user.role}`)}</span>
									</td>
									<td>
										{user.deleted ? (
											<span className="badge admin-badge--blocked">{t('users.deleted')}</span>
										) : user.blocked ? (
											<span className="badge admin-badge--blocked">{t('users.blocked')}</span>
										) : (
											t('users.active')
										)}
									</td>
									<td>{formatDate(user.createdAt, language)}</td>
								</tr>
							))}
						</tbody>
					</table>
				</div>
			) : (
				<p className="empty">{t('common:empty.noData')}</p>
			)}
			<Pagination page={page} totalPages={totalPages} href={href} label={t('users.pages')} />
		</>
	)
}
