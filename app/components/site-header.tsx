import { Link, NavLink, useRouteLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import type { SiteData } from '~/domain/site'
import { type RootLoaderData } from '~/root'
import { Brand } from './brand'
import { LanguageSelector } from './language-selector'
import { LogoutButton } from './logout-button'

export function SiteHeader({ site }: { site: SiteData }) {
	const { t } = useTranslation()
	const signedIn = Boolean(useRouteLoaderData<RootLoaderData>('root')?.user)
	return (
		<header className="site-header">
			<a href="#main" className="skip-link">
				{t('nav.skipToContent')}
			</a>
			<div className="container site-header__bar">
				<Brand site={site} />
				<nav className="site-nav" aria-label={t('nav.mainNavigation')}>
					<ul>
						<li>
							<NavLink to="/workshop-list">{t('nav.workshops')}</NavLink>
						</li>
						<li>
							<NavLink to="/about">{t('nav.about')}</NavLink>
						</li>
						<li>
							<NavLink to="/contact-us">{t('nav.contact')}</NavLink>
						</li>
						{/* On a phone the account links live in this scrolling row (see app.css). */}
						{signedIn ? (
							<li className="site-nav__account">
								<NavLink to="/dashboard" className="site-nav__cta">
									{t('nav.dashboard')}
								</NavLink>
							</li>
						) : (
							<>
								<li className="site-nav__account">
									<NavLink to="/login">{t('nav.login')}</NavLink>
								</li>
								<li className="site-nav__account">
									<NavLink to="/register" className="site-nav__cta">
										{t('nav.register')}
									</NavLink>
								</li>
							</>
						)}
					</ul>
				</nav>
				<div className="site-header__actions">
					<LanguageSelector />
					{signedIn ? (
						<>
							<LogoutButton />
							<Link to="/dashboard" className="button button--primary">
								{t('nav.dashboard')}
							</Link>
						</>
					) : (
						<>
							<Link to="/login" className="button button--ghost">
								{t('nav.login')}
							</Link>
							<Link to="/register" className="button button--primary">
								{t('nav.register')}
							</Link>
						</>
					)}
				</div>
			</div>
		</header>
	)
}
