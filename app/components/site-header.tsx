import { NavLink, useRouteLoaderData, useSearchParams } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { ButtonLink } from './button-link'
import type { SiteData } from '~/domain/site/site'
import { type RootLoaderData } from '~/root-data'
import { publicLinks } from '~/utils/menus'
import { REDIRECT_TO, withRedirectTo } from '~/utils/safe-redirect'
import { Brand } from './brand'
import { LanguageSelector } from './language-selector'
import { LogoutButton } from './logout-button'
import { PhoneMenu } from './phone-menu'

/** The first stop of the keyboard on every page: straight to the page's content. */
export function SkipLink() {
	const { t } = useTranslation()
	return (
		<a href="#main" className="skip-link">
			{t('nav.skipToContent')}
		</a>
	)
}

function PublicLinks() {
	const { t } = useTranslation()
	return (
		<nav className="site-nav" aria-label={t('nav.mainNavigation')}>
			<ul>
				{publicLinks
					.filter((link) => link.inHeader)
					.map((link) => (
						<li key={link.to}>
							<NavLink to={link.to}>{t(link.key)}</NavLink>
						</li>
					))}
			</ul>
		</nav>
	)
}

/**
 * The public header. Log in and Register (or the dashboard) stay in sight on every screen; on a
 * phone the other links, the languages and log out sit behind the menu button.
 */
export function SiteHeader({ site }: { site: SiteData }) {
	const { t } = useTranslation()
	const signedIn = Boolean(useRouteLoaderData<RootLoaderData>('root')?.user)
	// Sent home by the route guard, a visitor logs in and comes back to the page they asked for.
	const redirectTo = useSearchParams()[0].get(REDIRECT_TO)
	return (
		<header className="site-header">
			<SkipLink />
			<div className="container site-header__bar">
				<Brand site={site} />
				<div className="site-header__wide">
					<PublicLinks />
				</div>
				<div className="site-header__actions">
					<div className="site-header__wide">
						<LanguageSelector />
					</div>
					{signedIn ? (
						<>
							<div className="site-header__wide">
								<LogoutButton />
							</div>
							<ButtonLink to="/dashboard">{t('nav.dashboard')}</ButtonLink>
						</>
					) : (
						<>
							<ButtonLink to={withRedirectTo('/login', redirectTo)} kind="ghost">
								{t('nav.login')}
							</ButtonLink>
							<ButtonLink to={withRedirectTo('/register', redirectTo)}>{t('nav.register')}</ButtonLink>
						</>
					)}
					<PhoneMenu label={t('nav.menu')} className="site-header__phone-menu">
						<PublicLinks />
						<div className="phone-menu__tools">
							<LanguageSelector />
							{signedIn ? <LogoutButton /> : null}
						</div>
					</PhoneMenu>
				</div>
			</div>
		</header>
	)
}
