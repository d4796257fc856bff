import { Link } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { type SiteData } from '~/domain/site/site'
import { type Language } from '~/i18n/config'
import { publicLinks } from '~/utils/menus'
import { SiteAddress } from './site-address'

/** Links to the public pages and the side address block of spec §2. */
export function SiteFooter({ site, language }: { site: SiteData; language: Language }) {
	const { t } = useTranslation()
	return (
		<footer className="site-footer">
			<div className="container site-footer__grid">
				<section aria-labelledby="footer-about">
					<h2 id="footer-about" className="site-footer__brand">
						{site.appname}
					</h2>
					<p>{t('footer.tagline')}</p>
				</section>
				<nav aria-labelledby="footer-links">
					<h2 id="footer-links">{t('footer.links')}</h2>
					<ul>
						{publicLinks.map((link) => (
							<li key={link.to}>
								<Link to={link.to}>{t(link.key)}</Link>
							</li>
						))}
					</ul>
				</nav>
				<SiteAddress site={site} language={language} heading={t('footer.contact')} />
			</div>
			<div className="container site-footer__bottom">
				<p>{t('footer.rights', { year: new Date().getFullYear(), site: site.appname })}</p>
			</div>
		</footer>
	)
}
