import { type LinksFunction, type LoaderFunctionArgs } from 'react-router'
import { NavLink, Outlet } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import adminStyles from '~/styles/admin.css?url'
import { requireUser } from '~/utils/auth.server'
import { type AdsHandle } from '~/utils/ad-places'

/** The administration area (issue 10): its own menu over every admin page; the administrator only. */
export const links: LinksFunction = () => [{ rel: 'stylesheet', href: adminStyles }]

export async function loader({ request }: LoaderFunctionArgs) {
	await requireUser(request, { role: 'admin' })
	return null
}

const sections = [
	{ to: '/admin', key: 'nav.overview', end: true },
	{ to: '/admin/users', key: 'nav.users' },
	{ to: '/admin/messages', key: 'nav.messages' },
	{ to: '/admin/disputes', key: 'nav.disputes' },
	{ to: '/admin/reviews', key: 'nav.reviews' },
	{ to: '/admin/content', key: 'nav.content' },
	{ to: '/admin/settings', key: 'nav.settings' },
	{ to: '/admin/ads', key: 'nav.ads' },
	{ to: '/admin/packages', key: 'nav.packages' },
	{ to: '/admin/lists', key: 'nav.lists' },
	{ to: '/admin/partners', key: 'nav.partners' },
	{ to: '/admin/emails', key: 'nav.emails' },
	{ to: '/admin/audit', key: 'nav.audit' },
] as const

// The administration shows no ads (app/utils/ad-places.ts, decision 0129).
export const handle: AdsHandle = { ads: false }

export default function AdminLayout() {
	const { t } = useTranslation('admin')
	return (
		<div className="admin">
			<nav className="filter-tabs admin-nav" aria-label={t('nav.label')}>
				<ul>
					{sections.map((section) => (
						<li key={section.to}>
							<NavLink to={section.to} end={'end' in section ? section.end : false} aria-current="true">
								{t(section.key)}
							</NavLink>
						</li>
					))}
				</ul>
			</nav>
			<Outlet />
		</div>
	)
}
