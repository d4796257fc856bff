import { type LoaderFunctionArgs } from 'react-router'
import { Link, useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { ButtonLink } from '~/components/button-link'
import { PageHeader } from '~/components/page-header'
import { listAds } from '~/domain/admin/catalog.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { requireUser } from '~/utils/auth.server'
import { routeMeta } from '~/utils/meta'
import { encodeId } from '~/utils/public-id'

export async function loader({ request }: LoaderFunctionArgs) {
	await requireUser(request, { role: 'admin' })
	const t = getFixedT(await getLanguage(request), 'admin')
	const ads = await listAds()
	return { meta: { title: t('ads.title') }, ads: ads.map((ad) => ({ ...ad, slug: encodeId(ad.id) })) }
}

export const meta = routeMeta<typeof loader>()

export default function AdminAdsPage() {
	const { t } = useTranslation('admin')
	const { ads } = useLoaderData<typeof loader>()
	return (
		<>
			<PageHeader
				title={t('ads.title')}
				subtitle={t('ads.subtitle')}
				actions={
					<ButtonLink to="/admin/ads/new" size="small">{t('ads.add')}</ButtonLink>
				}
			/>
			{ads.length ? (
				// Scrolls sideways on a phone: focusable, so a keyboard scrolls it too (axe: scrollable-region-focusable).
				// eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
				<div className="admin-table-wrap panel" tabIndex={0} role="region" aria-label={t('ads.title')}>
					<table className="table">
						<thead>
							<tr>
								<th scope="col">{t('ads.ad')}</th>
								<th scope="col">{t('ads.placement')}</th>
								<th scope="col">{t('ads.language')}</th>
								<th scope="col">{t('ads.type')}</th>
								<th scope="col">{t('ads.state')}</th>
								<th scope="col">{t('ads.sortOrder')}</th>
							</tr>
						</thead>
						<tbody>
							{ads.map((ad) => (
								<tr key={ad.id}>
									<td>
										{ad.image ? <img src={ad.image} alt="" className="admin-preview" /> : null}
										<Link to={`/admin/ads/${ad.slug}`} className="admin-audit__action">
											{t('ads.edit')}
										</Link>
										{ad.adsType === 'html' ? <span className="admin-muted admin-audit__entity">{ad.content.slice(0, 120)}</span> : null}
										{ad.adsLink ? <span className="admin-muted admin-audit__entity">{ad.adsLink}</span> : null}
									</td>
									<td>{t(`ads.placements.${ad.placement}`)}</td>
									<td lang={ad.language}>{t(`common:language.${ad.language}`)}</td>
									<td>{t(`ads.types.${ad.adsType}`)}</td>
									<td>{ad.active ? t('ads.active') : <span className="badge admin-badge--inactive">{t('ads.inactive')}</span>}</td>
									<td className="table__number">{ad.sortOrder}</td>
								</tr>
							))}
						</tbody>
					</table>
				</div>
			) : (
				<p className="empty">{t('common:empty.noData')}</p>
			)}
		</>
	)
}
