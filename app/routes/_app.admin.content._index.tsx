import { type LoaderFunctionArgs } from 'react-router'
import { Link, useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { PageHeader } from '~/components/page-header'
import { contentLanguages, contentSlugs } from '~/domain/admin/admin'
import { listContentPages } from '~/domain/admin/content.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { useLanguage } from '~/i18n/use-language'
import { requireUser } from '~/utils/auth.server'
import { formatDateTime } from '~/utils/format'
import { routeMeta } from '~/utils/meta'

export async function loader({ request }: LoaderFunctionArgs) {
	await requireUser(request, { role: 'admin' })
	const t = getFixedT(await getLanguage(request), 'admin')
	return { meta: { title: t('content.title') }, pages: await listContentPages() }
}

export const meta = routeMeta<typeof loader>()

export default function AdminContentPage() {
	const { t } = useTranslation('admin')
	const language = useLanguage()
	const { pages } = useLoaderData<typeof loader>()
	return (
		<>
			<PageHeader title={t('content.title')} subtitle={t('content.subtitle')} />
			{/* Scrolls sideways on a phone: focusable, so a keyboard scrolls it too (axe: scrollable-region-focusable). */}
			{/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
			<div className="admin-table-wrap panel" tabIndex={0} role="region" aria-label={t('content.title')}>
				<table className="table">
					<thead>
						<tr>
							<th scope="col">{t('content.page')}</th>
							{contentLanguages.map((lang) => (
								<th scope="col" key={lang}>
									{t(`common:language.${lang}`)}
								</th>
							))}
						</tr>
					</thead>
					<tbody>
						{contentSlugs.map((slug) => (
							<tr key={slug}>
								<th scope="row">{t(`content.slugs.${slug}`)}</th>
								{contentLanguages.map((lang) => {
									const stored = pages.find((p) => p.slug === slug && p.language === lang)
									return (
										<td key={lang}>
											{/* The name starts with the visible text (WCAG 2.5.3); the hidden rest says which page and language. */}
											<Link to={`/admin/content/${slug}/${lang}`}>
												{stored ? stored.title : t('content.missing')}
												<span className="visually-hidden">
													{', '}
													{t('content.editIn', { page: t(`content.slugs.${slug}`), language: t(`common:language.${lang}`) })}
												</span>
											</Link>
											{stored ? <span className="admin-muted admin-audit__entity">{formatDateTime(stored.updatedAt, language)}</span> : null}
										</td>
									)
								})}
							</tr>
						))}
					</tbody>
				</table>
			</div>
		</>
	)
}
