import { NavLink, useRouteLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { ButtonLink } from './button-link'
import type { SiteData } from '~/domain/site/site'
import { type RootLoaderData } from '~/root'
import { Brand } from './brand'
import { LanguageSelector } from './language-selector'
import { LogoutButton } from './logout-button'

/** The first stop of the keyboard on every page: straight to the page's content. */
export function SkipLink() {
	const { t } = useTranslation()
	return (
		<a href="#main" className="skip-link">
			{t('nav.skipToContent')}
		</a>
	)
}

export function SiteHeader({ site }: { site: SiteData }) {
	const { t } = useTranslation()
	const signedIn = Boolean(useRouteLoaderData<RootLoaderData>('root')?.user)
	return (
		<header className="site-header">
			<SkipLink />
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
							<ButtonLink to="/dashboard">{t('nav.dashboard')}</ButtonLink>
						</>
					) : (
						<>
							<ButtonLink to="/login" kind="ghost">{t('nav.login')}</ButtonLink>
							<ButtonLink to="/register">{t('nav.register')}</ButtonLink>
						</>
					)}
				</div>
			</div>
		</header>
	)
}
