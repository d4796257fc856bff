import { Link } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { breadcrumbList, type Crumb } from '~/utils/json-ld'
import { JsonLd } from './json-ld'

/** Where a directory page sits (home, workshops, a city, the workshop), visible and as a BreadcrumbList for search engines. */
export function Breadcrumbs({ trail }: { trail: Crumb[] }) {
	const { t } = useTranslation('public')
	return (
		<>
			<nav className="breadcrumbs" aria-label={t('breadcrumbs.label')}>
				<ol>
					{trail.map((crumb, index) =>
						index === trail.length - 1 ? (
							<li key={crumb.path} aria-current="page">
								{crumb.name}
							</li>
						) : (
							<li key={crumb.path}>
								<Link to={crumb.path}>{crumb.name}</Link>
							</li>
						),
					)}
				</ol>
			</nav>
			<JsonLd data={breadcrumbList(trail)} />
		</>
	)
}
