import { type LoaderFunctionArgs } from 'react-router'
import { NavLink, Outlet, useLoaderData, useMatches, useRouteError, useRouteLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { AdSlot } from '~/components/ad-slot'
import { Brand } from '~/components/brand'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Icon } from '~/components/icon'
import { LanguageSelector } from '~/components/language-selector'
import { LogoutButton } from '~/components/logout-button'
import { NotificationBell } from '~/components/notification-bell'
import { PhoneMenu } from '~/components/phone-menu'
import { SiteAddress } from '~/components/site-address'
import { SkipLink } from '~/components/site-header'
import { type AdSlots } from '~/domain/site/ads'
import { loadAdSlots } from '~/domain/site/ads.server'
import { countUnread } from '~/domain/messaging/notifications.server'
import { countVisitInBackground } from '~/domain/site/visits.server'
import { fallbackLanguage } from '~/i18n/config'
import { type RootLoaderData } from '~/root-data'
import { getLanguage } from '~/i18n/i18n.server'
import { adsAllowed, type AdsHandle } from '~/utils/ad-places'
import { requireUser } from '~/utils/auth.server'
import { type MenuItem, menus } from '~/utils/menus'

/** The signed-in shell of spec §2: side menu per role, header with name, role, bell, language and log out. */
export async function loader({ request, context }: LoaderFunctionArgs) {
	const user = await requireUser(request)
	countVisitInBackground(request, context)
	const [unreadCount, ads] = await Promise.all([countUnread(user.id), loadAdSlots(await getLanguage(request))])
	return { unreadCount, ads }
}

/**
 * The signed-in pages may show ads, except those that say `ads: false`: the administration,
 * payment, settings and the forms of the four steps (app/utils/ad-places.ts).
 */
export const handle: AdsHandle = { ads: true }

function AccountMenu({ items }: { items: MenuItem[] }) {
	const { t } = useTranslation('account')
	return (
		<nav className="side-menu" aria-label={t('menu.label')}>
			<ul>
				{items.map((item) => (
					<li key={item.to}>
						{/* The menu names the section one is in ("true"); "page" is left to the page's own tabs. */}
						<NavLink to={item.to} prefetch="intent" aria-current="true">
							<Icon name={item.icon} />
							<span className="side-menu__label">{t(item.key)}</span>
						</NavLink>
					</li>
				))}
			</ul>
		</nav>
	)
}

function Shell({ children, unreadCount, ads }: { children: React.ReactNode; unreadCount: number; ads?: AdSlots }) {
	const { t } = useTranslation('account')
	const root = useRouteLoaderData<RootLoaderData>('root')
	const adsHere = adsAllowed(useMatches())
	if (!root?.user) return <main id="main">{children}</main>
	const { user, site } = root
	const language = root.language ?? fallbackLanguage
	const displayName = user.role === 'workshop' && user.workshopName ? user.workshopName : `${user.firstName} ${user.lastName}`
	return (
		<div className="shell">
			<SkipLink />
			<aside className="shell__side">
				<Brand site={site} size={36} className="shell__brand" />
				{/* Phones get the menu behind a button; wide screens the side menu. One shows at a time. */}
				<PhoneMenu label={t('common:nav.menu')} className="shell__phone-menu">
					<AccountMenu items={menus[user.role]} />
					<div className="phone-menu__tools">
						<LanguageSelector />
						<LogoutButton className="button button--ghost button--small" />
					</div>
				</PhoneMenu>
				<div className="shell__side-menu">
					<AccountMenu items={menus[user.role]} />
				</div>
				<SiteAddress site={site} language={language} className="shell__address" />
			</aside>
			<div className="shell__body">
				<header className="shell__header">
					<div className="shell__who">
						<span className="shell__name">{displayName}</span>
						<span className={`badge badge--role badge--role-${user.role}`}>{t(`auth:roles.${user.role}`)}</span>
					</div>
					<div className="shell__tools">
						<NotificationBell initialCount={unreadCount} />
						<div className="shell__wide-tools">
							<LanguageSelector />
							<LogoutButton className="button button--ghost button--small" />
						</div>
					</div>
				</header>
				{adsHere ? <AdSlot placement="Header" ads={ads?.header} /> : null}
				<main id="main" className="shell__main" tabIndex={-1}>
					{children}
				</main>
				{adsHere ? <AdSlot placement="Footer" ads={ads?.footer} /> : null}
				<footer className="shell__footer">
					<SiteAddress site={site} language={language} className="shell__footer-address" />
					<p>{t('common:footer.rights', { year: new Date().getFullYear(), site: site.appname })}</p>
				</footer>
			</div>
		</div>
	)
}

export default function SignedInLayout() {
	const { unreadCount, ads } = useLoaderData<typeof loader>()
	return (
		<Shell unreadCount={unreadCount} ads={ads}>
			<Outlet />
		</Shell>
	)
}

export function ErrorBoundary() {
	const error = useRouteError()
	return (
		<Shell unreadCount={0}>
			<GeneralErrorBoundary error={error} />
		</Shell>
	)
}
